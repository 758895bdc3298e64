import type { AppContext } from "../app-context.ts";
import { ApiError, notFound } from "../core/errors.ts";
import { instanceKeyring, type KeyPurpose, seal, unseal } from "../core/keyring.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import { type EventSelector, MAX_ENDPOINTS } from "./schema.ts";
import { newSigningSecret } from "./signing.ts";

// The shop's webhook endpoints. Signing secrets are sealed with the instance key under their own
// derived key, bound to the organization and the endpoint, so the tenant file (or a backup of it)
// never holds one readable. A rotation keeps the replaced secret signing for ROTATION_OVERLAP_MS.

const WEBHOOK_SECRETS: KeyPurpose = { salt: "commerce-service/webhook-secrets", info: "aes-256-gcm v1" };

/** How long a replaced secret keeps signing, so receivers can switch to the new one meanwhile. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface EndpointRow {
  id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: number;
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

const boundTo = (tenant: TenantDb, endpointId: string) => `${tenant.orgId}:webhook-endpoint:${endpointId}`;

const sealSecret = (ctx: AppContext, tenant: TenantDb, endpointId: string, secret: string) =>
  seal(instanceKeyring(ctx, WEBHOOK_SECRETS), boundTo(tenant, endpointId), secret);

/** The secrets that sign now: the current one, and the previous one until its rotation ends. */
export function signingSecrets(
  ctx: AppContext,
  tenant: TenantDb,
  row: EndpointRow,
  now = Date.now(),
): string[] {
  const ring = instanceKeyring(ctx, WEBHOOK_SECRETS);
  const secrets = [unseal(ring, boundTo(tenant, row.id), row.secret)];
  if (row.previous_secret && (row.previous_secret_expires_at ?? 0) > now) {
    secrets.push(unseal(ring, boundTo(tenant, row.id), row.previous_secret));
  }
  return secrets;
}

export function endpointView(row: EndpointRow, now = Date.now()) {
  const rotating = row.previous_secret !== null && (row.previous_secret_expires_at ?? 0) > now;
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventSelector[],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    failingSince: isoOrNull(row.failing_since),
    previousSecretExpiresAt: rotating ? iso(row.previous_secret_expires_at!) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function findEndpoint(tenant: TenantDb, id: string): EndpointRow | null {
  return tenant.sqlite.query("SELECT * FROM webhook_endpoints WHERE id = ?").get(id) as EndpointRow | null;
}

export function getEndpoint(tenant: TenantDb, id: string): EndpointRow {
  const row = findEndpoint(tenant, id);
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export function listEndpoints(tenant: TenantDb, page: { page: number; limit: number }) {
  const rows = tenant.sqlite
    .query("SELECT * FROM webhook_endpoints ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
    .all(page.limit, (page.page - 1) * page.limit) as EndpointRow[];
  const { total } = tenant.sqlite.query("SELECT count(*) AS total FROM webhook_endpoints").get() as {
    total: number;
  };
  return { items: rows.map((row) => endpointView(row)), total };
}

/** `["*"]` stands alone: with other types it would say two things at once. */
function checkEvents(events: readonly string[] | undefined): void {
  if (events && events.length > 1 && events.includes("*")) {
    const message = 'is either ["*"] or a list of event types';
    throw new ApiError("UNPROCESSABLE", `events ${message}`, [{ path: "/body/events", message }]);
  }
}

export function createEndpoint(
  ctx: AppContext,
  tenant: TenantDb,
  input: { url: string; events: string[]; description?: string },
) {
  checkEvents(input.events);
  const { count } = tenant.sqlite.query("SELECT count(*) AS count FROM webhook_endpoints").get() as {
    count: number;
  };
  if (count >= MAX_ENDPOINTS) {
    throw new ApiError("UNPROCESSABLE", `A shop has at most ${MAX_ENDPOINTS} webhook endpoints`);
  }
  const id = newId("we");
  const secret = newSigningSecret();
  const now = Date.now();
  tenant.sqlite
    .query(
      `INSERT INTO webhook_endpoints (id, url, events, description, secret, enabled, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
    )
    .run(
      id,
      input.url,
      JSON.stringify(input.events),
      input.description ?? null,
      sealSecret(ctx, tenant, id, secret),
      now,
      now,
    );
  return { ...endpointView(getEndpoint(tenant, id)), secret };
}

export function updateEndpoint(
  tenant: TenantDb,
  id: string,
  input: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
) {
  const row = getEndpoint(tenant, id);
  checkEvents(input.events);
  // Re-enabling starts afresh: the reason and the failure streak are about the disabled period.
  const reenabled = input.enabled === true && row.enabled === 0;
  const enabled = input.enabled ?? row.enabled === 1;
  tenant.sqlite
    .query(
      `UPDATE webhook_endpoints SET url = ?, events = ?, description = ?, enabled = ?, disabled_reason = ?,
          failing_since = ?, updated_at = ? WHERE id = ?`,
    )
    .run(
      input.url ?? row.url,
      input.events ? JSON.stringify(input.events) : row.events,
      input.description === undefined ? row.description : input.description,
      enabled ? 1 : 0,
      enabled ? null : (row.disabled_reason ?? "disabled by the merchant"),
      reenabled ? null : row.failing_since,
      Date.now(),
      id,
    );
  return endpointView(getEndpoint(tenant, id));
}

/** Deletes the endpoint and its deliveries; attempts still queued for them find nothing and stop. */
export function deleteEndpoint(tenant: TenantDb, id: string): void {
  getEndpoint(tenant, id);
  tenant.sqlite.query("DELETE FROM webhook_deliveries WHERE endpoint_id = ?").run(id);
  tenant.sqlite.query("DELETE FROM webhook_endpoints WHERE id = ?").run(id);
}

/** A new secret; the current one keeps signing beside it for ROTATION_OVERLAP_MS. */
export function rotateSecret(ctx: AppContext, tenant: TenantDb, id: string) {
  const row = getEndpoint(tenant, id);
  const secret = newSigningSecret();
  const now = Date.now();
  tenant.sqlite
    .query(
      `UPDATE webhook_endpoints SET secret = ?, previous_secret = ?, previous_secret_expires_at = ?,
          updated_at = ? WHERE id = ?`,
    )
    .run(sealSecret(ctx, tenant, id, secret), row.secret, now + ROTATION_OVERLAP_MS, now, id);
  return { ...endpointView(getEndpoint(tenant, id)), secret };
}

/** Stops sending to an endpoint, saying why (the merchant re-enables it). */
export function disableEndpoint(tenant: TenantDb, id: string, reason: string, now = Date.now()): void {
  tenant.sqlite
    .query("UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ?")
    .run(reason, now, id);
}
