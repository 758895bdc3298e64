import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Control plane. Times are epoch milliseconds.

/**
 * A shop that moved from this node to another (`shop move`, docs/scaling.md): requests for it that
 * still reach this node (by one of its hosts, or with one of its API keys) are forwarded there,
 * until the proxy's routes send them straight to the other node.
 */
export const movedShops = sqliteTable("moved_shops", {
  orgId: text("org_id").primaryKey(),
  /** The base URL of the node that holds it now. */
  toUrl: text("to_url").notNull(),
  /** JSON array of its hosts when it left. */
  hosts: text("hosts").notNull(),
  /** JSON array of the SHA-256 of its API keys when it left (as `api_keys.key_hash`). */
  keyHashes: text("key_hashes").notNull(),
  movedAt: integer("moved_at").notNull(),
});
