import type { Server } from "bun";
import Stripe from "stripe";
import { setPaymentsClock } from "../../src/payments/state.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// Payments tests run the whole service on a temp DATA_DIR, with fake provider servers on
// 127.0.0.1 (port 0) reached through the base-URL variables, and a clock the tests move.

export const CHECKOUT_SECRET = "c".repeat(40);
export const ENCRYPTION_KEY = "11".repeat(32);
export const OLD_ENCRYPTION_KEY = "22".repeat(32);

export const STRIPE = {
  secretKey: "sk_test_tenantSecretKey123",
  publishableKey: "pk_test_tenantPublishable123",
  webhookSecret: "whsec_tenantSigningSecret0123456789",
};
export const STRIPE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_envSecretKey456",
  STRIPE_PUBLISHABLE_KEY: "pk_test_envPublishable456",
  STRIPE_WEBHOOK_SECRET: "whsec_environmentSecret987654321",
};
export const IFTHENPAY = {
  antiPhishingKey: "tenant-anti-phishing-Key!42",
  mbKey: "ABC-123456",
  mbWayKey: "MBW-654321",
};
export const EASYPAY = {
  accountId: "2b0f63e2-9fb5-4e52-aca0-b4bf0a3a0d51",
  apiKey: "eae4aa59-8e5b-4ec2-887d-b02768481a92",
};

const stripeLib = new Stripe("sk_test_unused_for_signing");

/** The header Stripe would send for this payload (the official helper). */
export function stripeHeader(payload: string, secret: string, timestamp: number): Promise<string> {
  return stripeLib.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}

