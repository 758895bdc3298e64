import type { AppContext } from "../app-context.ts";
import { paymentMethodsFor } from "../cart/service.ts";
import type { Store } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { ApiError } from "../core/errors.ts";
import { instanceKeyring, type KeyPurpose, seal, unseal } from "../core/keyring.ts";
import type { AfterCommit } from "../core/operation.ts";
import type { Job } from "../core/outbox.ts";
import { tenantWritten } from "../core/response-cache.ts";
import { durably } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import type {
  CheckoutPayments,
  DelegatedCredential,
  OrderToPay,
  PaymentMethodOffer,
  PaymentWrite,
  ProviderRefundRequest,
  ProviderRefundResult,
} from "../orders/checkout-payments.ts";
import { addOrderEvent, setRefundStatus } from "../orders/lifecycle.ts";
import { formatAmount } from "../orders/service.ts";
import { findOrderRow } from "../orders/view.ts";
import {
  type AttemptRow,
  addRoutes,
  findAttempt,
  instructionsOf,
  noteDeadline,
  noteStartFailure,
  orderAttempts,
  syncOrderPayments,
} from "./attempts.ts";
import type { Task } from "./fields.ts";
import { ProviderError } from "./http.ts";
import { offerableSource, resolveCredentials } from "./integrations.ts";
import type { MethodType, OpenedPayment } from "./provider.ts";
import { type Notification, recompute, reconcileInTransaction } from "./reconcile.ts";
import { allProviders, providerOf } from "./registry.ts";
import { nowOf } from "./state.ts";
import type { AttemptInstructions, Provider, RefundStatus } from "./tables.ts";

// Starting payments and refunds. Place-order (and the refund) write the attempt or the refund
// record in their own transaction and register awaited work; the provider is called after the
// commit by the jobs below, whose results are stored in a second, short transaction. A job may
// run more than once (a retry, a restart): it does nothing once its record shows the answer, and
// provider calls carry our id as their idempotency key. Each provider's own part is behind
// `providerOf(attempt.provider)` (provider.ts).

export const START_JOB = "payments.start";
export const REFUND_JOB = "payments.refund";

// ---------------------------------------------------------------- payment methods

interface MethodShown {
  flow: string;
  requires: string[];
  /** MB WAY and Multibanco take euros only. */
  eurOnly: boolean;
  name: Localized;
}

/** How each method is offered, in the order methods are listed. */
const METHODS: Record<MethodType, MethodShown> = {
  card: {
    flow: "redirect",
    requires: [],
    eurOnly: false,
    name: { en: "Card", pt: "Cartão", es: "Tarjeta", fr: "Carte", de: "Karte" },
  },
  mbway: { flow: "push", requires: ["phone"], eurOnly: true, name: { en: "MB WAY" } },
  multibanco: { flow: "reference", requires: [], eurOnly: true, name: { en: "Multibanco" } },
};

const localized = (store: Store, names: Localized): Localized =>
  Object.fromEntries(store.locales.map((locale) => [locale, names[locale] ?? names.en!])) as Localized;

/**
 * The provider offering a method: tenant credentials beat environment ones, then the registry's
 * order decides (Ifthenpay before Easypay).
 */
function providerFor(ctx: AppContext, tenant: TenantDb, type: MethodType): Provider | null {
  const candidates = allProviders()
    .filter((provider) => provider.methods.includes(type))
    .map(({ name }) => ({ name, source: offerableSource(ctx, tenant, name, type) }))
    .filter((c) => c.source !== null);
  const tenantOwn = candidates.find((c) => c.source === "tenant");
  return (tenantOwn ?? candidates[0])?.name ?? null;
}

/**
 * Methods for a cart: card (Stripe), MB WAY and Multibanco (EUR only), then the store's manual
 * methods. Reads only the tenant file and the environment; never calls a provider.
 */
export function paymentMethods(
  tenant: TenantDb,
  ctx: AppContext,
  cart: { store: Store; currency: string; total: number },
): PaymentMethodOffer[] {
  if (cart.total === 0) return [];
  const methods: PaymentMethodOffer[] = [];
  for (const [type, shown] of Object.entries(METHODS) as [MethodType, MethodShown][]) {
    if (shown.eurOnly && cart.currency !== "EUR") continue;
    const provider = providerFor(ctx, tenant, type);
    if (!provider) continue;
    methods.push({
      id: `${provider}_${type}`,
      type,
      provider,
      flow: shown.flow,
      name: localized(cart.store, shown.name),
      requires: [...shown.requires],
    });
  }
  return [...methods, ...paymentMethodsFor(cart.store, cart.total)];
}

