import { Type } from "@sinclair/typebox";
import { named, type PageParams, PageQuery, Text, Timestamp } from "../core/schemas.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { likeContains } from "../lib/sql.ts";
import { iso } from "../lib/time.ts";
import { FulfillmentStatus, OrderStatus, OrderTotals, PaymentStatus } from "./schema.ts";
import type { orders } from "./tables.ts";
import { orderTotals } from "./view.ts";

// Order lists (storefront "my orders" and the admin list) show a summary per order, read in one
// query for the page plus one count, instead of the full order (lines, refunds, fulfillments,
// events), which would cost several queries per order. The full order is one GET away.

/**
 * SQL condition (orders aliased `o`) for the orders a signed-in customer sees as theirs: placed
 * from a cart that belonged to that customer's session. Guest checkouts with the same email, made
 * before or after the account existed, stay out. Place-order must set `carts.customer_id` from
 * the customer session; `GET /v1/orders` uses `o.customer_id = ? AND ${ACCOUNT_ORDER_SQL}`.
 */
export const ACCOUNT_ORDER_SQL =
  "EXISTS (SELECT 1 FROM carts account_cart WHERE account_cart.id = o.cart_id AND account_cart.customer_id = o.customer_id)";

export const OrderSummary = named(
  "OrderSummary",
  Type.Object({
    id: Type.String(),
    number: Type.Integer({ description: "Per-store sequence from 1001" }),
    status: OrderStatus,
    paymentStatus: PaymentStatus,
    fulfillmentStatus: FulfillmentStatus,
    email: Type.String(),
    customerId: Type.String(),
    totals: OrderTotals,
    itemCount: Type.Integer({ description: "Units ordered (the sum of the lines' quantities)" }),
    placedAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const ListOrdersQuery = Type.Object({ ...PageQuery });

export const AdminListOrdersQuery = Type.Object({
  status: Type.Optional(OrderStatus),
  paymentStatus: Type.Optional(PaymentStatus),
  fulfillmentStatus: Type.Optional(FulfillmentStatus),
  query: Type.Optional(
    Text({
      max: 200,
      description:
        "Order number (exact, `#` optional), or part of the email or of the customer's first or last name",
    }),
  ),
  from: Type.Optional(
    Type.String({ format: "date-time", maxLength: 40, description: "Placed at or after (ISO 8601)" }),
  ),
  to: Type.Optional(
    Type.String({ format: "date-time", maxLength: 40, description: "Placed before (ISO 8601)" }),
  ),
  ...PageQuery,
});

interface OrderListFilter {
  /** Only this customer's orders (the storefront list). */
  customerId?: string;
  status?: string;
  paymentStatus?: string;
  fulfillmentStatus?: string;
  query?: string;
  /** ISO 8601, inclusive. */
  from?: string;
  /** ISO 8601, exclusive. */
  to?: string;
}

/** The columns of the page query in `listOrders`, with its computed `item_count`. */
type SummaryRow = Pick<
  Row<typeof orders>,
  | "id"
  | "number"
  | "status"
  | "payment_status"
  | "fulfillment_status"
  | "email"
  | "customer_id"
  | "currency"
  | "subtotal"
  | "discount"
  | "shipping"
  | "tax"
  | "total"
  | "refunded"
  | "placed_at"
  | "updated_at"
> & { item_count: number };

/** One page of order summaries, newest first (ties broken by id), and the total count: two queries. */
export function listOrders(tenant: TenantDb, filter: OrderListFilter, page: PageParams) {
  const where: string[] = [];
  const args: (string | number)[] = [];
  let joinCustomers = false;
  if (filter.customerId !== undefined) {
    where.push(`o.customer_id = ? AND ${ACCOUNT_ORDER_SQL}`);
    args.push(filter.customerId);
  }
  if (filter.status) {
    where.push("o.status = ?");
    args.push(filter.status);
  }
  if (filter.paymentStatus) {
    where.push("o.payment_status = ?");
    args.push(filter.paymentStatus);
  }
  if (filter.fulfillmentStatus) {
    where.push("o.fulfillment_status = ?");
    args.push(filter.fulfillmentStatus);
  }
  if (filter.from !== undefined) {
    where.push("o.placed_at >= ?");
    args.push(Date.parse(filter.from));
  }
  if (filter.to !== undefined) {
    where.push("o.placed_at < ?");
    args.push(Date.parse(filter.to));
  }
  const term = filter.query?.trim();
  if (term) {
    joinCustomers = true;
    const like = likeContains(term);
    const alternatives = [
      "o.email LIKE ? ESCAPE '\\'",
      "c.first_name LIKE ? ESCAPE '\\'",
      "c.last_name LIKE ? ESCAPE '\\'",
      "(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) LIKE ? ESCAPE '\\'",
    ];
    const termArgs: (string | number)[] = [like, like, like, like];
    const number = /^#?(\d{1,15})$/.exec(term);
    if (number) {
      alternatives.unshift("o.number = ?");
      termArgs.unshift(Number(number[1]));
    }
    where.push(`(${alternatives.join(" OR ")})`);
    args.push(...termArgs);
  }

  const from = joinCustomers ? "orders o LEFT JOIN customers c ON c.id = o.customer_id" : "orders o";
  const filterSql = `FROM ${from}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  const rows = tenant.sqlite
    .query(
      `SELECT o.id, o.number, o.status, o.payment_status, o.fulfillment_status, o.email, o.customer_id,
              o.currency, o.subtotal, o.discount, o.shipping, o.tax, o.total, o.refunded, o.placed_at,
              o.updated_at,
              (SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS item_count
         ${filterSql}
        ORDER BY o.placed_at DESC, o.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...args, page.limit, (page.page - 1) * page.limit) as SummaryRow[];
  const { total } = tenant.sqlite.query(`SELECT count(*) AS total ${filterSql}`).get(...args) as {
    total: number;
  };
  return { items: rows.map(summaryView), total };
}

function summaryView(row: SummaryRow) {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    paymentStatus: row.payment_status,
    fulfillmentStatus: row.fulfillment_status,
    email: row.email,
    customerId: row.customer_id,
    totals: orderTotals(row),
    itemCount: row.item_count,
    placedAt: iso(row.placed_at),
    updatedAt: iso(row.updated_at),
  };
}
