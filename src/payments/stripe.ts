import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { checkJsonDepth } from "../core/body.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { formatAmount } from "../orders/service.ts";
import { type AttemptRow, attemptByRef, attemptByRef2, findAttempt, routeOf } from "./attempts.ts";
import type { Credentials } from "./fields.ts";
import { pattern } from "./fields.ts";
import { type ProviderEndpoint, ProviderError, providerFetch } from "./http.ts";
import {
  malformed,
  noRoute,
  type OpenedPayment,
  type PaymentProvider,
  type Received,
  type RefundAnswer,
  type RefundInput,
  type StartInput,
  sha256,
  signatureInvalid,
} from "./provider.ts";
import type { PaymentOutcome, RefundReport } from "./reconcile.ts";
import type { RefundStatus } from "./tables.ts";

// Stripe (cards): the webhook signature, what each of the eleven event kinds means for a payment,
// the API calls the service makes (open a Checkout Session, read one back, charge a Shared Payment
// Token with a PaymentIntent, refund), and the provider built on them (`stripeProvider`).

const MINUTE = 60_000;
const STRIPE_SESSION_MS = 60 * MINUTE;

/** Stripe's default tolerance; we refuse timestamps as far in the future too. */
const STRIPE_TOLERANCE_S = 300;

/**
 * `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: valid when any v1 equals the hex
 * HMAC-SHA256, keyed by the whole `whsec_…` string, of `<t>.<exact body>`, and t is within the
 * tolerance of now. Other schemes are ignored.
 */
export function verifyStripeSignature(
  header: string,
  body: Uint8Array,
  secret: string,
  nowMs: number,
): boolean {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && timestamp === undefined) timestamp = value;
    else if (key === "v1") signatures.push(value);
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > STRIPE_TOLERANCE_S) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  let valid = false;
  for (const signature of signatures) {
    if (!/^[0-9a-f]{64}$/.test(signature)) continue;
    // Every candidate is compared, in constant time: which one matched is not observable.
    if (timingSafeEqual(Buffer.from(signature, "hex"), expected)) valid = true;
  }
  return valid;
}

interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** The event's shape after the proof: id, type and data.object are required. */
export function parseStripeEvent(body: Uint8Array): StripeEvent | null {
  const text = Buffer.from(body).toString("utf8");
  checkJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const event = value as Partial<StripeEvent> | null;
  if (
    !event ||
    typeof event.id !== "string" ||
    typeof event.type !== "string" ||
    typeof event.data?.object !== "object" ||
    event.data.object === null
  ) {
    return null;
  }
  return event as StripeEvent;
}

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;
const int = (value: unknown): number | undefined => (Number.isInteger(value) ? (value as number) : undefined);
/** An id field that may be expanded into an object. */
const idOf = (value: unknown): string | undefined =>
  str(value) ?? str((value as { id?: unknown } | null | undefined)?.id);

