import { countLowStockVariants } from "../catalog/products.ts";
import { getStore, type Money, money } from "../catalog/store-settings.ts";
import type { Localized, products } from "../catalog/tables.ts";
import { ApiError } from "../core/errors.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { iso } from "../lib/time.ts";
import type { orderItems, orders } from "./tables.ts";

// Dashboard statistics. Every figure is an SQL aggregate; no order is loaded.
//
// The range is half-open, [from, to), on `placed_at`:
// - revenue: money kept from orders placed in the range whose payment was taken (paid,
//   partially_refunded, refunded): Σ(total − refunded), whatever the order's status;
// - ordersCount: orders placed in the range that are not cancelled;
// - averageOrderValue: revenue ÷ the number of orders in the range whose payment was taken,
//   rounded half away from zero; 0 when there are none;
// - newCustomersCount: customers created in the range; customersCount: all customers;
// - productsCount, lowStockVariants, ordersAwaitingPayment, ordersAwaitingFulfillment: the state
//   now, whatever the range; lowStockVariants counts the variants the storefront marks `lowStock`
//   (sold out and backorder are not low);
// - topProducts: the five products with the highest Σ line total over the non-cancelled orders
//   placed in the range (ties: more units, then product id);
// - salesByDay: every UTC day the range touches, zero days included, with the same rules as
//   ordersCount and revenue (so the days add up to them).

export const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

interface StatsRange {
  from: number;
  to: number;
}

const rangeError = (path: string, message: string) =>
  new ApiError("VALIDATION_ERROR", `Invalid query: ${path} ${message}`, [{ path, message }]);

