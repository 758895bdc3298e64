import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sweepPayments } from "../../src/payments/sweep.ts";
import { makeTestApp } from "../helpers/app.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  CHECKOUT_SECRET,
  deliverStripe,
  EASYPAY,
  ENCRYPTION_KEY,
  events,
  makeWorld,
  type PaymentsWorld,
  paymentShop,
  placeStripeOrder,
  placeWith,
  providerShop,
  putIntegration,
  STRIPE,
  STRIPE_ENV,
  type StripeRefs,
  stockOf,
  stripeAccepts,
  stripeEvent,
  stripeHeader,
} from "./helpers.ts";

let w: PaymentsWorld;
let shop: Shop;

beforeAll(async () => {
  w = makeWorld(STRIPE_ENV);
  shop = await providerShop(
    w.t,
    "Card Shop",
    "card-shop.example",
    { provider: "stripe", fields: STRIPE },
    1000,
  );
});
afterAll(() => w.close());

const historyOf = async (orderId: string) => (await adminOrder(shop, orderId)).events.length;

function eventRows(orgId: string) {
  return w.t.app.ctx.tenants.with(orgId, (tenant) =>
    tenant.sqlite
      .query("SELECT event_id, outcome, reason FROM payment_events ORDER BY received_at, rowid")
      .all(),
  ) as Promise<{ event_id: string; outcome: string; reason: string | null }[]>;
}

