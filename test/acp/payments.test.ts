import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { Shop } from "../helpers/shop.ts";
import {
  deliverCardPaid,
  deliverStripe,
  IFTHENPAY,
  makeWorld,
  type PaymentsWorld,
  providerShop,
  putIntegration,
  STRIPE,
  stockOf,
  stripeEvent,
} from "../payments/helpers.ts";
import { until } from "../webhooks/helpers.ts";
import { type Receiver, startReceiver } from "../webhooks/receivers.ts";
import {
  type AcpClient,
  type AcpValidators,
  acpClient,
  acpValidators,
  addPlatform,
  paymentWith,
  readyBody,
  shippingChoice,
} from "./helpers.ts";

// ACP completions through the shop's own providers (fakes over HTTP): Multibanco answered with what
// the buyer does next, a card escalated to the provider's page, a key still being answered, and the
// order webhooks a platform receives, signed with Merchant-Signature and verified as it would.

const HOST = "acp-pay.example";

let w: PaymentsWorld;
let shop: Shop;
let acp: AcpClient;
let validate: AcpValidators;
let inbox: Receiver;
let secret: string;

beforeAll(async () => {
  w = makeWorld({ WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" });
  shop = await providerShop(w.t, "ACP Pay", HOST, { provider: "ifthenpay", fields: IFTHENPAY }, 50);
  expect((await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE })).status).toBe(201);
  inbox = await startReceiver({
    answer: (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    },
  });
  const platform = await addPlatform(
    shop,
    "Assistant",
    `http://127.0.0.1:${inbox.port}/agentic_checkout/webhooks/order_events`,
  );
  secret = platform.signingSecret;
  acp = acpClient(w.t, HOST, platform.token);
  validate = acpValidators();
});
afterAll(async () => {
  w.close();
  await inbox.close();
});

/** A session ready for payment: one shirt, a buyer with a phone, shipping to Portugal chosen. */
async function readySession() {
  const variantId = shop.shirt.variants[0].id;
  const created = await acp("POST", "/acp/checkout_sessions", readyBody([{ id: variantId }]));
  expect(created.status).toBe(201);
  const updated = await acp(
    "POST",
    `/acp/checkout_sessions/${created.body.id}`,
    shippingChoice(shop, [variantId]),
  );
  expect(updated.body.status).toBe("ready_for_payment");
  return updated.body;
}

/** Stripe's notification that the PaymentIntent of `order`'s card payment succeeded. */
const intentSucceeded = (
  intentId: string,
  order: { id: string; payment: { attemptId: string }; totals: { total: { amount: number } } },
) =>
  deliverStripe(
    w,
    shop.org.id,
    stripeEvent("payment_intent.succeeded", {
      id: intentId,
      amount_received: order.totals.total.amount,
      currency: "eur",
      metadata: { orgId: shop.org.id, orderId: order.id, attemptId: order.payment.attemptId },
    }),
  );

/** The platform's check of a webhook: the signature over `<t>.<body>`, recent, with the shared secret. */
function verified(headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const match = /^t=(\d+),v1=([a-fA-F0-9]{64})$/.exec(String(headers["merchant-signature"]));
  if (!match) return false;
  const [, t, v1] = match;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return expected === v1!.toLowerCase();
}

