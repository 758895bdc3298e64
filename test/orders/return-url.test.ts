import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeShop, type Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  makeWorld,
  type PaymentsWorld,
  placeWith,
  providerShop,
  readyCart,
  STRIPE,
  stockOf,
} from "../payments/helpers.ts";

// place-order's `returnUrl` (where a card payment sends the shopper back) must belong to the shop:
// one of its hosts, or an origin its store settings allow.

let world: PaymentsWorld;
let shop: Shop;
let other: Shop;
const FRONT = "https://app.return-front.example";
const OTHER_FRONT = "https://other-front.example";

beforeAll(async () => {
  world = makeWorld();
  shop = await providerShop(world.t, "Return", "return.example", { provider: "stripe", fields: STRIPE }, 50);
  other = await makeShop(world.t, "Other Return", "other-return.example");
  expect((await shop.admin.patch("/v1/admin/store", { allowedOrigins: [FRONT] })).status).toBe(200);
  expect((await other.admin.patch("/v1/admin/store", { allowedOrigins: [OTHER_FRONT] })).status).toBe(200);
});
afterAll(() => world.close());

const place = (target: Shop, cartId: string, body: Record<string, unknown>) =>
  target.storefront(`/v1/carts/${cartId}/place-order`, { body });

describe("place-order's returnUrl belongs to the shop", () => {
  test("on the shop's verified domain, its {slug}.{PLATFORM_DOMAIN} host or an origin of its allowedOrigins: the card payment returns there", async () => {
    for (const returnUrl of [
      "https://return.example/thanks?from=checkout",
      `https://${shop.org.slug}.localhost/orders`,
      `${FRONT}/done`,
    ]) {
      const res = await placeWith(shop, "stripe_card", { body: { returnUrl } });
      expect({ returnUrl, status: res.status }).toEqual({ returnUrl, status: 201 });
      const session = [...world.stripe.sessions.values()].find(
        (params) => params["metadata[orderId]"] === res.body.data.id,
      );
      expect(session?.success_url?.startsWith(returnUrl)).toBe(true);
    }
  });

  test("any other host, another shop's hosts and origins among them, is a 422 at /body/returnUrl and changes nothing", async () => {
    const cartId = await readyCart(shop);
    const stock = await stockOf(shop);
    const providerCalls = world.stripe.calls.length;
    for (const returnUrl of [
      "https://evil.example/thanks",
      "https://return.example.evil.example/",
      "https://evil.example/?next=https://return.example/",
      `https://x.${shop.org.slug}.localhost/`,
      // The listed origin is exact: another scheme or port is another origin.
      "http://app.return-front.example/done",
      "https://app.return-front.example:8443/done",
      // Tenant isolation: what belongs to another shop does not belong to this one.
      "https://other-return.example/thanks",
      `https://${other.org.slug}.localhost/`,
      `${OTHER_FRONT}/done`,
    ]) {
      const res = await place(shop, cartId, { paymentMethodId: "stripe_card", returnUrl });
      expect({ returnUrl, status: res.status, code: res.body.code, details: res.body.details }).toEqual({
        returnUrl,
        status: 422,
        code: "UNPROCESSABLE",
        details: [{ path: "/body/returnUrl", message: expect.any(String) }],
      });
    }
    expect((await shop.storefront(`/v1/carts/${cartId}`)).body.data.status).toBe("active");
    expect(await stockOf(shop)).toBe(stock);
    expect(world.stripe.calls.length).toBe(providerCalls);
    expect((await place(shop, cartId, { paymentMethodId: "stripe_card" })).status).toBe(201);
  });

  test("the rule holds whatever the payment method: a shop without a provider refuses another shop's host", async () => {
    const cartId = await readyCart(other);
    const refused = await place(other, cartId, { returnUrl: "https://return.example/thanks" });
    expect(refused.status).toBe(422);
    expect(refused.body.details).toEqual([{ path: "/body/returnUrl", message: expect.any(String) }]);
    expect((await place(other, cartId, { returnUrl: "https://other-return.example/thanks" })).status).toBe(
      201,
    );
  });
});

describe("a retried payment's returnUrl follows place-order's rule", () => {
  const retry = (order: { id: string; accessToken: string }, init: { body?: unknown; method?: string }) =>
    shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, init);
  const sessionOf = (attemptId: string) =>
    [...world.stripe.sessions.values()].find((params) => params["metadata[attemptId]"] === attemptId);

  test("a payment that did not start, asked again with a returnUrl of the shop, opens a session returning there", async () => {
    world.stripe.mode = "down";
    let placed: Awaited<ReturnType<typeof placeWith>>;
    try {
      placed = await placeWith(shop, "stripe_card");
      expect(placed.body.data.payment.retry).toBeDefined();
    } finally {
      world.stripe.mode = "ok";
    }
    const order = placed.body.data;
    const returnUrl = `${FRONT}/orders/${order.id}?step=paid`;
    const retried = await retry(order, { body: { returnUrl } });
    expect(retried.status).toBe(200);
    expect(retried.body.data.payment.attemptId).toBe(order.payment.attemptId);
    const session = sessionOf(order.payment.attemptId);
    expect(session?.success_url).toBe(`${returnUrl}&session_id={CHECKOUT_SESSION_ID}`);
    expect(session?.cancel_url).toBe(returnUrl);
  });

  test("a new card payment of an order, asked with a returnUrl on the shop's domain, returns there", async () => {
    const order = (await placeWith(shop, "stripe_card")).body.data;
    const returnUrl = "https://return.example/checkout/done";
    const retried = await retry(order, { body: { returnUrl } });
    expect(retried.status).toBe(200);
    const attemptId = retried.body.data.payment.attemptId;
    expect(attemptId).not.toBe(order.payment.attemptId);
    expect(sessionOf(attemptId)?.success_url).toBe(`${returnUrl}?session_id={CHECKOUT_SESSION_ID}`);
  });

  test("a returnUrl the shop does not own is a 422 at /body/returnUrl that calls no provider and changes nothing", async () => {
    const order = (await placeWith(shop, "stripe_card")).body.data;
    const before = await adminOrder(shop, order.id);
    const providerCalls = world.stripe.calls.length;
    for (const returnUrl of [
      "https://evil.example/thanks",
      "https://other-return.example/thanks",
      `${OTHER_FRONT}/done`,
    ]) {
      const res = await retry(order, { body: { returnUrl } });
      expect({ returnUrl, status: res.status, code: res.body.code, details: res.body.details }).toEqual({
        returnUrl,
        status: 422,
        code: "UNPROCESSABLE",
        details: [{ path: "/body/returnUrl", message: expect.any(String) }],
      });
    }
    expect(await adminOrder(shop, order.id)).toEqual(before);
    expect(world.stripe.calls.length).toBe(providerCalls);
  });

  test("without a body the retry still works, returning the shopper to the order's page on the shop's platform host", async () => {
    const order = (await placeWith(shop, "stripe_card")).body.data;
    const retried = await retry(order, { method: "POST" });
    expect(retried.status).toBe(200);
    const attemptId = retried.body.data.payment.attemptId;
    expect(attemptId).not.toBe(order.payment.attemptId);
    expect(sessionOf(attemptId)?.cancel_url).toBe(`https://${shop.org.slug}.localhost/orders/${order.id}`);
  });
});
