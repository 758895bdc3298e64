import { createHash } from "node:crypto";
import type { TenantDb } from "../db/tenant-pool.ts";
import { ApiError } from "./errors.ts";

// DESIGN §6: a write sent again with the same `Idempotency-Key` by the same caller within 24 h gets
// the stored response (`Idempotent-Replayed: true`); the same key with another request is a 409.
// Only successful responses are stored, in the same transaction as the write, so a failed attempt
// can be retried with its key.

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const SWEEP_EVERY_MS = 3600 * 1000;
const lastSweep = new WeakMap<TenantDb, number>();

export interface StoredResponse {
  status: number;
  body: string | null;
}

/** The `Idempotency-Key` header, validated; undefined when absent. */
export function idempotencyKey(request: Request): string | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!KEY.test(key)) {
    throw new ApiError("VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters", [
      { path: "/headers/idempotency-key", message: "1 to 255 visible ASCII characters" },
    ]);
  }
  return key;
}

export function requestHash(request: Request, bodyText: string): string {
  const url = new URL(request.url);
  return createHash("sha256")
    .update(`${request.method} ${url.pathname}${url.search}\n${bodyText}`)
    .digest("hex");
}

/** The stored response for this caller and key, or a 409 when the key was used for another request. */
export function findStored(
  tenant: TenantDb,
  caller: string,
  key: string,
  hash: string,
): StoredResponse | undefined {
  const row = tenant.sqlite
    .query(
      "SELECT request_hash, status, body FROM idempotency_records WHERE caller = ? AND key = ? AND created_at > ?",
    )
    .get(caller, key, Date.now() - IDEMPOTENCY_WINDOW_MS) as {
    request_hash: string;
    status: number;
    body: string | null;
  } | null;
  if (!row) return undefined;
  if (row.request_hash !== hash) {
    throw new ApiError(
      "IDEMPOTENCY_CONFLICT",
      "This Idempotency-Key was already used with a different request",
    );
  }
  return { status: row.status, body: row.body };
}

/** Records a response; call inside the write's transaction. */
export function store(
  tenant: TenantDb,
  caller: string,
  key: string,
  hash: string,
  response: StoredResponse,
): void {
  const now = Date.now();
  if (now - (lastSweep.get(tenant) ?? 0) > SWEEP_EVERY_MS) {
    lastSweep.set(tenant, now);
    tenant.sqlite
      .query("DELETE FROM idempotency_records WHERE created_at <= ?")
      .run(now - IDEMPOTENCY_WINDOW_MS);
  }
  tenant.sqlite
    .query(
      `INSERT INTO idempotency_records (caller, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (caller, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
         body = excluded.body, created_at = excluded.created_at`,
    )
    .run(caller, key, hash, response.status, response.body, now);
}