describe("ACP payments", () => {
  test("the handlers are the shop's payment methods, each described at its schema URL", async () => {
    const session = await readySession();
    const handlers = session.capabilities.payment.handlers;
    expect(handlers.map((h: { id: string }) => h.id)).toEqual(
      expect.arrayContaining(["ifthenpay_multibanco", "ifthenpay_mbway", "stripe_card"]),
    );
    const multibanco = handlers.find((h: { id: string }) => h.id === "ifthenpay_multibanco");
    expect(multibanco).toMatchObject({ name: "example.acp-pay.ifthenpay_multibanco", psp: "ifthenpay" });
    const described = await w.t.request(new URL(multibanco.spec).pathname, { headers: { host: HOST } });
    expect(described.status).toBe(200);
    expect(((await described.json()) as { description: string }).description).toStartWith("Multibanco");
  });

  test("complete with Multibanco: the order awaits payment, the answer carries the reference, and the platform is told", async () => {
    const session = await readySession();
    const completed = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("ifthenpay_multibanco"),
    );
    expect(completed.status).toBe(200);
    expect(validate.completed(completed.body)).toEqual([]);
    expect(completed.body.status).toBe("completed");
    const info = completed.body.messages.find((m: { type: string }) => m.type === "info");
    expect(info.content).toMatch(
      /^Pay by Multibanco before .+: entity \d+, reference [\d ]+, amount 24\.89 EUR\.$/,
    );
    const orderId = completed.body.order.id;
    const order = (await shop.admin.get(`/v1/admin/orders/${orderId}`)).body.data;
    expect(order).toMatchObject({ paymentStatus: "pending", payment: { method: "multibanco" } });

    // The order webhook: order_create, signed, its data the order as ACP shapes it.
    await until(
      () => inbox.requests.some((r) => JSON.parse(r.body).data.id === orderId),
      "the order_create webhook",
    );
    const received = inbox.requests.find((r) => JSON.parse(r.body).data.id === orderId)!;
    expect(received.url).toBe("/agentic_checkout/webhooks/order_events");
    expect(verified(received.headers, received.body)).toBe(true);
    expect(verified(received.headers, received.body.replace(orderId, "ord_other"))).toBe(false);
    const event = JSON.parse(received.body);
    expect(validate.webhook(event)).toEqual([]);
    expect(event).toMatchObject({
      type: "order_create",
      data: { type: "order", id: orderId, checkout_session_id: session.id, status: "created" },
    });

    // The merchant cancels it: an order_update with the order canceled.
    const canceled = await shop.admin.post(`/v1/admin/orders/${orderId}/cancel`, {});
    expect(canceled.status).toBe(200);
    const updateOf = () =>
      inbox.requests.find((r) => {
        const body = JSON.parse(r.body);
        return body.type === "order_update" && body.data.id === orderId;
      });
    await until(() => updateOf() !== undefined, "the order_update webhook");
    const update = updateOf()!;
    expect(verified(update.headers, update.body)).toBe(true);
    expect(validate.webhook(JSON.parse(update.body))).toEqual([]);
    expect(JSON.parse(update.body).data.status).toBe("canceled");
  });

  test("a card: the session requires escalation to the provider's page, and reads completed once paid", async () => {
    const session = await readySession();
    const escalated = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("stripe_card"),
    );
    expect(escalated.status).toBe(200);
    expect(validate.completed(escalated.body)).toEqual([]);
    expect(escalated.body.status).toBe("requires_escalation");
    const order = (await shop.admin.get(`/v1/admin/orders/${escalated.body.order.id}`)).body.data;
    expect(escalated.body.continue_url).toBe(order.payment.action.url);
    expect(escalated.body.messages).toContainEqual(
      expect.objectContaining({ code: "intervention_required", resolution: "requires_buyer_input" }),
    );
    const paid = await deliverCardPaid(w, shop.org.id, order);
    expect(paid.status).toBe(200);
    const read = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(read.body.status).toBe("completed");
    expect(read.body.continue_url).toBeUndefined();
    expect(read.body.order.status).toBe("confirmed");
  });

  test("a Stripe Shared Payment Token: charged at once with a confirmed PaymentIntent, the order paid, the platform told", async () => {
    const session = await readySession();
    const card = session.capabilities.payment.handlers.find((h: { id: string }) => h.id === "stripe_card");
    expect(card).toMatchObject({
      name: "dev.acp.tokenized.card",
      psp: "stripe",
      requires_delegate_payment: true,
    });
    const body = {
      payment_data: {
        handler_id: "stripe_card",
        instrument: { type: "card", credential: { type: "spt", token: "spt_test_ok_1" } },
      },
    };
    expect(validate.completeRequest(body)).toEqual([]);
    const completed = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, body);
    expect(completed.status).toBe(200);
    expect(validate.completed(completed.body)).toEqual([]);
    expect(completed.body.status).toBe("completed");
    expect(completed.body.order.status).toBe("confirmed");
    const order = (await shop.admin.get(`/v1/admin/orders/${completed.body.order.id}`)).body.data;
    expect(order.paymentStatus).toBe("paid");
    // The PaymentIntent: the session's total, confirmed on creation with the granted token.
    const [intentId, params] = [...w.stripe.intents].at(-1)!;
    expect(params).toMatchObject({
      amount: String(order.totals.total.amount),
      currency: "eur",
      confirm: "true",
      shared_payment_granted_token: "spt_test_ok_1",
      "metadata[orderId]": order.id,
    });
    expect(order.payment).toMatchObject({ provider: "stripe", method: "card", status: "succeeded" });
    // Stripe's own notification of the same payment changes nothing more.
    const notified = await intentSucceeded(intentId, order);
    expect(notified.status).toBe(200);
    expect((await shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data.paymentStatus).toBe("paid");
    await until(
      () =>
        inbox.requests.some(
          (r) => JSON.parse(r.body).data.id === order.id && JSON.parse(r.body).data.status === "confirmed",
        ),
      "the webhook of the paid order",
    );
  });

  test("a token needing 3-D Secure: the session requires escalation to the bank's page, and completes once Stripe says it is paid", async () => {
    const session = await readySession();
    const completed = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      payment_data: {
        handler_id: "stripe_card",
        instrument: { type: "card", credential: { type: "spt", token: "spt_test_3ds_1" } },
      },
    });
    expect(completed.status).toBe(200);
    expect(validate.completed(completed.body)).toEqual([]);
    expect(completed.body.status).toBe("requires_escalation");
    expect(completed.body.continue_url).toStartWith("https://hooks.stripe.test/3ds/pi_test_");
    const order = (await shop.admin.get(`/v1/admin/orders/${completed.body.order.id}`)).body.data;
    const intentId = completed.body.continue_url.split("/").at(-1);
    const paid = await intentSucceeded(intentId, order);
    expect(paid.status).toBe(200);
    const read = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(read.body.status).toBe("completed");
    expect(read.body.order.status).toBe("confirmed");
  });

  test("a declined token: a 402 payment_declined, the order cancelled and its stock back, nothing charged", async () => {
    const stockBefore = await stockOf(shop);
    const session = await readySession();
    const refused = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      payment_data: {
        handler_id: "stripe_card",
        instrument: { type: "card", credential: { type: "spt", token: "spt_test_declined_1" } },
      },
    });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      type: "invalid_request",
      code: "payment_declined",
      param: "$.payment_data",
    });
    expect(validate.error(refused.body)).toEqual([]);
    expect(await stockOf(shop)).toBe(stockBefore);
    const read = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(read.body.status).toBe("canceled");
    expect(validate.completed(read.body)).toEqual([]);
    expect(read.body.messages).toContainEqual(
      expect.objectContaining({ type: "error", code: "payment_declined" }),
    );
    const order = (await shop.admin.get(`/v1/admin/orders/${read.body.order.id}`)).body.data;
    expect(order).toMatchObject({ status: "cancelled", paymentStatus: "failed" });
  });

  test("a key still being answered is a 409 idempotency_in_flight with Retry-After; once answered, it replays", async () => {
    const session = await readySession();
    const key = crypto.randomUUID();
    w.ifthenpay.mode = "hang";
    w.ifthenpay.hangMs = 400;
    const path = `/acp/checkout_sessions/${session.id}/complete`;
    const first = acp("POST", path, paymentWith("ifthenpay_multibanco"), { "idempotency-key": key });
    await Bun.sleep(100);
    const second = await acp("POST", path, paymentWith("ifthenpay_multibanco"), { "idempotency-key": key });
    w.ifthenpay.mode = "ok";
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ type: "invalid_request", code: "idempotency_in_flight" });
    expect(validate.error(second.body)).toEqual([]);
    expect(second.headers.get("retry-after")).toBe("1");
    const answered = await first;
    expect(answered.status).toBe(200);
    const replay = await acp("POST", path, paymentWith("ifthenpay_multibanco"), { "idempotency-key": key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.order.id).toBe(answered.body.order.id);
  });
});
