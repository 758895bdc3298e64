import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeShop, type Shop } from "../helpers/shop.ts";
import {
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
