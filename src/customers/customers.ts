import { getStore, money } from "../catalog/store-settings.ts";
import { notFound } from "../core/errors.ts";
import type { PageParams } from "../core/schemas.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { likeContains } from "../lib/sql.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import { CAPTURED_PAYMENT_SQL } from "../orders/stats.ts";

// Customers as the admin sees them, with their order figures:
// - ordersCount and lastOrderAt: the customer's orders that are not cancelled;
// - totalSpent: money kept, Σ(total − refunded) over orders whose payment was taken (paid,
//   partially_refunded, refunded), the same rule as the dashboard's revenue, so the customers'
//   totals add up to the store's lifetime revenue.

interface CustomerRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  has_account: number;
  created_at: number;
  orders_count: number;
  total_spent: number;
  last_order_at: number | null;
}

// The page of customers is cut first, then joined to its orders (index orders_customer_idx) and
// aggregated in the same statement: one query for the page, whatever its size.
const AGGREGATE_SELECT = `
  SELECT c.id, c.email, c.first_name, c.last_name, c.phone, c.has_account, c.created_at,
         count(CASE WHEN o.status <> 'cancelled' THEN 1 END) AS orders_count,
         coalesce(sum(CASE WHEN o.payment_status IN ${CAPTURED_PAYMENT_SQL} THEN o.total - o.refunded END), 0)
           AS total_spent,
         max(CASE WHEN o.status <> 'cancelled' THEN o.placed_at END) AS last_order_at
    FROM page c
    LEFT JOIN orders o ON o.customer_id = c.id
   GROUP BY c.id
   ORDER BY c.created_at DESC, c.id DESC`;

const PAGE_COLUMNS =
  "id, email, first_name, last_name, phone, password_hash IS NOT NULL AS has_account, created_at";

function customerView(row: CustomerRow, currency: string) {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    hasAccount: row.has_account === 1,
    ordersCount: row.orders_count,
    totalSpent: money(row.total_spent, currency),
    lastOrderAt: isoOrNull(row.last_order_at),
    createdAt: iso(row.created_at),
  };
}

type CustomerView = ReturnType<typeof customerView>;

/** Customers newest first; `query` matches part of the email, first, last or full name (case-insensitive). */
export function listCustomers(
  tenant: TenantDb,
  filter: { query?: string },
  page: PageParams,
): { items: CustomerView[]; total: number } {
  const term = filter.query?.trim();
  let where = "";
  const args: string[] = [];
  if (term) {
    const pattern = likeContains(term);
    where = `WHERE email LIKE ?1 ESCAPE '\\' OR first_name LIKE ?1 ESCAPE '\\' OR last_name LIKE ?1 ESCAPE '\\'
                OR (coalesce(first_name, '') || ' ' || coalesce(last_name, '')) LIKE ?1 ESCAPE '\\'`;
    args.push(pattern);
  }
  const sqlite = tenant.sqlite;
  const { total } = sqlite.query(`SELECT count(*) AS total FROM customers ${where}`).get(...args) as {
    total: number;
  };
  const limitParam = args.length + 1;
  const rows = sqlite
    .query(
      `WITH page AS (
         SELECT ${PAGE_COLUMNS} FROM customers ${where}
          ORDER BY created_at DESC, id DESC LIMIT ?${limitParam} OFFSET ?${limitParam + 1}
       ) ${AGGREGATE_SELECT}`,
    )
    .all(...args, page.limit, (page.page - 1) * page.limit) as CustomerRow[];
  const { currency } = getStore(tenant);
  return { items: rows.map((row) => customerView(row, currency)), total };
}

const RECENT_ORDERS = 10;

/** One customer with its figures and its last ten orders (newest first, whatever their state); 404 when absent. */
export function getCustomer(tenant: TenantDb, customerId: string) {
  const sqlite = tenant.sqlite;
  const row = sqlite
    .query(`WITH page AS (SELECT ${PAGE_COLUMNS} FROM customers WHERE id = ?) ${AGGREGATE_SELECT}`)
    .get(customerId) as CustomerRow | null;
  if (!row) throw notFound("Customer");
  const orders = sqlite
    .query(
      `SELECT id, number, status, payment_status, total, currency, placed_at FROM orders
        WHERE customer_id = ? ORDER BY placed_at DESC, id DESC LIMIT ${RECENT_ORDERS}`,
    )
    .all(customerId) as {
    id: string;
    number: number;
    status: string;
    payment_status: string;
    total: number;
    currency: string;
    placed_at: number;
  }[];
  return {
    ...customerView(row, getStore(tenant).currency),
    recentOrders: orders.map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      paymentStatus: o.payment_status,
      total: money(o.total, o.currency),
      placedAt: iso(o.placed_at),
    })),
  };
}