describe("starting a card payment", () => {
  test("place-order with stripe_card writes the order and its attempt in one transaction and opens the Checkout Session after the commit", async () => {
    const before = w.stripe.calls.length;
    const { order, refs } = await placeStripeOrder(shop);
    expect(order.paymentMethod).toEqual({ id: "stripe_card", provider: "stripe", type: "card" });
    expect(order.payment).toMatchObject({
      provider: "stripe",
      method: "card",
      status: "created",
      amount: order.totals.total.amount,
      action: {
        type: "redirect",
        url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/),
      },
    });
    expect(order.payments).toHaveLength(1);
    const calls = w.stripe.calls.slice(before);
    expect(calls).toHaveLength(1);
    const recorded = calls[0]!;
    expect(recorded.path).toBe("/v1/checkout/sessions");
    expect(recorded.headers.authorization).toBe(`Bearer ${STRIPE.secretKey}`);
    expect(recorded.headers["idempotency-key"]).toStartWith(`${refs.attemptId}:`);
    const params = Object.fromEntries(new URLSearchParams(recorded.body));
    expect(params).toMatchObject({
      mode: "payment",
      client_reference_id: refs.attemptId,
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": String(refs.amount),
      "line_items[0][quantity]": "1",
      "metadata[orgId]": shop.org.id,
      "metadata[orderId]": order.id,
      "metadata[attemptId]": refs.attemptId,
      "payment_intent_data[metadata][orgId]": shop.org.id,
      "payment_intent_data[metadata][orderId]": order.id,
      "payment_intent_data[metadata][attemptId]": refs.attemptId,
    });
    expect(Math.abs(Number(params.expires_at) - (w.clock.now / 1000 + 3600))).toBeLessThan(5);
    // The storefront reads the same back with the access token.
    const read = await shop.storefront(`/v1/orders/${order.id}?token=${order.accessToken}`);
    expect(read.body.data.payment).toEqual(order.payment);
    expect(JSON.stringify(read.body)).not.toContain(STRIPE.secretKey);
  });

  test("Stripe down: the order exists with payment created and no action, the attempt is retried by the outbox and by POST /v1/orders/{id}/payment", async () => {
    w.stripe.mode = "down";
    const stock = await stockOf(shop);
    const placed = await (async () => {
      const { readyCart } = await import("./helpers.ts");
      const cartId = await readyCart(shop);
      return shop.storefront(`/v1/carts/${cartId}/place-order`, { body: { paymentMethodId: "stripe_card" } });
    })();
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    expect(order.payment).toMatchObject({ status: "created", provider: "stripe" });
    expect(order.payment.action).toBeUndefined();
    expect(order.paymentStatus).toBe("pending");
    expect(await stockOf(shop)).toBe(stock - 1);
    const job = await w.t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      tenant.sqlite
        .query(
          "SELECT status, attempts FROM outbox WHERE kind = 'payments.start' ORDER BY created_at DESC LIMIT 1",
        )
        .get(),
    );
    expect(job).toEqual({ status: "pending", attempts: 1 });

    w.stripe.mode = "ok";
    const retried = await shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, {
      body: {},
    });
    expect(retried.status).toBe(200);
    expect(retried.body.data.payment.attemptId).toBe(order.payment.attemptId);
    expect(retried.body.data.payment.action.type).toBe("redirect");
    expect(retried.body.data.payments).toHaveLength(1);
    // Someone without the token learns nothing.
    expect((await shop.storefront(`/v1/orders/${order.id}/payment`, { body: {} })).status).toBe(404);
  });

  test("A place-order whose provider call fails answers the placed order with a payment that says it did not start (error, and retry naming POST /v1/orders/{id}/payment) on every read, until a retry opens it", async () => {
    const stock = await stockOf(shop);
    w.stripe.mode = "down";
    let placed: Awaited<ReturnType<typeof placeWith>>;
    try {
      placed = await placeWith(shop, "stripe_card");
      expect(placed.status).toBe(201);
      const order = placed.body.data;
      expect(await stockOf(shop)).toBe(stock - 1);
      expect(order).toMatchObject({ status: "open", paymentStatus: "pending" });
      const retry = {
        operationId: "retryOrderPayment",
        method: "POST",
        path: `/v1/orders/${order.id}/payment`,
      };
      expect(order.payment).toMatchObject({ provider: "stripe", status: "created", retry });
      expect(order.payment.error).toContain("did not start");
      expect(order.payment.action).toBeUndefined();
      // The provider's own words stay in the logs.
      expect(order.payment.error).not.toContain("HTTP 503");
      const read = await shop.storefront(`/v1/orders/${order.id}?token=${order.accessToken}`);
      expect(read.body.data.payment).toEqual(order.payment);
      expect((await adminOrder(shop, order.id)).payment).toEqual(order.payment);
    } finally {
      w.stripe.mode = "ok";
    }
    const order = placed.body.data;
    const retried = await shop.storefront(`${order.payment.retry.path}?token=${order.accessToken}`, {
      body: {},
    });
    expect(retried.status).toBe(200);
    expect(retried.body.data.payment.attemptId).toBe(order.payment.attemptId);
    expect(retried.body.data.payment.action.type).toBe("redirect");
    expect(retried.body.data.payment.error).toBeUndefined();
    expect(retried.body.data.payment.retry).toBeUndefined();
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
  });

  test("a merchant's cancel takes error and retry off a payment that did not start, in the cancel's own transaction; a retry then answers 409 and changes nothing", async () => {
    w.stripe.mode = "down";
    try {
      const order = (await placeWith(shop, "stripe_card")).body.data;
      expect(order.payment.retry).toBeDefined();
      const cancelled = await shop.admin.post(`/v1/admin/orders/${order.id}/cancel`, {});
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe("cancelled");
      // The cancel's answer is rendered inside its transaction: the payment is already withdrawn there.
      expect(cancelled.body.data.payment).toMatchObject({
        attemptId: order.payment.attemptId,
        status: "created",
      });
      expect(cancelled.body.data.payment).not.toHaveProperty("retry");
      expect(cancelled.body.data.payment).not.toHaveProperty("error");
      const read = await shop.storefront(`/v1/orders/${order.id}?token=${order.accessToken}`);
      expect(read.body.data.payments).toEqual(cancelled.body.data.payments);
      const before = await adminOrder(shop, order.id);
      const retried = await shop.storefront(`${order.payment.retry.path}?token=${order.accessToken}`, {
        body: {},
      });
      expect(retried.status).toBe(409);
      expect(retried.body.code).toBe("CONFLICT");
      expect(await adminOrder(shop, order.id)).toEqual(before);
    } finally {
      w.stripe.mode = "ok";
    }
  });

  test("a payment received through an earlier attempt takes retry off a later one that did not start", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    w.stripe.mode = "down";
    try {
      // A new card session asked while the first is still open, and the provider is down.
      const retried = await shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, {
        body: {},
      });
      expect(retried.status).toBe(200);
      expect(retried.body.data.payment.attemptId).not.toBe(refs.attemptId);
      expect(retried.body.data.payment.retry).toBeDefined();
      expect((await deliverStripe(w, shop.org.id, events.completed(refs))).status).toBe(200);
      const paid = await adminOrder(shop, order.id);
      expect(paid.paymentStatus).toBe("paid");
      expect(paid.payment).toMatchObject({
        attemptId: retried.body.data.payment.attemptId,
        status: "created",
      });
      expect(paid.payment).not.toHaveProperty("retry");
      expect(paid.payment).not.toHaveProperty("error");
      const again = await shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, {
        body: {},
      });
      expect(again.status).toBe(409);
    } finally {
      w.stripe.mode = "ok";
    }
  });

  test("a refused place-order writes no attempt and calls no provider", async () => {
    const before = w.stripe.calls.length;
    const { readyCart } = await import("./helpers.ts");
    const cartId = await readyCart(shop);
    const res = await shop.storefront(`/v1/carts/${cartId}/place-order`, {
      body: { paymentMethodId: "paypal" },
    });
    expect(res.status).toBe(422);
    await Bun.sleep(20);
    expect(w.stripe.calls.length).toBe(before);
  });
});

