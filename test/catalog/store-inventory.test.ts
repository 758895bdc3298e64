import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getStore, updateStore } from "../../src/catalog/store-settings.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, shirtProduct, simpleProduct } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let other: AdminClient;
const HOST = "store.example";

beforeAll(async () => {
  t = makeTestApp();
  admin = adminClient(t, (await t.org("Loja Central", { host: HOST })).key);
  other = adminClient(t, (await t.org("Elsewhere")).key);
});
afterAll(() => t.cleanup());

describe("store settings", () => {
  test("a new store starts with EU defaults and the organization's name", async () => {
    const res = await t.json("/v1/store", { headers: { host: HOST } });
    expect(res.body.data).toEqual({
      name: "Loja Central",
      currency: "EUR",
      defaultLocale: "en",
      locales: ["en"],
      country: "PT",
      pricesIncludeTax: true,
      policyLinks: { terms: null, privacy: null, returns: null, shipping: null, faq: null, contact: null },
    });
    const full = await admin.get("/v1/admin/store");
    expect(full.body.data).toMatchObject({
      taxRates: [{ country: "PT", rate: 2300 }],
      lowStockThreshold: 5,
      contactEmail: null,
      manualPaymentMethods: [],
    });
  });

  test("patch updates what it names; the public view follows", async () => {
    const res = await admin.patch("/v1/admin/store", {
      name: "Loja Nova",
      locales: ["pt", "en"],
      defaultLocale: "pt",
      taxRates: [
        { country: "PT", rate: 2300 },
        { country: "ES", rate: 2100 },
      ],
      contactEmail: "ola@loja.example",
      manualPaymentMethods: ["bank_transfer"],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Loja Nova", defaultLocale: "pt", locales: ["pt", "en"] });
    const pub = await t.json("/v1/store", { headers: { host: HOST } });
    expect(pub.body.data).toMatchObject({ name: "Loja Nova", defaultLocale: "pt" });
    // Products now need a Portuguese name.
    expect((await admin.post("/v1/admin/products", simpleProduct("English only", 100))).status).toBe(400);
    expect(
      (await admin.post("/v1/admin/products", { name: { pt: "Só PT" }, variants: [{ price: 1 }] })).status,
    ).toBe(201);
  });

  test("the name sort follows the default locale", async () => {
    await admin.post("/v1/admin/products", { name: { pt: "Zulu", en: "Alpha" }, variants: [{ price: 1 }] });
    await admin.post("/v1/admin/products", { name: { pt: "Bravo", en: "Yankee" }, variants: [{ price: 1 }] });
    const pt = await admin.get("/v1/admin/products?sort=name&limit=100");
    const order = pt.body.data.map((p: any) => p.name.pt);
    expect(order.indexOf("Bravo")).toBeLessThan(order.indexOf("Zulu"));
    await admin.patch("/v1/admin/store", { defaultLocale: "en" });
    const withEnglish = await admin.get("/v1/admin/products?sort=name&limit=100&query=alpha");
    expect(withEnglish.body.data[0].name.en).toBe("Alpha");
    const en = await admin.get("/v1/admin/products?sort=name&limit=100");
    const enOrder = en.body.data.map((p: any) => p.name.pt);
    expect(enOrder.indexOf("Zulu")).toBeLessThan(enOrder.indexOf("Bravo"));
  });

  test("bad settings → 400, nothing changed", async () => {
    const before = (await admin.get("/v1/admin/store")).body.data;
    const bad = [
      { currency: "euro" },
      { country: "Portugal" },
      { locales: [] },
      { locales: ["fr"] }, // drops the default locale
      { taxRates: [{ country: "PT", rate: 30_000 }] },
      {
        taxRates: [
          { country: "PT", rate: 2300 },
          { country: "PT", rate: 600 },
        ],
      },
      { contactEmail: "not-an-email" },
      { manualPaymentMethods: ["cheque"] },
      { lowStockThreshold: -1 },
      { pricesIncludeTax: "yes" },
      { name: "" },
      { owner: "me" },
    ];
    for (const body of bad) {
      const res = await admin.patch("/v1/admin/store", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await admin.get("/v1/admin/store")).body.data).toEqual(before);
  });

  test("policy links: the ones set show in the storefront and admin answers; null removes one, pages left out keep theirs", async () => {
    const set = await admin.patch("/v1/admin/store", {
      policyLinks: {
        terms: "https://loja.example/termos",
        returns: "https://loja.example/paginas?p=devolucoes#prazos",
        contact: "https://loja.example/contacto",
      },
    });
    expect(set.status).toBe(200);
    const links = {
      terms: "https://loja.example/termos",
      privacy: null,
      returns: "https://loja.example/paginas?p=devolucoes#prazos",
      shipping: null,
      faq: null,
      contact: "https://loja.example/contacto",
    };
    expect(set.body.data.policyLinks).toEqual(links);
    expect((await t.json("/v1/store", { headers: { host: HOST } })).body.data.policyLinks).toEqual(links);

    const cleared = await admin.patch("/v1/admin/store", {
      policyLinks: { terms: null, faq: "https://loja.example/perguntas" },
    });
    const after = { ...links, terms: null, faq: "https://loja.example/perguntas" };
    expect(cleared.body.data.policyLinks).toEqual(after);
    expect((await admin.patch("/v1/admin/store", { name: "Loja Nova" })).body.data.policyLinks).toEqual(
      after,
    );
    expect((await t.json("/v1/store", { headers: { host: HOST } })).body.data.policyLinks).toEqual(after);
  });

  test("a policy link that is not an absolute https address of at most 2000 characters → 400 naming the page, nothing changed", async () => {
    const before = (await admin.get("/v1/admin/store")).body.data;
    const bad: [Record<string, unknown>, string][] = [
      [{ privacy: "http://loja.example/privacidade" }, "/body/policyLinks/privacy"],
      [{ shipping: "loja.example/envios" }, "/body/policyLinks/shipping"],
      [{ faq: "https://loja.example/perguntas frequentes" }, "/body/policyLinks/faq"],
      [{ terms: "https:///termos" }, "/body/policyLinks/terms"],
      [{ returns: `https://loja.example/${"a".repeat(2000)}` }, "/body/policyLinks/returns"],
      [
        { contact: "https://loja.example/contacto", blog: "https://loja.example/blog" },
        "/body/policyLinks/blog",
      ],
    ];
    for (const [policyLinks, path] of bad) {
      const res = await admin.patch("/v1/admin/store", { name: "Changed", policyLinks });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await admin.get("/v1/admin/store")).body.data).toEqual(before);
  });

  test("storefront callers cannot read or change admin settings", async () => {
    expect((await t.json("/v1/admin/store", { headers: { host: HOST } })).status).toBe(403);
  });
});

describe("inventory", () => {
  let variantId: string;
  let productId: string;

  beforeAll(async () => {
    const res = await admin.post("/v1/admin/products", {
      ...shirtProduct("INV"),
      name: { en: "Inv", pt: "Inv" },
    });
    productId = res.body.data.id;
    variantId = res.body.data.variants[0].id;
  });

  test("set, then adjust up and down", async () => {
    const set = await admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 10 });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      variantId,
      productId,
      sku: "INV-RED-S",
      tracked: true,
      onHand: 10,
      allowBackorder: false,
    });
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, { adjust: -4 })).body.data.onHand).toBe(6);
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, { adjust: 3 })).body.data.onHand).toBe(9);
  });

  test("never below 0 → 422, stock unchanged", async () => {
    const res = await admin.patch(`/v1/admin/inventory/${variantId}`, { adjust: -10 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("UNPROCESSABLE");
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, {})).body.data.onHand).toBe(9);
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: -1 })).status).toBe(400);
  });

  test("out of stock makes the variant unavailable; untracked or backorder makes it available", async () => {
    await admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 0 });
    const variant = async () =>
      (await admin.get(`/v1/admin/products/${productId}`)).body.data.variants.find(
        (v: any) => v.id === variantId,
      );
    expect((await variant()).available).toBe(false);
    await admin.patch(`/v1/admin/inventory/${variantId}`, { allowBackorder: true });
    expect((await variant()).available).toBe(true);
    await admin.patch(`/v1/admin/inventory/${variantId}`, { allowBackorder: false, tracked: false });
    expect(await variant()).toMatchObject({ available: true, inventory: { tracked: false, onHand: 0 } });
  });

  test("bad input → 400; unknown or another tenant's variant → 404", async () => {
    for (const body of [
      { onHand: 1, adjust: 1 },
      { onHand: "5" },
      { adjust: 1.5 },
      { onHand: 1e12 },
      { extra: 1 },
    ]) {
      expect((await admin.patch(`/v1/admin/inventory/${variantId}`, body)).status).toBe(400);
    }
    expect((await admin.patch("/v1/admin/inventory/var_unknown", { onHand: 1 })).status).toBe(404);
    expect((await other.patch(`/v1/admin/inventory/${variantId}`, { onHand: 100 })).status).toBe(404);
    expect((await admin.patch("/v1/admin/inventory/nope", { onHand: 1 })).status).toBe(400);
  });
});

