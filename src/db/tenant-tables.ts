import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Facts about the tenant file itself; `organization_id` guards against opening a file under the wrong org. */
export const tenantMeta = sqliteTable("tenant_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Responses of writes sent with an `Idempotency-Key` (DESIGN §6), written in the same transaction
 * as the write itself. Keys are per caller; records older than 24 h are swept.
 */
export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    caller: text("caller").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is a conflict. */
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.key] }), index("idempotency_created_idx").on(t.createdAt)],
);