/** Stripe's own verdict on a delivery (cross-check of our verifier). */
export async function stripeAccepts(
  payload: string,
  header: string,
  secret: string,
  nowS: number,
): Promise<boolean> {
  try {
    await stripeLib.webhooks.constructEventAsync(payload, header, secret, 300, undefined, nowS * 1000);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- fake provider servers

export interface RecordedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeServer {
  url: string;
  calls: RecordedCall[];
  /** `down`: every call answers 503; `hang`: no answer for `hangMs`. */
  mode: "ok" | "down" | "hang";
  hangMs: number;
  stop(): void;
}

type Handler = (recorded: RecordedCall, url: URL) => Response | Promise<Response>;

function fakeServer(handler: Handler): FakeServer {
  const fake: FakeServer = {
    url: "",
    calls: [],
    mode: "ok",
    hangMs: 6000,
    stop: () => server.stop(true),
  };
  const server: Server<unknown> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const recorded: RecordedCall = {
        method: request.method,
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      };
      fake.calls.push(recorded);
      if (fake.mode === "down") return Response.json({ error: "down" }, { status: 503 });
      if (fake.mode === "hang") await Bun.sleep(fake.hangMs);
      return handler(recorded, url);
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

export interface FakeStripe extends FakeServer {
  /** The form parameters each session was created with. */
  sessions: Map<string, Record<string, string>>;
  /** What GET /v1/checkout/sessions/:id answers (set by the test). */
  sessionState: Map<string, Record<string, unknown>>;
  refundStatus: string;
  /** Secret keys Stripe answers 401 (an unknown or revoked key). */
  refusedKeys: Set<string>;
  /** The form parameters each PaymentIntent was created with. */
  intents: Map<string, Record<string, string>>;
}

/**
 * A PaymentIntent confirmed with a Shared Payment Token: a token containing `declined` is a 402
 * card error, one containing `3ds` needs the bank's page, any other succeeds at once.
 */
function confirmedIntent(id: string, params: Record<string, string>): { status: number; body: unknown } {
  const token = params.shared_payment_granted_token ?? "";
  if (token.includes("declined")) {
    return {
      status: 402,
      body: {
        error: {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: "Your card was declined.",
          payment_intent: { id, status: "requires_payment_method" },
        },
      },
    };
  }
  const amount = Number(params.amount);
  const base = { id, object: "payment_intent", amount, currency: params.currency, metadata: {} };
  if (token.includes("3ds")) {
    const next_action = {
      type: "redirect_to_url",
      redirect_to_url: { url: `https://hooks.stripe.test/3ds/${id}` },
    };
    return { status: 200, body: { ...base, status: "requires_action", next_action } };
  }
  return { status: 200, body: { ...base, status: "succeeded", amount_received: amount } };
}

export function fakeStripe(): FakeStripe {
  let n = 0;
  const byKey = new Map<string, { status: number; body: unknown }>();
  const sessions = new Map<string, Record<string, string>>();
  const sessionState = new Map<string, Record<string, unknown>>();
  const refusedKeys = new Set<string>();
  const intents = new Map<string, Record<string, string>>();
  const fake = fakeServer((recorded) => {
    const key = recorded.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (refusedKeys.has(key)) {
      return Response.json(
        { error: { type: "invalid_request_error", message: "Invalid API Key provided" } },
        { status: 401 },
      );
    }
    if (recorded.method === "GET" && recorded.path === "/v1/checkout/sessions") {
      return Response.json({ object: "list", data: [], has_more: false, url: "/v1/checkout/sessions" });
    }
    const read = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(recorded.path);
    if (recorded.method === "GET" && read) {
      const params = sessions.get(read[1]!);
      if (!params) return Response.json({ error: { message: "No such session" } }, { status: 404 });
      return Response.json({
        id: read[1],
        object: "checkout.session",
        status: "open",
        payment_status: "unpaid",
        metadata: {
          orgId: params["metadata[orgId]"],
          orderId: params["metadata[orderId]"],
          attemptId: params["metadata[attemptId]"],
        },
        ...sessionState.get(read[1]!),
      });
    }
    const idempotencyKey = recorded.headers["idempotency-key"];
    const replayed = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
    if (replayed) return Response.json(replayed.body, { status: replayed.status });
    const params = Object.fromEntries(new URLSearchParams(recorded.body));
    let answer: unknown;
    if (recorded.method === "POST" && recorded.path === "/v1/checkout/sessions") {
      const id = `cs_test_${++n}${Math.random().toString(36).slice(2, 8)}`;
      sessions.set(id, params);
      answer = {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        payment_intent: null,
      };
    } else if (recorded.method === "POST" && recorded.path === "/v1/payment_intents") {
      const id = `pi_test_${++n}${Math.random().toString(36).slice(2, 8)}`;
      intents.set(id, params);
      const answered = confirmedIntent(id, params);
      if (idempotencyKey) byKey.set(idempotencyKey, answered);
      return Response.json(answered.body, { status: answered.status });
    } else if (recorded.method === "POST" && recorded.path === "/v1/refunds") {
      answer = {
        id: `re_test_${++n}`,
        object: "refund",
        status: fakeStripeRefund.refundStatus,
        amount: Number(params.amount),
      };
    } else return Response.json({ error: { message: "no such route" } }, { status: 404 });
    if (idempotencyKey) byKey.set(idempotencyKey, { status: 200, body: answer });
    return Response.json(answer);
  });
  const fakeStripeRefund = Object.assign(fake, {
    sessions,
    sessionState,
    refundStatus: "succeeded",
    refusedKeys,
    intents,
  }) as FakeStripe;
  return fakeStripeRefund;
}

export interface FakeIfthenpay extends FakeServer {
  next: number;
}

export function fakeIfthenpay(): FakeIfthenpay {
  const fake = fakeServer((recorded) => {
    const body = JSON.parse(recorded.body || "{}") as Record<string, string>;
    const n = ++self.next;
    if (recorded.path === "/multibanco/reference/init") {
      return Response.json({
        Amount: body.amount,
        Entity: "12345",
        ExpiryDate: "31-12-2030",
        Message: "Success",
        OrderId: body.orderId,
        Reference: `9${String(n).padStart(8, "0")}`,
        RequestId: `mbreq${n}`,
        Status: "0",
      });
    }
    if (recorded.path === "/spg/payment/mbway") {
      return Response.json({
        Amount: body.amount,
        Message: "Pending",
        OrderId: body.orderId,
        RequestId: `mbwreq${n}`,
        Status: "000",
      });
    }
    return Response.json({}, { status: 404 });
  }) as FakeIfthenpay;
  const self = fake;
  self.next = 0;
  return self;
}

export interface EasypayPayment {
  id: string;
  key: string;
  value: number;
  currency: string;
  payment_status: string;
  method: { type: string; entity?: number; reference?: string };
  expiration_time?: string;
}

export interface FakeEasypay extends FakeServer {
  payments: Map<string, EasypayPayment>;
  refunds: Map<string, { id: string; status: string; value: number }>;
  /** Answer GET /2.0/single/:id with this status instead (404, 500). */
  singleStatus: number | null;
  /** API keys Easypay answers 403 (unknown or blocked credentials). */
  refusedKeys: Set<string>;
  /** The `expiration_time` Easypay gives new payments instead of the one asked for. */
  expirationTime: string | null;
}

export function fakeEasypay(): FakeEasypay {
  let n = 0;
  const payments = new Map<string, EasypayPayment>();
  const refunds = new Map<string, { id: string; status: string; value: number }>();
  const fake = fakeServer((recorded) => {
    if (self.refusedKeys.has(recorded.headers.apikey ?? "")) {
      return Response.json(
        { status: "error", message: ["Authentication Error: Invalid AccountId or ApiKey"] },
        { status: 403 },
      );
    }
    const single = /^\/2\.0\/single\/([^/]+)$/.exec(recorded.path);
    const refund = /^\/2\.0\/refund\/([^/]+)$/.exec(recorded.path);
    if (recorded.method === "GET" && recorded.path === "/2.0/single") {
      return Response.json({
        meta: { page: { current: 1, total: 1 } },
        data: [...payments.values()].slice(0, 1),
      });
    }
    if (recorded.method === "POST" && recorded.path === "/2.0/single") {
      const body = JSON.parse(recorded.body) as {
        key: string;
        value: number;
        currency: string;
        method: string;
        expiration_time?: string;
      };
      const id = crypto.randomUUID();
      const payment: EasypayPayment = {
        id,
        key: body.key,
        value: body.value,
        currency: body.currency,
        payment_status: "pending",
        method:
          body.method === "mb"
            ? { type: "mb", entity: 21098, reference: `8${String(++n).padStart(8, "0")}` }
            : { type: "mbw" },
        expiration_time: self.expirationTime ?? body.expiration_time,
      };
      payments.set(id, payment);
      return Response.json({ status: "ok", ...payment }, { status: 201 });
    }
    if (recorded.method === "GET" && single) {
      if (self.singleStatus) return Response.json({ status: "error" }, { status: self.singleStatus });
      const payment = payments.get(single[1]!);
      return payment ? Response.json(payment) : Response.json({ status: "error" }, { status: 404 });
    }
    if (recorded.method === "POST" && refund) {
      const body = JSON.parse(recorded.body) as { value: number };
      const id = crypto.randomUUID();
      refunds.set(id, { id, status: "pending", value: body.value });
      return Response.json({ status: "ok", id }, { status: 201 });
    }
    if (recorded.method === "GET" && refund) {
      const found = refunds.get(refund[1]!);
      return found ? Response.json(found) : Response.json({ status: "error" }, { status: 404 });
    }
    return Response.json({}, { status: 404 });
  }) as FakeEasypay;
  const self = fake;
  self.payments = payments;
  self.refunds = refunds;
  self.singleStatus = null;
  self.refusedKeys = new Set();
  self.expirationTime = null;
  return self;
}

// ---------------------------------------------------------------- the service

export interface PaymentsWorld {
  t: TestApp;
  stripe: FakeStripe;
  ifthenpay: FakeIfthenpay;
  easypay: FakeEasypay;
  /** The payments clock: real time plus `offset` (tests move it forward). */
  clock: { offset: number; readonly now: number };
  close(): void;
}

/** The service with the fakes behind the base-URL variables, secrets set, and a movable clock. */
export function makeWorld(env: Record<string, string> = {}): PaymentsWorld {
  const stripe = fakeStripe();
  const ifthenpay = fakeIfthenpay();
  const easypay = fakeEasypay();
  const t = makeTestApp({
    env: {
      CHECKOUT_API_SECRET: CHECKOUT_SECRET,
      INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
      STRIPE_API_BASE: stripe.url,
      IFTHENPAY_BASE_URL: ifthenpay.url,
      EASYPAY_BASE_URL: easypay.url,
      // Started like a served app (the outbox retries provider calls), but the tests run the
      // sweep themselves, with the clock they moved: its timer never fires during a test.
      PAYMENT_SWEEP_INTERVAL_S: "86400",
      ...env,
    },
    start: true,
  });
  const clock = {
    offset: 0,
    get now() {
      return Date.now() + this.offset;
    },
  };
  setPaymentsClock(t.app.ctx, () => clock.now);
  return {
    t,
    stripe,
    ifthenpay,
    easypay,
    clock,
    close() {
      t.cleanup();
      stripe.stop();
      ifthenpay.stop();
      easypay.stop();
    },
  };
}

export async function putIntegration(t: TestApp, key: string, provider: string, body: unknown) {
  return t.json(`/v1/admin/integrations/${provider}`, {
    method: "PUT",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A shop (EUR, PT shipping, a shirt with stock 5 per variant). */
export async function paymentShop(t: TestApp, name: string, host: string): Promise<Shop> {
  return makeShop(t, name, host);
}

/** A payment shop with one provider's integration saved and every shirt variant stocked to `onHand`. */
export async function providerShop(
  t: TestApp,
  name: string,
  host: string,
  integration: { provider: string; fields: Record<string, unknown> },
  onHand: number,
): Promise<Shop> {
  const shop = await paymentShop(t, name, host);
  await putIntegration(t, shop.org.key, integration.provider, { fields: integration.fields });
  for (const variant of shop.shirt.variants) {
    await shop.admin.patch(`/v1/admin/inventory/${variant.id}`, { onHand });
  }
  return shop;
}

/** A cart with one shirt (19.99 + 4.90 shipping), PT address (with a phone) and shipping. */
export async function readyCart(shop: Shop, quantity = 1, variantIndex = 0): Promise<string> {
  const variantId = shop.shirt.variants[variantIndex].id;
  const cart = (
    await shop.storefront("/v1/carts", {
      body: { email: "buyer@example.com", items: [{ variantId, quantity }] },
    })
  ).body.data;
  await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, {
    body: { ...PT_ADDRESS, phone: "+351 912 345 678" },
  });
  await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
    body: { shippingMethodId: shop.ptShipping.id },
  });
  return cart.id;
}

export async function placeWith(
  shop: Shop,
  paymentMethodId: string,
  options: { quantity?: number; variantIndex?: number; body?: Record<string, unknown> } = {},
) {
  const cartId = await readyCart(shop, options.quantity ?? 1, options.variantIndex ?? 0);
  return shop.storefront(`/v1/carts/${cartId}/place-order`, { body: { paymentMethodId, ...options.body } });
}

export async function stockOf(shop: Shop, variantIndex = 0): Promise<number> {
  const product = (await shop.admin.get(`/v1/admin/products/${shop.shirt.id}`)).body.data;
  return product.variants[variantIndex].inventory.onHand;
}

export async function adminOrder(shop: Shop, orderId: string) {
  return (await shop.admin.get(`/v1/admin/orders/${orderId}`)).body.data;
}

// ---------------------------------------------------------------- Stripe events

let eventSeq = 0;

export function stripeEvent(type: string, object: Record<string, unknown>, id?: string) {
  return {
    id: id ?? `evt_test_${++eventSeq}_${Math.random().toString(36).slice(2, 10)}`,
    object: "event",
    api_version: "2025-01-27.acacia",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  };
}

export interface StripeRefs {
  orgId: string;
  orderId: string;
  attemptId: string;
  sessionId: string;
  paymentIntent: string;
  amount: number;
}

export const metadataOf = (r: StripeRefs) => ({ orgId: r.orgId, orderId: r.orderId, attemptId: r.attemptId });

/** The eleven kinds, built from one payment's references. */
export const events = {
  completed: (r: StripeRefs, paymentStatus = "paid", over: Record<string, unknown> = {}) =>
    stripeEvent("checkout.session.completed", {
      id: r.sessionId,
      object: "checkout.session",
      amount_total: r.amount,
      currency: "eur",
      payment_status: paymentStatus,
      payment_intent: r.paymentIntent,
      client_reference_id: r.attemptId,
      metadata: metadataOf(r),
      ...over,
    }),
  asyncSucceeded: (r: StripeRefs) =>
    stripeEvent("checkout.session.async_payment_succeeded", {
      id: r.sessionId,
      object: "checkout.session",
      amount_total: r.amount,
      currency: "eur",
      payment_status: "paid",
      payment_intent: r.paymentIntent,
      metadata: metadataOf(r),
    }),
  asyncFailed: (r: StripeRefs) =>
    stripeEvent("checkout.session.async_payment_failed", {
      id: r.sessionId,
      object: "checkout.session",
      payment_status: "unpaid",
      payment_intent: r.paymentIntent,
      metadata: metadataOf(r),
    }),
  expired: (r: StripeRefs) =>
    stripeEvent("checkout.session.expired", {
      id: r.sessionId,
      object: "checkout.session",
      status: "expired",
      payment_intent: null,
      metadata: metadataOf(r),
    }),
  piSucceeded: (r: StripeRefs, over: Record<string, unknown> = {}) =>
    stripeEvent("payment_intent.succeeded", {
      id: r.paymentIntent,
      object: "payment_intent",
      amount: r.amount,
      amount_received: r.amount,
      currency: "eur",
      metadata: metadataOf(r),
      ...over,
    }),
  piFailed: (r: StripeRefs) =>
    stripeEvent("payment_intent.payment_failed", {
      id: r.paymentIntent,
      object: "payment_intent",
      last_payment_error: { code: "card_declined" },
      metadata: metadataOf(r),
    }),
  piCanceled: (r: StripeRefs) =>
    stripeEvent("payment_intent.canceled", {
      id: r.paymentIntent,
      object: "payment_intent",
      cancellation_reason: "abandoned",
      metadata: metadataOf(r),
    }),
  piProcessing: (r: StripeRefs) =>
    stripeEvent("payment_intent.processing", {
      id: r.paymentIntent,
      object: "payment_intent",
      metadata: metadataOf(r),
    }),
  piCapturable: (r: StripeRefs) =>
    stripeEvent("payment_intent.amount_capturable_updated", {
      id: r.paymentIntent,
      object: "payment_intent",
      amount_capturable: r.amount,
      metadata: metadataOf(r),
    }),
  chargeRefunded: (
    r: StripeRefs,
    amountRefunded: number,
    refunds: { id: string; amount: number; refundId?: string }[],
  ) =>
    stripeEvent("charge.refunded", {
      id: `ch_${r.paymentIntent.slice(3)}`,
      object: "charge",
      amount: r.amount,
      amount_refunded: amountRefunded,
      currency: "eur",
      payment_intent: r.paymentIntent,
      refunds: {
        object: "list",
        data: refunds.map((x) => ({
          id: x.id,
          object: "refund",
          amount: x.amount,
          currency: "eur",
          status: "succeeded",
          payment_intent: r.paymentIntent,
          metadata: x.refundId ? { refundId: x.refundId } : {},
        })),
      },
    }),
  refundCreated: (
    r: StripeRefs,
    refund: { id: string; amount: number; refundId?: string; status?: string },
  ) =>
    stripeEvent("refund.created", {
      id: refund.id,
      object: "refund",
      amount: refund.amount,
      currency: "eur",
      status: refund.status ?? "succeeded",
      payment_intent: r.paymentIntent,
      charge: `ch_${r.paymentIntent.slice(3)}`,
      metadata: refund.refundId ? { refundId: refund.refundId } : {},
    }),
};

export interface Delivery {
  status: number;
  body: any;
}

/** Posts a signed Stripe event to the ingress (default) or straight to the API route. */
export async function deliverStripe(
  w: PaymentsWorld,
  org: string,
  event: unknown,
  options: {
    secret?: string;
    timestamp?: number;
    via?: "ingress" | "api";
    payload?: string;
    header?: string;
    checkoutSecret?: string | null;
  } = {},
): Promise<Delivery> {
  const payload = options.payload ?? JSON.stringify(event);
  const timestamp = options.timestamp ?? Math.floor(w.clock.now / 1000);
  const header =
    options.header ?? (await stripeHeader(payload, options.secret ?? STRIPE.webhookSecret, timestamp));
  const headers: Record<string, string> = { "content-type": "application/json", "stripe-signature": header };
  let path = `/api/webhooks/stripe/${org}`;
  if (options.via === "api") {
    path = `/v1/webhooks/payments/stripe?org=${org}`;
    if (options.checkoutSecret !== null)
      headers["x-checkout-secret"] = options.checkoutSecret ?? CHECKOUT_SECRET;
  }
  const res = await w.t.json(path, { method: "POST", headers, body: payload });
  return { status: res.status, body: res.body };
}

/** Places a Stripe card order and learns its references (the fake issued the session). */
export async function placeStripeOrder(
  shop: Shop,
  options: { quantity?: number; variantIndex?: number } = {},
) {
  const res = await placeWith(shop, "stripe_card", options);
  if (res.status !== 201) throw new Error(`place-order: ${res.status} ${JSON.stringify(res.body)}`);
  const order = res.body.data;
  const refs: StripeRefs = {
    orgId: shop.org.id,
    orderId: order.id,
    attemptId: order.payment.attemptId,
    sessionId: order.payment.action?.url?.split("/").at(-1) ?? "cs_unknown",
    paymentIntent: `pi_test_${order.payment.attemptId.slice(4)}`,
    amount: order.totals.total.amount,
  };
  return { order, refs };
}

/** Stripe's notification that the buyer paid a card order on its payment page (as an admin reads the order). */
export function deliverCardPaid(
  w: PaymentsWorld,
  orgId: string,
  order: {
    id: string;
    payment: { attemptId: string; action: { url: string } };
    totals: { total: { amount: number } };
  },
): Promise<Delivery> {
  return deliverStripe(
    w,
    orgId,
    events.completed({
      orgId,
      orderId: order.id,
      attemptId: order.payment.attemptId,
      sessionId: order.payment.action.url.split("/").at(-1)!,
      paymentIntent: `pi_test_${order.payment.attemptId.slice(4)}`,
      amount: order.totals.total.amount,
    }),
  );
}
