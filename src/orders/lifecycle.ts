import { ApiError } from "../core/errors.ts";
import { type EventType, recordEvent } from "../core/events.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import type { FulfillmentStatus, OrderPayment, OrderStatus, PaymentStatus } from "./tables.ts";
import { findOrderRow, type OrderRow, orderView } from "./view.ts";

// The one place an order's state changes. `ORDER_MOVES` lists, per state field, where each state
// may go; `moveOrder` refuses any other move (a 409 naming the order's state), applies an allowed
// one as a compare-and-set on the state it was checked against, and appends the timeline entry,
// all in the caller's transaction, and records the events the move makes happen (`order.paid`,
// `order.fulfilled`, …; core/events.ts). The orders service (fulfil, refund, cancel, mark paid) and the
// payments module (reconciliation, the expiry sweep, refunds settled by a provider) move orders
// only through here; nothing else writes `orders.status`, `payment_status` or `fulfillment_status`.

/** Where each state may move; a field left as it is is no move. */
export const ORDER_MOVES: {
  status: Record<OrderStatus, readonly OrderStatus[]>;
  paymentStatus: Record<PaymentStatus, readonly PaymentStatus[]>;
  fulfillmentStatus: Record<FulfillmentStatus, readonly FulfillmentStatus[]>;
} = {
  status: {
    open: ["completed", "cancelled"],
    // Only a payment that arrives after a cancel re-opens an order (its stock taken again).
    cancelled: ["open"],
    completed: [],
  },
  paymentStatus: {
    pending: ["processing", "paid", "failed", "expired"],
    processing: ["pending", "paid", "failed", "expired"],
    // A failed or expired payment may be tried again, and a late one may still arrive.
    failed: ["pending", "processing", "paid", "expired"],
    expired: ["pending", "processing", "paid", "failed"],
    paid: ["partially_refunded", "refunded"],
    // A provider refund that fails after it was requested gives the amount back to "paid".
    partially_refunded: ["paid", "refunded"],
    refunded: ["paid", "partially_refunded"],
  },
  fulfillmentStatus: {
    unfulfilled: ["fulfilled"],
    fulfilled: [],
  },
};

/** `open / paid / unfulfilled`: the three states of an order, as conflict messages name them. */
const orderState = (row: OrderRow): string =>
  `${row.status} / ${row.payment_status} / ${row.fulfillment_status}`;

/** A 409 naming the order's state and why the action is refused. */
export function orderConflict(action: string, row: OrderRow, why: string): ApiError {
  return new ApiError("CONFLICT", `Cannot ${action}: the order is ${orderState(row)} (${why})`);
}

/** Whether the table allows `field` to go from `from` to `to` (staying is always allowed). */
export function moveAllowed<F extends keyof typeof ORDER_MOVES>(field: F, from: string, to: string): boolean {
  if (from === to) return true;
  const next = (ORDER_MOVES[field] as Record<string, readonly string[]>)[from];
  return next?.includes(to) ?? false;
}

export interface OrderMove {
  /** What the caller does, as a refusal names it ("fulfil", "refund", "payment update"). */
  action: string;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  fulfillmentStatus?: FulfillmentStatus;
  /** Minor units refunded in all. */
  refunded?: number;
  paidAt?: number | null;
  cancelledAt?: number | null;
  cancelReason?: string | null;
  /** The timeline entry the move appends (none when absent). */
  timeline?: { type: string; message: string };
}

const COLUMNS = {
  status: "status",
  paymentStatus: "payment_status",
  fulfillmentStatus: "fulfillment_status",
  refunded: "refunded",
  paidAt: "paid_at",
  cancelledAt: "cancelled_at",
  cancelReason: "cancel_reason",
} as const;

const FIELDS = [
  ["status", "status"],
  ["paymentStatus", "payment_status"],
  ["fulfillmentStatus", "fulfillment_status"],
] as const;

/**
 * Moves the order read as `row`: every changed state field must be allowed by `ORDER_MOVES`, and the
 * row must still be in the state it was read in (status, payment and fulfillment status, refunded
 * amount), so a move never applies on top of another it did not see. Sets `updated_at`, withdraws
 * a payment retry the move made impossible and appends the timeline entry. Returns the row after.
 */
export function moveOrder(tenant: TenantDb, row: OrderRow, move: OrderMove, at = Date.now()): OrderRow {
  for (const [field, column] of FIELDS) {
    const to = move[field];
    if (to !== undefined && !moveAllowed(field, row[column], to)) {
      throw orderConflict(
        move.action,
        row,
        `its ${column.replace("_", " ")} cannot go from ${row[column]} to ${to}`,
      );
    }
  }
  const assignments: string[] = [];
  const args: (string | number | null)[] = [];
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = move[key as keyof typeof COLUMNS];
    if (value === undefined) continue;
    assignments.push(`${column} = ?`);
    args.push(value);
  }
  const result = tenant.sqlite
    .query(
      `UPDATE orders SET ${[...assignments, "updated_at = ?"].join(", ")}
        WHERE id = ? AND status = ? AND payment_status = ? AND fulfillment_status = ? AND refunded = ?`,
    )
    .run(...args, at, row.id, row.status, row.payment_status, row.fulfillment_status, row.refunded);
  if (result.changes === 0) {
    throw orderConflict(
      move.action,
      findOrderRow(tenant, row.id),
      "it changed while this request was handled",
    );
  }
  withdrawPaymentRetry(tenant, row.id);
  if (move.timeline) addOrderEvent(tenant, row.id, move.timeline.type, move.timeline.message, at);
  const after = findOrderRow(tenant, row.id);
  const happened = eventsOfMove(row, after);
  if (happened.length) {
    const order = orderView(tenant, row.id);
    for (const type of happened) recordEvent(tenant, type, order, at);
  }
  return after;
}

