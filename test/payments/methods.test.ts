import { afterEach, describe, expect, test } from "bun:test";
import type { Shop } from "../helpers/shop.ts";
import {
  EASYPAY,
  IFTHENPAY,
  makeWorld,
  type PaymentsWorld,
  paymentShop,
  placeWith,
  putIntegration,
  readyCart,
  STRIPE,
} from "./helpers.ts";

const worlds: PaymentsWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

function world(env: Record<string, string> = {}) {
  const w = makeWorld(env);
  worlds.push(w);
  return w;
}

const ids = async (shop: Shop, cartId: string) =>
  ((await shop.storefront(`/v1/carts/${cartId}/payment-methods`)).body.data as { id: string }[]).map(
    (m) => m.id,
  );

describe("payment methods of a cart", () => {
  test("GET /v1/carts/{id}/payment-methods on an EUR cart lists card, MB WAY and Multibanco for configured providers; on a USD cart no MB WAY or Multibanco; a disabled config offers nothing; no response contains a key", async () => {
    const w = world();
    const shop = await paymentShop(w.t, "Methods", "methods.example");
    const cartId = await readyCart(shop);
    expect(await ids(shop, cartId)).toEqual([]);
    await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE });
    await putIntegration(w.t, shop.org.key, "ifthenpay", { fields: IFTHENPAY });
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
    const res = await shop.storefront(`/v1/carts/${cartId}/payment-methods`);
    expect(res.body.data).toEqual([
      {
        id: "stripe_card",
        type: "card",
        provider: "stripe",
        flow: "redirect",
        name: { en: "Card", pt: "Cartão" },
        requires: [],
      },
      {
        id: "ifthenpay_mbway",
        type: "mbway",
        provider: "ifthenpay",
        flow: "push",
        name: { en: "MB WAY", pt: "MB WAY" },
        requires: ["phone"],
      },
      {
        id: "ifthenpay_multibanco",
        type: "multibanco",
        provider: "ifthenpay",
        flow: "reference",
        name: { en: "Multibanco", pt: "Multibanco" },
        requires: [],
      },
      {
        id: "manual_bank_transfer",
        type: "bank_transfer",
        provider: "manual",
        flow: "offline",
        name: { en: "Bank transfer", pt: "Transferência bancária" },
        requires: [],
      },
    ]);
    const text = JSON.stringify(res.body);
    for (const secret of [
      STRIPE.publishableKey,
      STRIPE.secretKey,
      IFTHENPAY.mbKey,
      IFTHENPAY.mbWayKey,
      IFTHENPAY.antiPhishingKey,
    ]) {
      expect(text).not.toContain(secret);
    }

    // A disabled config offers nothing (its settings stay).
    await putIntegration(w.t, shop.org.key, "ifthenpay", { enabled: false, fields: {} });
    expect(await ids(shop, cartId)).toEqual(["stripe_card", "manual_bank_transfer"]);

    // USD: no local methods. The currency can change while the store has no orders.
    const usd = await paymentShop(w.t, "Dollar", "usd-methods.example");
    await usd.admin.patch("/v1/admin/store", { currency: "USD" });
    await putIntegration(w.t, usd.org.key, "stripe", { fields: STRIPE });
    await putIntegration(w.t, usd.org.key, "ifthenpay", { fields: IFTHENPAY });
    const usdCart = (
      await usd.storefront("/v1/carts", {
        body: { items: [{ variantId: usd.shirt.variants[0].id, quantity: 1 }] },
      })
    ).body.data;
    expect(usdCart.currency).toBe("USD");
    expect(await ids(usd, usdCart.id)).toEqual(["stripe_card"]);
  });

  test("When Ifthenpay and Easypay both offer Multibanco, exactly one is listed (own credentials first, then Ifthenpay over Easypay)", async () => {
    // Environment credentials for both: Ifthenpay beats Easypay.
    const w = world({
      IFTHENPAY_ANTIPHISHING_KEY: "env-key-0001",
      IFTHENPAY_MB_KEY: "ENV-111",
      EASYPAY_ACCOUNT_ID: EASYPAY.accountId,
      EASYPAY_API_KEY: EASYPAY.apiKey,
    });
    const shop = await paymentShop(w.t, "Both", "both.example");
    const cartId = await readyCart(shop);
    // MB WAY: only Easypay's environment set can (no IFTHENPAY_MBWAY_KEY).
    expect(await ids(shop, cartId)).toEqual(["easypay_mbway", "ifthenpay_multibanco"]);
    // Tenant credentials beat environment ones, whichever the provider.
    await putIntegration(w.t, shop.org.key, "easypay", { fields: EASYPAY });
    expect(await ids(shop, cartId)).toEqual(["easypay_mbway", "easypay_multibanco"]);
    // Both the tenant's: Ifthenpay beats Easypay.
    await putIntegration(w.t, shop.org.key, "ifthenpay", { fields: IFTHENPAY });
    expect(await ids(shop, cartId)).toEqual(["ifthenpay_mbway", "ifthenpay_multibanco"]);
  });

  test("a total of 0 offers nothing; another tenant's cart is a 404; resolution never calls a provider", async () => {
    const w = world();
    const shop = await paymentShop(w.t, "Free", "free-methods.example");
    const other = await paymentShop(w.t, "Other", "other-methods.example");
    await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE });
    // Saving the key checked it with Stripe; from here on nothing may call a provider.
    const callsBefore = w.stripe.calls.length;
    const free = await shop.admin.post("/v1/admin/products", {
      name: { en: "Sticker" },
      variants: [{ price: 0 }],
    });
    const cart = (
      await shop.storefront("/v1/carts", {
        body: { items: [{ variantId: free.body.data.variants[0].id, quantity: 1 }] },
      })
    ).body.data;
    expect(await ids(shop, cart.id)).toEqual([]);
    expect((await other.storefront(`/v1/carts/${cart.id}/payment-methods`)).status).toBe(404);
    expect(w.stripe.calls).toHaveLength(callsBefore);
  });

  test("place-order records the chosen method; a method not offered is a 422 naming the offered ones", async () => {
    const w = world();
    const shop = await paymentShop(w.t, "Chooser", "chooser.example");
    await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE });
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["cash_on_delivery"] });
    const refused = await placeWith(shop, "ifthenpay_multibanco");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain("stripe_card, manual_cash_on_delivery");
    const manual = await placeWith(shop, "manual_cash_on_delivery");
    expect(manual.status).toBe(201);
    expect(manual.body.data.paymentMethod).toEqual({
      id: "manual_cash_on_delivery",
      provider: "manual",
      type: "cash_on_delivery",
    });
    expect(manual.body.data.payment).toBeNull();
    const card = await placeWith(shop, "stripe_card");
    expect(card.body.data.paymentMethod).toEqual({ id: "stripe_card", provider: "stripe", type: "card" });
  });
});
