import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { isoOrNull } from "../lib/time.ts";
import { decryptSecret, encryptSecret, IntegrationDecryptError, keyringOf } from "./crypto.ts";
import type { Credentials, Fields, Task } from "./fields.ts";
import { type ConfigRow, configRow } from "./integration-rows.ts";
import { allProviders, providerOf } from "./registry.ts";
import type { CredentialSource, Provider } from "./tables.ts";

// Per-tenant provider settings and which credentials apply:
// - org `_`, or a tenant without a row for the provider: the environment set;
// - a tenant with a row (enabled or not): the row's values only, never mixed with the environment.
// An environment set counts only when every variable the task needs is set. A row that fails to
// decrypt is an error (500, logged as INTEGRATION_DECRYPT_FAILED), never a reason to fall back.

export const isProvider = (value: string): value is Provider =>
  allProviders().some((provider) => provider.name === value);

/** The environment's values for a provider (non-secret defaults included); unset variables absent. */
function environmentFields(ctx: AppContext, provider: Provider): Fields {
  const fields: Fields = {};
  for (const spec of providerOf(provider).fields) {
    const value = spec.env && ctx.config.payments.credentials[spec.env];
    if (value !== undefined) fields[spec.name] = value;
    else if (spec.fallback !== undefined) fields[spec.name] = spec.fallback;
  }
  return fields;
}

/** A row's settings and decrypted secrets, defaults filled in. Throws IntegrationDecryptError. */
export function rowFields(ctx: AppContext, orgId: string, row: ConfigRow): Fields {
  const fields: Fields = {};
  const settings = parseJsonOrNull<Fields>(row.settings) ?? {};
  const secrets = parseJsonOrNull<Record<string, string>>(row.secrets) ?? {};
  const ring = keyringOf(ctx);
  for (const spec of providerOf(row.provider).fields) {
    if (spec.secret) {
      const stored = secrets[spec.name];
      if (stored !== undefined)
        fields[spec.name] = decryptSecret(ring, { orgId, provider: row.provider, field: spec.name }, stored);
    } else if (settings[spec.name] !== undefined) fields[spec.name] = settings[spec.name]!;
    else if (spec.fallback !== undefined) fields[spec.name] = spec.fallback;
  }
  return fields;
}

const hasAll = (fields: Fields, names: readonly string[]) =>
  names.every((name) => fields[name] !== undefined);

function notConfigured(provider: Provider, task: Task): ApiError {
  return new ApiError("PROVIDER_NOT_CONFIGURED", `No usable ${provider} credentials for ${task}`);
}

/**
 * The credentials for a task: the tenant's row when it has one, else the environment set. `tenant`
 * is null for org `_`. Throws 503 PROVIDER_NOT_CONFIGURED, or 500 INTERNAL when the row does not
 * decrypt (logged with org and provider, never the value).
 */
export function resolveCredentials(
  ctx: AppContext,
  tenant: TenantDb | null,
  provider: Provider,
  task: Task,
): Credentials {
  const needed = providerOf(provider).needs[task] ?? [];
  const row = tenant && configRow(tenant, provider);
  if (tenant && row) {
    let fields: Fields;
    try {
      fields = rowFields(ctx, tenant.orgId, row);
    } catch (error) {
      if (!(error instanceof IntegrationDecryptError)) throw error;
      ctx.log.error("INTEGRATION_DECRYPT_FAILED", { org: tenant.orgId, provider, field: error.field });
      throw new ApiError("INTERNAL", "Internal error");
    }
    if (!hasAll(fields, needed)) throw notConfigured(provider, task);
    return { source: "tenant", fields };
  }
  const fields = environmentFields(ctx, provider);
  if (!hasAll(fields, needed)) throw notConfigured(provider, task);
  return { source: "environment", fields };
}

/**
 * Which credentials would serve a task, without decrypting anything (for listing payment methods):
 * a row's secrets are counted as set when a ciphertext is stored. Null when none would, or when the
 * tenant's row is disabled.
 */
