import { sha256Hex } from "../../src/auth/crypto.ts";
import type { TenantDb } from "../../src/db/tenant-pool.ts";
import { newId } from "../../src/lib/ids.ts";
import type { FulfillmentStatus, OrderStatus, PaymentStatus } from "../../src/orders/tables.ts";
import type { TestApp } from "./app.ts";

// Inserts customers, orders and their lines straight into a tenant file, in the shape place-order
// writes them, so admin reads and statistics can be tested on hand-made histories.

const at = (time: number | string | Date | undefined, fallback: number) =>
  time === undefined ? fallback : typeof time === "number" ? time : new Date(time).getTime();

/** Runs `fn` on the organization's tenant file. */
export function withTenant<T>(t: TestApp, orgId: string, fn: (tenant: TenantDb) => T): T {
  const tenant = t.app.ctx.tenants.acquire(orgId);
  try {
    return fn(tenant);
  } finally {
    t.app.ctx.tenants.release(tenant);
  }
}

export interface SeedCustomer {
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  /** A password makes it an account (hashed with argon2id like sign-up). */
  password?: string;
  createdAt?: number | string | Date;
}

export function seedCustomer(t: TestApp, orgId: string, customer: SeedCustomer): string {
  const id = newId("cus");
  const created = at(customer.createdAt, Date.now());
  const hash = customer.password ? Bun.password.hashSync(customer.password, { algorithm: "argon2id" }) : null;
  withTenant(t, orgId, (tenant) =>
    tenant.sqlite
      .query(
        `INSERT INTO customers (id, email, first_name, last_name, phone, password_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        customer.email.toLowerCase(),
        customer.firstName ?? null,
        customer.lastName ?? null,
        customer.phone ?? null,
        hash,
        created,
        created,
      ),
  );
  return id;
}

export interface SeedItem {
  productId: string;
  variantId?: string;
  name?: string | Record<string, string>;
  quantity: number;
  unitPrice: number;
  /** Line discount (default 0); the line total is unitPrice × quantity − discount. */
  discount?: number;
  /** Basis points, prices include tax (default 2300). */
  taxRate?: number;
}

export interface SeedOrder {
  customerId: string;
  email?: string;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  fulfillmentStatus?: FulfillmentStatus;
  items: SeedItem[];
  shipping?: number;
  refunded?: number;
  placedAt: number | string | Date;
  /** e.g. `{id: "manual_bank_transfer", provider: "manual", type: "bank_transfer"}`; default a Stripe card. */
  paymentMethod?: { id: string; provider: string; type: string } | null;
  currency?: string;
  /** Placed from a cart of the customer's own session (the cart carries `customer_id`). */
  signedIn?: boolean;
}

const STRIPE_CARD = { id: "stripe_card", provider: "stripe", type: "card" };
const ADDRESS = {
  firstName: "Ana",
  lastName: "Silva",
  line1: "Rua Augusta 1",
  city: "Lisboa",
  postalCode: "1100-048",
  country: "PT",
};

/** Inserts one order with its lines (and the completed cart it came from); totals follow the lines. */
export function seedOrder(
  t: TestApp,
  orgId: string,
  order: SeedOrder,
): { id: string; number: number; total: number } {
  return withTenant(t, orgId, (tenant) => {
    const sqlite = tenant.sqlite;
    const id = newId("ord");
    const cartId = newId("cart");
    const placed = at(order.placedAt, Date.now());
    const currency = order.currency ?? "EUR";
    const status = order.status ?? "open";
    const paymentStatus = order.paymentStatus ?? "pending";
    const lines = order.items.map((item, position) => {
      const subtotal = item.unitPrice * item.quantity;
      const discount = item.discount ?? 0;
      const total = subtotal - discount;
      const taxRate = item.taxRate ?? 2300;
      const tax = Math.round((total * taxRate) / (10_000 + taxRate));
      return { ...item, subtotal, discount, total, taxRate, tax, position };
    });
    const shipping = order.shipping ?? 0;
    const shippingTax = Math.round((shipping * 2300) / 12_300);
    const subtotal = lines.reduce((sum, l) => sum + l.subtotal, 0);
    const discount = lines.reduce((sum, l) => sum + l.discount, 0);
    const tax = lines.reduce((sum, l) => sum + l.tax, 0) + shippingTax;
    const total = subtotal - discount + shipping;
    const { next } = sqlite.query("SELECT coalesce(max(number), 1000) + 1 AS next FROM orders").get() as {
      next: number;
    };
    const email =
      order.email ??
      (sqlite.query("SELECT email FROM customers WHERE id = ?").get(order.customerId) as { email: string })
        .email;
    const paid =
      paymentStatus === "paid" || paymentStatus === "partially_refunded" || paymentStatus === "refunded";
    const paymentMethod = order.paymentMethod === undefined ? STRIPE_CARD : order.paymentMethod;
    sqlite.transaction(() => {
      sqlite
        .query(
          `INSERT INTO carts (id, status, currency, email, customer_id, created_at, updated_at, order_id)
         VALUES (?, 'completed', ?, ?, ?, ?, ?, ?)`,
        )
        .run(cartId, currency, email, order.signedIn ? order.customerId : null, placed, placed, id);
      sqlite
        .query(
          `INSERT INTO orders (id, number, status, payment_status, fulfillment_status, email, customer_id, cart_id,
           currency, shipping_address, billing_address, shipping_method, coupon, payment_method, subtotal, discount,
           shipping, shipping_tax, tax, total, refunded, coupon_counted, stock_held, note, access_token_hash,
           placed_at, paid_at, cancelled_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, NULL, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          next,
          status,
          paymentStatus,
          order.fulfillmentStatus ?? "unfulfilled",
          email,
          order.customerId,
          cartId,
          currency,
          JSON.stringify(ADDRESS),
          JSON.stringify(ADDRESS),
          JSON.stringify({ id: "shp_standard", name: { en: "Standard" }, price: shipping }),
          paymentMethod && JSON.stringify(paymentMethod),
          subtotal,
          discount,
          shipping,
          shippingTax,
          tax,
          total,
          order.refunded ?? 0,
          status === "cancelled" ? 0 : 1,
          sha256Hex(newId("tok")),
          placed,
          paid ? placed : null,
          status === "cancelled" ? placed : null,
          placed,
        );
      const insertItem = sqlite.query(
        `INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_title, sku, unit_price,
           quantity, stock_taken, subtotal, discount, tax_rate, tax, total, position)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const line of lines) {
        const name = typeof line.name === "object" ? line.name : { en: line.name ?? line.productId };
        insertItem.run(
          newId("item"),
          id,
          line.productId,
          line.variantId ?? `var_${line.productId.replace(/^prod_/, "")}`,
          JSON.stringify(name),
          "Default",
          line.unitPrice,
          line.quantity,
          line.quantity,
          line.subtotal,
          line.discount,
          line.taxRate,
          line.tax,
          line.total,
          line.position,
        );
      }
      sqlite
        .query("INSERT INTO order_events (id, order_id, type, message, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(newId("evt"), id, "placed", `Order #${next} placed`, placed);
    })();
    return { id, number: next, total };
  });
}
