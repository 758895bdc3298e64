import { sha256Hex } from "../../src/auth/crypto.ts";
import type { TenantDb } from "../../src/db/tenant-pool.ts";
import { newId, randomBase62 } from "../../src/lib/ids.ts";
import type { OrderPaymentMethod } from "../../src/orders/tables.ts";
import type { TestApp } from "./app.ts";

// Orders written straight into a tenant file, shaped as place-order writes them (open, unfulfilled,
// `stock_held` = 1, tracked stock taken, coupon use counted, a "placed" event), for tests of what
// happens to an order afterwards. Tests of place-order itself go through HTTP.

export const BANK_TRANSFER: OrderPaymentMethod = {
  id: "manual_bank_transfer",
  provider: "manual",
  type: "bank_transfer",
};
export const CASH_ON_DELIVERY: OrderPaymentMethod = {
  id: "manual_cash_on_delivery",
  provider: "manual",
  type: "cash_on_delivery",
};
export const STRIPE_CARD: OrderPaymentMethod = { id: "stripe_card", provider: "stripe", type: "card" };

const TAX_RATE = 2300; // basis points, prices include tax
const includedTax = (gross: number) => Math.round((gross * TAX_RATE) / (10_000 + TAX_RATE));

export interface InsertOrderOptions {
  lines: { variantId: string; quantity: number }[];
  email?: string;
  firstName?: string;
  lastName?: string;
  /** An existing customer (e.g. one with a session); otherwise found or created by email. */
  customerId?: string;
  /** Default: manual bank transfer. `null`: no payment method (free orders). */
  paymentMethod?: OrderPaymentMethod | null;
  /** Default pending, or paid when the total is 0. */
  paymentStatus?: string;
  /** A fixed-amount coupon (created with `insertCoupon`); its use is counted. */
  coupon?: { code: string; value: number };
  /** Shipping price, default 500. */
  shipping?: number;
  placedAt?: number;
}

export interface InsertedOrder {
  id: string;
  number: number;
  accessToken: string;
  customerId: string;
  total: number;
}

interface VariantRow {
  id: string;
  product_id: string;
  title: string;
  sku: string | null;
  price: number;
  tracked: number;
  on_hand: number;
  allow_backorder: number;
  name: string;
}

