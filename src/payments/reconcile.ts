import type { AppContext } from "../app-context.ts";
import { tenantWritten } from "../core/response-cache.ts";
import { durably } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import {
  addOrderEvent,
  flagOrderPayment,
  moveOrder,
  recordRefund,
  setRefundStatus,
} from "../orders/lifecycle.ts";
import { formatAmount, releaseCoupon, releaseStock, retakeStock } from "../orders/service.ts";
import type { PaymentStatus } from "../orders/tables.ts";
import { findOrderRow } from "../orders/view.ts";
import {
  type AttemptRow,
  addRoutes,
  instructionsOf,
  type OrderAndAttempts,
  orderAttempts,
  syncOrderPayments,
} from "./attempts.ts";
import { nowOf } from "./state.ts";
import type {
  AttemptInstructions,
  CredentialSource,
  EventOutcome,
  Provider,
  RefundStatus,
} from "./tables.ts";

// Reconciliation: a verified notification becomes one transaction on the tenant file. Its event id
// is recorded first (a second delivery finds it and changes nothing), then its outcome is applied
// to the payment attempt and the order, and the order's paymentStatus is derived again from every
// attempt and refund record, never patched step by step, so any arrival order ends the same.

export type PaymentOutcome =
  /** `forceMismatch`: the provider's record contradicts the attempt (another payment, another key). */
  | { kind: "SUCCEEDED"; amount: number; currency: string; forceMismatch?: boolean }
  | { kind: "PROCESSING" }
  | { kind: "AUTHORIZED" }
  | { kind: "FAILED_RETRYABLE"; error: string }
  | { kind: "FAILED_FINAL"; error?: string }
  | { kind: "EXPIRED"; reason?: string }
  | { kind: "REFUND_SYNC"; refunds: RefundReport[]; refundedSeen?: number }
  | { kind: "CHARGEBACK" }
  | { kind: "IGNORED"; reason: string };

/** A refund as the provider reports it. */
export interface RefundReport {
  providerRefundId: string;
  /** Our refund id, when the provider echoes it (Stripe `metadata.refundId`). */
  refundId?: string;
  amount: number;
  status: RefundStatus;
}

export interface Notification {
  provider: Provider;
  eventId: string;
  /** The provider's event kind, for the audit record and the order history. */
  kind: string;
  payloadSha256: string;
  /** Which credentials verified it: it only affects attempts created with the same. */
  source: CredentialSource;
  /** Finds the attempt it is about, in the transaction. */
  find(tenant: TenantDb): AttemptRow | null;
  /** The organization the payload names (Stripe metadata), when it names one. */
  orgId?: string;
  /** A second provider reference learned from this notification (Stripe's PaymentIntent id). */
  ref2?: string;
  /** Facts to keep on the attempt when applied (Ifthenpay's payment time, as received). */
  instructions?: Partial<AttemptInstructions>;
  /** What it means; some providers' meaning depends on the attempt it is about. */
  outcome: PaymentOutcome | ((attempt: AttemptRow | null) => PaymentOutcome);
}

export type ReconcileResult = { outcome: EventOutcome | "duplicate"; reason?: string; orderId?: string };

const TERMINAL_FOR_FAILURE = new Set(["succeeded", "mismatch", "failed", "expired"]);

/** Applies a verified notification to a tenant, once per (provider, event id), in its own durable transaction. */
export function reconcile(ctx: AppContext, tenant: TenantDb, n: Notification): ReconcileResult {
  const result = durably(tenant.sqlite, () => reconcileInTransaction(ctx, tenant, n));
  if (result.outcome !== "duplicate" && result.outcome !== "ignored") tenantWritten(tenant);
  return result;
}

