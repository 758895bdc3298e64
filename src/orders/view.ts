import type { Address } from "../cart/tables.ts";
import { type Money, money } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { notFound } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import type { OrderCoupon, OrderPayment, OrderPaymentMethod, OrderShippingMethod } from "./tables.ts";

// Reads of an order: its row, and the order as the API shows it, read in a fixed number of
// queries. The writes are the state machine's (service.ts) and place-order's.

export interface OrderRow {
  id: string;
  number: number;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  email: string;
  customer_id: string;
  cart_id: string;
  currency: string;
  shipping_address: string | null;
  billing_address: string | null;
  shipping_method: string | null;
  coupon: string | null;
  payment_method: string | null;
  subtotal: number;
  discount: number;
  shipping: number;
  shipping_tax: number;
  tax: number;
  total: number;
  refunded: number;
  coupon_counted: number;
  stock_held: number;
  note: string | null;
  access_token_hash: string;
  placed_at: number;
  paid_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  payments: string;
  payment_flags: string;
  updated_at: number;
}

interface ItemRow {
  product_id: string;
  variant_id: string;
  product_name: string;
  variant_title: string;
  sku: string | null;
  unit_price: number;
  quantity: number;
  subtotal: number;
  discount: number;
  tax_rate: number;
  tax: number;
  total: number;
}

export function findOrderRow(tenant: TenantDb, orderId: string): OrderRow {
  const row = tenant.sqlite.query("SELECT * FROM orders WHERE id = ?").get(orderId) as OrderRow | null;
  if (!row) throw notFound("Order");
  return row;
}

type TotalsRow = Pick<
  OrderRow,
  "currency" | "subtotal" | "discount" | "shipping" | "tax" | "total" | "refunded"
>;

/** An order's totals as Money (full view and list summaries). */
export function orderTotals(row: TotalsRow) {
  const m = (amount: number) => money(amount, row.currency);
  return {
    subtotal: m(row.subtotal),
    discount: m(row.discount),
    shipping: m(row.shipping),
    tax: m(row.tax),
    total: m(row.total),
    refunded: m(row.refunded),
  };
}

/** An order's lines, in the order they were placed. */
function orderItems(tenant: TenantDb, orderId: string, m: (amount: number) => Money) {
  const items = tenant.sqlite
    .query("SELECT * FROM order_items WHERE order_id = ? ORDER BY position")
    .all(orderId) as ItemRow[];
  return items.map((item) => ({
    productId: item.product_id,
    variantId: item.variant_id,
    productName: JSON.parse(item.product_name) as Localized,
    variantTitle: item.variant_title,
    sku: item.sku,
    unitPrice: m(item.unit_price),
    quantity: item.quantity,
    subtotal: m(item.subtotal),
    discount: m(item.discount),
    taxRate: item.tax_rate,
    tax: m(item.tax),
    total: m(item.total),
  }));
}

/** What happened to an order since it was placed: refunds, fulfillments and events, oldest first. */
function orderHistory(tenant: TenantDb, orderId: string, m: (amount: number) => Money) {
  const sqlite = tenant.sqlite;
  const refunds = sqlite
    .query(
      "SELECT id, amount, reason, status, created_at FROM refunds WHERE order_id = ? ORDER BY created_at, rowid",
    )
    .all(orderId) as {
    id: string;
    amount: number;
    reason: string | null;
    status: string;
    created_at: number;
  }[];
  const fulfillments = sqlite
    .query(
      "SELECT id, carrier, tracking_number, tracking_url, created_at FROM fulfillments WHERE order_id = ? ORDER BY created_at, rowid",
    )
    .all(orderId) as {
    id: string;
    carrier: string | null;
    tracking_number: string | null;
    tracking_url: string | null;
    created_at: number;
  }[];
  const events = sqlite
    .query("SELECT type, message, created_at FROM order_events WHERE order_id = ? ORDER BY created_at, rowid")
    .all(orderId) as { type: string; message: string; created_at: number }[];
  return {
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: m(r.amount),
      reason: r.reason,
      status: r.status,
      createdAt: iso(r.created_at),
    })),
    fulfillments: fulfillments.map((f) => ({
      id: f.id,
      carrier: f.carrier,
      trackingNumber: f.tracking_number,
      trackingUrl: f.tracking_url,
      createdAt: iso(f.created_at),
    })),
    events: events.map((e) => ({ type: e.type, message: e.message, createdAt: iso(e.created_at) })),
  };
}

/** The full order: lines, refunds, fulfillments and events. */
export function orderView(tenant: TenantDb, orderId: string) {
  const row = findOrderRow(tenant, orderId);
  const m = (amount: number) => money(amount, row.currency);
  const payments = JSON.parse(row.payments) as OrderPayment[];
  const shippingMethod = parseJsonOrNull<OrderShippingMethod>(row.shipping_method);
  const { refunds, fulfillments, events } = orderHistory(tenant, orderId, m);
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    paymentStatus: row.payment_status,
    fulfillmentStatus: row.fulfillment_status,
    email: row.email,
    customerId: row.customer_id,
    currency: row.currency,
    items: orderItems(tenant, orderId, m),
    shippingAddress: parseJsonOrNull<Address>(row.shipping_address),
    billingAddress: parseJsonOrNull<Address>(row.billing_address),
    shippingMethod: shippingMethod && { ...shippingMethod, price: m(shippingMethod.price) },
    coupon: parseJsonOrNull<OrderCoupon>(row.coupon),
    paymentMethod: parseJsonOrNull<OrderPaymentMethod>(row.payment_method),
    totals: orderTotals(row),
    payment: payments.at(-1) ?? null,
    payments,
    paymentFlags: JSON.parse(row.payment_flags) as string[],
    refunds,
    fulfillments,
    events,
    note: row.note,
    placedAt: iso(row.placed_at),
    paidAt: isoOrNull(row.paid_at),
    cancelledAt: isoOrNull(row.cancelled_at),
    updatedAt: iso(row.updated_at),
  };
}
