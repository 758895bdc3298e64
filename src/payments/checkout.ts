import type { AppContext } from "../app-context.ts";
import { paymentMethodsFor } from "../cart/service.ts";
import type { Store } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { ApiError } from "../core/errors.ts";
import type { AfterCommit } from "../core/operation.ts";
import type { Job } from "../core/outbox.ts";
import { durably } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import type {
  CheckoutPayments,
  OrderToPay,
  PaymentMethodOffer,
  PaymentWrite,
  ProviderRefundRequest,
  ProviderRefundResult,
} from "../orders/checkout-payments.ts";
import { addOrderEvent, setRefundStatus } from "../orders/lifecycle.ts";
import { formatAmount } from "../orders/service.ts";
import { findOrderRow, type OrderRow } from "../orders/view.ts";
import {
  type AttemptRow,
  addRoutes,
  claimRoute,
  findAttempt,
  instructionsOf,
  noteDeadline,
  noteStartFailure,
  orderAttempts,
  syncOrderPayments,
} from "./attempts.ts";
import { createEasypayRefund, createSingle, easypayTime, parseEasypayTime } from "./easypay.ts";
import type { Task } from "./fields.ts";
import { ProviderError } from "./http.ts";
import { createMbWayRequest, createMultibancoReference } from "./ifthenpay.ts";
import { configRow, type Fields, offerableSource, resolveCredentials } from "./integrations.ts";
import { recompute } from "./reconcile.ts";
import { nowOf } from "./state.ts";
import { createCheckoutSession, createStripeRefund } from "./stripe.ts";
import type { AttemptInstructions, CredentialSource, Provider } from "./tables.ts";

// Starting payments and refunds. Place-order (and the refund) write the attempt or the refund
// record in their own transaction and register awaited work; the provider is called after the
// commit by the jobs below, whose results are stored in a second, short transaction. A job may
// run more than once (a retry, a restart): it does nothing once its record shows the answer, and
// provider calls carry our id as their idempotency key.

export const START_JOB = "payments.start";
export const REFUND_JOB = "payments.refund";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const STRIPE_SESSION_MS = 60 * MINUTE;
export const MBWAY_WINDOW_MS = 5 * MINUTE;
const EASYPAY_MULTIBANCO_DAYS = 3;

// ---------------------------------------------------------------- payment methods

const NAMES: Record<string, Localized> = {
  card: { en: "Card", pt: "Cartão", es: "Tarjeta", fr: "Carte", de: "Karte" },
  mbway: { en: "MB WAY" },
  multibanco: { en: "Multibanco" },
};

const localized = (store: Store, names: Localized): Localized =>
  Object.fromEntries(store.locales.map((locale) => [locale, names[locale] ?? names.en!])) as Localized;