/** The same, inside the caller's transaction (an operation's write). */
export function reconcileInTransaction(ctx: AppContext, tenant: TenantDb, n: Notification): ReconcileResult {
  const now = nowOf(ctx);
  const seen = tenant.sqlite
    .query("SELECT 1 FROM payment_events WHERE provider = ? AND event_id = ?")
    .get(n.provider, n.eventId);
  if (seen) return { outcome: "duplicate" };
  const attempt = n.find(tenant);
  const decided = decide(ctx, tenant, n, attempt, now);
  tenant.sqlite
    .query(
      `INSERT INTO payment_events (provider, event_id, kind, attempt_id, order_id, outcome, reason, payload_sha256, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      n.provider,
      n.eventId,
      n.kind,
      attempt?.id ?? null,
      attempt?.order_id ?? null,
      decided.outcome,
      decided.reason ?? null,
      n.payloadSha256,
      now,
    );
  return { ...decided, orderId: attempt?.order_id };
}

function decide(
  ctx: AppContext,
  tenant: TenantDb,
  n: Notification,
  attempt: AttemptRow | null,
  now: number,
): { outcome: EventOutcome; reason?: string } {
  const outcome = typeof n.outcome === "function" ? n.outcome(attempt) : n.outcome;
  if (outcome.kind === "IGNORED") return { outcome: "ignored", reason: outcome.reason };
  if (n.orgId !== undefined && n.orgId !== tenant.orgId)
    return { outcome: "ignored", reason: "org_mismatch" };
  if (!attempt) return { outcome: "ignored", reason: "unknown_order" };
  if (attempt.credential_source !== n.source)
    return { outcome: "ignored", reason: "credential_source_mismatch" };
  if (n.ref2 && attempt.provider_ref2 === null) {
    tenant.sqlite.query("UPDATE payment_attempts SET provider_ref2 = ? WHERE id = ?").run(n.ref2, attempt.id);
    // A reference learnt from the notification (Stripe's payment intent) routes `_` notifications too.
    addRoutes(ctx, tenant.orgId, { ...attempt, provider_ref2: n.ref2 });
  }
  const applied = applyOutcome(tenant, n.provider, outcome, attempt, now);
  if (applied.outcome === "ignored" || applied.outcome === "stale") {
    syncOrderPayments(tenant, attempt.order_id);
    return applied;
  }
  if (n.instructions) {
    tenant.sqlite
      .query("UPDATE payment_attempts SET instructions = ? WHERE id = ?")
      .run(JSON.stringify({ ...instructionsOf(attempt), ...n.instructions }), attempt.id);
  }
  const read = recompute(tenant, attempt.order_id, now);
  addOrderEvent(tenant, attempt.order_id, "payment", `${n.provider} ${n.kind}: ${applied.note}`, now);
  syncOrderPayments(tenant, attempt.order_id, read);
  return applied;
}

type Applied = { outcome: EventOutcome; reason?: string; note: string };

function setAttempt(
  tenant: TenantDb,
  id: string,
  assignments: string,
  args: (string | number | null)[],
  now: number,
) {
  tenant.sqlite
    .query(`UPDATE payment_attempts SET ${assignments}, updated_at = ? WHERE id = ?`)
    .run(...args, now, id);
}

const stale = (why: string): Applied => ({ outcome: "stale", reason: why, note: why });

/** A payment taken: the attempt succeeds, unless it contradicts the attempt, pays twice or comes after a cancel. */
function applySucceeded(
  tenant: TenantDb,
  o: Extract<PaymentOutcome, { kind: "SUCCEEDED" }>,
  attempt: AttemptRow,
  now: number,
): Applied {
  if (attempt.status === "succeeded" || attempt.status === "mismatch")
    return stale(`already ${attempt.status}`);
  if (o.forceMismatch || o.amount !== attempt.amount || o.currency.toUpperCase() !== attempt.currency) {
    setAttempt(
      tenant,
      attempt.id,
      "status = 'mismatch', received_amount = ?, received_currency = ?",
      [o.amount, o.currency.toUpperCase()],
      now,
    );
    flagOrderPayment(tenant, attempt.order_id, ["amount_mismatch"]);
    return {
      outcome: "flagged",
      reason: "amount_mismatch",
      note: `payment of ${formatAmount(o.amount, o.currency.toUpperCase())} does not match ${formatAmount(attempt.amount, attempt.currency)}; not marked paid`,
    };
  }
  const others = orderAttempts(tenant, attempt.order_id).some(
    (a) => a.id !== attempt.id && a.status === "succeeded",
  );
  setAttempt(tenant, attempt.id, "status = 'succeeded'", [], now);
  const paid = `paid ${formatAmount(o.amount, attempt.currency)}`;
  if (others) {
    flagOrderPayment(tenant, attempt.order_id, ["duplicate_payment"]);
    return {
      outcome: "flagged",
      reason: "duplicate_payment",
      note: `${paid}, a second payment of this order`,
    };
  }
  const order = findOrderRow(tenant, attempt.order_id);
  if (order.status === "cancelled") return paidAfterCancel(tenant, order.id, paid, now);
  return { outcome: "applied", note: paid };
}

/** A cancelled order paid after all: re-opened when its stock can be taken again, else to be refunded. */
function paidAfterCancel(tenant: TenantDb, orderId: string, paid: string, now: number): Applied {
  if (retakeStock(tenant, orderId)) {
    moveOrder(
      tenant,
      findOrderRow(tenant, orderId),
      { action: "re-open", status: "open", cancelledAt: null, cancelReason: null },
      now,
    );
    flagOrderPayment(tenant, orderId, ["paid_after_cancel", "reopened_after_payment"]);
    return {
      outcome: "flagged",
      reason: "paid_after_cancel",
      note: `${paid} after the order was cancelled; re-opened, stock taken again`,
    };
  }
  flagOrderPayment(tenant, orderId, ["paid_after_cancel", "refund_required"]);
  return {
    outcome: "flagged",
    reason: "paid_after_cancel",
    note: `${paid} after the order was cancelled; its stock is gone, so it stays cancelled and must be refunded`,
  };
}

/** A payment that failed for good or expired: the attempt ends, and the order with it when nothing else can pay it. */
function applyEnded(
  tenant: TenantDb,
  o: Extract<PaymentOutcome, { kind: "FAILED_FINAL" | "EXPIRED" }>,
  attempt: AttemptRow,
  now: number,
): Applied {
  if (TERMINAL_FOR_FAILURE.has(attempt.status)) return stale(`already ${attempt.status}`);
  const failed = o.kind === "FAILED_FINAL";
  const error = failed ? (o.error ?? null) : (o.reason ?? null);
  setAttempt(
    tenant,
    attempt.id,
    "status = ?, last_error = coalesce(?, last_error)",
    [failed ? "failed" : "expired", error],
    now,
  );
  const closed = closeIfNothingLeft(tenant, attempt, failed ? "failed" : "expired", now);
  const what = failed ? "payment failed" : "payment expired";
  return { outcome: "applied", note: closed ? `${what}; order cancelled, stock released` : what };
}

function applyOutcome(
  tenant: TenantDb,
  provider: Provider,
  o: PaymentOutcome,
  attempt: AttemptRow,
  now: number,
): Applied {
  switch (o.kind) {
    case "SUCCEEDED":
      return applySucceeded(tenant, o, attempt, now);
    case "PROCESSING":
    case "AUTHORIZED": {
      if (TERMINAL_FOR_FAILURE.has(attempt.status)) return stale(`already ${attempt.status}`);
      const status = o.kind === "PROCESSING" ? "processing" : "authorized";
      setAttempt(tenant, attempt.id, "status = ?", [status], now);
      return { outcome: "applied", note: `payment ${status}` };
    }
    case "FAILED_RETRYABLE": {
      if (TERMINAL_FOR_FAILURE.has(attempt.status)) return stale(`already ${attempt.status}`);
      setAttempt(tenant, attempt.id, "last_error = ?", [o.error.slice(0, 200)], now);
      return { outcome: "applied", note: `payment failed (${o.error}); the shopper may try again` };
    }
    case "FAILED_FINAL":
    case "EXPIRED":
      return applyEnded(tenant, o, attempt, now);
    case "REFUND_SYNC": {
      for (const report of o.refunds) syncRefund(tenant, attempt, report, provider, now);
      if (o.refundedSeen !== undefined && o.refundedSeen > attempt.refunded_seen) {
        setAttempt(tenant, attempt.id, "refunded_seen = ?", [o.refundedSeen], now);
      }
      return { outcome: "applied", note: "refunds updated" };
    }
    case "CHARGEBACK": {
      flagOrderPayment(tenant, attempt.order_id, ["chargeback"]);
      return { outcome: "flagged", reason: "chargeback", note: "chargeback opened" };
    }
    case "IGNORED":
      return { outcome: "ignored", reason: o.reason, note: "" };
  }
}

/** A live attempt can still be paid: created, processing or authorized, and not expired. */
const isLive = (a: AttemptRow, now: number) =>
  (a.status === "created" || a.status === "processing" || a.status === "authorized") && a.expires_at > now;

/**
 * Cancels an open, unfulfilled order when no attempt succeeded, is processing or is still live:
 * the last way to pay it is gone. Releases stock and coupon use. Returns whether it did.
 */
function closeIfNothingLeft(
  tenant: TenantDb,
  attempt: AttemptRow,
  reason: "failed" | "expired",
  now: number,
): boolean {
  const order = findOrderRow(tenant, attempt.order_id);
  if (order.status !== "open" || order.fulfillment_status !== "unfulfilled") return false;
  const others = orderAttempts(tenant, order.id).filter((a) => a.id !== attempt.id);
  if (others.some((a) => a.status === "succeeded" || a.status === "processing" || isLive(a, now)))
    return false;
  moveOrder(
    tenant,
    order,
    { action: "cancel", status: "cancelled", cancelledAt: now, cancelReason: reason },
    now,
  );
  releaseStock(tenant, order.id);
  releaseCoupon(tenant, order.id);
  return true;
}

const STRIPE_REFUND_REASON = "Refunded at the payment provider";

/** Upserts a refund record by the provider's refund id (or our own id, when the provider echoes it). */
function syncRefund(
  tenant: TenantDb,
  attempt: AttemptRow,
  report: RefundReport,
  provider: Provider,
  now: number,
): void {
  const sqlite = tenant.sqlite;
  const existing = (
    report.refundId
      ? sqlite
          .query("SELECT id FROM payment_refunds WHERE id = ? AND attempt_id = ?")
          .get(report.refundId, attempt.id)
      : null
  ) as { id: string } | null;
  const byProvider = sqlite
    .query("SELECT id FROM payment_refunds WHERE provider_refund_id = ?")
    .get(report.providerRefundId) as { id: string } | null;
  const id = existing?.id ?? byProvider?.id;
  if (id) {
    sqlite
      .query(
        "UPDATE payment_refunds SET provider_refund_id = coalesce(provider_refund_id, ?), status = ?, updated_at = ? WHERE id = ?",
      )
      .run(report.providerRefundId, report.status, now, id);
    setRefundStatus(tenant, id, report.status);
    return;
  }
  if (report.amount <= 0) return;
  const refundId = newId("ref");
  sqlite
    .query(
      `INSERT INTO payment_refunds (id, order_id, attempt_id, provider_refund_id, amount, status, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'provider', ?, ?)`,
    )
    .run(
      refundId,
      attempt.order_id,
      attempt.id,
      report.providerRefundId,
      report.amount,
      report.status,
      now,
      now,
    );
  recordRefund(
    tenant,
    {
      id: refundId,
      orderId: attempt.order_id,
      amount: report.amount,
      reason: `${STRIPE_REFUND_REASON} (${provider})`,
      status: report.status,
      restock: false,
    },
    now,
  );
}

/**
 * Derives the order's paymentStatus, refunded amount and paidAt from its attempts and refund
 * records: paid = Σ succeeded attempts; refunded = Σ per attempt of max(its pending + succeeded
 * refunds, the largest cumulative refund the provider reported). Never sets `completed` and never
 * touches fulfillment. Returns the order as it is now, with the attempts it was derived from.
 */
export function recompute(tenant: TenantDb, orderId: string, now: number): OrderAndAttempts {
  const order = findOrderRow(tenant, orderId);
  const attempts = orderAttempts(tenant, orderId);
  if (attempts.length === 0) return { order, attempts };
  // Through the attempts' index: payment_refunds has none on order_id, and a refund's order is its attempt's.
  const refundSums = new Map(
    (
      tenant.sqlite
        .query(
          `SELECT attempt_id, SUM(amount) AS total FROM payment_refunds
            WHERE attempt_id IN (SELECT id FROM payment_attempts WHERE order_id = +?) AND status IN ('pending', 'succeeded')
            GROUP BY attempt_id`,
        )
        .all(orderId) as { attempt_id: string; total: number }[]
    ).map((r) => [r.attempt_id, r.total]),
  );
  let paid = 0;
  let refunded = 0;
  for (const a of attempts) {
    if (a.status === "succeeded") paid += a.amount;
    refunded += Math.max(refundSums.get(a.id) ?? 0, a.refunded_seen);
  }
  let status: PaymentStatus;
  if (paid > 0) status = refunded >= paid ? "refunded" : refunded > 0 ? "partially_refunded" : "paid";
  else if (attempts.some((a) => a.status === "processing" || a.status === "authorized"))
    status = "processing";
  else if (
    order.status === "cancelled" &&
    (order.cancel_reason === "failed" || order.cancel_reason === "expired")
  )
    status = order.cancel_reason;
  else {
    const latest = attempts.at(-1)!;
    // A payment the provider never opened (its start failed) is still pending: it is retried.
    const triedAndFailed = latest.last_error !== null && latest.provider_ref !== null;
    status = triedAndFailed && !TERMINAL_FOR_FAILURE.has(latest.status) ? "failed" : "pending";
  }
  const shownRefunded = Math.min(refunded, order.total);
  const paidAt = paid > 0 ? (order.paid_at ?? now) : order.paid_at;
  if (status === order.payment_status && shownRefunded === order.refunded && paidAt === order.paid_at)
    return { order, attempts };
  const moved = moveOrder(
    tenant,
    order,
    { action: "payment update", paymentStatus: status, refunded: shownRefunded, paidAt },
    now,
  );
  return { order: moved, attempts };
}
