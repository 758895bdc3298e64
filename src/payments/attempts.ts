import type { AppContext } from "../app-context.ts";
import { dueTimes, lowerDueTime, storeDueTime } from "../db/due-times.ts";
import { immediately } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { iso } from "../lib/time.ts";
import { canRetryPayment, setOrderPayments } from "../orders/lifecycle.ts";
import type { OrderPayment, PaymentAction } from "../orders/tables.ts";
import { findOrderRow, type OrderRow } from "../orders/view.ts";
import type { AttemptInstructions, AttemptStatus, CredentialSource, Provider } from "./tables.ts";

// Payment attempts as rows, as the order shows them, and the two control-plane records kept beside
// them (`payment_routes` for org `_`, `organizations.next_payment_deadline` for the sweep).

export interface AttemptRow {
  id: string;
  order_id: string;
  provider: Provider;
  method: string;
  status: AttemptStatus;
  amount: number;
  currency: string;
  credential_source: CredentialSource;
  provider_ref: string | null;
  provider_ref2: string | null;
  instructions: string;
  last_error: string | null;
  expires_at: number;
  received_amount: number | null;
  received_currency: string | null;
  refunded_seen: number;
  created_at: number;
  updated_at: number;
}

export const instructionsOf = (row: AttemptRow): AttemptInstructions =>
  parseJsonOrNull<AttemptInstructions>(row.instructions) ?? {};

export function findAttempt(tenant: TenantDb, id: string): AttemptRow | null {
  return tenant.sqlite.query("SELECT * FROM payment_attempts WHERE id = ?").get(id) as AttemptRow | null;
}

export function attemptByRef(tenant: TenantDb, provider: Provider, ref: string): AttemptRow | null {
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE provider = ? AND provider_ref = ?")
    .get(provider, ref) as AttemptRow | null;
}

export function attemptByRef2(tenant: TenantDb, provider: Provider, ref: string): AttemptRow | null {
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE provider = ? AND provider_ref2 = ?")
    .get(provider, ref) as AttemptRow | null;
}

export function orderAttempts(tenant: TenantDb, orderId: string): AttemptRow[] {
  // `+?`: an ordered read with a bare `?` is planned again at every run (src/db/sqlite.ts).
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE order_id = +? ORDER BY created_at, rowid")
    .all(orderId) as AttemptRow[];
}

/** What the shopper must do next for an attempt still waiting for its payment. */
function actionOf(row: AttemptRow): PaymentAction | undefined {
  if (row.status !== "created" || row.provider_ref === null) return undefined;
  const instructions = instructionsOf(row);
  if (row.method === "card" && instructions.url) return { type: "redirect", url: instructions.url };
  if (row.method === "multibanco" && instructions.entity && instructions.reference) {
    return {
      type: "reference",
      entity: instructions.entity,
      reference: instructions.reference,
      amount: row.amount,
      expiresAt: iso(row.expires_at),
    };
  }
  if (row.method === "mbway" && instructions.phone) {
    return { type: "push", phone: instructions.phone, expiresAt: iso(row.expires_at) };
  }
  return undefined;
}

/** The provider was asked for this payment and did not open it (unreachable, or it refused). */
const startFailed = (row: AttemptRow) =>
  row.status === "created" && row.provider_ref === null && row.last_error !== null;

/** An attempt as the order shows it; `retryable`: the order can still be paid (`canRetryPayment`). */
function attemptView(row: AttemptRow, retryable: boolean): OrderPayment {
  const view: OrderPayment = {
    attemptId: row.id,
    provider: row.provider,
    method: row.method,
    status: row.status,
    amount: row.amount,
    expiresAt: iso(row.expires_at),
  };
  const action = actionOf(row);
  if (action) view.action = action;
  if (retryable && startFailed(row)) {
    // What the provider said stays in the logs: the shopper learns only that nothing started.
    view.error =
      "The payment did not start: the payment provider could not be reached or refused it. Nothing was charged.";
    view.retry = {
      operationId: "retryOrderPayment",
      method: "POST",
      path: `/v1/orders/${row.order_id}/payment`,
    };
  }
  return view;
}

/**
 * The provider call opening this attempt failed: kept on the attempt (and the order's payments) until
 * a later call succeeds, so every read of the order says the payment did not start and, while the
 * order can still be paid, how to retry.
 */
export function noteStartFailure(tenant: TenantDb, attemptId: string, message: string, now: number): void {
  immediately(tenant.sqlite, () => {
    const { changes } = tenant.sqlite
      .query(
        "UPDATE payment_attempts SET last_error = ?, updated_at = ? WHERE id = ? AND status = 'created' AND provider_ref IS NULL",
      )
      .run(message.slice(0, 200), now, attemptId);
    if (changes === 1) syncOrderPayments(tenant, findAttempt(tenant, attemptId)!.order_id);
  });
}

/** An order and its attempts as read in the current transaction, after the last change to either. */
export interface OrderAndAttempts {
  order: OrderRow;
  attempts: AttemptRow[];
}

/**
 * Writes the order's `payments` (every attempt as shown) after an attempt or the order changed;
 * `read`: both as the caller just read them, so they are not read again. When nothing shown changed
 * the row is left alone: an unchanged page is one less for the commit to write.
 */