describe("store settings inside a failed transaction", () => {
  test("a rolled-back update is not served from memory afterwards", async () => {
    const shop = await t.org("Rollback");
    await t.app.ctx.tenants.with(shop.id, (tenant) => {
      expect(() =>
        tenant.sqlite.transaction(() => {
          updateStore(tenant, { name: "Never saved", locales: ["en", "pt"] });
          throw new Error("a later step fails");
        })(),
      ).toThrow("a later step fails");
      expect(getStore(tenant)).toMatchObject({ name: "Rollback", locales: ["en"] });
    });
    const res = await adminClient(t, shop.key).get("/v1/admin/store");
    expect(res.body.data).toMatchObject({ name: "Rollback", locales: ["en"] });
  });

  test("a read after the update, in the same transaction, does not keep the uncommitted value", async () => {
    const shop = await t.org("Rollback read");
    await t.app.ctx.tenants.with(shop.id, (tenant) => {
      getStore(tenant); // cached before the transaction
      expect(() =>
        tenant.sqlite.transaction(() => {
          updateStore(tenant, { name: "Never saved either" });
          expect(getStore(tenant).name).toBe("Never saved either"); // the transaction sees its own write
          throw new Error("a later step fails");
        })(),
      ).toThrow("a later step fails");
      expect(getStore(tenant).name).toBe("Rollback read");
    });
  });
});