/** The local provider offering a method type: tenant credentials beat environment ones, then Ifthenpay beats Easypay. */
function localProvider(ctx: AppContext, tenant: TenantDb, type: "mbway" | "multibanco"): Provider | null {
  const candidates = (["ifthenpay", "easypay"] as const)
    .map((provider) => ({ provider, source: offerableSource(ctx, tenant, provider, type) }))
    .filter((c) => c.source !== null);
  const tenantOwn = candidates.find((c) => c.source === "tenant");
  return (tenantOwn ?? candidates[0])?.provider ?? null;
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
  if (offerableSource(ctx, tenant, "stripe", "card")) {
    methods.push({
      id: "stripe_card",
      type: "card",
      provider: "stripe",
      flow: "redirect",
      name: localized(cart.store, NAMES.card!),
      requires: [],
    });
  }
  if (cart.currency === "EUR") {
    for (const type of ["mbway", "multibanco"] as const) {
      const provider = localProvider(ctx, tenant, type);
      if (!provider) continue;
      methods.push({
        id: `${provider}_${type}`,
        type,
        provider,
        flow: type === "mbway" ? "push" : "reference",
        name: localized(cart.store, NAMES[type]!),
        requires: type === "mbway" ? ["phone"] : [],
      });
    }
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

/**
 * 12 random digits, unused by this tenant's attempts; with environment credentials also claimed in
 * `payment_routes` (a reference another organization's route holds is drawn again).
 */
function newOrderReference(ctx: AppContext, tenant: TenantDb, source: CredentialSource): string {
  for (;;) {
    const digits = Array.from(crypto.getRandomValues(new Uint32Array(12)), (n) => n % 10).join("");
    const taken =
      tenant.sqlite
        .query("SELECT 1 FROM payment_attempts WHERE provider = 'ifthenpay' AND provider_ref2 = ?")
        .get(digits) !== null ||
      (source === "environment" && !claimRoute(ctx, tenant.orgId, "ifthenpay", digits));
    if (!taken) return digits;
  }
}

function multibancoDays(tenant: TenantDb, source: CredentialSource): number {
  if (source === "environment") return 3;
  const settings = parseJsonOrNull<Record<string, unknown>>(configRow(tenant, "ifthenpay")?.settings ?? null);
  const days = settings?.multibancoExpiryDays;
  return Number.isInteger(days) ? (days as number) : 3;
}

function expiryFor(
  tenant: TenantDb,
  provider: Provider,
  method: string,
  source: CredentialSource,
  now: number,
) {
  if (method === "card") return now + STRIPE_SESSION_MS;
  if (method === "mbway") return now + MBWAY_WINDOW_MS;
  const days = provider === "ifthenpay" ? multibancoDays(tenant, source) : EASYPAY_MULTIBANCO_DAYS;
  // 0 days: the reference is valid until the end of the day.
  return days === 0 ? Math.ceil((now + 1) / DAY) * DAY : now + days * DAY;
}

/** Creates a `created` attempt in the caller's transaction and registers the provider call after the commit. */
export function createAttempt(
  write: PaymentWrite,
  order: { orderId: string; total: number; currency: string; phone: string | null; returnUrl?: string },
  method: PaymentMethodOffer,
): AttemptRow {
  const { tenant, ctx } = write;
  const provider = method.provider as Provider;
  const task = method.type as Task;
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
  const ref2 = provider === "ifthenpay" ? newOrderReference(ctx, tenant, source) : null;
  const expiresAt = expiryFor(tenant, provider, method.type, source, now);
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
      ref2,
      JSON.stringify(instructions),
      expiresAt,
      now,
      now,
    );
  syncOrderPayments(tenant, order.orderId);
  const row = findAttempt(tenant, id)!;
  addRoutes(ctx, tenant.orgId, row);
  noteDeadline(ctx, tenant.orgId, row);
  awaitPaymentStart(write.afterCommit, id, order.returnUrl ?? null);
  return row;
}

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

function orgSlug(ctx: AppContext, orgId: string): string {
  const row = ctx.platform.sqlite.query("SELECT slug FROM organizations WHERE id = ?").get(orgId) as {
    slug: string;
  } | null;
  return row?.slug ?? orgId;
}

/** The start job's payload: the attempt to open, and where a redirect flow returns the shopper. */
interface StartJobPayload {
  attemptId: string;
  returnUrl: string | null;
}

/** Registers the provider call opening an attempt, run after the commit and before the answer. */
export function awaitPaymentStart(
  afterCommit: AfterCommit,
  attemptId: string,
  returnUrl: string | null,
): void {
  const payload: StartJobPayload = { attemptId, returnUrl };
  afterCommit.await(START_JOB, payload);
}

/** What an attempt needs for its provider call: its order, the credentials it was created with. */
interface PaymentToOpen {
  ctx: AppContext;
  tenant: TenantDb;
  attempt: AttemptRow;
  order: OrderRow;
  fields: Fields;
  now: number;
  /** `Order #1001`: how the payment is named at the provider. */
  description: string;
}

/** What the provider's answer changes on the attempt; what it leaves out stays as it was. */
interface OpenedPayment {
  providerRef: string;
  providerRef2?: string;
  expiresAt?: number;
  instructions?: Partial<AttemptInstructions>;
}

/** The outbox job opening the provider's payment for an attempt. */
export async function startPaymentJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { attemptId, returnUrl } = job.payload as StartJobPayload;
  const attempt = findAttempt(tenant, attemptId);
  if (attempt?.status !== "created" || attempt.provider_ref !== null) return;
  const order = findOrderRow(tenant, attempt.order_id);
  if (order.status === "cancelled") return;
  let opened: OpenedPayment;
  try {
    const { fields } = credentialsFor(ctx, tenant, attempt, attempt.method as Task);
    const description = `Order #${order.number}`;
    opened = await openAtProvider(
      { ctx, tenant, attempt, order, fields, now: nowOf(ctx), description },
      returnUrl,
    );
  } catch (error) {
    throw recordStartFailure(ctx, tenant, attempt, error);
  }
  storeOpenedPayment(ctx, tenant, attempt, opened);
}