export function syncOrderPayments(tenant: TenantDb, orderId: string, read?: OrderAndAttempts): void {
  const order = read?.order ?? findOrderRow(tenant, orderId);
  // A retry is offered only while it can succeed: a cancelled or paid order answers it 409.
  const retryable = canRetryPayment(order);
  const views = (read?.attempts ?? orderAttempts(tenant, orderId)).map((row) => attemptView(row, retryable));
  if (JSON.stringify(views) === order.payments) return;
  setOrderPayments(tenant, orderId, views);
}

// ---------------------------------------------------------------- routes of `_` notifications

// The routes live in the control plane's `payment_routes` (PK (provider, ref) → organization), so
// every process sees the same ones and none is rebuilt from the tenant files. A route is written
// when an environment-credential attempt is created or gains references, outside the tenant's
// transaction: one left by a transaction that rolled back names a reference no attempt of that
// tenant has, and a notification routed by it is answered `ignored` like any unknown one.

/** Route references of an attempt: its id and provider references. */
function routeRefs(row: Pick<AttemptRow, "id" | "provider_ref" | "provider_ref2">): string[] {
  const refs = [row.id];
  if (row.provider_ref) refs.push(row.provider_ref);
  if (row.provider_ref2) refs.push(row.provider_ref2);
  return refs;
}

/**
 * Records `provider:ref` → `orgId` unless the reference already routes somewhere. Returns false
 * when it routes to another organization (a collision: the caller picks another reference if it
 * generated this one).
 */
export function claimRoute(ctx: AppContext, orgId: string, provider: Provider, ref: string): boolean {
  const { changes } = ctx.platform.sqlite
    .query(
      "INSERT INTO payment_routes (provider, ref, organization_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    )
    .run(provider, ref, orgId, Date.now());
  return changes === 1 || routeOf(ctx, provider, [ref]) === orgId;
}

/** Records the routes of an environment-credential attempt (called when it is created or gains references). */
export function addRoutes(ctx: AppContext, orgId: string, row: AttemptRow): void {
  if (row.credential_source !== "environment") return;
  for (const ref of routeRefs(row)) {
    if (!claimRoute(ctx, orgId, row.provider, ref)) {
      // References the provider issued cannot be chosen again; the first owner keeps the route.
      ctx.log.warn("payment route taken by another organization", {
        org: orgId,
        provider: row.provider,
        attempt: row.id,
      });
    }
  }
}

/** The organization an environment-credential payment reference belongs to. */
export function routeOf(
  ctx: AppContext,
  provider: Provider,
  refs: (string | null | undefined)[],
): string | null {
  const lookup = ctx.platform.sqlite.query(
    "SELECT organization_id AS org FROM payment_routes WHERE provider = ? AND ref = ?",
  );
  for (const ref of refs) {
    if (!ref) continue;
    const row = lookup.get(provider, ref) as { org: string } | null;
    if (row) return row.org;
  }
  return null;
}

// ---------------------------------------------------------------- expiry deadlines

/** How long after its expiry an unpaid attempt is given before the sweep expires it. */
const SWEEP_GRACE_MS: Record<string, number> = {
  multibanco: 15 * 60_000,
  mbway: 60_000,
  card: 24 * 3600_000,
};

const GRACE_SQL = `CASE method WHEN 'multibanco' THEN ${SWEEP_GRACE_MS.multibanco} WHEN 'mbway' THEN ${SWEEP_GRACE_MS.mbway} ELSE ${SWEEP_GRACE_MS.card} END`;

/** The tenant's earliest expiry + grace among its `created` attempts, or null. */
export function nextDeadline(tenant: TenantDb): number | null {
  const row = tenant.sqlite
    .query(`SELECT MIN(expires_at + ${GRACE_SQL}) AS at FROM payment_attempts WHERE status = 'created'`)
    .get() as { at: number | null };
  return row.at;
}

/** `created` attempts past expiry + grace. */
export function overdueAttempts(tenant: TenantDb, now: number): AttemptRow[] {
  return tenant.sqlite
    .query(
      `SELECT * FROM payment_attempts WHERE status = 'created' AND expires_at + ${GRACE_SQL} <= ? ORDER BY expires_at`,
    )
    .all(now) as AttemptRow[];
}

/**
 * An attempt with this deadline now exists in the organization: lowers the organization's
 * `next_payment_deadline` in the control plane to it. Called inside the tenant's write transaction
 * that creates or changes the attempt, so a sweep recomputing the deadline from the tenant (also in
 * a write transaction) never overwrites it with an older view.
 */
export function noteDeadline(
  ctx: AppContext,
  orgId: string,
  row: Pick<AttemptRow, "method" | "expires_at">,
): void {
  // Only a lower deadline is written (the control plane commits with synchronous=FULL).
  const at = row.expires_at + (SWEEP_GRACE_MS[row.method] ?? SWEEP_GRACE_MS.card!);
  lowerDueTime(ctx.platform.sqlite, "next_payment_deadline", orgId, at);
}

/** Sets the organization's `next_payment_deadline` to what its tenant file says now. */
export function storeDeadline(ctx: AppContext, orgId: string, at: number | null): void {
  storeDueTime(ctx.platform.sqlite, "next_payment_deadline", orgId, at);
}

/** Organizations whose next payment deadline has passed, earliest first. */
export function dueOrganizations(ctx: AppContext, now: number): string[] {
  return dueTimes(ctx.platform.sqlite, "next_payment_deadline", now).map((r) => r.id);
}
