import { randomBytes } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { ApiError, notFound } from "../core/errors.ts";
import { instanceKeyring, type KeyPurpose, seal, unseal } from "../core/keyring.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import type { acpPlatforms } from "./tables.ts";

// The agent platforms a shop lets check out through ACP (docs/acp.md). The merchant adds one, gives
// it the bearer token and the signing secret shown once, and pastes its order webhook URL. The
// token is kept as its SHA-256 only; the secret is sealed with the instance key, bound to the
// organization and the platform, since the shop signs with it (the receiver must hold it too).

export type PlatformRow = Row<typeof acpPlatforms>;

/** At most this many platforms per shop. */
export const MAX_PLATFORMS = 20;

const SECRETS: KeyPurpose = { salt: "commerce-service/acp-signing-secrets", info: "aes-256-gcm v1" };

const boundTo = (tenant: TenantDb, id: string) => `${tenant.orgId}:acp-platform:${id}`;

export function platformView(row: PlatformRow) {
  return {
    id: row.id,
    name: row.name,
    tokenHint: row.token_hint,
    webhookUrl: row.webhook_url,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function findPlatform(tenant: TenantDb, id: string): PlatformRow | null {
  return tenant.sqlite.query("SELECT * FROM acp_platforms WHERE id = ?").get(id) as PlatformRow | null;
}

function getPlatform(tenant: TenantDb, id: string): PlatformRow {
  const row = findPlatform(tenant, id);
  if (!row) throw notFound("ACP platform");
  return row;
}

/**
 * The platform a bearer token stands for in this shop, or null. Looked up by the token's SHA-256 (as
 * API keys are): the index compares hashes, which tell a guesser nothing about any token.
 */
export const platformOfToken = (tenant: TenantDb, token: string): PlatformRow | null =>
  tenant.sqlite
    .query("SELECT * FROM acp_platforms WHERE token_hash = ?")
    .get(sha256Hex(token)) as PlatformRow | null;

/** The `Merchant-Signature` secret of a platform, in clear. */
export const signingSecretOf = (ctx: AppContext, tenant: TenantDb, row: PlatformRow): string =>
  unseal(instanceKeyring(ctx, SECRETS), boundTo(tenant, row.id), row.signing_secret);

export function listPlatforms(tenant: TenantDb) {
  const rows = tenant.sqlite
    .query("SELECT * FROM acp_platforms ORDER BY created_at DESC, id DESC")
    .all() as PlatformRow[];
  return rows.map(platformView);
}

const newToken = () => `acp_${randomBase62(40)}`;

export function createPlatform(
  ctx: AppContext,
  tenant: TenantDb,
  input: { name: string; webhookUrl?: string | null },
) {
  const { count } = tenant.sqlite.query("SELECT count(*) AS count FROM acp_platforms").get() as {
    count: number;
  };
  if (count >= MAX_PLATFORMS) {
    throw new ApiError("UNPROCESSABLE", `A shop lets at most ${MAX_PLATFORMS} ACP platforms check out`);
  }
  const id = newId("acpp");
  const token = newToken();
  const signingSecret = randomBytes(32).toString("hex");
  const now = Date.now();
  tenant.sqlite
    .query(
      `INSERT INTO acp_platforms (id, name, token_hash, token_hint, webhook_url, signing_secret, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      input.name,
      sha256Hex(token),
      token.slice(-4),
      input.webhookUrl ?? null,
      seal(instanceKeyring(ctx, SECRETS), boundTo(tenant, id), signingSecret),
      now,
      now,
    );
  return { ...platformView(getPlatform(tenant, id)), token, signingSecret };
}

export function updatePlatform(
  tenant: TenantDb,
  id: string,
  input: { name?: string; webhookUrl?: string | null },
) {
  const row = getPlatform(tenant, id);
  tenant.sqlite
    .query("UPDATE acp_platforms SET name = ?, webhook_url = ?, updated_at = ? WHERE id = ?")
    .run(
      input.name ?? row.name,
      input.webhookUrl === undefined ? row.webhook_url : input.webhookUrl,
      Date.now(),
      id,
    );
  return platformView(getPlatform(tenant, id));
}

/** A new bearer token: the old one is refused from now on. */
export function rotatePlatformToken(tenant: TenantDb, id: string) {
  getPlatform(tenant, id);
  const token = newToken();
  tenant.sqlite
    .query("UPDATE acp_platforms SET token_hash = ?, token_hint = ?, updated_at = ? WHERE id = ?")
    .run(sha256Hex(token), token.slice(-4), Date.now(), id);
  return { ...platformView(getPlatform(tenant, id)), token };
}

/** The platform can no longer call; its sessions stay (their orders are the shop's). */
export function deletePlatform(tenant: TenantDb, id: string): void {
  getPlatform(tenant, id);
  tenant.sqlite.query("DELETE FROM acp_platforms WHERE id = ?").run(id);
}