// ---------------------------------------------------------------- starting a payment

/** A Portuguese mobile number as 9 digits (`+351 912 345 678` → `912345678`), or null. */
export function portugueseMobile(phone: string): string | null {
  let digits = phone.replace(/[\s-]/g, "");
  if (digits.startsWith("+351")) digits = digits.slice(4);
  else if (digits.startsWith("00351")) digits = digits.slice(5);
  else if (digits.startsWith("351") && digits.length === 12) digits = digits.slice(3);
  return /^9\d{8}$/.test(digits) ? digits : null;
}

/** Creates a `created` attempt in the caller's transaction and registers the provider call after the commit. */
export function createAttempt(
  write: PaymentWrite,
  order: {
    orderId: string;
    total: number;
    currency: string;
    phone: string | null;
    returnUrl?: string;
    credential?: DelegatedCredential;
  },
  method: PaymentMethodOffer,
): AttemptRow {
  const { tenant, ctx } = write;
  const provider = method.provider as Provider;
  const task = method.type as MethodType;
  const source = offerableSource(ctx, tenant, provider, task);
  if (!source)
    throw new ApiError("UNPROCESSABLE", `${method.id} is not available`, [
      { path: "/body/paymentMethodId", message: "not offered" },
    ]);
  const instructions: AttemptInstructions = {};
  if (method.type === "mbway") {
    const phone = order.phone && portugueseMobile(order.phone);
    if (!phone) {
      throw new ApiError(
        "UNPROCESSABLE",
        "MB WAY needs a Portuguese mobile number (9 digits starting with 9)",
        [{ path: "/body/phone", message: "not a Portuguese mobile number" }],
      );
    }
    instructions.phone = phone;
  }
  const now = nowOf(ctx);
  const id = newId("pay");
  const plan = providerOf(provider).plan({ ctx, tenant, method: task, source, now });
  tenant.sqlite
    .query(
      `INSERT INTO payment_attempts (id, order_id, provider, method, status, amount, currency, credential_source,
         provider_ref, provider_ref2, instructions, last_error, expires_at, refunded_seen, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'created', ?, ?, ?, NULL, ?, ?, NULL, ?, 0, ?, ?)`,
    )
    .run(
      id,
      order.orderId,
      provider,
      method.type,
      order.total,
      order.currency,
      source,
      plan.providerRef2 ?? null,
      JSON.stringify(instructions),
      plan.expiresAt,
      now,
      now,
    );
  syncOrderPayments(tenant, order.orderId);
  const row = findAttempt(tenant, id)!;
  addRoutes(ctx, tenant.orgId, row);
  noteDeadline(ctx, tenant.orgId, row);
  const credential = order.credential && sealCredential(ctx, tenant, id, order.credential);
  awaitPaymentStart(write.afterCommit, id, order.returnUrl ?? null, credential);
  return row;
}

const CREDENTIALS: KeyPurpose = { salt: "commerce-service/delegated-credentials", info: "aes-256-gcm v1" };
const credentialBound = (tenant: TenantDb, attemptId: string) =>
  `${tenant.orgId}:payment-credential:${attemptId}`;

/** A delegated credential waits in the start job's row sealed with the instance key: the file never holds it readable. */
const sealCredential = (
  ctx: AppContext,
  tenant: TenantDb,
  attemptId: string,
  credential: DelegatedCredential,
) => seal(instanceKeyring(ctx, CREDENTIALS), credentialBound(tenant, attemptId), JSON.stringify(credential));

const unsealCredential = (ctx: AppContext, tenant: TenantDb, attemptId: string, sealed: string) =>
  JSON.parse(
    unseal(instanceKeyring(ctx, CREDENTIALS), credentialBound(tenant, attemptId), sealed),
  ) as DelegatedCredential;

/** Credentials of the source an attempt was created with (never the other one). */
function credentialsFor(ctx: AppContext, tenant: TenantDb, attempt: AttemptRow, task: Task) {
  const creds = resolveCredentials(
    ctx,
    attempt.credential_source === "tenant" ? tenant : null,
    attempt.provider,
    task,
  );
  if (creds.source !== attempt.credential_source) {
    throw new ApiError(
      "PROVIDER_NOT_CONFIGURED",
      `${attempt.provider}: the credentials this payment was started with are gone`,
    );
  }
  return creds;
}

/** The start job's payload: the attempt to open, where a redirect flow returns the shopper, a sealed delegated credential. */
interface StartJobPayload {
  attemptId: string;
  returnUrl: string | null;
  credential?: string;
}