export function offerableSource(
  ctx: AppContext,
  tenant: TenantDb,
  provider: Provider,
  task: Task,
): CredentialSource | null {
  const needed = providerOf(provider).needs[task] ?? [];
  const row = configRow(tenant, provider);
  if (row) {
    if (!row.enabled) return null;
    const present = {
      ...(parseJsonOrNull<Fields>(row.settings) ?? {}),
      ...(parseJsonOrNull<Record<string, string>>(row.secrets) ?? {}),
    };
    return hasAll(present, needed) ? "tenant" : null;
  }
  return hasAll(environmentFields(ctx, provider), needed) ? "environment" : null;
}

// ---------------------------------------------------------------- the admin view

type SecretView = { set: true; last4: string | null } | { set: false };

interface IntegrationEntry {
  provider: Provider;
  source: "tenant" | "environment" | "none";
  enabled: boolean;
  settings: Fields;
  secrets: Record<string, SecretView>;
  webhookUrl: string;
  updatedAt: string | null;
}

const webhookUrl = (ctx: AppContext, provider: Provider, orgId: string) =>
  `${ctx.config.checkoutUrl}/api/webhooks/${provider}/${orgId}`;

const last4 = (value: string) => value.slice(-4);

/** The entry the admin routes show: secrets only as set/unset with their last four characters. */
export function integrationEntry(ctx: AppContext, tenant: TenantDb, provider: Provider): IntegrationEntry {
  const row = configRow(tenant, provider);
  const specs = providerOf(provider).fields;
  const base = { provider, webhookUrl: webhookUrl(ctx, provider, tenant.orgId) };
  if (row) {
    const settings = parseJsonOrNull<Fields>(row.settings) ?? {};
    const stored = parseJsonOrNull<Record<string, string>>(row.secrets) ?? {};
    const secrets: Record<string, SecretView> = {};
    for (const spec of specs.filter((s) => s.secret)) {
      const cipher = stored[spec.name];
      if (cipher === undefined) {
        secrets[spec.name] = { set: false };
        continue;
      }
      let shown: string | null = null;
      try {
        shown = last4(
          decryptSecret(keyringOf(ctx), { orgId: tenant.orgId, provider, field: spec.name }, cipher),
        );
      } catch (error) {
        if (!(error instanceof IntegrationDecryptError)) throw error;
        ctx.log.error("INTEGRATION_DECRYPT_FAILED", { org: tenant.orgId, provider, field: spec.name });
      }
      secrets[spec.name] = { set: true, last4: shown };
    }
    const withDefaults: Fields = {};
    for (const spec of specs.filter((s) => !s.secret)) {
      const value = settings[spec.name] ?? spec.fallback;
      if (value !== undefined) withDefaults[spec.name] = value;
    }
    return {
      ...base,
      source: "tenant",
      enabled: row.enabled === 1,
      settings: withDefaults,
      secrets,
      updatedAt: isoOrNull(row.updated_at),
    };
  }
  const env = environmentFields(ctx, provider);
  const anyEnv = specs.some((spec) => spec.env && ctx.config.payments.credentials[spec.env] !== undefined);
  const settings: Fields = {};
  const secrets: Record<string, SecretView> = {};
  for (const spec of specs) {
    const value = anyEnv ? env[spec.name] : undefined;
    if (spec.secret)
      secrets[spec.name] = value === undefined ? { set: false } : { set: true, last4: last4(String(value)) };
    else if (value !== undefined) settings[spec.name] = value;
  }
  return {
    ...base,
    source: anyEnv ? "environment" : "none",
    enabled: true,
    settings,
    secrets,
    updatedAt: null,
  };
}

// ---------------------------------------------------------------- changes

interface PutIntegrationInput {
  enabled?: boolean;
  fields: Record<string, unknown>;
}

const invalid = (details: { path: string; message: string }[]) =>
  new ApiError(
    "VALIDATION_ERROR",
    `Invalid integration settings: ${details.map((d) => `${d.path} ${d.message}`).join("; ")}`,
    details,
  );

/** Refuses (400) unknown fields, rule violations and `null` for a field that is not a secret. */
export function checkFields(provider: Provider, fields: Record<string, unknown>): void {
  const specs = new Map(providerOf(provider).fields.map((spec) => [spec.name, spec]));
  const problems: { path: string; message: string }[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const spec = specs.get(name);
    if (!spec) problems.push({ path: `/body/fields/${name}`, message: "is not a field of this provider" });
    else if (value === null) {
      if (!spec.secret)
        problems.push({ path: `/body/fields/${name}`, message: "only secrets are cleared with null" });
    } else {
      const why = spec.check(value);
      if (why) problems.push({ path: `/body/fields/${name}`, message: why });
    }
  }
  if (problems.length > 0) throw invalid(problems);
}