function openAtProvider(payment: PaymentToOpen, returnUrl: string | null): Promise<OpenedPayment> {
  const { provider, method } = payment.attempt;
  if (provider === "stripe") return openStripeSession(payment, returnUrl);
  if (provider === "ifthenpay") {
    return method === "multibanco" ? openIfthenpayReference(payment) : openIfthenpayMbWay(payment);
  }
  return openEasypaySingle(payment);
}

/** A Checkout Session returning to `returnUrl`, else to the order's page on the shop's platform host. */
async function openStripeSession(payment: PaymentToOpen, returnUrl: string | null): Promise<OpenedPayment> {
  const { ctx, tenant, attempt, order, now } = payment;
  // Stripe wants a session to live at least 30 minutes; a late retry gets a fresh hour.
  const expiresAt = attempt.expires_at < now + 31 * MINUTE ? now + STRIPE_SESSION_MS : attempt.expires_at;
  const back =
    returnUrl ?? `https://${orgSlug(ctx, tenant.orgId)}.${ctx.config.platformDomain}/orders/${order.id}`;
  const metadata = { orgId: tenant.orgId, orderId: order.id, attemptId: attempt.id };
  const session = await createCheckoutSession(
    ctx.config.payments.stripeApiBase,
    String(payment.fields.secretKey),
    {
      mode: "payment",
      client_reference_id: attempt.id,
      customer_email: order.email,
      expires_at: Math.floor(expiresAt / 1000),
      success_url: `${back}${back.includes("?") ? "&" : "?"}session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: back,
      line_items: {
        0: {
          quantity: 1,
          price_data: {
            currency: attempt.currency.toLowerCase(),
            unit_amount: attempt.amount,
            product_data: { name: payment.description },
          },
        },
      },
      metadata,
      payment_intent_data: { metadata },
    },
    `${attempt.id}:${Math.floor(expiresAt / 1000)}`,
  );
  return {
    providerRef: session.id,
    providerRef2: typeof session.payment_intent === "string" ? session.payment_intent : undefined,
    expiresAt,
    instructions: { url: session.url },
  };
}

/** An MB WAY request leaves the shopper the whole approval window from now. */
const mbWayExpiry = ({ attempt, now }: PaymentToOpen) => Math.max(attempt.expires_at, now + MBWAY_WINDOW_MS);

async function openIfthenpayReference(payment: PaymentToOpen): Promise<OpenedPayment> {
  const { ctx, attempt } = payment;
  const ref = await createMultibancoReference(ctx.config.payments.ifthenpayBaseUrl, {
    mbKey: String(payment.fields.mbKey),
    orderId: attempt.provider_ref2!,
    amount: attempt.amount,
    description: payment.description,
    expiryDays: Math.max(0, Math.round((attempt.expires_at - attempt.created_at) / DAY)),
  });
  return {
    providerRef: ref.requestId,
    instructions: { entity: ref.entity, reference: ref.reference.replace(/\s/g, "") },
  };
}

async function openIfthenpayMbWay(payment: PaymentToOpen): Promise<OpenedPayment> {
  const { ctx, attempt, order } = payment;
  const ref = await createMbWayRequest(ctx.config.payments.ifthenpayBaseUrl, {
    mbWayKey: String(payment.fields.mbWayKey),
    orderId: attempt.provider_ref2!,
    amount: attempt.amount,
    phone: instructionsOf(attempt).phone!,
    email: order.email,
    description: payment.description,
  });
  return { providerRef: ref.requestId, expiresAt: mbWayExpiry(payment) };
}

/** An Easypay single payment, by Multibanco reference or MB WAY request. */
async function openEasypaySingle(payment: PaymentToOpen): Promise<OpenedPayment> {
  const { ctx, attempt, order } = payment;
  const multibanco = attempt.method === "multibanco";
  const phone = instructionsOf(attempt).phone;
  const single = await createSingle(ctx, payment.fields, {
    type: "sale",
    key: attempt.id,
    value: attempt.amount / 100,
    currency: attempt.currency,
    method: attempt.method === "mbway" ? "mbw" : "mb",
    customer: {
      email: order.email,
      key: order.customer_id,
      ...(phone ? { phone, phone_indicative: "+351" } : {}),
    },
    capture: { transaction_key: attempt.id, descriptive: payment.description },
    ...(multibanco ? { expiration_time: easypayTime(attempt.expires_at) } : {}),
  });
  if (!multibanco) return { providerRef: single.id, expiresAt: mbWayExpiry(payment) };
  return {
    providerRef: single.id,
    instructions: {
      entity: single.method?.entity === undefined ? undefined : String(single.method.entity),
      reference: single.method?.reference?.replace(/\s/g, ""),
    },
    // Easypay decides how long the reference stays payable: its answer is the attempt's expiry.
    expiresAt: parseEasypayTime(single.expiration_time) ?? attempt.expires_at,
  };
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
  });
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
 * room for it gets a `pending` record, and the provider is called after the commit. Ifthenpay has
 * no refund call the service makes: the merchant refunds in Ifthenpay's back office, and the
 * refund is recorded here as a manual one, done at once.
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
  const manual = attempt.provider === "ifthenpay";
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
  status: string,
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
  const creds = credentialsFor(ctx, tenant, attempt, "refunds");
  const currency = attempt.currency;
  const fail = (message: string) => settleRefund(ctx, tenant, refund, null, "failed", message);
  try {
    if (attempt.provider === "stripe") {
      if (!attempt.provider_ref2) {
        fail("Refund failed: the Stripe payment is not known yet");
        return;
      }
      const answer = await createStripeRefund(
        ctx.config.payments.stripeApiBase,
        String(creds.fields.secretKey),
        {
          payment_intent: attempt.provider_ref2,
          amount: refund.amount,
          metadata: { refundId: refund.id, orgId: tenant.orgId, orderId: refund.order_id },
        },
        refund.id,
      );
      const status =
        answer.status === "succeeded"
          ? "succeeded"
          : answer.status === "failed" || answer.status === "canceled"
            ? "failed"
            : "pending";
      settleRefund(
        ctx,
        tenant,
        refund,
        answer.id,
        status,
        status === "succeeded" ? `Stripe refunded ${formatAmount(refund.amount, currency)}` : undefined,
      );
    } else {
      const answer = await createEasypayRefund(ctx, creds.fields, attempt.provider_ref!, {
        transaction_key: refund.id,
        value: refund.amount / 100,
      });
      settleRefund(ctx, tenant, refund, answer.id, "pending");
    }
  } catch (error) {
    if (error instanceof ProviderError && error.refused) {
      fail(
        `Refund of ${formatAmount(refund.amount, currency)} refused by ${attempt.provider} (${error.message})`,
      );
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