/** The range asked for: `to` defaults to now, `from` to 30 days before `to`. */
export function statsRange(query: { from?: string; to?: string }, now = Date.now()): StatsRange {
  const to = query.to === undefined ? now : Date.parse(query.to);
  const from = query.from === undefined ? to - DEFAULT_RANGE_DAYS * DAY_MS : Date.parse(query.from);
  if (to <= from) throw rangeError("/query/to", "must be after from");
  if (to - from > MAX_RANGE_DAYS * DAY_MS)
    throw rangeError("/query/from", `the range may span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

/** a ÷ b (b > 0) rounded half away from zero, in integers. */
export function divideRounded(a: number, b: number): number {
  const q = Math.floor((2 * Math.abs(a) + b) / (2 * b));
  return a < 0 ? -q : q;
}

/**
 * Payment states in which the order's money was taken (refunds are subtracted separately): the
 * revenue rule here and of the customers' `totalSpent`, so the customers' totals add up to it.
 */
export const CAPTURED_PAYMENT_SQL = "('paid', 'partially_refunded', 'refunded')";

const CAPTURED = `payment_status IN ${CAPTURED_PAYMENT_SQL}`;

/** Orders placed in the range: those not cancelled, the revenue kept, and how many paid for it. */
function rangeTotals(tenant: TenantDb, { from, to }: StatsRange) {
  return tenant.sqlite
    .query(
      `SELECT count(CASE WHEN status <> 'cancelled' THEN 1 END) AS orders_count,
              coalesce(sum(CASE WHEN ${CAPTURED} THEN total - refunded END), 0) AS revenue,
              count(CASE WHEN ${CAPTURED} THEN 1 END) AS paid_count
         FROM orders WHERE placed_at >= ? AND placed_at < ?`,
    )
    .get(from, to) as { orders_count: number; revenue: number; paid_count: number };
}

/** All customers, and those created in the range. */
function customerCounts(tenant: TenantDb, { from, to }: StatsRange) {
  return tenant.sqlite
    .query(
      `SELECT count(*) AS total, count(CASE WHEN created_at >= ? AND created_at < ? THEN 1 END) AS new
         FROM customers`,
    )
    .get(from, to) as { total: number; new: number };
}

/** Active products, and the variants of them the storefront shows as `lowStock`, now. */
function catalogCounts(tenant: TenantDb, lowStockThreshold: number) {
  const { products } = tenant.sqlite
    .query("SELECT count(*) AS products FROM products WHERE status = 'active'")
    .get() as { products: number };
  return { products, lowStock: countLowStockVariants(tenant, lowStockThreshold) };
}

/** Open orders waiting for their payment, and those ready to ship, now. */
function awaitingCounts(tenant: TenantDb) {
  return tenant.sqlite
    .query(
      `SELECT count(CASE WHEN payment_status IN ('pending', 'processing') THEN 1 END) AS payment,
              count(CASE WHEN fulfillment_status = 'unfulfilled'
                          AND (payment_status = 'paid' OR json_extract(payment_method, '$.provider') = 'manual')
                         THEN 1 END) AS fulfillment
         FROM orders WHERE status = 'open'`,
    )
    .get() as { payment: number; fulfillment: number };
}

/** The five products sold for the most in the range's non-cancelled orders. */
function topProducts(tenant: TenantDb, { from, to }: StatsRange, m: (amount: number) => Money) {
  // One max() aggregate: SQLite takes the bare product_name from the row of the latest order, the
  // name the product was last sold under (used when the product no longer exists).
  const rows = tenant.sqlite
    .query(
      `SELECT i.product_id, sum(i.quantity) AS quantity, sum(i.total) AS revenue,
              max(o.placed_at) AS last_sold, i.product_name AS sold_name, p.name AS current_name
         FROM order_items i
         JOIN orders o ON o.id = i.order_id
         LEFT JOIN products p ON p.id = i.product_id
        WHERE o.placed_at >= ? AND o.placed_at < ? AND o.status <> 'cancelled'
        GROUP BY i.product_id
        ORDER BY revenue DESC, quantity DESC, i.product_id
        LIMIT 5`,
    )
    .all(from, to) as (Pick<Row<typeof orderItems>, "product_id"> & {
    quantity: number;
    revenue: number;
    last_sold: Row<typeof orders>["placed_at"];
    sold_name: Row<typeof orderItems>["product_name"];
    /** Null when the product no longer exists (LEFT JOIN). */
    current_name: Row<typeof products>["name"] | null;
  })[];
  return rows.map((row) => ({
    productId: row.product_id,
    name: JSON.parse(row.current_name ?? row.sold_name) as Localized,
    quantity: row.quantity,
    revenue: m(row.revenue),
  }));
}

/** Every UTC day the range touches, days without orders included. */
function salesByDay(tenant: TenantDb, { from, to }: StatsRange, m: (amount: number) => Money) {
  const days = tenant.sqlite
    .query(
      `SELECT placed_at / ${DAY_MS} AS day,
              count(CASE WHEN status <> 'cancelled' THEN 1 END) AS orders,
              coalesce(sum(CASE WHEN ${CAPTURED} THEN total - refunded END), 0) AS revenue
         FROM orders WHERE placed_at >= ? AND placed_at < ?
        GROUP BY day`,
    )
    .all(from, to) as { day: number; orders: number; revenue: number }[];
  const byDay = new Map(days.map((d) => [d.day, d]));
  const sales: { date: string; orders: number; revenue: Money }[] = [];
  for (let day = Math.floor(from / DAY_MS); day <= Math.floor((to - 1) / DAY_MS); day++) {
    const found = byDay.get(day);
    sales.push({
      date: iso(day * DAY_MS).slice(0, 10),
      orders: found?.orders ?? 0,
      revenue: m(found?.revenue ?? 0),
    });
  }
  return sales;
}

export function dashboardStats(tenant: TenantDb, range: StatsRange) {
  const store = getStore(tenant);
  const m = (amount: number) => money(amount, store.currency);
  const totals = rangeTotals(tenant, range);
  const customers = customerCounts(tenant, range);
  const catalog = catalogCounts(tenant, store.lowStockThreshold);
  const awaiting = awaitingCounts(tenant);
  return {
    from: iso(range.from),
    to: iso(range.to),
    revenue: m(totals.revenue),
    ordersCount: totals.orders_count,
    averageOrderValue: m(totals.paid_count === 0 ? 0 : divideRounded(totals.revenue, totals.paid_count)),
    customersCount: customers.total,
    newCustomersCount: customers.new,
    productsCount: catalog.products,
    lowStockVariants: catalog.lowStock,
    ordersAwaitingPayment: awaiting.payment,
    ordersAwaitingFulfillment: awaiting.fulfillment,
    topProducts: topProducts(tenant, range, m),
    salesByDay: salesByDay(tenant, range, m),
  };
}