/** Registers the provider call opening an attempt, run after the commit and before the answer. */
export function awaitPaymentStart(
  afterCommit: AfterCommit,
  attemptId: string,
  returnUrl: string | null,
  sealedCredential?: string,
): void {
  const payload: StartJobPayload = { attemptId, returnUrl, credential: sealedCredential };
  afterCommit.await(START_JOB, payload);
}

/** The outbox job opening the provider's payment for an attempt. */
export async function startPaymentJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { attemptId, returnUrl, credential } = job.payload as StartJobPayload;
  const attempt = findAttempt(tenant, attemptId);
  if (attempt?.status !== "created" || attempt.provider_ref !== null) return;
  const order = findOrderRow(tenant, attempt.order_id);
  if (order.status === "cancelled") return;
  let opened: OpenedPayment;
  try {
    const { fields } = credentialsFor(ctx, tenant, attempt, attempt.method as Task);
    opened = await providerOf(attempt.provider).start({
      ctx,
      tenant,
      attempt,
      order,
      fields,
      now: nowOf(ctx),
      description: `Order #${order.number}`,
      returnUrl,
      credential:
        credential === undefined ? undefined : unsealCredential(ctx, tenant, attempt.id, credential),
    });
  } catch (error) {
    throw recordStartFailure(ctx, tenant, attempt, error);
  }
  storeOpenedPayment(ctx, tenant, attempt, opened);
}

/**
 * Keeps a failed start on the attempt (the order then says the payment did not start) and logs
 * what the provider said. Returns the error the outbox retries on.
 */
function recordStartFailure(ctx: AppContext, tenant: TenantDb, attempt: AttemptRow, error: unknown): unknown {
  const message = error instanceof ProviderError ? error.message : String(error);
  ctx.log.warn("payment provider call failed", {
    org: tenant.orgId,
    provider: attempt.provider,
    attempt: attempt.id,
    error: message,
  });
  noteStartFailure(tenant, attempt.id, message, nowOf(ctx));
  return error instanceof ProviderError ? new Error(message) : error;
}

/** Stores the opened payment in its own short transaction, unless another run stored one first. */
function storeOpenedPayment(ctx: AppContext, tenant: TenantDb, attempt: AttemptRow, opened: OpenedPayment) {
  const instructions = { ...instructionsOf(attempt), ...opened.instructions };
  durably(tenant.sqlite, () => {
    const current = findAttempt(tenant, attempt.id);
    if (!current || current.provider_ref !== null) return;
    tenant.sqlite
      .query(
        "UPDATE payment_attempts SET provider_ref = ?, provider_ref2 = ?, instructions = ?, expires_at = ?, last_error = NULL, updated_at = ? WHERE id = ?",
      )
      .run(
        opened.providerRef,
        opened.providerRef2 ?? attempt.provider_ref2,
        JSON.stringify(instructions),
        opened.expiresAt ?? attempt.expires_at,
        nowOf(ctx),
        attempt.id,
      );
    syncOrderPayments(tenant, attempt.order_id);
    const updated = findAttempt(tenant, attempt.id)!;
    addRoutes(ctx, tenant.orgId, updated);
    noteDeadline(ctx, tenant.orgId, updated);
    if (opened.settled) reconcileInTransaction(ctx, tenant, settledNotification(tenant, updated, opened));
  });
  if (opened.settled) tenantWritten(tenant);
}

/** What the provider answered when asked, as a notification of it (once per attempt: its event id is the attempt's). */
function settledNotification(tenant: TenantDb, attempt: AttemptRow, opened: OpenedPayment): Notification {
  return {
    provider: attempt.provider,
    eventId: `${attempt.id}:start`,
    kind: "start answer",
    payloadSha256: "",
    source: attempt.credential_source,
    find: (t) => findAttempt(t, attempt.id),
    orgId: tenant.orgId,
    ref2: opened.providerRef2,
    outcome: opened.settled!,
  };
}

// ---------------------------------------------------------------- refunds

interface RefundRow {
  id: string;
  order_id: string;
  attempt_id: string;
  provider_refund_id: string | null;
  amount: number;
  status: string;
  source: string;
}

function refundedOf(tenant: TenantDb, attempt: AttemptRow): number {
  const row = tenant.sqlite
    .query(
      "SELECT coalesce(SUM(amount), 0) AS total FROM payment_refunds WHERE attempt_id = ? AND status IN ('pending', 'succeeded')",
    )
    .get(attempt.id) as { total: number };
  return Math.max(row.total, attempt.refunded_seen);
}

