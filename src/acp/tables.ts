import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Tenant file. Times are epoch milliseconds.

/**
 * An agent platform the merchant lets check out through ACP on the shop's host (docs/acp.md): the
 * bearer token it presents (only its SHA-256 is kept) and where its order webhooks go, signed with
 * a secret shared with it (sealed with the instance key, never in clear).
 */
export const acpPlatforms = sqliteTable("acp_platforms", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** SHA-256 (hex) of the bearer token: a request is matched by its hash. */
  tokenHash: text("token_hash").notNull().unique(),
  /** The token's last four characters, so the merchant can tell tokens apart. */
  tokenHint: text("token_hint").notNull(),
  /** The platform's order webhook URL; null: no webhooks. */
  webhookUrl: text("webhook_url"),
  /** The `Merchant-Signature` HMAC secret, sealed. */
  signingSecret: text("signing_secret").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