function refundStatus(status: unknown): RefundStatus {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

function refundReport(refund: Record<string, unknown>): RefundReport | null {
  const id = str(refund.id);
  const amount = int(refund.amount);
  if (!id || amount === undefined) return null;
  const metadata = (refund.metadata ?? {}) as Record<string, unknown>;
  return {
    providerRefundId: id,
    refundId: str(metadata.refundId),
    amount,
    status: refundStatus(refund.status),
  };
}

interface StripeReading {
  outcome: PaymentOutcome;
  /** Our attempt id (metadata), the object's own id, its PaymentIntent: how the attempt is found. */
  attemptId?: string;
  objectId?: string;
  paymentIntent?: string;
  orgId?: string;
  /** The PaymentIntent a completed session names, stored on the attempt. */
  ref2?: string;
}

/** What a Stripe event means for its attempt; unknown kinds are ignored. */
export function readStripeEvent(event: StripeEvent): StripeReading {
  const object = event.data.object;
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const base = {
    attemptId: str(metadata.attemptId),
    orgId: str(metadata.orgId),
    objectId: str(object.id),
    paymentIntent: idOf(object.payment_intent),
  };
  const amountOf = (field: string): PaymentOutcome => ({
    kind: "SUCCEEDED",
    amount: int(object[field]) ?? -1,
    currency: str(object.currency) ?? "",
  });
  switch (event.type) {
    case "checkout.session.completed": {
      const ref2 = base.paymentIntent;
      if (object.payment_status === "paid") return { ...base, ref2, outcome: amountOf("amount_total") };
      if (object.payment_status === "unpaid") return { ...base, ref2, outcome: { kind: "PROCESSING" } };
      if (object.payment_status === "no_payment_required")
        return {
          ...base,
          ref2,
          outcome: { kind: "SUCCEEDED", amount: 0, currency: str(object.currency) ?? "" },
        };
      return { ...base, outcome: { kind: "IGNORED", reason: "unknown_payment_status" } };
    }
    case "checkout.session.async_payment_succeeded":
      return { ...base, ref2: base.paymentIntent, outcome: amountOf("amount_total") };
    case "checkout.session.async_payment_failed":
      return { ...base, outcome: { kind: "FAILED_FINAL", error: "async_payment_failed" } };
    case "checkout.session.expired":
      return { ...base, outcome: { kind: "EXPIRED", reason: "session_expired" } };
    case "payment_intent.succeeded":
      return { ...base, paymentIntent: base.objectId, outcome: amountOf("amount_received") };
    case "payment_intent.payment_failed": {
      const error = (object.last_payment_error ?? {}) as Record<string, unknown>;
      return {
        ...base,
        paymentIntent: base.objectId,
        outcome: { kind: "FAILED_RETRYABLE", error: str(error.code) ?? "payment_failed" },
      };
    }
    case "payment_intent.canceled":
      return {
        ...base,
        paymentIntent: base.objectId,
        outcome: { kind: "EXPIRED", reason: str(object.cancellation_reason) ?? "canceled" },
      };
    case "payment_intent.processing":
      return { ...base, paymentIntent: base.objectId, outcome: { kind: "PROCESSING" } };
    case "payment_intent.amount_capturable_updated":
      return { ...base, paymentIntent: base.objectId, outcome: { kind: "AUTHORIZED" } };
    case "charge.refunded": {
      const list = ((object.refunds as { data?: unknown[] } | undefined)?.data ?? []) as Record<
        string,
        unknown
      >[];
      const refunds = list.map(refundReport).filter((r): r is RefundReport => r !== null);
      return {
        ...base,
        outcome: { kind: "REFUND_SYNC", refunds, refundedSeen: int(object.amount_refunded) },
      };
    }
    case "refund.created": {
      const report = refundReport(object);
      return {
        ...base,
        outcome: report
          ? { kind: "REFUND_SYNC", refunds: [report] }
          : { kind: "IGNORED", reason: "malformed_refund" },
      };
    }
    default:
      return { ...base, outcome: { kind: "IGNORED", reason: "unhandled_kind" } };
  }
}

/** Metadata attempt id; else the object's own id (`cs_…`, `pi_…`); for charges and refunds, their PaymentIntent. */
export function findStripeAttempt(tenant: TenantDb, reading: StripeReading): AttemptRow | null {
  const byId = reading.attemptId ? findAttempt(tenant, reading.attemptId) : null;
  if (byId?.provider === "stripe") return byId;
  const id = reading.objectId;
  if (id?.startsWith("cs_")) {
    const found = attemptByRef(tenant, "stripe", id);
    if (found) return found;
  }
  if (reading.paymentIntent) return attemptByRef2(tenant, "stripe", reading.paymentIntent);
  return null;
}

// ---------------------------------------------------------------- API calls

/** Stripe's form encoding of nested parameters: `a[b][0][c]=v`. */
function formEncode(params: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === "object") out.push(...formEncode(value as Record<string, unknown>, name));
    else out.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return out;
}

function stripeCall(base: string, secretKey: string, idempotencyKey?: string): ProviderEndpoint {
  return {
    base,
    headers: {
      authorization: `Bearer ${secretKey}`,
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
    },
    timeoutMs: 10_000,
  };
}

interface CheckoutSession {
  id: string;
  url: string;
  payment_intent?: string | null;
  payment_status?: string;
  status?: string;
  amount_total?: number;
  currency?: string;
}

export async function createCheckoutSession(
  base: string,
  secretKey: string,
  params: Record<string, unknown>,
  idempotencyKey: string,
): Promise<CheckoutSession> {
  return (await providerFetch(stripeCall(base, secretKey, idempotencyKey), "POST", "/v1/checkout/sessions", {
    form: formEncode(params).join("&"),
  })) as CheckoutSession;
}

export async function createStripeRefund(
  base: string,
  secretKey: string,
  params: Record<string, unknown>,
  idempotencyKey: string,
): Promise<{ id: string; status: string }> {
  return (await providerFetch(stripeCall(base, secretKey, idempotencyKey), "POST", "/v1/refunds", {
    form: formEncode(params).join("&"),
  })) as { id: string; status: string };
}

/**
 * Checks a secret key with a cheap authenticated read of what the service needs the key for
 * (Checkout Sessions): Stripe answers 401 to an unknown or revoked key, and 403 to a restricted key
 * without that permission.
 */
export async function checkStripeKey(base: string, secretKey: string): Promise<void> {
  await providerFetch(stripeCall(base, secretKey), "GET", "/v1/checkout/sessions?limit=1");
}

