import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_ON_HAND } from "../../src/catalog/schema.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, simpleProduct } from "../helpers/catalog.ts";

// Every input string: no control characters (tab and line breaks only in multi-line text), no
// lone surrogates, lengths in characters (code points). Refusals are 400 VALIDATION_ERROR naming
// the field, and write nothing.

let t: TestApp;
let admin: AdminClient;
let key: string;
let orgId: string;
const HOST = "text-rules.example";

beforeAll(async () => {
  t = makeTestApp();
  const org = await t.org("Text Rules", { host: HOST });
  key = org.key;
  orgId = org.id;
  admin = adminClient(t, key);
});
afterAll(() => t.cleanup());

/** Sends a JSON body exactly as written: escapes such as `\u0000` and `\ud800` reach the parser as text. */
const sendRaw = (method: string, path: string, raw: string, headers: Record<string, string>) =>
  t.json(path, { method, headers: { "content-type": "application/json", ...headers }, body: raw });
const adminHeaders = () => ({ "x-api-key": key });

const productCount = async () => (await admin.get("/v1/admin/products?limit=1")).body.meta.total as number;
const rowCount = (table: string) =>
  t.app.ctx.tenants.with(
    orgId,
    (tenant) => (tenant.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
  );

function expectRefused(res: { status: number; body: any }, path: string, fragment: string) {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe("VALIDATION_ERROR");
  expect(res.body.status).toBe(400);
  const detail = res.body.details.find((d: any) => d.path === path);
  expect(detail).toBeDefined();
  expect(detail.message).toContain(fragment);
}

describe("control characters and lone surrogates are refused", () => {
  const productWithName = (escapedName: string) =>
    `{"name":{"en":"${escapedName}"},"variants":[{"price":100}]}`;

  for (const [label, escaped, fragment] of [
    ["NUL", "Mug\\u0000", "control character U+0000"],
    ["U+0001", "Mug\\u0001", "control character U+0001"],
    ["a line feed (names are single-line)", "Mug\\nbig", "control character U+000A"],
    ["DEL", "Mug\\u007f", "control character U+007F"],
    ["a C1 control (U+0085)", "Mug\\u0085", "control character U+0085"],
    ["a lone surrogate sent as a JSON escape", "Mug \\ud800 blue", "lone surrogate (U+D800)"],
    ["a lone low surrogate", "\\udc00", "lone surrogate (U+DC00)"],
  ] as const) {
    test(`a product name with ${label} → 400 naming /body/name/en, nothing written`, async () => {
      const before = await productCount();
      const res = await sendRaw("POST", "/v1/admin/products", productWithName(escaped), adminHeaders());
      expectRefused(res, "/body/name/en", fragment);
      expect(await productCount()).toBe(before);
    });
  }

  test("an email with a control character → 400 on the cart and on store settings; nothing written", async () => {
    const carts = await rowCount("carts");
    const cart = await sendRaw("POST", "/v1/carts", '{"email":"ana\\u0007@example.com"}', { host: HOST });
    expectRefused(cart, "/body/email", "control character U+0007");
    expect(await rowCount("carts")).toBe(carts);

    const store = await sendRaw(
      "PATCH",
      "/v1/admin/store",
      '{"contactEmail":"shop@example.com\\u0000","name":"Renamed"}',
      adminHeaders(),
    );
    expectRefused(store, "/body/contactEmail", "control character U+0000");
    const settings = (await admin.get("/v1/admin/store")).body.data;
    expect(settings.contactEmail).toBeNull();
    expect(settings.name).toBe("Text Rules");
  });

  test("a customer name with a control character → 400 at sign-up; no customer created", async () => {
    const res = await sendRaw(
      "POST",
      "/v1/account/sign-up",
      '{"email":"rui@example.com","password":"long enough secret","firstName":"Rui\\u001b[31m"}',
      { host: HOST },
    );
    expectRefused(res, "/body/firstName", "control character U+001B");
    expect(await rowCount("customers")).toBe(0);
  });

  test("a localized map's key with a control character → 400 naming the map", async () => {
    const before = await productCount();
    const res = await sendRaw(
      "POST",
      "/v1/admin/products",
      '{"name":{"en":"Mug","pt\\u0000":"Caneca"},"variants":[{"price":100}]}',
      adminHeaders(),
    );
    expectRefused(res, "/body/name", "key must not contain the control character U+0000");
    const options = await sendRaw(
      "POST",
      "/v1/admin/products",
      '{"name":{"en":"Tee"},"options":[{"name":"Size","values":["S"]}],' +
        '"variants":[{"price":100,"options":{"Size\\ud800":"S"}}]}',
      adminHeaders(),
    );
    expectRefused(options, "/body/variants/0/options", "key must not contain a lone surrogate");
    expect(await productCount()).toBe(before);
  });

  test("a query-string value with a control character → 400", async () => {
    const res = await t.json("/v1/products?query=mug%00", { headers: { host: HOST } });
    expectRefused(res, "/query/query", "control character U+0000");
  });

  test("multi-line text (descriptions, order notes) keeps tabs and line breaks, and still refuses other controls", async () => {
    const ok = await admin.post("/v1/admin/products", {
      ...simpleProduct("Notebook", 900),
      description: { en: "Lined pages\n\tA5\r\nRecycled paper" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.description.en).toBe("Lined pages\n\tA5\r\nRecycled paper");
    const bad = await admin.post("/v1/admin/products", {
      ...simpleProduct("Notebook 2", 900),
      description: { en: "Lined\u0000" },
    });
    expectRefused(bad, "/body/description/en", "control character U+0000");
  });

  test("after the refusals the listing is well-formed Unicode JSON", async () => {
    const response = await t.request("/v1/products?limit=100", { headers: { host: HOST } });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.isWellFormed()).toBe(true);
    expect(JSON.parse(text).data.length).toBeGreaterThan(0);
  });
});

describe("lengths count characters, not UTF-16 units", () => {
  const emoji = "😀"; // one character, two UTF-16 units

  test("an emoji-only name of exactly 200 characters (400 units) is accepted", async () => {
    const res = await admin.post("/v1/admin/products", simpleProduct(emoji.repeat(200), 100));
    expect(res.status).toBe(201);
    expect(res.body.data.name.en).toBe(emoji.repeat(200));
  });

  test("201 emoji is refused, naming the limit in characters; nothing written", async () => {
    const before = await productCount();
    const res = await admin.post("/v1/admin/products", simpleProduct(emoji.repeat(201), 100));
    expectRefused(res, "/body/name/en", "at most 200 characters");
    expect(await productCount()).toBe(before);
  });

  test("a minimum counts characters too: one emoji meets a minimum of 1, the empty name does not", async () => {
    expect((await admin.post("/v1/admin/products", simpleProduct(emoji, 100))).status).toBe(201);
    expectRefused(
      await admin.post("/v1/admin/products", simpleProduct("", 100)),
      "/body/name/en",
      "at least 1",
    );
  });

  test("a nullable string (a variant's sku) reports the text rule, not only the union", async () => {
    const res = await admin.post("/v1/admin/products", {
      name: { en: "Sku test" },
      variants: [{ price: 100, sku: `SKU${"\u0002"}X` }],
    });
    expectRefused(res, "/body/variants/0/sku", "control character U+0002");
  });
});

describe("inventory adjust stays within what a set may write", () => {
  test(`adjust reaches ${MAX_ON_HAND} but never passes it, nor 0: 422 and the count unchanged`, async () => {
    const product = await admin.post("/v1/admin/products", {
      ...simpleProduct("Bulk screws", 5),
      variants: [{ price: 5, inventory: { onHand: MAX_ON_HAND - 5 } }],
    });
    const variantId = product.body.data.variants[0].id;
    const adjust = (by: number) => admin.patch(`/v1/admin/inventory/${variantId}`, { adjust: by });

    const over = await adjust(6);
    expect(over.status).toBe(422);
    expect(over.body.code).toBe("UNPROCESSABLE");
    expect(over.body.details[0].path).toBe("/body/adjust");
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, {})).body.data.onHand).toBe(
      MAX_ON_HAND - 5,
    );

    const exact = await adjust(5);
    expect(exact.status).toBe(200);
    expect(exact.body.data.onHand).toBe(MAX_ON_HAND);
    expect((await adjust(1)).status).toBe(422);
    // The largest adjust the schema allows, from the top, is refused too (no overflow past the check).
    expect((await adjust(MAX_ON_HAND)).status).toBe(422);
    expect((await adjust(MAX_ON_HAND + 1)).status).toBe(400);

    expect((await adjust(-MAX_ON_HAND)).body.data.onHand).toBe(0);
    const below = await adjust(-1);
    expect(below.status).toBe(422);
    expect(below.body.error).toContain("below 0");
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, {})).body.data.onHand).toBe(0);
  });
});