/**
 * Creates or replaces a provider's row. Secrets: a string sets, null clears, omission keeps.
 * Non-secret fields are replaced as given. Refuses unknown fields, rule violations and Stripe keys
 * of different modes, storing nothing. Returns whether the row was created.
 */
export function putIntegration(
  ctx: AppContext,
  tenant: TenantDb,
  provider: Provider,
  input: PutIntegrationInput,
  updatedBy: string,
  at = Date.now(),
): { created: boolean } {
  checkFields(provider, input.fields);
  const specs = new Map(providerOf(provider).fields.map((spec) => [spec.name, spec]));

  const row = configRow(tenant, provider);
  const ring = keyringOf(ctx);
  const stored = row ? (parseJsonOrNull<Record<string, string>>(row.secrets) ?? {}) : {};
  const secrets: Record<string, string> = {};
  const settings: Fields = {};
  for (const spec of specs.values()) {
    const given = input.fields[spec.name];
    if (spec.secret) {
      if (typeof given === "string")
        secrets[spec.name] = encryptSecret(ring, { orgId: tenant.orgId, provider, field: spec.name }, given);
      else if (given === undefined && stored[spec.name] !== undefined)
        secrets[spec.name] = stored[spec.name]!;
    } else if (given !== undefined && given !== null) settings[spec.name] = given as string | number;
  }

  // The provider's rule across fields, on the values as they will be kept (a kept secret decrypted).
  const kept = (field: string) =>
    typeof input.fields[field] === "string"
      ? (input.fields[field] as string)
      : secrets[field] !== undefined
        ? decryptSecret(ring, { orgId: tenant.orgId, provider, field }, secrets[field])
        : settings[field];
  const broken = providerOf(provider).checkSettings?.(kept);
  if (broken) throw invalid([{ path: `/body/fields/${broken.field}`, message: broken.message }]);

  const enabled = input.enabled ?? (row ? row.enabled === 1 : true);
  tenant.sqlite
    .query(
      `INSERT INTO integration_configs (provider, enabled, settings, secrets, created_at, updated_at, updated_by)
       VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)
       ON CONFLICT (provider) DO UPDATE SET enabled = ?2, settings = ?3, secrets = ?4, updated_at = ?5, updated_by = ?6`,
    )
    .run(provider, enabled ? 1 : 0, JSON.stringify(settings), JSON.stringify(secrets), at, updatedBy);
  return { created: row === null };
}

/** Deletes the row: the tenant goes back to the environment set. False when there was none. */
export function deleteIntegration(tenant: TenantDb, provider: Provider): boolean {
  return (
    tenant.sqlite.query("DELETE FROM integration_configs WHERE provider = ?").run(provider).changes === 1
  );
}

/** Re-encrypts every stored secret of the tenant under the current key; returns the counts. */
export function rekeyTenant(ctx: AppContext, tenant: TenantDb): { values: number; rekeyed: number } {
  const ring = keyringOf(ctx);
  let values = 0;
  let rekeyed = 0;
  const rows = tenant.sqlite.query("SELECT * FROM integration_configs").all() as ConfigRow[];
  for (const row of rows) {
    const secrets = parseJsonOrNull<Record<string, string>>(row.secrets) ?? {};
    const next: Record<string, string> = {};
    for (const [field, cipher] of Object.entries(secrets)) {
      values++;
      const where = { orgId: tenant.orgId, provider: row.provider, field };
      if (cipher.startsWith(`v1.${ring.current.kid}.`)) next[field] = cipher;
      else {
        next[field] = encryptSecret(ring, where, decryptSecret(ring, where, cipher));
        rekeyed++;
      }
    }
    tenant.sqlite
      .query("UPDATE integration_configs SET secrets = ? WHERE provider = ?")
      .run(JSON.stringify(next), row.provider);
  }
  return { values, rekeyed };
}