describe("verification", () => {
  test("A Stripe event signed by generateTestHeaderString with the tenant's secret, posted to /api/webhooks/stripe/<org>, returns 200 and applies its effect once", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const res = await deliverStripe(w, shop.org.id, events.completed(refs));
    expect(res).toEqual({ status: 200, body: { data: { received: true, outcome: "applied" } } });
    const after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "open", paymentStatus: "paid", fulfillmentStatus: "unfulfilled" });
    expect(after.paidAt).not.toBeNull();
    expect(after.payment.status).toBe("succeeded");
    expect(after.payment.action).toBeUndefined();
    expect(after.events.filter((e: { type: string }) => e.type === "payment")).toHaveLength(1);
    expect(after.events.at(-1).message).toContain("stripe checkout.session.completed");
  });

  test("The same delivery with one body byte changed, a wrong secret, or t 301 s old returns 401 WEBHOOK_SIGNATURE_INVALID and changes nothing; several v1 values, one valid, are accepted", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const before = await adminOrder(shop, order.id);
    const event = events.completed(refs);
    const payload = JSON.stringify(event);
    const now = Math.floor(w.clock.now / 1000);
    const good = await stripeHeader(payload, STRIPE.webhookSecret, now);
    const changed = payload.replace(`"amount_total":${refs.amount}`, `"amount_total":${refs.amount + 1}`);
    // Stripe's library checks only the past side of the tolerance; the future side is ours.
    const cases: {
      name: string;
      payload: string;
      header?: string;
      secret?: string;
      timestamp?: number;
      oursOnly?: boolean;
    }[] = [
      { name: "one byte changed", payload: changed, header: good },
      { name: "wrong secret", payload, secret: "whsec_wrongSecret123" },
      { name: "301 s old", payload, timestamp: now - 301 },
      // 302: `now` is whole seconds taken before the deliveries, so 301 ahead may be within 300 by then.
      { name: "302 s ahead", payload, timestamp: now + 302, oursOnly: true },
      { name: "no v1", payload, header: `t=${now}` },
      { name: "another scheme only", payload, header: good.replace("v1=", "v0=") },
    ];
    for (const c of cases) {
      const res = await deliverStripe(w, shop.org.id, event, c);
      expect([c.name, res.status, res.body.code]).toEqual([c.name, 401, "WEBHOOK_SIGNATURE_INVALID"]);
      if ((!c.header || c.header === good) && !c.oursOnly) {
        const header =
          c.header ?? (await stripeHeader(c.payload, c.secret ?? STRIPE.webhookSecret, c.timestamp ?? now));
        expect(await stripeAccepts(c.payload, header, STRIPE.webhookSecret, now)).toBe(false);
      }
    }
    const noHeader = await w.t.json(`/api/webhooks/stripe/${shop.org.id}`, { method: "POST", body: payload });
    expect(noHeader.status).toBe(401);
    expect(await adminOrder(shop, order.id)).toEqual(before);
    expect((await eventRows(shop.org.id)).some((r) => r.event_id === event.id)).toBe(false);

    // A bad v1 before the good one (Stripe sends several while a secret is rolled), 299 s old.
    const old = now - 299;
    const valid = await stripeHeader(payload, STRIPE.webhookSecret, old);
    const rolled = `t=${old},v1=${"0".repeat(64)},${valid.split(",")[1]}`;
    expect(await stripeAccepts(payload, rolled, STRIPE.webhookSecret, now)).toBe(true);
    const res = await deliverStripe(w, shop.org.id, event, { header: rolled });
    expect(res.status).toBe(200);
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("POST /v1/webhooks/payments/stripe?org=<org> without x-checkout-secret, or with a wrong one, returns 401 UNAUTHORIZED", async () => {
    const { refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    for (const checkoutSecret of [
      null,
      "x".repeat(40),
      CHECKOUT_SECRET.slice(0, -1),
      `${CHECKOUT_SECRET}c`,
    ]) {
      const res = await deliverStripe(w, shop.org.id, event, { via: "api", checkoutSecret });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("UNAUTHORIZED");
    }
    expect((await deliverStripe(w, shop.org.id, event, { via: "api" })).status).toBe(200);
  });

  test("With CHECKOUT_API_SECRET unset, both POST routes return 503 WEBHOOKS_DISABLED, even for a correctly signed event", async () => {
    const t = makeTestApp({ env: { INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY, ...STRIPE_ENV } });
    try {
      const org = await t.org("Disabled");
      const payload = JSON.stringify(stripeEvent("checkout.session.expired", { id: "cs_x" }));
      const header = await stripeHeader(
        payload,
        STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
        Math.floor(Date.now() / 1000),
      );
      for (const path of [`/api/webhooks/stripe/${org.id}`, `/v1/webhooks/payments/stripe?org=${org.id}`]) {
        const res = await t.json(path, {
          method: "POST",
          headers: { "stripe-signature": header, "x-checkout-secret": CHECKOUT_SECRET },
          body: payload,
        });
        expect(res.status).toBe(503);
        expect(res.body.code).toBe("WEBHOOKS_DISABLED");
      }
      // Readiness still answers.
      expect((await t.json(`/v1/webhooks/payments/stripe?org=${org.id}`)).status).toBe(200);
    } finally {
      t.cleanup();
    }
  });

  test("A correctly secreted API request carrying an unsigned or wrongly signed Stripe body returns 401 WEBHOOK_SIGNATURE_INVALID", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    const payload = JSON.stringify(event);
    const unsigned = await w.t.json(`/v1/webhooks/payments/stripe?org=${shop.org.id}`, {
      method: "POST",
      headers: { "x-checkout-secret": CHECKOUT_SECRET, "content-type": "application/json" },
      body: payload,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    const wrong = await deliverStripe(w, shop.org.id, event, { via: "api", secret: "whsec_notTheSecret" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
  });

  test("GET /v1/webhooks/payments/{provider} without callback params returns the same readiness body for every org, configured or not", async () => {
    const other = await w.t.org("Unconfigured");
    for (const provider of ["stripe", "ifthenpay", "easypay"]) {
      const answers = await Promise.all(
        [shop.org.id, other.id, "_", "org_doesnotexist1"].map((org) =>
          w.t.json(`/v1/webhooks/payments/${provider}?org=${org}`),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ data: { provider, ready: true } });
      }
      const ingress = await w.t.json(`/api/webhooks/${provider}/${other.id}`);
      expect(ingress.body).toEqual({ data: { provider, ready: true } });
    }
  });

  test("Unknown provider → 404; unknown org → 404; two org params at the API → 400; body over 256 KiB → 413", async () => {
    const payload = JSON.stringify(stripeEvent("checkout.session.expired", { id: "cs_x" }));
    const header = await stripeHeader(payload, STRIPE.webhookSecret, Math.floor(w.clock.now / 1000));
    const post = (path: string, body: string | Uint8Array = payload) =>
      w.t.json(path, {
        method: "POST",
        headers: { "stripe-signature": header, "x-checkout-secret": CHECKOUT_SECRET },
        body,
      });
    expect((await post(`/v1/webhooks/payments/paypal?org=${shop.org.id}`)).status).toBe(404);
    expect((await post(`/api/webhooks/paypal/${shop.org.id}`)).status).toBe(404);
    expect((await post("/v1/webhooks/payments/stripe?org=org_doesnotexist1")).status).toBe(404);
    expect((await post("/api/webhooks/stripe/org_doesnotexist1")).status).toBe(404);
    const twice = await post(`/v1/webhooks/payments/stripe?org=${shop.org.id}&org=${shop.org.id}`);
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe("VALIDATION_ERROR");
    expect((await post("/v1/webhooks/payments/stripe")).status).toBe(400);
    const big = new Uint8Array(256 * 1024 + 1).fill(0x20);
    for (const path of [
      `/v1/webhooks/payments/stripe?org=${shop.org.id}`,
      `/api/webhooks/stripe/${shop.org.id}`,
    ]) {
      const res = await post(path, big);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe("PAYLOAD_TOO_LARGE");
    }
    // A chunked body (no declared length) is counted as it arrives.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(64 * 1024));
        controller.close();
      },
    });
    const chunked = await w.t.json(`/api/webhooks/stripe/${shop.org.id}`, {
      method: "POST",
      headers: { "stripe-signature": header },
      body: stream,
    });
    expect(chunked.status).toBe(413);
  });

  test("a tenant's secret never verifies another tenant's notification", async () => {
    const otherShop = await paymentShop(w.t, "Other card shop", "other-card.example");
    await putIntegration(w.t, otherShop.org.key, "stripe", {
      fields: { ...STRIPE, webhookSecret: "whsec_otherTenant000111" },
    });
    const { order, refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    // Signed with this tenant's secret, sent to the other tenant's URL.
    const res = await deliverStripe(w, otherShop.org.id, event, { secret: STRIPE.webhookSecret });
    expect(res.status).toBe(401);
    // Signed with the other tenant's secret, sent to this tenant's URL.
    const forged = await deliverStripe(w, shop.org.id, event, { secret: "whsec_otherTenant000111" });
    expect(forged.status).toBe(401);
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
    // Signed with the other tenant's secret, sent to the other tenant's URL: its metadata names this org.
    const elsewhere = await deliverStripe(w, otherShop.org.id, event, { secret: "whsec_otherTenant000111" });
    expect(elsewhere.body.data.outcome).toBe("ignored");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
  });

  test("the ingress answers 429 past WEBHOOK_RATE_LIMIT_PER_MIN per provider and org", async () => {
    const limited = makeWorld({ WEBHOOK_RATE_LIMIT_PER_MIN: "2", ...STRIPE_ENV });
    try {
      const org = await limited.t.org("Limited");
      const event = stripeEvent("checkout.session.expired", { id: "cs_x" });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (await deliverStripe(limited, org.id, event, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 429]);
      const other = await limited.t.org("Not limited");
      expect(
        (await deliverStripe(limited, other.id, event, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET })).status,
      ).toBe(200);
    } finally {
      limited.close();
    }
  });

  test("the ingress forwards the exact bytes over HTTP when API_PUBLIC_URL is another origin, and relays the answer", async () => {
    let target: ((request: Request) => Promise<Response>) | undefined;
    const api = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => target!(request) });
    const remote = makeWorld({
      ...STRIPE_ENV,
      API_PUBLIC_URL: `http://127.0.0.1:${api.port}`,
      BASE_URL: "http://localhost:9",
    });
    target = (request) => remote.t.app.fetch(request);
    try {
      const org = await remote.t.org("Remote");
      // Bytes that are not canonical JSON (spacing, key order) must arrive unchanged to verify again.
      const payload = `{"type":"checkout.session.expired",  "id":"evt_remote_1","data":{"object":{"id":"cs_r"}}}`;
      const header = await stripeHeader(
        payload,
        STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
        Math.floor(remote.clock.now / 1000),
      );
      const res = await remote.t.json(`/api/webhooks/stripe/${org.id}`, {
        method: "POST",
        headers: { "stripe-signature": header, "content-type": "application/json" },
        body: payload,
      });
      expect(res).toMatchObject({ status: 200, body: { data: { received: true, outcome: "ignored" } } });
      api.stop(true);
      const down = await remote.t.json(`/api/webhooks/stripe/${org.id}`, {
        method: "POST",
        headers: { "stripe-signature": header },
        body: payload,
      });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe("UPSTREAM_UNAVAILABLE");
    } finally {
      api.stop(true);
      remote.close();
    }
  });
});

