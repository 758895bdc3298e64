import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allProviders, providerOf, registerPaymentProvider } from "../../src/payments/registry.ts";
import type { Shop } from "../helpers/shop.ts";
import { acmeNotification, acmeProvider } from "./acme-provider.ts";
import { makeWorld, type PaymentsWorld, paymentShop, placeWith, putIntegration, stockOf } from "./helpers.ts";

// The registry is how checkout, refunds, webhooks, the sweep and the credential check reach a
// provider; what each provider does is proven over HTTP against the fake providers in the other
// files of this folder.

describe("the provider registry", () => {
  test("every provider a payment can name has one implementation, registered under its own name, in the order that wins a method", () => {
    expect(allProviders().map((provider) => provider.name)).toEqual(["stripe", "ifthenpay", "easypay"]);
    for (const provider of allProviders()) expect(providerOf(provider.name)).toBe(provider);
  });

  test("every method a provider takes names the settings it needs", () => {
    for (const provider of allProviders()) {
      expect(provider.methods.length).toBeGreaterThan(0);
      for (const method of provider.methods) expect(provider.needs[method]?.length).toBeGreaterThan(0);
      const names = provider.fields.map((field) => field.name);
      for (const needed of Object.values(provider.needs).flat()) expect(names).toContain(needed);
    }
  });

  test("a provider is asked for refunds exactly when its settings declare refund credentials (Ifthenpay's are recorded)", () => {
    const asked = allProviders().filter((provider) => provider.refund !== undefined);
    expect(asked.map((provider) => provider.name)).toEqual(["stripe", "easypay"]);
    for (const provider of allProviders())
      expect(provider.refund !== undefined).toBe(provider.needs.refunds !== undefined);
  });
});

describe("a new provider is one file and one registration", () => {
  let w: PaymentsWorld;
  let shop: Shop;
  let unregister: () => void;
  const WEBHOOK_SECRET = "acme-webhook-secret-1";

  beforeAll(async () => {
    unregister = registerPaymentProvider(acmeProvider);
    w = makeWorld();
    shop = await paymentShop(w.t, "Acme Shop", "acme-shop.example");
  });
  afterAll(() => {
    w.close();
    unregister();
  });

  test("its settings are checked and kept like any provider's; its card is offered, opened, paid by its notification and refunded", async () => {
    const refused = await putIntegration(w.t, shop.org.key, "acme", { fields: { apiKey: "nope" } });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].path).toBe("/body/fields/apiKey");
    const saved = await putIntegration(w.t, shop.org.key, "acme", {
      fields: { apiKey: "acme_12345678", webhookSecret: WEBHOOK_SECRET },
    });
    expect(saved.status).toBe(201);
    const listed = (await shop.admin.get("/v1/admin/integrations")).body.data;
    expect(listed.map((entry: { provider: string }) => entry.provider)).toContain("acme");

    const stock = await stockOf(shop);
    const placed = await placeWith(shop, "acme_card");
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    expect(order.payment).toMatchObject({ provider: "acme", method: "card", status: "created" });
    expect(order.payment.action).toEqual({
      type: "redirect",
      url: `https://pay.acme.test/${order.payment.attemptId}`,
    });
    expect(await stockOf(shop)).toBe(stock - 1);

    const paid = acmeNotification(
      WEBHOOK_SECRET,
      `acme_${order.payment.attemptId}`,
      order.totals.total.amount,
    );
    const forged = await w.t.json(`/api/webhooks/acme/${shop.org.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "acme-signature": "0".repeat(64) },
      body: paid.body,
    });
    expect(forged.status).toBe(401);
    const delivered = await w.t.json(`/api/webhooks/acme/${shop.org.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "acme-signature": paid.signature },
      body: paid.body,
    });
    expect(delivered.status).toBe(200);
    const after = (await shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data;
    expect(after.paymentStatus).toBe("paid");

    const refund = await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 500 });
    expect(refund.status).toBe(200);
    const refunded = (await shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data;
    expect(refunded.refunds).toEqual([
      expect.objectContaining({ amount: { amount: 500, currency: "EUR" }, status: "succeeded" }),
    ]);
  });
});
