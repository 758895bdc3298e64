import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, shirtProduct, simpleProduct } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let other: AdminClient;
let shopKey: string;
const HOST = "shop.example";
const storefront = (path: string) => t.json(path, { headers: { host: HOST } });

const productCount = async () => (await admin.get("/v1/admin/products?limit=1")).body.meta.total as number;

beforeAll(async () => {
  t = makeTestApp();
  const shop = await t.org("Shop", { host: HOST });
  shopKey = shop.key;
  admin = adminClient(t, shop.key);
  other = adminClient(t, (await t.org("Other", { host: "other.example" })).key);
  const store = await admin.patch("/v1/admin/store", { locales: ["en", "pt"] });
  expect(store.status).toBe(200);
});
afterAll(() => t.cleanup());

describe("admin create and read", () => {
  let shirt: any;

  test("create with Size × Colour variants → 201 with variants, price range, stock and money", async () => {
    const res = await admin.post("/v1/admin/products", shirtProduct("TSH", { tags: ["cotton"] }));
    expect(res.status).toBe(201);
    shirt = res.body.data;
    expect(shirt.id).toMatch(/^prod_/);
    expect(shirt.slug).toBe("tsh-shirt");
    expect(shirt.status).toBe("active");
    expect(shirt.variants).toHaveLength(6);
    expect(shirt.variants[0]).toMatchObject({
      sku: "TSH-RED-S",
      title: "S / Red",
      options: { Size: "S", Colour: "Red" },
      price: { amount: 1999, currency: "EUR" },
      compareAtPrice: null,
      inventory: { tracked: true, onHand: 5, allowBackorder: false },
      available: true,
    });
    expect(shirt.priceRange).toEqual({
      min: { amount: 1999, currency: "EUR" },
      max: { amount: 2199, currency: "EUR" },
    });
    expect(shirt.inStock).toBe(true);
    expect(shirt.requiresShipping).toBe(true);
  });

  test("the storefront reads it by id and by slug", async () => {
    const byId = await storefront(`/v1/products/${shirt.id}`);
    const bySlug = await storefront(`/v1/products/${shirt.slug}`);
    expect(byId.status).toBe(200);
    expect(bySlug.body.data).toEqual(byId.body.data);
  });

  test("a variant without stock information is untracked and always available", async () => {
    const res = await admin.post("/v1/admin/products", simpleProduct("E-book", 999));
    expect(res.body.data.variants[0].inventory).toEqual({ tracked: false, onHand: 0, allowBackorder: false });
    expect(res.body.data.variants[0].available).toBe(true);
    expect(res.body.data.variants[0].title).toBe("Default");
  });

  test("draft and archived products are 404 on the storefront and visible to admin", async () => {
    for (const status of ["draft", "archived"]) {
      const created = await admin.post(
        "/v1/admin/products",
        simpleProduct(`Hidden ${status}`, 500, { status }),
      );
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      expect((await storefront(`/v1/products/${id}`)).status).toBe(404);
      expect((await storefront(`/v1/products/${created.body.data.slug}`)).status).toBe(404);
      expect((await admin.get(`/v1/admin/products/${id}`)).body.data.status).toBe(status);
      const listed = await storefront(`/v1/products?query=hidden`);
      expect(listed.body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    }
  });
});

describe("admin write rules", () => {
  test("a duplicate slug → 409; a generated slug gets a suffix", async () => {
    const a = await admin.post("/v1/admin/products", simpleProduct("Mug", 800, { slug: "mug" }));
    expect(a.status).toBe(201);
    const b = await admin.post("/v1/admin/products", simpleProduct("Other mug", 800, { slug: "mug" }));
    expect(b.status).toBe(409);
    expect(b.body.code).toBe("CONFLICT");
    const c = await admin.post("/v1/admin/products", simpleProduct("Mug", 900));
    expect(c.body.data.slug).toBe("mug-2");
  });

  test("a duplicate SKU (another product or within one) → 409, nothing stored", async () => {
    const before = await productCount();
    const clash = await admin.post(
      "/v1/admin/products",
      simpleProduct("Clash", 100, { variants: [{ price: 100, sku: "TSH-RED-S" }] }),
    );
    expect(clash.status).toBe(409);
    const twice = shirtProduct("DUP");
    twice.variants[1]!.sku = twice.variants[0]!.sku;
    expect((await admin.post("/v1/admin/products", twice)).status).toBe(409);
    expect(await productCount()).toBe(before);
  });

  test("variant combinations must be consistent and unique → 400, nothing stored", async () => {
    const before = await productCount();
    const missingValue = shirtProduct("BAD1");
    delete (missingValue.variants[0]!.options as Record<string, string>).Colour;
    const unknownValue = shirtProduct("BAD2");
    unknownValue.variants[0]!.options.Size = "XXL";
    const duplicate = shirtProduct("BAD3");
    duplicate.variants[1]!.options = { ...duplicate.variants[0]!.options };
    const extraOption = shirtProduct("BAD4");
    (extraOption.variants[0]!.options as Record<string, string>).Fabric = "Silk";
    const twoWithoutOptions = { name: { en: "Two" }, variants: [{ price: 1 }, { price: 2 }] };
    for (const body of [missingValue, unknownValue, duplicate, extraOption, twoWithoutOptions]) {
      const res = await admin.post("/v1/admin/products", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toMatch(/^\/body\/(variants|options)/);
    }
    expect(await productCount()).toBe(before);
  });

  test("bad input on create → 4xx error body, nothing stored", async () => {
    const before = await productCount();
    const cases: unknown[] = [
      { variants: [{ price: 1 }] }, // no name
      { name: { pt: "Só português" }, variants: [{ price: 1 }] }, // default locale missing
      { name: { en: "X", fr: "Non" }, variants: [{ price: 1 }] }, // not a store locale
      { name: { en: "X" }, variants: [{ price: -1 }] },
      { name: { en: "X" }, variants: [{ price: 1.5 }] },
      { name: { en: "X" }, variants: [{ price: "10" }] },
      { name: { en: "X" }, variants: [] },
      { name: { en: "X" }, variants: Array.from({ length: 10_000 }, (_, i) => ({ price: i })) },
      { name: { en: "X" }, description: { en: "d".repeat(1_000_000) }, variants: [{ price: 1 }] },
      { name: { en: "X" }, variants: [{ price: 1 }], status: "published" },
      { name: { en: "X" }, variants: [{ price: 1 }], categoryIds: ["cat_doesnotexist"] },
      { name: { en: "X" }, variants: [{ price: 1 }], images: [{ url: "javascript:alert(1)" }] },
      { name: { en: "X" }, variants: [{ price: 1 }], taxRate: 20_000 },
      { name: "X", variants: [{ price: 1 }] },
    ];
    for (const body of cases) {
      const res = await admin.post("/v1/admin/products", body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.status).toBe(res.status);
      expect(typeof res.body.error).toBe("string");
    }
    expect(await productCount()).toBe(before);
  });

  test("patch replaces the variant list: kept by id, added without id, dropped when left out", async () => {
    const created = (await admin.post("/v1/admin/products", shirtProduct("PAT"))).body.data;
    const [keep, , drop] = created.variants;
    const res = await admin.patch(`/v1/admin/products/${created.id}`, {
      options: [
        { name: "Size", values: ["S", "M", "L"] },
        { name: "Colour", values: ["Red", "Blue"] },
      ],
      variants: [
        { id: keep.id, price: 2500, options: keep.options },
        { price: 3000, sku: "PAT-NEW", options: { Size: "M", Colour: "Blue" } },
      ],
    });
    expect(res.status).toBe(200);
    const variants = res.body.data.variants;
    expect(variants).toHaveLength(2);
    expect(variants[0]).toMatchObject({ id: keep.id, sku: keep.sku, price: { amount: 2500 } });
    expect(variants[1]).toMatchObject({ sku: "PAT-NEW", price: { amount: 3000 } });
    expect(variants.map((v: { id: string }) => v.id)).not.toContain(drop.id);
    expect(res.body.data.priceRange.min.amount).toBe(2500);
    expect((await admin.patch(`/v1/admin/inventory/${drop.id}`, { onHand: 1 })).status).toBe(404);
  });

  test("patch of a few fields keeps the rest; a variant id of another product → 400", async () => {
    const a = (await admin.post("/v1/admin/products", simpleProduct("Keep me", 700, { tags: ["x"] }))).body
      .data;
    const b = (await admin.post("/v1/admin/products", simpleProduct("Other", 700))).body.data;
    const res = await admin.patch(`/v1/admin/products/${a.id}`, { name: { en: "Kept", pt: "Mantido" } });
    expect(res.body.data).toMatchObject({ slug: a.slug, tags: ["x"], name: { en: "Kept", pt: "Mantido" } });
    expect(res.body.data.variants[0].id).toBe(a.variants[0].id);
    const foreign = await admin.patch(`/v1/admin/products/${a.id}`, {
      variants: [{ id: b.variants[0].id, price: 1 }],
    });
    expect(foreign.status).toBe(400);
  });

  test("delete → 204, then 404 for admin and storefront", async () => {
    const created = (await admin.post("/v1/admin/products", simpleProduct("Doomed", 100))).body.data;
    const res = await admin.delete(`/v1/admin/products/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await admin.get(`/v1/admin/products/${created.id}`)).status).toBe(404);
    expect((await storefront(`/v1/products/${created.id}`)).status).toBe(404);
    expect((await admin.delete(`/v1/admin/products/${created.id}`)).status).toBe(404);
    expect((await storefront("/v1/products?query=doomed")).body.meta.total).toBe(0);
  });
});

describe("access and isolation", () => {
  test("storefront callers cannot write (403); another tenant's product is 404 for reads and writes", async () => {
    const mine = (await admin.post("/v1/admin/products", simpleProduct("Mine", 100))).body.data;
    const asHost = await t.json("/v1/admin/products", {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json" },
      body: JSON.stringify(simpleProduct("Sneaky", 1)),
    });
    expect(asHost.status).toBe(403);
    expect((await other.get(`/v1/admin/products/${mine.id}`)).status).toBe(404);
    expect((await other.patch(`/v1/admin/products/${mine.id}`, { status: "draft" })).status).toBe(404);
    expect((await other.delete(`/v1/admin/products/${mine.id}`)).status).toBe(404);
    expect((await t.json(`/v1/products/${mine.id}`, { headers: { host: "other.example" } })).status).toBe(
      404,
    );
    expect((await admin.get(`/v1/admin/products/${mine.id}`)).body.data.status).toBe("active");
    expect((await t.json("/v1/products", { headers: { "x-api-key": shopKey } })).status).toBe(200);
  });

  test("malformed ids are 400, unknown ones 404", async () => {
    expect((await admin.get("/v1/admin/products/prod_nothere")).status).toBe(404);
    expect((await admin.patch("/v1/admin/products/not-an-id", { status: "draft" })).status).toBe(400);
    expect((await storefront("/v1/products/..%2Fetc")).status).toBe(400);
  });
});