/**
 * Reserves a refund of a provider payment in the refund's transaction: the succeeded attempt with
 * room for it gets a `pending` record, and the provider is called after the commit. A provider
 * without a refund call (Ifthenpay): the merchant refunds in its back office, and the refund is
 * recorded here as a manual one, done at once.
 */
export function reserveRefund(write: PaymentWrite, request: ProviderRefundRequest): ProviderRefundResult {
  const { tenant, ctx } = write;
  const now = nowOf(ctx);
  const candidates = orderAttempts(tenant, request.orderId)
    .filter((a) => a.status === "succeeded")
    .map((a) => ({ attempt: a, left: a.amount - refundedOf(tenant, a) }))
    .sort((x, y) => y.left - x.left);
  const chosen = candidates[0];
  if (!chosen || chosen.left < request.amount) {
    throw new ApiError(
      "UNPROCESSABLE",
      chosen
        ? `At most ${chosen.left} can be refunded through ${chosen.attempt.provider} in one refund`
        : `No payment through ${request.paymentMethod.provider} was received for this order`,
      [{ path: "/body/amount", message: "more than the provider payment can refund" }],
    );
  }
  const attempt = chosen.attempt;
  const manual = providerOf(attempt.provider).refund === undefined;
  if (!manual)
    resolveCredentials(
      ctx,
      attempt.credential_source === "tenant" ? tenant : null,
      attempt.provider,
      "refunds",
    );
  tenant.sqlite
    .query(
      `INSERT INTO payment_refunds (id, order_id, attempt_id, provider_refund_id, amount, status, source, created_at, updated_at)
       VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
    )
    .run(
      request.refundId,
      request.orderId,
      attempt.id,
      request.amount,
      manual ? "succeeded" : "pending",
      manual ? "manual" : "admin",
      now,
      now,
    );
  if (manual) return { status: "succeeded" };
  write.afterCommit.await(REFUND_JOB, { refundId: request.refundId });
  return { status: "pending" };
}

function settleRefund(
  ctx: AppContext,
  tenant: TenantDb,
  refund: RefundRow,
  providerRefundId: string | null,
  status: RefundStatus,
  note?: string,
) {
  const now = nowOf(ctx);
  durably(tenant.sqlite, () => {
    const current = tenant.sqlite
      .query(
        "UPDATE payment_refunds SET provider_refund_id = coalesce(provider_refund_id, ?), status = CASE WHEN status = 'pending' THEN ? ELSE status END, updated_at = ? WHERE id = ? RETURNING status",
      )
      .get(providerRefundId, status, now, refund.id) as { status: string };
    setRefundStatus(tenant, refund.id, current.status);
    recompute(tenant, refund.order_id, now);
    if (note) addOrderEvent(tenant, refund.order_id, "refund", note, now);
  });
}

/** The outbox job asking the provider for a reserved refund. */
export async function refundJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { refundId } = job.payload as { refundId: string };
  const refund = tenant.sqlite
    .query("SELECT * FROM payment_refunds WHERE id = ?")
    .get(refundId) as RefundRow | null;
  if (refund?.status !== "pending" || refund.provider_refund_id !== null) return;
  const attempt = findAttempt(tenant, refund.attempt_id)!;
  const provider = providerOf(attempt.provider);
  // Refunds a provider cannot be asked for are recorded at once and never queued (reserveRefund).
  if (!provider.refund) return;
  const creds = credentialsFor(ctx, tenant, attempt, "refunds");
  const amount = formatAmount(refund.amount, attempt.currency);
  try {
    const answer = await provider.refund({
      ctx,
      tenant,
      attempt,
      refund: { id: refund.id, orderId: refund.order_id, amount: refund.amount },
      fields: creds.fields,
    });
    settleRefund(ctx, tenant, refund, answer.providerRefundId, answer.status, answer.note);
  } catch (error) {
    if (error instanceof ProviderError && error.refused) {
      const note = `Refund of ${amount} refused by ${attempt.provider} (${error.message})`;
      settleRefund(ctx, tenant, refund, null, "failed", note);
      return;
    }
    throw error instanceof ProviderError ? new Error(error.message) : error;
  }
}

// ---------------------------------------------------------------- the boundary orders use

export const checkoutPayments: CheckoutPayments = {
  methods: paymentMethods,
  begin(write: PaymentWrite, order: OrderToPay) {
    createAttempt(write, order, order.method);
  },
  requestProviderRefund: reserveRefund,
};
