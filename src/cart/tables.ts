import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Localized } from "../catalog/tables.ts";

// Tenant file. Times are epoch milliseconds, money integer minor units.

export interface Address {
  firstName: string;
  lastName: string;
  company?: string;
  line1: string;
  line2?: string;
  city: string;
  postalCode?: string;
  region?: string;
  country: string;
  phone?: string;
}

export const carts = sqliteTable("carts", {
  id: text("id").primaryKey(),
  status: text("status", { enum: ["active", "completed"] }).notNull(),
  currency: text("currency").notNull(),
  email: text("email"),
  customerId: text("customer_id"),
  /** Upper-cased code of the applied coupon; re-validated on every read. */
  couponCode: text("coupon_code"),
  shippingAddress: text("shipping_address", { mode: "json" }).$type<Address>(),
  billingAddress: text("billing_address", { mode: "json" }).$type<Address>(),
  shippingMethodId: text("shipping_method_id"),
  orderId: text("order_id"),
  createdAt: integer("created_at").notNull(),
  /** No index: every cart write sets it, and an index would cost each of them extra page writes. */
  updatedAt: integer("updated_at").notNull(),
});

export const cartItems = sqliteTable(
  "cart_items",
  {
    id: text("id").primaryKey(),
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: text("product_id").notNull(),
    /** No foreign key: a deleted variant leaves its cart line, which the next read removes with a message. */
    variantId: text("variant_id").notNull(),
    quantity: integer("quantity").notNull(),
    /** The unit price the shopper last saw; a different live price adds a message. */
    unitPrice: integer("unit_price").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("cart_items_cart_idx").on(t.cartId, t.createdAt)],
);

export const COUPON_TYPES = ["percentage", "fixed", "free_shipping"] as const;
export type CouponType = (typeof COUPON_TYPES)[number];

export const coupons = sqliteTable("coupons", {
  id: text("id").primaryKey(),
  /** Stored upper-case; codes compare case-insensitively. */
  code: text("code").notNull().unique(),
  type: text("type", { enum: COUPON_TYPES }).notNull(),
  /** Percent (1–100) for percentage, minor units for fixed, 0 for free shipping. */
  value: integer("value").notNull(),
  minSubtotal: integer("min_subtotal"),
  startsAt: integer("starts_at"),
  endsAt: integer("ends_at"),
  usageLimit: integer("usage_limit"),
  usageCount: integer("usage_count").notNull(),
  active: integer("active", { mode: "boolean" }).notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const shippingMethods = sqliteTable("shipping_methods", {
  id: text("id").primaryKey(),
  name: text("name", { mode: "json" }).$type<Localized>().notNull(),
  description: text("description", { mode: "json" }).$type<Localized>(),
  price: integer("price").notNull(),
  freeOver: integer("free_over"),
  /** ISO country codes served; empty = every country. */
  countries: text("countries", { mode: "json" }).$type<string[]>().notNull(),
  minDays: integer("min_days"),
  maxDays: integer("max_days"),
  active: integer("active", { mode: "boolean" }).notNull(),
  position: integer("position").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
