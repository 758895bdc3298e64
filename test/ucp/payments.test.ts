import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Shop } from "../helpers/shop.ts";
import {
  deliverCardPaid,
  IFTHENPAY,
  makeWorld,
  type PaymentsWorld,
  providerShop,
  putIntegration,
  STRIPE,
} from "../payments/helpers.ts";
import { type PlatformServer, platformServer, shippingTo, ucpAnswerErrors } from "./helpers.ts";

// UCP completions through the shop's own providers (fakes over HTTP): Multibanco and MB WAY answered
// with what the buyer does next; a card escalated to the provider's payment page until it is paid.

const HOST = "ucp-pay.example";

let w: PaymentsWorld;
let platforms: PlatformServer;
let shop: Shop;
let keys = 0;

beforeAll(async () => {
  platforms = platformServer();
  w = makeWorld({ WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" });
  shop = await providerShop(w.t, "UCP Pay", HOST, { provider: "ifthenpay", fields: IFTHENPAY }, 50);
  const stripe = await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE });
  expect(stripe.status).toBe(201);
});
afterAll(async () => {
  w.close();
  await platforms.stop();
});

async function ucp(method: string, path: string, body?: unknown) {
  const response = await w.t.request(path, {
    method,
    headers: {
      host: HOST,
      "ucp-agent": platforms.agent(),
      ...(method === "GET" ? {} : { "idempotency-key": `pay-${++keys}`, "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  expect(ucpAnswerErrors(response.status, answer)).toEqual([]);
  return { status: response.status, body: answer };
}

/** A checkout ready but for its payment: a shirt, a buyer with a phone, a PT destination and option. */
async function readyCheckout() {
  const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
    line_items: [{ item: { id: shop.shirt.variants[0].id }, quantity: 1 }],
    buyer: {
      email: "ana@example.com",
      first_name: "Ana",
      last_name: "Silva",
      phone_number: "+351 912 345 678",
    },
    fulfillment: shippingTo(shop.ptShipping.id),
  });
  expect(created.status).toBe(201);
  return created.body;
}

const instrument = (handler: string) => ({
  payment: { instruments: [{ id: "i1", handler_id: handler, type: "offline", selected: true }] },
});

describe("UCP payments", () => {
  test("the handlers are the shop's payment methods, the card among them", async () => {
    const checkout = await readyCheckout();
    const handlers = checkout.ucp.payment_handlers["example.ucp_pay.payments"].map(
      (h: { id: string }) => h.id,
    );
    expect(handlers).toEqual(
      expect.arrayContaining(["ifthenpay_multibanco", "ifthenpay_mbway", "stripe_card"]),
    );
  });

  test("complete with Multibanco: the order awaits payment and the answer carries the entity and reference", async () => {
    const checkout = await readyCheckout();
    const completed = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${checkout.id}/complete`,
      instrument("ifthenpay_multibanco"),
    );
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe("completed");
    const info = completed.body.messages.find((m: { code?: string }) => m.code === "payment_instructions");
    expect(info.type).toBe("info");
    expect(info.content).toMatch(
      /^Pay by Multibanco before .+: entity \d+, reference [\d ]+, amount 24\.89 EUR\.$/,
    );
    const order = await w.t.json(`/v1/admin/orders/${completed.body.order.id}`, {
      headers: { "x-api-key": shop.org.key },
    });
    expect(order.body.data).toMatchObject({ paymentStatus: "pending", payment: { method: "multibanco" } });
    expect(info.content).toContain(order.body.data.payment.action.reference);
  });

  test("complete with MB WAY: the answer says which phone approves it", async () => {
    const checkout = await readyCheckout();
    const completed = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${checkout.id}/complete`,
      instrument("ifthenpay_mbway"),
    );
    expect(completed.body.status).toBe("completed");
    const info = completed.body.messages.find((m: { code?: string }) => m.code === "payment_instructions");
    expect(info.content).toMatch(/^Approve the payment in the MB WAY app of .+ before .+\.$/);
  });

  test("a Stripe Shared Payment Token on the card handler: charged at once, the checkout completed and its order paid", async () => {
    const checkout = await readyCheckout();
    const withToken = (token: string) => ({
      payment: {
        instruments: [
          {
            id: "i1",
            handler_id: "stripe_card",
            type: "card",
            selected: true,
            credential: { type: "spt", token },
          },
        ],
      },
    });
    const completed = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${checkout.id}/complete`,
      withToken("spt_ucp_ok"),
    );
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe("completed");
    const order = await w.t.json(`/v1/admin/orders/${completed.body.order.id}`, {
      headers: { "x-api-key": shop.org.key },
    });
    expect(order.body.data).toMatchObject({
      paymentStatus: "paid",
      payment: { provider: "stripe", status: "succeeded" },
    });
    expect([...w.stripe.intents.values()].at(-1)).toMatchObject({
      shared_payment_granted_token: "spt_ucp_ok",
    });

    // Declined: the checkout is canceled with UCP's payment_failed, the order cancelled.
    const declined = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${(await readyCheckout()).id}/complete`,
      withToken("spt_ucp_declined"),
    );
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe("canceled");
    expect(declined.body.messages).toContainEqual(
      expect.objectContaining({ type: "error", code: "payment_failed", severity: "unrecoverable" }),
    );
  });

  test("a card: the checkout requires escalation to the provider's payment page, and completes once paid", async () => {
    const checkout = await readyCheckout();
    const escalated = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${checkout.id}/complete`,
      instrument("stripe_card"),
    );
    expect(escalated.status).toBe(200);
    expect(escalated.body.status).toBe("requires_escalation");
    const order = (
      await w.t.json(`/v1/admin/orders/${escalated.body.order.id}`, {
        headers: { "x-api-key": shop.org.key },
      })
    ).body.data;
    expect(escalated.body.continue_url).toBe(order.payment.action.url);
    expect(escalated.body.messages).toContainEqual(
      expect.objectContaining({ code: "payment_required", severity: "requires_buyer_input" }),
    );
    // The buyer pays on the page; Stripe's notification arrives.
    const paid = await deliverCardPaid(w, shop.org.id, order);
    expect(paid.status).toBe(200);
    // The platform completes again (or reads): the checkout is completed, without a second order.
    const again = await ucp(
      "POST",
      `/ucp/v1/checkout-sessions/${checkout.id}/complete`,
      instrument("stripe_card"),
    );
    expect(again.body.status).toBe("completed");
    expect(again.body.continue_url).toBeUndefined();
    expect(again.body.order.id).toBe(order.id);
  });
});
