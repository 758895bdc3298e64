import { createHash } from "node:crypto";
import type { TenantDb } from "../db/tenant-pool.ts";
import { canonicalJson } from "../lib/json.ts";
import { ApiError } from "./errors.ts";
import type { CookieToSet } from "./operation.ts";

// A write sent again with the same `Idempotency-Key` in the same scope within 24 h gets the stored
// answer (`Idempotent-Replayed: true`); the same key with another input is a 409. Only successful
// answers are stored, in the same transaction as the write, so a failed attempt can be retried with
// its key. Scopes are chosen by the executor (see `idempotencyScope` there).

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const SWEEP_EVERY_MS = 3600 * 1000;
const lastSweep = new WeakMap<TenantDb, number>();

export interface IdempotencyRecord {
  scope: string;
  key: string;
  /** SHA-256 of the operation and its input. */
  hash: string;
}

export interface StoredAnswer {
  status: number;
  body: string | null;
  cookies: CookieToSet[];
  location?: string;
}

/** The client's key, validated; undefined when none was sent. */
export function validIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY.test(key)) {
    throw new ApiError("VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters", [
      { path: "/headers/idempotency-key", message: "1 to 255 visible ASCII characters" },
    ]);
  }
  return key;
}

/** The same operation with the same input, whichever transport carried it. */
export function idempotencyHash(operationId: string, input: Record<string, unknown>): string {
  return createHash("sha256")
    .update(`${operationId}\n${canonicalJson(input)}`)
    .digest("hex");
}

/** The stored answer for this scope and key, or a 409 when the key was used for another call. */
export function findStored(tenant: TenantDb, record: IdempotencyRecord): StoredAnswer | undefined {
  const row = tenant.sqlite
    .query(
      "SELECT request_hash, status, body, effects FROM idempotency_records WHERE caller = ? AND key = ? AND created_at > ?",
    )
    .get(record.scope, record.key, Date.now() - IDEMPOTENCY_WINDOW_MS) as {
    request_hash: string;
    status: number;
    body: string | null;
    effects: string | null;
  } | null;
  if (!row) return undefined;
  if (row.request_hash !== record.hash) {
    throw new ApiError(
      "IDEMPOTENCY_CONFLICT",
      "This Idempotency-Key was already used with a different request",
    );
  }
  const effects: Partial<StoredAnswer> = row.effects ? JSON.parse(row.effects) : {};
  return { status: row.status, body: row.body, cookies: effects.cookies ?? [], location: effects.location };
}

/** Records an answer; call inside the write's transaction. */
export function store(tenant: TenantDb, record: IdempotencyRecord, answer: StoredAnswer): void {
  const now = Date.now();
  if (now - (lastSweep.get(tenant) ?? 0) > SWEEP_EVERY_MS) {
    lastSweep.set(tenant, now);
    tenant.sqlite
      .query("DELETE FROM idempotency_records WHERE created_at <= ?")
      .run(now - IDEMPOTENCY_WINDOW_MS);
  }
  const effects =
    answer.cookies.length > 0 || answer.location
      ? JSON.stringify({ cookies: answer.cookies, location: answer.location })
      : null;
  tenant.sqlite
    .query(
      `INSERT INTO idempotency_records (caller, key, request_hash, status, body, effects, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (caller, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
         body = excluded.body, effects = excluded.effects, created_at = excluded.created_at`,
    )
    .run(record.scope, record.key, record.hash, answer.status, answer.body, effects, now);
}

/** The answer after work that ran past the commit (see `Operation.reload`). */
export function replaceStoredBody(tenant: TenantDb, record: IdempotencyRecord, body: string): void {
  tenant.sqlite
    .query("UPDATE idempotency_records SET body = ? WHERE caller = ? AND key = ?")
    .run(body, record.scope, record.key);
}