/** Payment states in which the money was received at some point. */
const RECEIVED = new Set(["paid", "partially_refunded", "refunded"]);

/** The events a move makes happen, in the order a receiver expects them. */
function eventsOfMove(before: OrderRow, after: OrderRow): EventType[] {
  const happened: EventType[] = [];
  if (after.payment_status === "paid" && !RECEIVED.has(before.payment_status)) happened.push("order.paid");
  if (after.payment_status === "failed" && before.payment_status !== "failed")
    happened.push("order.payment_failed");
  if (after.fulfillment_status === "fulfilled" && before.fulfillment_status !== "fulfilled")
    happened.push("order.fulfilled");
  if (after.refunded > before.refunded) happened.push("order.refunded");
  if (after.status === "cancelled" && before.status !== "cancelled") happened.push("order.cancelled");
  return happened;
}

/** Appends an entry to the order's timeline; place-order and every move call this in their transaction. */
export function addOrderEvent(
  tenant: TenantDb,
  orderId: string,
  type: string,
  message: string,
  at = Date.now(),
) {
  tenant.sqlite
    .query("INSERT INTO order_events (id, order_id, type, message, created_at) VALUES (?, ?, ?, ?, ?)")
    .run(newId("evt"), orderId, type, message, at);
}

/** Payment states from which a provider payment can be asked again: nothing received or on its way. */
const RETRYABLE_PAYMENT = new Set(["pending", "failed", "expired"]);

/**
 * Whether the order's provider payment can be tried again (`retryOrderPayment`): the order is open
 * and nothing was received or is on its way. Outside this state a retry answers 409, so no stored
 * payment offers `retry` then.
 */
export function canRetryPayment(row: Pick<OrderRow, "status" | "payment_status">): boolean {
  return row.status === "open" && RETRYABLE_PAYMENT.has(row.payment_status);
}

/** Writes the order's `payments` (its payment attempts as shown), for the payments module. */
export function setOrderPayments(tenant: TenantDb, orderId: string, payments: OrderPayment[]): void {
  tenant.sqlite.query("UPDATE orders SET payments = ? WHERE id = ?").run(JSON.stringify(payments), orderId);
}

/**
 * Takes `retry` (and the `error` it came with) off the order's stored payments once the order can
 * no longer be paid, in the transaction of the move that took it there.
 */
function withdrawPaymentRetry(tenant: TenantDb, orderId: string): void {
  const row = tenant.sqlite
    .query("SELECT status, payment_status, payments FROM orders WHERE id = ?")
    .get(orderId) as Pick<OrderRow, "status" | "payment_status" | "payments">;
  if (canRetryPayment(row)) return;
  const payments = JSON.parse(row.payments) as OrderPayment[];
  if (!payments.some((payment) => payment.retry)) return;
  setOrderPayments(
    tenant,
    orderId,
    payments.map(({ error: _error, retry: _retry, ...payment }) => payment),
  );
}

/** Adds flags to the order's payment (`amount_mismatch`, `chargeback`, …); each flag is kept once. */
export function flagOrderPayment(tenant: TenantDb, orderId: string, flags: string[]): void {
  const row = tenant.sqlite.query("SELECT payment_flags FROM orders WHERE id = ?").get(orderId) as {
    payment_flags: string;
  };
  const current = new Set(JSON.parse(row.payment_flags) as string[]);
  for (const flag of flags) current.add(flag);
  tenant.sqlite
    .query("UPDATE orders SET payment_flags = ? WHERE id = ?")
    .run(JSON.stringify([...current]), orderId);
}

/** A refund as the order lists it: recorded when asked (by the merchant, or seen at the provider). */
export function recordRefund(
  tenant: TenantDb,
  refund: {
    id: string;
    orderId: string;
    amount: number;
    reason: string | null;
    status: string;
    restock: boolean;
  },
  at: number,
): void {
  tenant.sqlite
    .query(
      `INSERT INTO refunds (id, order_id, amount, reason, status, restock, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(refund.id, refund.orderId, refund.amount, refund.reason, refund.status, refund.restock ? 1 : 0, at);
}

/** A refund's outcome as the provider settled it. */
export function setRefundStatus(tenant: TenantDb, refundId: string, status: string): void {
  tenant.sqlite.query("UPDATE refunds SET status = ? WHERE id = ?").run(status, refundId);
}