export async function retrieveCheckoutSession(
  base: string,
  secretKey: string,
  sessionId: string,
): Promise<CheckoutSession & { metadata?: Record<string, string> }> {
  return (await providerFetch(
    stripeCall(base, secretKey),
    "GET",
    `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`,
  )) as CheckoutSession & { metadata?: Record<string, string> };
}

// ---------------------------------------------------------------- the provider

function orgSlug(ctx: AppContext, orgId: string): string {
  const row = ctx.platform.sqlite.query("SELECT slug FROM organizations WHERE id = ?").get(orgId) as {
    slug: string;
  } | null;
  return row?.slug ?? orgId;
}

/** A Checkout Session returning to `returnUrl`, else to the order's page on the shop's platform host. */
async function openCheckoutSession(input: StartInput): Promise<OpenedPayment> {
  const { ctx, tenant, attempt, order, now } = input;
  // Stripe wants a session to live at least 30 minutes; a late retry gets a fresh hour.
  const expiresAt = attempt.expires_at < now + 31 * MINUTE ? now + STRIPE_SESSION_MS : attempt.expires_at;
  const back = backUrl(input);
  const metadata = { orgId: tenant.orgId, orderId: order.id, attemptId: attempt.id };
  const session = await createCheckoutSession(
    ctx.config.payments.stripeApiBase,
    String(input.fields.secretKey),
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
            product_data: { name: input.description },
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

interface PaymentIntent {
  id: string;
  status: string;
  amount_received?: number;
  currency?: string;
  next_action?: { type?: string; redirect_to_url?: { url?: string } } | null;
  last_payment_error?: { code?: string; decline_code?: string } | null;
}

export async function createPaymentIntent(
  base: string,
  secretKey: string,
  params: Record<string, unknown>,
  idempotencyKey: string,
): Promise<PaymentIntent> {
  return (await providerFetch(stripeCall(base, secretKey, idempotencyKey), "POST", "/v1/payment_intents", {
    form: formEncode(params).join("&"),
  })) as PaymentIntent;
}

/** Where a card payment returns the shopper: `returnUrl`, else the order's page on the shop's platform host. */
const backUrl = ({ ctx, tenant, order, returnUrl }: StartInput) =>
  returnUrl ?? `https://${orgSlug(ctx, tenant.orgId)}.${ctx.config.platformDomain}/orders/${order.id}`;

/** What a confirmed PaymentIntent's state means for its attempt. */
function intentOutcome(intent: PaymentIntent): Pick<OpenedPayment, "instructions" | "settled"> {
  switch (intent.status) {
    case "succeeded":
      return {
        settled: { kind: "SUCCEEDED", amount: intent.amount_received ?? -1, currency: intent.currency ?? "" },
      };
    case "processing":
      return { settled: { kind: "PROCESSING" } };
    case "requires_capture":
      return { settled: { kind: "AUTHORIZED" } };
    // 3-D Secure: the buyer authenticates at the bank's page, then Stripe's notification settles it.
    case "requires_action":
      return { instructions: { url: intent.next_action?.redirect_to_url?.url } };
    default: {
      const error = intent.last_payment_error;
      return {
        settled: { kind: "FAILED_FINAL", error: error?.decline_code ?? error?.code ?? intent.status },
      };
    }
  }
}

/**
 * A Shared Payment Token the buyer's agent platform granted, charged at once: a PaymentIntent
 * confirmed on creation (keyed by the attempt, so a retried start never charges twice). A decline
 * ends the attempt (the order is cancelled and its stock released, as any failed payment's).
 */
async function chargeSharedToken(input: StartInput): Promise<OpenedPayment> {
  const { ctx, tenant, attempt, order } = input;
  const metadata = { orgId: tenant.orgId, orderId: order.id, attemptId: attempt.id };
  let intent: PaymentIntent;
  try {
    intent = await createPaymentIntent(
      ctx.config.payments.stripeApiBase,
      String(input.fields.secretKey),
      {
        amount: attempt.amount,
        currency: attempt.currency.toLowerCase(),
        confirm: "true",
        shared_payment_granted_token: input.credential!.token,
        payment_method_types: { 0: "card" },
        return_url: backUrl(input),
        description: input.description,
        metadata,
      },
      `${attempt.id}:spt`,
    );
  } catch (error) {
    const declined = declinedIntent(error);
    if (!declined) throw error;
    intent = declined;
  }
  return { providerRef: intent.id, providerRef2: intent.id, ...intentOutcome(intent) };
}

/** Stripe's 402 `card_error` (a declined card): the PaymentIntent it names, failed; null for any other error. */
function declinedIntent(error: unknown): PaymentIntent | null {
  if (!(error instanceof ProviderError) || error.status !== 402) return null;
  const body = (error.body ?? {}) as {
    error?: { type?: string; code?: string; decline_code?: string; payment_intent?: { id?: string } };
  };
  if (body.error?.type !== "card_error") return null;
  return {
    id: body.error.payment_intent?.id ?? `declined_${Date.now()}`,
    status: "requires_payment_method",
    last_payment_error: { code: body.error.code, decline_code: body.error.decline_code },
  };
}

/** A refund of the attempt's PaymentIntent, keyed by our refund id (a retry never refunds twice). */
async function refundAtStripe({ ctx, tenant, attempt, refund, fields }: RefundInput): Promise<RefundAnswer> {
  if (!attempt.provider_ref2) {
    return {
      providerRefundId: null,
      status: "failed",
      note: "Refund failed: the Stripe payment is not known yet",
    };
  }
  const answer = await createStripeRefund(
    ctx.config.payments.stripeApiBase,
    String(fields.secretKey),
    {
      payment_intent: attempt.provider_ref2,
      amount: refund.amount,
      metadata: { refundId: refund.id, orgId: tenant.orgId, orderId: refund.orderId },
    },
    refund.id,
  );
  const status = refundStatus(answer.status);
  const note =
    status === "succeeded" ? `Stripe refunded ${formatAmount(refund.amount, attempt.currency)}` : undefined;
  return { providerRefundId: answer.id, status, note };
}

function receiveStripe(ctx: AppContext, org: string, creds: Credentials, body: Uint8Array): Received {
  const event = parseStripeEvent(body);
  if (!event) throw malformed("The event has no id, type or data.object");
  const reading = readStripeEvent(event);
  const target =
    org === "_" ? routeOf(ctx, "stripe", [reading.attemptId, reading.objectId, reading.paymentIntent]) : org;
  if (!target) return noRoute("stripe", event.id);
  return {
    kind: "notification",
    org: target,
    notification: {
      provider: "stripe",
      eventId: event.id,
      kind: event.type,
      payloadSha256: sha256(body),
      source: creds.source,
      find: (tenant) => findStripeAttempt(tenant, reading),
      orgId: reading.orgId,
      ref2: reading.ref2 ?? (reading.objectId?.startsWith("pi_") ? reading.objectId : undefined),
      outcome: reading.outcome,
    },
  };
}

/** Stripe keys carry their mode: `sk_test_…` and `pk_live_…` never go together. */
export const stripeMode = (key: string): "test" | "live" | null =>
  /^(?:sk|rk|pk)_(test|live)_/.exec(key)?.[1] as "test" | "live" | null;

export const stripeProvider: PaymentProvider = {
  name: "stripe",
  label: "Stripe",
  methods: ["card"],
  fields: [
    {
      name: "secretKey",
      secret: true,
      check: pattern(/^(sk|rk)_(test|live)_\w+$/, "a Stripe secret or restricted key (sk_… or rk_…)"),
      env: "STRIPE_SECRET_KEY",
    },
    {
      name: "publishableKey",
      secret: false,
      check: pattern(/^pk_(test|live)_\w+$/, "a Stripe publishable key (pk_…)"),
      env: "STRIPE_PUBLISHABLE_KEY",
    },
    {
      name: "webhookSecret",
      secret: true,
      check: pattern(/^whsec_[A-Za-z0-9+/=]+$/, "a Stripe webhook signing secret (whsec_…)"),
      env: "STRIPE_WEBHOOK_SECRET",
    },
  ],
  needs: {
    webhooks: ["webhookSecret"],
    card: ["secretKey", "publishableKey"],
    refunds: ["secretKey"],
  },
  checkSettings(value) {
    const secretKey = value("secretKey");
    const publishable = value("publishableKey");
    if (typeof secretKey !== "string" || typeof publishable !== "string") return null;
    return stripeMode(secretKey) === stripeMode(publishable)
      ? null
      : { field: "publishableKey", message: "is not of the same mode (test or live) as secretKey" };
  },
  plan: ({ now }) => ({ expiresAt: now + STRIPE_SESSION_MS }),
  start: (input) => (input.credential ? chargeSharedToken(input) : openCheckoutSession(input)),
  refund: refundAtStripe,
  verifyNotification(d, credentials, now) {
    const header = d.headers.get("stripe-signature");
    if (!header) throw signatureInvalid();
    const creds = credentials();
    if (!verifyStripeSignature(header, d.body, String(creds.fields.webhookSecret), now))
      throw signatureInvalid();
    return creds;
  },
  parseNotification: (ctx, org, creds, d) => receiveStripe(ctx, org, creds, d.body),
  credentialCheck: {
    fields: ["secretKey"],
    toCheck: (given) => (typeof given.secretKey === "string" ? { secretKey: given.secretKey } : null),
    run: (ctx, fields) => checkStripeKey(ctx.config.payments.stripeApiBase, String(fields.secretKey)),
  },
};
