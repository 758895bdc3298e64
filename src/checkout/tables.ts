import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Tenant file. Times are epoch milliseconds.

/**
 * A checkout session of an agentic-commerce protocol (UCP, ACP): one cart, plus what a cart does
 * not hold (the buyer's name and phone, the chosen payment method, cancellation, expiry) and who
 * opened it. Everything else (lines, email, addresses, shipping, totals, the order) is the cart's.
 */
export const checkoutSessions = sqliteTable("checkout_sessions", {
  id: text("id").primaryKey(),
  cartId: text("cart_id").notNull().unique(),
  /** `ucp` or `acp`: the protocol that opened it (a session is read and written through it only). */
  protocol: text("protocol").notNull(),
  /** The platform or agent that opened it (e.g. a UCP profile URL); anyone else is told it does not exist. */
  caller: text("caller").notNull(),
  buyerFirstName: text("buyer_first_name"),
  buyerLastName: text("buyer_last_name"),
  buyerPhone: text("buyer_phone"),
  paymentMethodId: text("payment_method_id"),
  /**
   * The total the caller was last answered after changing what it buys (lines, buyer, addresses,
   * shipping): completing at another total is refused until the caller accepts it with an update.
   */
  quotedTotal: integer("quoted_total"),
  canceledAt: integer("canceled_at"),
  expiresAt: integer("expires_at").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
