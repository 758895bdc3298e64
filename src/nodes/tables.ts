import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "../auth/tables.ts";

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

/**
 * When this node took a shop it holds (imported, restored from the bucket): of two nodes whose
 * leases name one shop, the later taker holds it (docs/scaling.md, "The directory and leases"). A
 * shop made here has no row: it was taken when it was created. Not part of a shop's export.
 */
export const heldShops = sqliteTable("held_shops", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  takenAt: integer("taken_at").notNull(),
});
