import { recountCouponUse, releaseCouponUse } from "../cart/coupons.ts";
import { returnStock, takeStock } from "../catalog/inventory.ts";
import { ApiError } from "../core/errors.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { decimalAmount } from "../lib/currency.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import type { ProviderRefundRequest, ProviderRefundResult } from "./checkout-payments.ts";
import { moveOrder, orderConflict, recordRefund } from "./lifecycle.ts";
import type { OrderPaymentMethod, orders } from "./tables.ts";
import { findOrderRow, type OrderRow } from "./view.ts";

// The merchant's order actions (fulfil, refund, cancel, mark paid) and the releases of stock and
// coupon use. Each action checks that it makes sense from the order's state (else a 409 naming that
// state) and moves the order through `moveOrder` (lifecycle.ts), inside the caller's transaction
// (the operations are transactional and durable); none awaits.

/** Payment states in which the order's money was received (and not all of it given back). */
const PAID = new Set(["paid", "partially_refunded"]);
/** Payment states that forbid a cancel: money was received and is kept, so the way back is a refund. */
const MONEY_KEPT = new Set(["paid", "partially_refunded"]);

const parsePaymentMethod = (row: OrderRow): OrderPaymentMethod | null =>
  parseJsonOrNull<OrderPaymentMethod>(row.payment_method);

/** Whether the order is paid through a manual method (bank transfer, cash on delivery). */
const isManualPayment = (row: OrderRow): boolean => parsePaymentMethod(row)?.provider === "manual";

/** "12.50 EUR": minor units shown with the currency's own number of decimals. */
export function formatAmount(amount: number, currency: string): string {
  return `${decimalAmount(amount, currency)} ${currency}`;
}

// ---------------------------------------------------------------- releases (also used by payments)

/**
 * Gives the order's units back to stock, once: `on_hand += stock_taken` of every line (what the
 * line really took, fewer than its quantity on backorder) and `stock_held = 0`. Returns false when
 * the stock was already released, in which case nothing changes. Does not append an event.
 */
export function releaseStock(tenant: TenantDb, orderId: string): boolean {
  const sqlite = tenant.sqlite;
  const claimed = sqlite
    .query("UPDATE orders SET stock_held = 0 WHERE id = ? AND stock_held = 1")
    .run(orderId);
  if (claimed.changes === 0) return false;
  // Two lines of the same variant add up.
  const returned = sqlite
    .query(
      "SELECT variant_id AS variantId, sum(stock_taken) AS units FROM order_items WHERE order_id = ? GROUP BY variant_id",
    )
    .all(orderId) as { variantId: string; units: number }[];
  returnStock(tenant, returned);
  return true;
}

/**
 * Takes the order's units from stock again (a payment arrived for an order whose stock was
 * released), all lines or none: tracked lines without backorder need their quantity on hand,
 * backordered ones take what is there. Counts the coupon use again too. Returns false, changing
 * nothing, when a line cannot be served or the stock is still held. Does not append an event.
 */
export function retakeStock(tenant: TenantDb, orderId: string): boolean {
  const sqlite = tenant.sqlite;
  const held = sqlite.query("SELECT stock_held FROM orders WHERE id = ?").get(orderId) as {
    stock_held: number;
  } | null;
  if (!held || held.stock_held === 1) return false;
  const lines = sqlite
    .query(
      `SELECT i.id, i.variant_id, i.quantity, v.tracked, v.on_hand, v.allow_backorder
         FROM order_items i LEFT JOIN variants v ON v.id = i.variant_id WHERE i.order_id = ?`,
    )
    .all(orderId) as {
    id: string;
    variant_id: string;
    quantity: number;
    tracked: number | null;
    on_hand: number | null;
    allow_backorder: number | null;
  }[];
  // Lines of the same variant are checked together.
  const wanted = new Map<string, number>();
  for (const line of lines) {
    if (line.tracked && !line.allow_backorder)
      wanted.set(line.variant_id, (wanted.get(line.variant_id) ?? 0) + line.quantity);
  }
  for (const line of lines) {
    if (line.tracked === null) return false; // the variant was deleted: it cannot be served again
    const need = wanted.get(line.variant_id);
    if (need !== undefined && (line.on_hand ?? 0) < need) return false;
  }
  const setTaken = sqlite.query("UPDATE order_items SET stock_taken = ? WHERE id = ?");
  // What each variant has left as earlier lines of the same variant take from it.
  const left = new Map(lines.map((line) => [line.variant_id, line.on_hand ?? 0]));
  for (const line of lines) {
    const onHand = left.get(line.variant_id)!;
    const variant = {
      id: line.variant_id,
      tracked: line.tracked === 1,
      allowBackorder: line.allow_backorder === 1,
      onHand,
    };
    // Checked above: a line without backorder finds its units.
    const take = takeStock(tenant, variant, line.quantity)!;
    left.set(line.variant_id, onHand - take);
    setTaken.run(take, line.id);
  }
  sqlite.query("UPDATE orders SET stock_held = 1 WHERE id = ?").run(orderId);
  const coupon = sqlite
    .query(
      "UPDATE orders SET coupon_counted = 1 WHERE id = ? AND coupon_counted = 0 AND coupon IS NOT NULL RETURNING coupon",
    )
    .get(orderId) as { coupon: string } | null;
  const code = coupon && parseJsonOrNull<{ code: string }>(coupon.coupon)?.code;
  if (code) recountCouponUse(tenant, code);
  return true;
}