describe("reconciliation", () => {
  test("Replaying any applied event returns 200 duplicate, adds no history entry and changes no stock; two concurrent identical deliveries apply once", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    expect((await deliverStripe(w, shop.org.id, event)).body.data.outcome).toBe("applied");
    const history = await historyOf(order.id);
    const stock = await stockOf(shop);
    const replay = await deliverStripe(w, shop.org.id, event);
    expect(replay).toEqual({ status: 200, body: { data: { received: true, outcome: "duplicate" } } });
    expect(await historyOf(order.id)).toBe(history);
    expect(await stockOf(shop)).toBe(stock);

    const second = await placeStripeOrder(shop);
    const expired = events.expired(second.refs);
    const [a, b] = await Promise.all([
      deliverStripe(w, shop.org.id, expired),
      deliverStripe(w, shop.org.id, expired),
    ]);
    expect([a.body.data.outcome, b.body.data.outcome].sort()).toEqual(["applied", "duplicate"]);
  });

  test("the same event delivered 20 times concurrently has one effect", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const stock = await stockOf(shop);
    const event = events.expired(refs);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliverStripe(w, shop.org.id, event)));
    const outcomes = answers.map((a) => a.body.data.outcome);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(19);
    expect(await stockOf(shop)).toBe(stock + 1);
    const after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(after.events.filter((e: { type: string }) => e.type === "payment")).toHaveLength(1);
    expect((await eventRows(shop.org.id)).filter((r) => r.event_id === event.id)).toHaveLength(1);
  });

  test("A success whose amount or currency differs from the attempt leaves paymentStatus unchanged, sets amount_mismatch, answers 200", async () => {
    for (const over of [{ amount_total: 1 }, { currency: "usd" }]) {
      const { order, refs } = await placeStripeOrder(shop);
      const res = await deliverStripe(w, shop.org.id, events.completed(refs, "paid", over));
      expect(res.status).toBe(200);
      expect(res.body.data.outcome).toBe("flagged");
      const after = await adminOrder(shop, order.id);
      expect(after).toMatchObject({
        status: "open",
        paymentStatus: "pending",
        paymentFlags: ["amount_mismatch"],
      });
      expect(after.payment.status).toBe("mismatch");
      // A later correct-looking success for the same attempt does not mark it paid either.
      await deliverStripe(w, shop.org.id, events.piSucceeded(refs));
      expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
    }
  });

  test("checkout.session.expired for an abandoned session of an order already paid through another session leaves the order open/paid", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const retried = await shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, {
      body: {},
    });
    const b = retried.body.data.payment;
    expect(b.attemptId).not.toBe(refs.attemptId);
    const refsB: StripeRefs = {
      ...refs,
      attemptId: b.attemptId,
      sessionId: b.action.url.split("/").at(-1),
      paymentIntent: `pi_b_${b.attemptId.slice(4)}`,
    };
    await deliverStripe(w, shop.org.id, events.completed(refsB));
    await deliverStripe(w, shop.org.id, events.expired(refs));
    const after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "open", paymentStatus: "paid" });
    expect(after.payments.map((p: { status: string }) => p.status)).toEqual(["expired", "succeeded"]);
  });

  test("checkout.session.expired for the only attempt of an unpaid order sets cancelled/expired and restores every line's stock", async () => {
    const before = [await stockOf(shop, 1), await stockOf(shop, 2)];
    const { readyCart } = await import("./helpers.ts");
    const cartId = await readyCart(shop, 2, 1);
    await shop.storefront(`/v1/carts/${cartId}/items`, {
      body: { variantId: shop.shirt.variants[2].id, quantity: 3 },
    });
    const placed = await shop.storefront(`/v1/carts/${cartId}/place-order`, {
      body: { paymentMethodId: "stripe_card" },
    });
    const order = placed.body.data;
    expect([await stockOf(shop, 1), await stockOf(shop, 2)]).toEqual([before[0]! - 2, before[1]! - 3]);
    const refs: StripeRefs = {
      orgId: shop.org.id,
      orderId: order.id,
      attemptId: order.payment.attemptId,
      sessionId: order.payment.action.url.split("/").at(-1),
      paymentIntent: "pi_never",
      amount: order.totals.total.amount,
    };
    await deliverStripe(w, shop.org.id, events.expired(refs));
    const after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(after.cancelledAt).not.toBeNull();
    expect([await stockOf(shop, 1), await stockOf(shop, 2)]).toEqual(before);
  });

  test("A payment for an order cancelled by expiry re-opens it (open/paid, stock decremented again) when stock suffices, else leaves it cancelled/paid with refund_required", async () => {
    const { order, refs } = await placeStripeOrder(shop, { variantIndex: 3 });
    await deliverStripe(w, shop.org.id, events.expired(refs));
    const released = await stockOf(shop, 3);
    await deliverStripe(w, shop.org.id, events.completed(refs));
    const reopened = await adminOrder(shop, order.id);
    expect(reopened).toMatchObject({ status: "open", paymentStatus: "paid", cancelledAt: null });
    expect(reopened.paymentFlags.sort()).toEqual(["paid_after_cancel", "reopened_after_payment"]);
    expect(await stockOf(shop, 3)).toBe(released - 1);

    const second = await placeStripeOrder(shop, { variantIndex: 4 });
    await deliverStripe(w, shop.org.id, events.expired(second.refs));
    await shop.admin.patch(`/v1/admin/inventory/${shop.shirt.variants[4].id}`, { onHand: 0 });
    await deliverStripe(w, shop.org.id, events.piSucceeded(second.refs));
    const kept = await adminOrder(shop, second.order.id);
    expect(kept).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
    expect(kept.paymentFlags.sort()).toEqual(["paid_after_cancel", "refund_required"]);
    expect(await stockOf(shop, 4)).toBe(0);
    await shop.admin.patch(`/v1/admin/inventory/${shop.shirt.variants[4].id}`, { onHand: 1000 });
  });

  test("checkout.session.completed with payment_status: unpaid sets processing; async_payment_succeeded then sets paid; the sweep never expires it meanwhile", async () => {
    const { order, refs } = await placeStripeOrder(shop, { variantIndex: 5 });
    await deliverStripe(w, shop.org.id, events.completed(refs, "unpaid"));
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("processing");
    const stock = await stockOf(shop, 5);
    w.clock.offset = 3 * 24 * 3600_000; // far past the session's expiry and the 24 h grace
    try {
      await sweepPayments(w.t.app.ctx);
      expect(await adminOrder(shop, order.id)).toMatchObject({ status: "open", paymentStatus: "processing" });
      expect(await stockOf(shop, 5)).toBe(stock);
      await deliverStripe(w, shop.org.id, events.asyncSucceeded(refs));
    } finally {
      w.clock.offset = 0;
    }
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("async_payment_failed cancels the order with paymentStatus failed and releases stock; payment_intent.payment_failed alone keeps the order open and stock held", async () => {
    const first = await placeStripeOrder(shop);
    const stock = await stockOf(shop);
    await deliverStripe(w, shop.org.id, events.completed(first.refs, "unpaid"));
    await deliverStripe(w, shop.org.id, events.asyncFailed(first.refs));
    expect(await adminOrder(shop, first.order.id)).toMatchObject({
      status: "cancelled",
      paymentStatus: "failed",
    });
    expect(await stockOf(shop)).toBe(stock + 1);

    const second = await placeStripeOrder(shop);
    const held = await stockOf(shop);
    await deliverStripe(w, shop.org.id, events.piFailed(second.refs));
    expect(await adminOrder(shop, second.order.id)).toMatchObject({
      status: "open",
      paymentStatus: "failed",
    });
    expect(await stockOf(shop)).toBe(held);
  });

  test("payment_intent.processing after payment_intent.succeeded leaves paymentStatus paid", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    await deliverStripe(w, shop.org.id, events.piSucceeded(refs));
    const res = await deliverStripe(w, shop.org.id, events.piProcessing(refs));
    expect(res.body.data.outcome).toBe("stale");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("payment_intent.amount_capturable_updated records an authorization; payment_intent.canceled expires the attempt", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    await deliverStripe(w, shop.org.id, events.piCapturable(refs));
    expect(await adminOrder(shop, order.id)).toMatchObject({ paymentStatus: "processing" });
    expect((await adminOrder(shop, order.id)).payment.status).toBe("authorized");
    await deliverStripe(w, shop.org.id, events.piCanceled(refs));
    expect(await adminOrder(shop, order.id)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
  });

  test("an event kind the service does not use is verified, recorded as ignored, and answered 200", async () => {
    const event = stripeEvent("customer.created", { id: "cus_1" });
    const res = await deliverStripe(w, shop.org.id, event);
    expect(res.body.data.outcome).toBe("ignored");
    expect((await eventRows(shop.org.id)).find((r) => r.event_id === event.id)).toMatchObject({
      outcome: "ignored",
    });
  });

  test("the shopper's return confirmation reads the session back and applies it once (event id return:<cs_id>)", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    w.stripe.sessionState.set(refs.sessionId, {
      status: "complete",
      payment_status: "paid",
      amount_total: refs.amount,
      currency: "eur",
      payment_intent: refs.paymentIntent,
    });
    const confirm = () =>
      shop.storefront(`/v1/orders/${order.id}/payment/confirm?token=${order.accessToken}`, {
        body: { sessionId: refs.sessionId },
      });
    const res = await confirm();
    expect(res.status).toBe(200);
    expect(res.body.data.paymentStatus).toBe("paid");
    const history = await historyOf(order.id);
    expect((await confirm()).status).toBe(200);
    const hook = await deliverStripe(w, shop.org.id, events.completed(refs));
    expect(hook.body.data.outcome).toBe("stale");
    expect(await historyOf(order.id)).toBe(history);
    expect((await eventRows(shop.org.id)).some((r) => r.event_id === `return:${refs.sessionId}`)).toBe(true);
  });
});