function findOrCreateCustomer(
  tenant: TenantDb,
  email: string,
  names: { firstName?: string; lastName?: string },
  at: number,
): string {
  const existing = tenant.sqlite.query("SELECT id FROM customers WHERE email = ?").get(email) as {
    id: string;
  } | null;
  if (existing) return existing.id;
  const id = newId("cus");
  tenant.sqlite
    .query(
      "INSERT INTO customers (id, email, first_name, last_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .run(id, email, names.firstName ?? null, names.lastName ?? null, at, at);
  return id;
}

/** Writes an order as place-order would, taking tracked stock and counting the coupon use. */
export function insertOrder(t: TestApp, orgId: string, options: InsertOrderOptions): Promise<InsertedOrder> {
  return t.app.ctx.tenants.with(orgId, (tenant) =>
    tenant.sqlite.transaction(() => {
      const sqlite = tenant.sqlite;
      const at = options.placedAt ?? Date.now();
      const email = (options.email ?? "buyer@example.com").toLowerCase();
      const currency = (
        sqlite.query("SELECT currency FROM store_settings WHERE id = 1").get() as { currency: string } | null
      )?.currency;

      let couponLeft = options.coupon?.value ?? 0;
      const lines = options.lines.map((line, position) => {
        const v = sqlite
          .query(
            `SELECT v.id, v.product_id, v.title, v.sku, v.price, v.tracked, v.on_hand, v.allow_backorder, p.name
               FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?`,
          )
          .get(line.variantId) as VariantRow | null;
        if (!v) throw new Error(`no variant ${line.variantId}`);
        let taken = 0;
        if (v.tracked) {
          taken = v.allow_backorder ? Math.min(v.on_hand, line.quantity) : line.quantity;
          if (taken > v.on_hand) throw new Error(`not enough stock of ${line.variantId}`);
          sqlite.query("UPDATE variants SET on_hand = on_hand - ? WHERE id = ?").run(taken, v.id);
        }
        const subtotal = v.price * line.quantity;
        const discount = Math.min(couponLeft, subtotal);
        couponLeft -= discount;
        const total = subtotal - discount;
        return {
          v,
          quantity: line.quantity,
          taken,
          subtotal,
          discount,
          total,
          tax: includedTax(total),
          position,
        };
      });

      let couponCounted = 0;
      if (options.coupon) {
        couponCounted = sqlite
          .query("UPDATE coupons SET usage_count = usage_count + 1 WHERE code = ?")
          .run(options.coupon.code.toUpperCase()).changes;
        if (couponCounted === 0) throw new Error(`no coupon ${options.coupon.code}`);
      }

      const shipping = options.shipping ?? 500;
      const subtotal = lines.reduce((sum, l) => sum + l.subtotal, 0);
      const discount = lines.reduce((sum, l) => sum + l.discount, 0);
      const shippingTax = includedTax(shipping);
      const tax = lines.reduce((sum, l) => sum + l.tax, 0) + shippingTax;
      const total = subtotal - discount + shipping;
      const paymentStatus = options.paymentStatus ?? (total === 0 ? "paid" : "pending");
      const paid = ["paid", "partially_refunded", "refunded"].includes(paymentStatus);
      const paymentMethod = options.paymentMethod === undefined ? BANK_TRANSFER : options.paymentMethod;
      const customerId =
        options.customerId ??
        findOrCreateCustomer(tenant, email, { firstName: options.firstName, lastName: options.lastName }, at);
      const { next } = sqlite.query("SELECT coalesce(max(number), 1000) + 1 AS next FROM orders").get() as {
        next: number;
      };
      const id = newId("ord");
      const accessToken = randomBase62(43);
      // A signed-in purchase: the order comes from a cart the customer's session owned.
      const cartId = newId("cart");
      if (options.customerId) {
        sqlite
          .query(
            "INSERT INTO carts (id, status, currency, customer_id, order_id, created_at, updated_at) VALUES (?, 'completed', ?, ?, ?, ?, ?)",
          )
          .run(cartId, currency ?? "EUR", options.customerId, id, at, at);
      }
      const address = {
        firstName: options.firstName ?? "Ana",
        lastName: options.lastName ?? "Silva",
        line1: "Rua Augusta 1",
        city: "Lisboa",
        postalCode: "1100-048",
        country: "PT",
      };
      sqlite
        .query(
          `INSERT INTO orders (id, number, status, payment_status, fulfillment_status, email, customer_id, cart_id,
           currency, shipping_address, billing_address, shipping_method, coupon, payment_method, subtotal, discount,
           shipping, shipping_tax, tax, total, refunded, coupon_counted, stock_held, note, access_token_hash,
           placed_at, paid_at, cancelled_at, updated_at)
         VALUES (?, ?, 'open', ?, 'unfulfilled', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 1, NULL, ?, ?, ?,
           NULL, ?)`,
        )
        .run(
          id,
          next,
          paymentStatus,
          email,
          customerId,
          cartId,
          currency ?? "EUR",
          JSON.stringify(address),
          JSON.stringify(address),
          JSON.stringify({ id: "shp_standard0001", name: { en: "Standard" }, price: shipping }),
          options.coupon
            ? JSON.stringify({
                code: options.coupon.code.toUpperCase(),
                type: "fixed",
                value: options.coupon.value,
              })
            : null,
          paymentMethod && JSON.stringify(paymentMethod),
          subtotal,
          discount,
          shipping,
          shippingTax,
          tax,
          total,
          couponCounted,
          sha256Hex(accessToken),
          at,
          paid ? at : null,
          at,
        );
      for (const l of lines) {
        sqlite
          .query(
            `INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_title, sku, unit_price,
             quantity, stock_taken, subtotal, discount, tax_rate, tax, total, position)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            newId("item"),
            id,
            l.v.product_id,
            l.v.id,
            l.v.name,
            l.v.title,
            l.v.sku,
            l.v.price,
            l.quantity,
            l.taken,
            l.subtotal,
            l.discount,
            TAX_RATE,
            l.tax,
            l.total,
            l.position,
          );
      }
      sqlite
        .query("INSERT INTO order_events (id, order_id, type, message, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(newId("evt"), id, "placed", `Order #${next} placed`, at);
      return { id, number: next, accessToken, customerId, total };
    })(),
  );
}

/** A storefront customer with a live session; the token goes in `x-customer-session`. */
export function createCustomerSession(
  t: TestApp,
  orgId: string,
  customer: { email: string; firstName?: string; lastName?: string },
): Promise<{ customerId: string; token: string }> {
  return t.app.ctx.tenants.with(orgId, (tenant) => {
    const now = Date.now();
    const customerId = findOrCreateCustomer(tenant, customer.email.toLowerCase(), customer, now);
    const token = randomBase62(43);
    tenant.sqlite
      .query(
        "INSERT INTO customer_sessions (id, token_hash, customer_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(newId("cses"), sha256Hex(token), customerId, now + 3600_000, now);
    return { customerId, token };
  });
}

/** A fixed-amount coupon row (admin coupon routes live elsewhere). */
export function insertCoupon(t: TestApp, orgId: string, code: string, value: number): Promise<void> {
  return t.app.ctx.tenants.with(orgId, (tenant) => {
    const now = Date.now();
    tenant.sqlite
      .query(
        `INSERT INTO coupons (id, code, type, value, min_subtotal, starts_at, ends_at, usage_limit, usage_count, active,
           created_at, updated_at)
         VALUES (?, ?, 'fixed', ?, NULL, NULL, NULL, NULL, 0, 1, ?, ?)`,
      )
      .run(newId("cpn"), code.toUpperCase(), value, now, now);
  });
}

export function couponUsage(t: TestApp, orgId: string, code: string): Promise<number> {
  return t.app.ctx.tenants.with(
    orgId,
    (tenant) =>
      (
        tenant.sqlite.query("SELECT usage_count FROM coupons WHERE code = ?").get(code.toUpperCase()) as {
          usage_count: number;
        }
      ).usage_count,
  );
}

export function onHand(t: TestApp, orgId: string, variantId: string): Promise<number> {
  return t.app.ctx.tenants.with(
    orgId,
    (tenant) =>
      (tenant.sqlite.query("SELECT on_hand FROM variants WHERE id = ?").get(variantId) as { on_hand: number })
        .on_hand,
  );
}

/** The raw order row, for flags the API does not show (`stock_held`, `coupon_counted`). */
export function orderRow(t: TestApp, orgId: string, orderId: string): Promise<Record<string, unknown>> {
  return t.app.ctx.tenants.with(
    orgId,
    (tenant) =>
      tenant.sqlite.query("SELECT * FROM orders WHERE id = ?").get(orderId) as Record<string, unknown>,
  );
}