/**
 * Gives back the coupon use the order counted, once (`coupon_counted = 0`, the coupon's
 * `usage_count` down by one, never below zero). Returns false when there was nothing to give back.
 * Does not append an event.
 */
export function releaseCoupon(tenant: TenantDb, orderId: string): boolean {
  const sqlite = tenant.sqlite;
  const claimed = sqlite
    .query("UPDATE orders SET coupon_counted = 0 WHERE id = ? AND coupon_counted = 1 RETURNING coupon")
    .get(orderId) as Pick<Row<typeof orders>, "coupon"> | null;
  if (!claimed) return false;
  const code = parseJsonOrNull<{ code: string }>(claimed.coupon)?.code ?? null;
  if (code) releaseCouponUse(tenant, code);
  return true;
}

// ---------------------------------------------------------------- fulfill

interface FulfillInput {
  carrier?: string;
  trackingNumber?: string;
  trackingUrl?: string;
}

/**
 * Fulfill: from open + unfulfilled, when the payment is received (paid, partially refunded) or
 * the order is paid by a manual method and still pending (cash on delivery, bank transfer not yet
 * seen). Records the fulfillment; the order is completed when paid, and stays open otherwise
 * until it is marked paid.
 */
export function fulfillOrder(tenant: TenantDb, orderId: string, input: FulfillInput, at = Date.now()): void {
  const row = findOrderRow(tenant, orderId);
  const paid = PAID.has(row.payment_status);
  const manualPending = isManualPayment(row) && row.payment_status === "pending";
  if (row.fulfillment_status !== "unfulfilled")
    throw orderConflict("fulfill", row, "it is already fulfilled");
  if (row.status !== "open") throw orderConflict("fulfill", row, `a ${row.status} order cannot be fulfilled`);
  if (!paid && !manualPending) {
    throw orderConflict("fulfill", row, "it is not paid, and its payment method is not a manual one");
  }

  let message = "Fulfilled";
  if (input.carrier) message += ` by ${input.carrier}`;
  if (input.trackingNumber) message += `, tracking number ${input.trackingNumber}`;
  message += paid ? "; order completed" : "; awaiting payment";
  moveOrder(
    tenant,
    row,
    {
      action: "fulfill",
      status: paid ? "completed" : "open",
      fulfillmentStatus: "fulfilled",
      timeline: { type: "fulfilled", message },
    },
    at,
  );
  tenant.sqlite
    .query(
      `INSERT INTO fulfillments (id, order_id, carrier, tracking_number, tracking_url, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(
      newId("ful"),
      orderId,
      input.carrier ?? null,
      input.trackingNumber ?? null,
      input.trackingUrl ?? null,
      at,
    );
}

// ---------------------------------------------------------------- refund

interface RefundInput {
  /** Minor units; defaults to what is left to refund. */
  amount?: number;
  reason?: string;
  /** Give the order's units back to stock (once per order). */
  restock?: boolean;
}

/**
 * Refunds of orders paid through a provider go through this (the payments module, see
 * checkout-payments.ts); without it they are refused with a 422, and only manual payment methods
 * refund immediately.
 */
interface ProviderRefunds {
  requestProviderRefund(request: ProviderRefundRequest): ProviderRefundResult;
}

const unavailableProviderRefunds: ProviderRefunds = {
  requestProviderRefund(request) {
    throw new ApiError(
      "UNPROCESSABLE",
      `Refunds through ${request.paymentMethod.provider} are not available`,
      [{ path: "/paymentMethod/provider", message: "provider refunds are not available" }],
    );
  },
};

interface RefundResult {
  refundId: string;
  amount: number;
  status: "pending" | "succeeded";
  /** Whether this refund returned the order's stock (false when not asked, or already returned). */
  restocked: boolean;
}

/**
 * Refund: from paid or partially refunded, whatever the order status. The amount defaults to what
 * is left (total − refunded) and must be 1..left (else 422). Manual payments (and orders without a
 * payment method) are refunded at once; provider payments go through `providers`. The payment
 * becomes refunded when everything was given back, else partially refunded.
 */
export function refundOrder(
  tenant: TenantDb,
  orderId: string,
  input: RefundInput,
  providers: ProviderRefunds = unavailableProviderRefunds,
  at = Date.now(),
): RefundResult {
  const row = findOrderRow(tenant, orderId);
  if (!PAID.has(row.payment_status)) {
    const why =
      row.payment_status === "refunded" ? "everything was already refunded" : "there is no payment to refund";
    throw orderConflict("refund", row, why);
  }
  const left = row.total - row.refunded;
  const amount = input.amount ?? left;
  if (amount < 1 || amount > left) {
    throw new ApiError(
      "UNPROCESSABLE",
      `The refund amount must be between 1 and what is left to refund (${left})`,
      [{ path: "/body/amount", message: `must be between 1 and ${left}` }],
    );
  }

  const refundId = newId("ref");
  const paymentMethod = parsePaymentMethod(row);
  let status: RefundResult["status"] = "succeeded";
  if (paymentMethod && paymentMethod.provider !== "manual") {
    status = providers.requestProviderRefund({
      orderId,
      refundId,
      amount,
      currency: row.currency,
      reason: input.reason ?? null,
      paymentMethod,
    }).status;
  }

  const refunded = row.refunded + amount;
  recordRefund(
    tenant,
    { id: refundId, orderId, amount, reason: input.reason ?? null, status, restock: input.restock === true },
    at,
  );
  const restocked = input.restock === true && releaseStock(tenant, orderId);
  let message = `${status === "pending" ? "Refund requested" : "Refunded"} ${formatAmount(amount, row.currency)}`;
  if (input.reason) message += `: ${input.reason}`;
  if (restocked) message += "; stock returned";
  else if (input.restock) message += "; stock had already been returned";
  moveOrder(
    tenant,
    row,
    {
      action: "refund",
      refunded,
      paymentStatus: refunded === row.total ? "refunded" : "partially_refunded",
      timeline: { type: "refunded", message },
    },
    at,
  );
  return { refundId, amount, status, restocked };
}

// ---------------------------------------------------------------- cancel

/**
 * Cancel: from open + unfulfilled when no money is kept: nothing was received (pending, processing,
 * failed, expired) or all of it was refunded. Releases the held stock and the coupon use, each only
 * if still held (a refund with restock gave the stock back already); it never refunds.
 */
export function cancelOrder(tenant: TenantDb, orderId: string, at = Date.now()): void {
  const row = findOrderRow(tenant, orderId);
  if (row.status !== "open") throw orderConflict("cancel", row, `a ${row.status} order cannot be cancelled`);
  if (row.fulfillment_status !== "unfulfilled") throw orderConflict("cancel", row, "it is already fulfilled");
  if (MONEY_KEPT.has(row.payment_status)) {
    throw orderConflict("cancel", row, "its payment was received; refund it instead");
  }

  const stock = releaseStock(tenant, orderId);
  const coupon = releaseCoupon(tenant, orderId);
  const released = [stock && "stock", coupon && "coupon use"].filter(Boolean).join(" and ");
  moveOrder(
    tenant,
    row,
    {
      action: "cancel",
      status: "cancelled",
      cancelledAt: at,
      cancelReason: "merchant",
      timeline: { type: "cancelled", message: released ? `Cancelled; ${released} released` : "Cancelled" },
    },
    at,
  );
}

// ---------------------------------------------------------------- mark paid

/**
 * Mark paid: an open order with a manual payment method whose payment is pending (the merchant saw
 * the transfer, or the courier collected the cash). Completes the order when it is already fulfilled.
 */
export function markOrderPaid(tenant: TenantDb, orderId: string, at = Date.now()): void {
  const row = findOrderRow(tenant, orderId);
  const method = parsePaymentMethod(row);
  if (method?.provider !== "manual") {
    throw orderConflict("mark paid", row, "only orders paid by a manual payment method can be marked paid");
  }
  if (row.payment_status !== "pending") throw orderConflict("mark paid", row, "its payment is not pending");
  if (row.status !== "open")
    throw orderConflict("mark paid", row, `a ${row.status} order cannot be marked paid`);

  const completes = row.fulfillment_status === "fulfilled";
  const message = `Marked paid (${method.type.replaceAll("_", " ")})${completes ? "; order completed" : ""}`;
  moveOrder(
    tenant,
    row,
    {
      action: "mark paid",
      paymentStatus: "paid",
      paidAt: at,
      status: completes ? "completed" : "open",
      timeline: { type: "paid", message },
    },
    at,
  );
}