describe("refunds through Stripe", () => {
  async function paidOrder() {
    const placed = await placeStripeOrder(shop);
    await deliverStripe(w, shop.org.id, events.completed(placed.refs));
    return placed;
  }

  test("refund.created then charge.refunded for the same refund count it once; partial → partially_refunded, full → refunded; status and stock unchanged", async () => {
    const { order, refs } = await paidOrder();
    const stock = await stockOf(shop);
    const part = Math.floor(refs.amount / 3);
    await deliverStripe(w, shop.org.id, events.refundCreated(refs, { id: "re_part_1", amount: part }));
    await deliverStripe(
      w,
      shop.org.id,
      events.chargeRefunded(refs, part, [{ id: "re_part_1", amount: part }]),
    );
    let after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({
      status: "open",
      paymentStatus: "partially_refunded",
      fulfillmentStatus: "unfulfilled",
    });
    expect(after.totals.refunded.amount).toBe(part);
    expect(after.refunds).toHaveLength(1);
    await deliverStripe(
      w,
      shop.org.id,
      events.chargeRefunded(refs, refs.amount, [
        { id: "re_part_1", amount: part },
        { id: "re_rest_2", amount: refs.amount - part },
      ]),
    );
    await deliverStripe(
      w,
      shop.org.id,
      events.refundCreated(refs, { id: "re_rest_2", amount: refs.amount - part }),
    );
    after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "open", paymentStatus: "refunded" });
    expect(after.totals.refunded.amount).toBe(refs.amount);
    expect(after.refunds).toHaveLength(2);
    expect(await stockOf(shop)).toBe(stock);
  });

  test("A refund made by the admin endpoint and then notified by Stripe is counted once", async () => {
    const { order, refs } = await paidOrder();
    const before = w.stripe.calls.length;
    const res = await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, {
      amount: 500,
      reason: "Damaged",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ paymentStatus: "partially_refunded" });
    expect(res.body.data.refunds[0]).toMatchObject({ amount: { amount: 500 }, status: "succeeded" });
    const recorded = w.stripe.calls.slice(before).find((c) => c.path === "/v1/refunds")!;
    const refundId = res.body.data.refunds[0].id as string;
    expect(recorded.headers["idempotency-key"]).toBe(refundId);
    expect(Object.fromEntries(new URLSearchParams(recorded.body))).toMatchObject({
      payment_intent: refs.paymentIntent,
      amount: "500",
      "metadata[refundId]": refundId,
      "metadata[orderId]": order.id,
    });
    const providerRefund = JSON.parse(
      JSON.stringify(
        await w.t.app.ctx.tenants.with(shop.org.id, (tenant) =>
          tenant.sqlite.query("SELECT provider_refund_id FROM payment_refunds WHERE id = ?").get(refundId),
        ),
      ),
    ).provider_refund_id as string;
    expect(providerRefund).toStartWith("re_test_");
    await deliverStripe(
      w,
      shop.org.id,
      events.refundCreated(refs, { id: providerRefund, amount: 500, refundId }),
    );
    await deliverStripe(
      w,
      shop.org.id,
      events.chargeRefunded(refs, 500, [{ id: providerRefund, amount: 500, refundId }]),
    );
    const after = await adminOrder(shop, order.id);
    expect(after.totals.refunded.amount).toBe(500);
    expect(after.refunds).toHaveLength(1);
    expect(after.paymentStatus).toBe("partially_refunded");
  });

  test("Stripe down during a refund: the refund stays pending and the outbox asks again; nothing is refunded twice", async () => {
    const { order } = await paidOrder();
    w.stripe.mode = "down";
    const res = await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, {});
    w.stripe.mode = "ok";
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ paymentStatus: "refunded" });
    expect(res.body.data.refunds[0].status).toBe("pending");
    const refundId = res.body.data.refunds[0].id;
    const deadline = Date.now() + 5000;
    while ((await adminOrder(shop, order.id)).refunds[0].status === "pending" && Date.now() < deadline)
      await Bun.sleep(50);
    expect((await adminOrder(shop, order.id)).refunds[0].status).toBe("succeeded");
    const calls = w.stripe.calls.filter(
      (c) => c.path === "/v1/refunds" && c.headers["idempotency-key"] === refundId,
    );
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 1 })).status).toBe(409);
  });

  test("a fully refunded, unfulfilled provider order can be cancelled by the merchant: no second refund, no second restock", async () => {
    const { order } = await paidOrder();
    const stock = await stockOf(shop);
    await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { restock: true });
    expect(await stockOf(shop)).toBe(stock + 1);
    const refundCalls = w.stripe.calls.filter((c) => c.path === "/v1/refunds").length;
    const res = await shop.admin.post(`/v1/admin/orders/${order.id}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(res.body.data.refunds).toHaveLength(1);
    expect(await stockOf(shop)).toBe(stock + 1);
    expect(w.stripe.calls.filter((c) => c.path === "/v1/refunds").length).toBe(refundCalls);
  });
});

describe("environment credentials and org _", () => {
  test("A `_` notification verified with the environment secret reaches the tenant through payment_routes; with no route it answers 200 ignored", async () => {
    const envShop = await paymentShop(w.t, "Env Shop", "env-shop.example");
    const { order, refs } = await placeStripeOrder(envShop);
    const sessionCall = w.stripe.calls.at(-1)!;
    expect(sessionCall.headers.authorization).toBe(`Bearer ${STRIPE_ENV.STRIPE_SECRET_KEY}`);
    // Without metadata: found by the session id alone.
    const event = events.completed({ ...refs, attemptId: "" }, "paid", { metadata: {} });
    const res = await deliverStripe(w, "_", event, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET });
    expect(res.body.data.outcome).toBe("applied");
    expect((await adminOrder(envShop, order.id)).paymentStatus).toBe("paid");
    const stray = stripeEvent("checkout.session.completed", { id: "cs_nobody", payment_status: "paid" });
    const none = await deliverStripe(w, "_", stray, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET });
    expect(none).toEqual({ status: 200, body: { data: { received: true, outcome: "ignored" } } });
    // `_` never uses a tenant's secret.
    const tenantSigned = await deliverStripe(w, "_", stray, { secret: STRIPE.webhookSecret });
    expect(tenantSigned.status).toBe(401);
    // The payment intent routes too (recorded in payment_routes when the session was created).
    const again = events.piSucceeded({ ...refs, attemptId: "" }, { metadata: {} });
    const viaPi = await deliverStripe(w, "_", again, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET });
    expect(viaPi.body.data.outcome).toBe("stale");
  });

  test("A notification verified with environment credentials does not affect an attempt created with tenant credentials, and vice versa", async () => {
    const mixed = await paymentShop(w.t, "Mixed", "mixed.example");
    const envOrder = await placeStripeOrder(mixed); // no row yet: environment credentials
    await putIntegration(w.t, mixed.org.key, "stripe", { fields: STRIPE });
    const tenantOrder = await placeStripeOrder(mixed);
    // The env attempt, notified with the tenant's secret (the row now applies).
    const a = await deliverStripe(w, mixed.org.id, events.completed(envOrder.refs), {
      secret: STRIPE.webhookSecret,
    });
    expect(a.body.data.outcome).toBe("ignored");
    expect((await adminOrder(mixed, envOrder.order.id)).paymentStatus).toBe("pending");
    // The tenant attempt, notified through `_` with the environment secret: not routed to it.
    const b = await deliverStripe(w, "_", events.completed(tenantOrder.refs), {
      secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
    });
    expect(b.body.data.outcome).toBe("ignored");
    expect((await adminOrder(mixed, tenantOrder.order.id)).paymentStatus).toBe("pending");
    // The env attempt through `_` with the environment secret: applied.
    const c = await deliverStripe(w, "_", events.completed(envOrder.refs), {
      secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
    });
    expect(c.body.data.outcome).toBe("applied");
    const rows = await eventRows(mixed.org.id);
    expect(rows.find((r) => r.reason === "credential_source_mismatch")).toBeDefined();
  });
});

describe("hygiene", () => {
  test("No log line contains an Ifthenpay key, a Stripe signature, an Easypay API key, or a decrypted secret", async () => {
    const lines: string[] = [];
    const log = w.t.app.ctx.log;
    const saved = { ...log };
    for (const level of ["debug", "info", "warn", "error"] as const) {
      log[level] = (msg, fields) => lines.push(JSON.stringify({ msg, ...fields }));
    }
    let header = "";
    try {
      const { refs } = await placeStripeOrder(shop);
      const event = events.completed(refs);
      const payload = JSON.stringify(event);
      header = await stripeHeader(payload, STRIPE.webhookSecret, Math.floor(w.clock.now / 1000));
      await deliverStripe(w, shop.org.id, event, { header, payload });
      await deliverStripe(w, shop.org.id, event, { secret: "whsec_wrong" });
      await deliverStripe(w, shop.org.id, event, { via: "api", header, payload });
      await w.t.json(`/api/webhooks/ifthenpay/${shop.org.id}?key=secret-anti-phishing&orderId=1&amount=1`);
      await putIntegration(w.t, shop.org.key, "easypay", { fields: EASYPAY });
      const easy = await placeWith(shop, "easypay_multibanco");
      const payment = [...w.easypay.payments.values()].find(
        (p) => p.key === easy.body.data.payment.attemptId,
      )!;
      payment.payment_status = "paid";
      await w.t.json(`/api/webhooks/easypay/${shop.org.id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: payment.id, key: payment.key, type: "capture", status: "success" }),
      });
      expect((await adminOrder(shop, easy.body.data.id)).paymentStatus).toBe("paid");
    } finally {
      Object.assign(log, saved);
    }
    const text = lines.join("\n");
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of [
      STRIPE.secretKey,
      STRIPE.webhookSecret,
      header.split("v1=")[1]!,
      "secret-anti-phishing",
      STRIPE_ENV.STRIPE_SECRET_KEY,
      EASYPAY.apiKey,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain("?key=");
  });

  test("No test opens a connection to a non-loopback address", () => {
    const { payments } = w.t.app.ctx.config;
    for (const base of [payments.stripeApiBase, payments.ifthenpayBaseUrl, payments.easypayBaseUrl!]) {
      expect(new URL(base).hostname).toBe("127.0.0.1");
    }
    // Every call the fakes saw came to them: the service had nowhere else to go.
    expect(w.stripe.calls.length).toBeGreaterThan(0);
  });
});
