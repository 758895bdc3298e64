import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Facts about the tenant file itself; `organization_id` guards against opening a file under the wrong org. */
export const tenantMeta = sqliteTable("tenant_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Answers of writes sent with an `Idempotency-Key`, written in the same transaction as the write
 * itself. Keys are per scope (the column keeps its first name, `caller`); records older than 24 h
 * are swept (core/idempotency.ts), by a scan: no index on `created_at`, which every record would
 * pay for. A record is appended to the table and its key inserted into the primary key's index.
 */
export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    scope: text("caller").notNull(),
    key: text("key").notNull(),
    /** SHA-256 (hex) of the operation and its input: the same key with another call is a conflict. */
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body"),
    /** Cookies and `Location` of the answer, as JSON; null when it had none. */
    effects: text("effects"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

/**
 * Work registered by a write to run after its commit (core/outbox.ts), written in the same
 * transaction: a provider call or a notification is never lost, and never runs for a rolled-back
 * write. `pending` rows wait for `next_attempt_at`; a `running` row is leased until
 * `next_attempt_at`, after which another attempt may take it (handlers are idempotent by `id`).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "running", "done", "failed"] }).notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("outbox_due_idx").on(t.status, t.nextAttemptAt)],
);

/**
 * What happened in the shop (core/events.ts): written in the transaction of the change, kept 30 days,
 * read by `GET /v1/admin/events` and fanned out to the modules that act on events (webhooks, email).
 * `seq` orders them as they were recorded.
 */
export const events = sqliteTable(
  "events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    type: text("type").notNull(),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("events_type_idx").on(t.type, t.seq), index("events_created_idx").on(t.createdAt)],
);
