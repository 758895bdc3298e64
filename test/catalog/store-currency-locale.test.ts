import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";

// Issue 11, items 3 and 9b: the store currency is fixed once an order exists, and a product
// without a name in a new default locale stays editable.

let t: TestApp;
let shop: Shop;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Currency Shop", "currency.example");
});
afterAll(() => t.cleanup());

describe("store currency", () => {
  test("changes freely before the first order", async () => {
    const usd = await shop.admin.patch("/v1/admin/store", { currency: "USD" });
    expect(usd.status).toBe(200);
    expect(usd.body.data.currency).toBe("USD");
    const eur = await shop.admin.patch("/v1/admin/store", { currency: "EUR" });
    expect(eur.status).toBe(200);
    expect(eur.body.data.currency).toBe("EUR");
  });

  test("once an order exists: another currency → 409 CONFLICT and nothing changes; the same one is fine", async () => {
    const order = await placeBankTransferOrder(shop);
    expect(order.totals.total.currency).toBe("EUR");
    const before = (await shop.admin.get("/v1/admin/store")).body.data;

    const refused = await shop.admin.patch("/v1/admin/store", { currency: "USD", name: "Renamed" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("CONFLICT");
    expect(refused.body.error).toContain("currency");
    expect(refused.body.error).toContain("orders already exist");
    expect(refused.body.details).toEqual([
      { path: "/body/currency", message: expect.stringContaining("EUR") },
    ]);
    expect((await shop.admin.get("/v1/admin/store")).body.data).toEqual(before);
    const pub = await shop.storefront("/v1/store");
    expect(pub.body.data).toMatchObject({ currency: "EUR", name: before.name });

    const same = await shop.admin.patch("/v1/admin/store", { currency: "EUR", name: "Renamed" });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ currency: "EUR", name: "Renamed" });
    // Other settings still change without naming the currency.
    expect((await shop.admin.patch("/v1/admin/store", { contactEmail: "ola@currency.example" })).status).toBe(
      200,
    );
  });
});

describe("default locale without a name in it", () => {
  test("a product named only in the old default locale stays editable and sortable", async () => {
    const en = await shop.admin.post("/v1/admin/products", simpleProduct("Zebra lamp", 1000));
    expect(en.status).toBe(201);
    const both = await shop.admin.post("/v1/admin/products", {
      name: { en: "Aardvark mug", pt: "Caneca" },
      variants: [{ price: 500 }],
    });
    expect(both.status).toBe(201);

    expect(
      (await shop.admin.patch("/v1/admin/store", { defaultLocale: "pt", locales: ["pt", "en"] })).status,
    ).toBe(200);
    const patched = await shop.admin.patch(`/v1/admin/products/${en.body.data.id}`, { tags: ["lamp"] });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      name: { en: "Zebra lamp" },
      tags: ["lamp"],
      slug: en.body.data.slug,
    });
    const price = await shop.admin.patch(`/v1/admin/products/${en.body.data.id}`, {
      variants: [{ id: en.body.data.variants[0].id, price: 1200 }],
    });
    expect(price.status).toBe(200);

    // The sort key falls back to the name it has: "zebra lamp" still sorts after "caneca".
    const sorted = await shop.admin.get("/v1/admin/products?sort=name&limit=100");
    expect(sorted.status).toBe(200);
    const ids = sorted.body.data.map((p: any) => p.id);
    expect(ids.indexOf(both.body.data.id)).toBeLessThan(ids.indexOf(en.body.data.id));

    // A new name must still carry the default locale; adding it makes the product complete.
    expect(
      (await shop.admin.patch(`/v1/admin/products/${en.body.data.id}`, { name: { en: "X" } })).status,
    ).toBe(400);
    const named = await shop.admin.patch(`/v1/admin/products/${en.body.data.id}`, {
      name: { pt: "Candeeiro", en: "Zebra lamp" },
    });
    expect(named.status).toBe(200);
    await shop.admin.patch("/v1/admin/store", { defaultLocale: "en" });
  });
});
