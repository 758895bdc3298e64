import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { customers } from "../orders/tables.ts";

// Tenant file. Times are epoch milliseconds.

/**
 * Password reset links of storefront accounts: the token's SHA-256 only, valid 30 minutes. A row is
 * deleted when used, and a new request deletes the customer's older ones, so a row is a usable link
 * until it expires.
 */
export const customerPasswordResets = sqliteTable(
  "customer_password_resets",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("customer_password_resets_customer_idx").on(t.customerId)],
);
