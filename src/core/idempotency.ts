import { createHash } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { canonicalJson } from "../lib/json.ts";
import { ApiError } from "./errors.ts";
import { tidyNowAndThen } from "./housekeeping.ts";
import { instanceKeyring, type KeyPurpose, seal, UnsealError, unseal } from "./keyring.ts";
import type { CookieToSet } from "./operation.ts";

// A write sent again with the same `Idempotency-Key` in the same scope within 24 h gets the stored
// answer (`Idempotent-Replayed: true`); the same key with another input is a 409. Only successful
// answers are stored, in the same transaction as the write, so a failed attempt can be retried with
// its key. Scopes are chosen by the executor (see `idempotencyScope` there).
//
// The answer of an operation declared `answerHoldsSecret` (a session token, an order's access
// token, a session cookie) is sealed with the instance key (src/core/keyring.ts): its body, its
// cookies and `Location`, and the request hash too, since a plain SHA-256 of a sign-in's input is a
// fast test of guesses at its password. The row keeps only the status in clear, and `sealed` in
// place of the hash. The additional data names the organization, scope and key, so a row copied
// into another file, scope or key does not open. A sealed row that no longer opens (the key that
// sealed it is gone) is a 409: the call it answers did run, and running it again is not safe.
//
// A record is appended to its table and its scope and key inserted into the primary key's index,
// nothing more: the hourly sweep scans rather than have every record pay for an index on
// `created_at`. The body is kept as the answer's text (docs/orders.md, "Idempotency", says why
// neither `WITHOUT ROWID` nor a deflated body made it cheaper).

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const SWEEP_EVERY_MS = 3600 * 1000;

export interface IdempotencyRecord {
  scope: string;
  key: string;
  /** SHA-256 of the operation and its input. */
  hash: string;
  /** The answer carries a bearer secret: the row is sealed. */
  sealed: boolean;
}

const SEALED = "sealed";
const ANSWERS: KeyPurpose = { salt: "commerce-service/idempotency", info: "answers aes-256-gcm v1" };

/** What a sealed row holds, besides its status. */
interface SealedAnswer {
  hash: string;
  body: string | null;
  cookies: CookieToSet[];
  location?: string;
}

const boundTo = (tenant: TenantDb, record: IdempotencyRecord) =>
  JSON.stringify(["idempotency", tenant.orgId, record.scope, record.key]);

const conflict = () =>
  new ApiError("IDEMPOTENCY_CONFLICT", "This Idempotency-Key was already used with a different request");

interface StoredAnswer {
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
export function idempotencyHash(
  operationId: string,
  input: Record<string, unknown>,
  fileSha256?: string,
): string {
  // An uploaded file is part of the request: the same key with another file is another call.
  const file = fileSha256 === undefined ? "" : `\n${fileSha256}`;
  return createHash("sha256")
    .update(`${operationId}\n${canonicalJson(input)}${file}`)
    .digest("hex");
}

/** The stored answer for this scope and key, or a 409 when the key was used for another call. */
export function findStored(
  ctx: AppContext,
  tenant: TenantDb,
  record: IdempotencyRecord,
): StoredAnswer | undefined {
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
  if (row.request_hash === SEALED) {
    const answer = opened(ctx, tenant, record, row.body ?? "");
    if (answer.hash !== record.hash) throw conflict();
    return { status: row.status, body: answer.body, cookies: answer.cookies, location: answer.location };
  }
  if (row.request_hash !== record.hash) throw conflict();
  const effects: Partial<StoredAnswer> = row.effects ? JSON.parse(row.effects) : {};
  return { status: row.status, body: row.body, cookies: effects.cookies ?? [], location: effects.location };
}

function opened(ctx: AppContext, tenant: TenantDb, record: IdempotencyRecord, body: string): SealedAnswer {
  try {
    return JSON.parse(unseal(instanceKeyring(ctx, ANSWERS), boundTo(tenant, record), body)) as SealedAnswer;
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    ctx.log.error("a sealed idempotent answer does not open: was INTEGRATION_ENCRYPTION_KEY changed?", {
      org: tenant.orgId,
      reason: error.reason,
    });
    throw new ApiError(
      "IDEMPOTENCY_CONFLICT",
      "This Idempotency-Key was already used and its answer can no longer be read; the request was not run again",
    );
  }
}

/** The columns an answer is kept in: sealed, or as it is. */
function storedForm(ctx: AppContext, tenant: TenantDb, record: IdempotencyRecord, answer: StoredAnswer) {
  if (record.sealed) {
    const { body, cookies, location } = answer;
    const plaintext = JSON.stringify({ hash: record.hash, body, cookies, location } satisfies SealedAnswer);
    const sealed = seal(instanceKeyring(ctx, ANSWERS), boundTo(tenant, record), plaintext);
    return { hash: SEALED, body: sealed, effects: null };
  }
  const effects =
    answer.cookies.length > 0 || answer.location
      ? JSON.stringify({ cookies: answer.cookies, location: answer.location })
      : null;
  return { hash: record.hash, body: answer.body, effects };
}

/** Records an answer; call inside the write's transaction. */
export function store(
  ctx: AppContext,
  tenant: TenantDb,
  record: IdempotencyRecord,
  answer: StoredAnswer,
): void {
  const now = Date.now();
  tidyNowAndThen(tenant, "idempotency records", SWEEP_EVERY_MS, now, () =>
    tenant.sqlite
      .query("DELETE FROM idempotency_records WHERE created_at <= ?")
      .run(now - IDEMPOTENCY_WINDOW_MS),
  );
  const kept = storedForm(ctx, tenant, record, answer);
  tenant.sqlite
    .query(
      `INSERT INTO idempotency_records (caller, key, request_hash, status, body, effects, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (caller, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
         body = excluded.body, effects = excluded.effects, created_at = excluded.created_at`,
    )
    .run(record.scope, record.key, kept.hash, answer.status, kept.body, kept.effects, now);
}

/** The answer after work that ran past the commit (see `Operation.reload`). */
export function replaceStoredBody(
  ctx: AppContext,
  tenant: TenantDb,
  record: IdempotencyRecord,
  answer: StoredAnswer,
): void {
  tenant.sqlite
    .query("UPDATE idempotency_records SET body = ? WHERE caller = ? AND key = ?")
    .run(storedForm(ctx, tenant, record, answer).body, record.scope, record.key);
}
