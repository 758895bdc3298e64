import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Address } from "../cart/tables.ts";
import type { Localized } from "../catalog/tables.ts";

// Tenant file. Times are epoch milliseconds, money integer minor units.

export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    /** Stored lower-case; one customer per email. */
    email: text("email").notNull().unique(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    phone: text("phone"),
    /** argon2id; null for customers who only ever checked out as guests. */
    passwordHash: text("password_hash"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("customers_created_idx").on(t.createdAt)],
);

export const customerSessions = sqliteTable(
  "customer_sessions",
  {
    id: text("id").primaryKey(),
    /** SHA-256 (hex) of the token. */
    tokenHash: text("token_hash").notNull().unique(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("customer_sessions_customer_idx").on(t.customerId)],
);

export const ORDER_STATUSES = ["open", "completed", "cancelled"] as const;
export const PAYMENT_STATUSES = [
  "pending",
  "processing",
  "paid",
  "partially_refunded",
  "refunded",
  "failed",
  "expired",
] as const;
export const FULFILLMENT_STATUSES = ["unfulfilled", "fulfilled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

export interface OrderShippingMethod {
  id: string;
  name: Localized;
  price: number;
}
export interface OrderCoupon {
  code: string;
  type: string;
  value: number;
}
export interface OrderPaymentMethod {
  id: string;
  provider: string;
  type: string;
}

/** What the shopper must do next to pay, by the method's flow. */
export type PaymentAction =
  | { type: "redirect"; url: string }
  | { type: "reference"; entity: string; reference: string; amount: number; expiresAt: string }
  | { type: "push"; phone: string; expiresAt: string }
  | { type: "offline"; instructions: Localized };

/** One payment attempt as the order shows it (written by the payments module whenever it changes). */
export interface OrderPayment {
  attemptId: string;
  provider: string;
  method: string;
  status: string;
  amount: number;
  expiresAt?: string;
  action?: PaymentAction;
  /**
   * Set while the provider has not opened this payment after being asked and the order can still be
   * paid (with `retry`).
   */
  error?: string;
  retry?: PaymentRetry;
}

/** The operation that asks the provider again for a payment that did not start. */
export interface PaymentRetry {
  operationId: "retryOrderPayment";
  method: "POST";
  path: string;
}

/** Why payment events cancelled an order; `merchant` for the admin cancel. */
export const CANCEL_REASONS = ["failed", "expired", "merchant"] as const;

export const orders = sqliteTable(
  "orders",
  {
    id: text("id").primaryKey(),
    /** Per-tenant sequence from 1001. */
    number: integer("number").notNull().unique(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull(),
    fulfillmentStatus: text("fulfillment_status", { enum: FULFILLMENT_STATUSES }).notNull(),
    email: text("email").notNull(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    cartId: text("cart_id").notNull(),
    currency: text("currency").notNull(),
    shippingAddress: text("shipping_address", { mode: "json" }).$type<Address>(),
    billingAddress: text("billing_address", { mode: "json" }).$type<Address>(),
    shippingMethod: text("shipping_method", { mode: "json" }).$type<OrderShippingMethod>(),
    coupon: text("coupon", { mode: "json" }).$type<OrderCoupon>(),
    paymentMethod: text("payment_method", { mode: "json" }).$type<OrderPaymentMethod>(),
    /** The order's payment attempts, oldest first, as shown (kept by the payments module). */
    payments: text("payments", { mode: "json" }).$type<OrderPayment[]>().notNull().default(sql`'[]'`),
    /** `amount_mismatch`, `duplicate_payment`, `paid_after_cancel`, `reopened_after_payment`, `refund_required`, `chargeback`. */
    paymentFlags: text("payment_flags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull(),
    shipping: integer("shipping").notNull(),
    shippingTax: integer("shipping_tax").notNull(),
    tax: integer("tax").notNull(),
    total: integer("total").notNull(),
    refunded: integer("refunded").notNull(),
    /** Whether this order counted a use of its coupon (given back when the order is cancelled). */
    couponCounted: integer("coupon_counted", { mode: "boolean" }).notNull(),
    /** Whether the order's units are still taken from stock (false once released by cancel or restock). */
    stockHeld: integer("stock_held", { mode: "boolean" }).notNull(),
    note: text("note"),
    /** SHA-256 (hex) of the guest access token. */
    accessTokenHash: text("access_token_hash").notNull(),
    placedAt: integer("placed_at").notNull(),
    paidAt: integer("paid_at"),
    cancelledAt: integer("cancelled_at"),
    cancelReason: text("cancel_reason", { enum: CANCEL_REASONS }),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("orders_placed_idx").on(t.placedAt, t.id),
    index("orders_customer_idx").on(t.customerId, t.placedAt),
    index("orders_status_idx").on(t.status, t.paymentStatus, t.fulfillmentStatus),
    uniqueIndex("orders_cart_idx").on(t.cartId),
    check("orders_refunded_within_total", sql`${t.refunded} >= 0 AND ${t.refunded} <= ${t.total}`),
  ],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: text("product_id").notNull(),
    variantId: text("variant_id").notNull(),
    productName: text("product_name", { mode: "json" }).$type<Localized>().notNull(),
    variantTitle: text("variant_title").notNull(),
    sku: text("sku"),
    unitPrice: integer("unit_price").notNull(),
    quantity: integer("quantity").notNull(),
    /** Units this line took from `on_hand` (fewer than `quantity` on backorder): what a release gives back. */
    stockTaken: integer("stock_taken").notNull(),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull(),
    taxRate: integer("tax_rate").notNull(),
    tax: integer("tax").notNull(),
    total: integer("total").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    index("order_items_order_idx").on(t.orderId, t.position),
    index("order_items_product_idx").on(t.productId),
  ],
);

export const orderEvents = sqliteTable(
  "order_events",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    message: text("message").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.createdAt)],
);

export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    reason: text("reason"),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    restock: integer("restock", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("refunds_order_idx").on(t.orderId, t.createdAt)],
);

export const fulfillments = sqliteTable(
  "fulfillments",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    trackingUrl: text("tracking_url"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("fulfillments_order_idx").on(t.orderId)],
);
