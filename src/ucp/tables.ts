import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Tenant file. Times are epoch milliseconds.

/**
 * The shop's ES256 (P-256) signing keys, which sign its UCP order webhooks (docs/ucp.md): the
 * public half as the JWK coordinates its profile publishes, the private half sealed with the
 * instance key, never in clear. The newest signs; every one is published.
 */
export const ucpSigningKeys = sqliteTable("ucp_signing_keys", {
  /** The JWK `kid`, named in each signature's `keyid`. */
  id: text("id").primaryKey(),
  /** The public point, base64url (JWK `x`, `y`). */
  x: text("x").notNull(),
  y: text("y").notNull(),
  /** The private JWK (with `d`), sealed. */
  privateKey: text("private_key").notNull(),
  createdAt: integer("created_at").notNull(),
});
