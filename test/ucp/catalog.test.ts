import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { type PlatformServer, platformServer, ucpAnswerErrors } from "./helpers.ts";

// UCP's catalog on a shop's host (search, batch lookup, one product's detail), driven as a platform
// drives it, every answer held to the release's schemas.

const HOST = "ucp-catalog.example";
const OTHER = "ucp-catalog-other.example";

let t: TestApp;
let platforms: PlatformServer;
let shop: Shop;
let other: Shop;

beforeAll(async () => {
  platforms = platformServer();
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "UCP Catalog", HOST);
  other = await makeShop(t, "UCP Catalog Other", OTHER);
  const category = await shop.admin.post("/v1/admin/categories", { name: { en: "Mugs" }, slug: "mugs" });
  for (const [name, price] of [
    ["Blue mug", 900],
    ["Green mug", 1500],
    ["Red mug", 2500],
  ] as const) {
    await shop.admin.post("/v1/admin/products", {
      name: { en: name },
      status: "active",
      categoryIds: [category.body.data.id],
      variants: [{ price, sku: name.toUpperCase().replace(" ", "-") }],
    });
  }
  await shop.admin.post("/v1/admin/products", {
    name: { en: "Draft mug" },
    status: "draft",
    variants: [{ price: 100, sku: "DRAFT-MUG" }],
  });
});
afterAll(async () => {
  t.cleanup();
  await platforms.stop();
});

async function ucp(path: string, body: unknown, host = HOST) {
  const response = await t.request(path, {
    method: "POST",
    headers: { host, "ucp-agent": platforms.agent(), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  expect(ucpAnswerErrors(response.status, answer)).toEqual([]);
  return { status: response.status, body: answer };
}

const titles = (products: { title: string }[]) => products.map((p) => p.title);

describe("UCP catalog search", () => {
  test("a query finds the shop's active products, with prices, variants usable as checkout items, and pages by cursor", async () => {
    const first = await ucp("/ucp/v1/catalog/search", { query: "mug", pagination: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.products).toHaveLength(2);
    expect(first.body.pagination).toMatchObject({ has_next_page: true, total_count: 3 });
    const next = await ucp("/ucp/v1/catalog/search", {
      query: "mug",
      pagination: { limit: 2, cursor: first.body.pagination.cursor },
    });
    expect(next.body.pagination).toEqual({ has_next_page: false, total_count: 3 });
    const all = [...first.body.products, ...next.body.products];
    expect(titles(all).sort()).toEqual(["Blue mug", "Green mug", "Red mug"]);
    const blue = all.find((p) => p.title === "Blue mug");
    expect(blue.price_range).toEqual({
      min: { amount: 900, currency: "EUR" },
      max: { amount: 900, currency: "EUR" },
    });
    expect(blue.variants[0]).toMatchObject({ sku: "BLUE-MUG", availability: { available: true } });
    expect(blue.variants[0].id).toStartWith("var_");
  });

  test("filters: a category by slug, a price range; a category no one knows matches nothing", async () => {
    const mugs = await ucp("/ucp/v1/catalog/search", { filters: { categories: ["mugs"] } });
    expect(titles(mugs.body.products).sort()).toEqual(["Blue mug", "Green mug", "Red mug"]);
    const cheap = await ucp("/ucp/v1/catalog/search", {
      filters: { categories: ["mugs"], price: { min: 1000, max: 2000 } },
    });
    expect(titles(cheap.body.products)).toEqual(["Green mug"]);
    const none = await ucp("/ucp/v1/catalog/search", { filters: { categories: ["teapots"] } });
    expect(none.body.products).toEqual([]);
  });

  test("a search with nothing to search by, or a cursor the shop never gave, is a 400 invalid_request", async () => {
    for (const body of [{}, { query: "  " }, { query: "mug", pagination: { cursor: "abc" } }]) {
      const refused = await ucp("/ucp/v1/catalog/search", body);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("invalid_request");
    }
  });
});

describe("UCP catalog lookup", () => {
  test("ids by product id, handle, variant id and SKU, each variant naming the ids it answers; unknown, draft and other shops' ids are messages", async () => {
    const search = await ucp("/ucp/v1/catalog/search", { query: "blue" });
    const blue = search.body.products[0];
    const theirs = (await other.admin.get("/v1/admin/products")).body.data[0];
    const looked = await ucp("/ucp/v1/catalog/lookup", {
      ids: [blue.id, blue.handle, blue.variants[0].id, "GREEN-MUG", "DRAFT-MUG", "var_nope", theirs.id],
    });
    expect(looked.status).toBe(200);
    expect(titles(looked.body.products)).toEqual(["Blue mug", "Green mug"]);
    expect(looked.body.products[0].variants[0].inputs).toEqual([
      { id: blue.id, match: "featured" },
      { id: blue.handle, match: "featured" },
      { id: blue.variants[0].id, match: "exact" },
    ]);
    expect(looked.body.products[1].variants[0].inputs).toEqual([{ id: "GREEN-MUG", match: "exact" }]);
    expect(looked.body.messages.map((m: { content: string }) => m.content)).toEqual([
      "No product or variant DRAFT-MUG",
      "No product or variant var_nope",
      `No product or variant ${theirs.id}`,
    ]);
  });

  test("ids must be 1 to 50 identifiers", async () => {
    for (const ids of [[], Array.from({ length: 51 }, (_, i) => `id${i}`), [5]]) {
      const refused = await ucp("/ucp/v1/catalog/lookup", { ids });
      expect(refused.status).toBe(400);
    }
  });
});

describe("UCP get_product", () => {
  test("a variant id is featured first with its options selected; each option value says whether it exists and is available", async () => {
    const shirt = shop.shirt;
    const [first, second] = shirt.variants;
    const detail = await ucp("/ucp/v1/catalog/product", { id: second.id });
    expect(detail.status).toBe(200);
    const product = detail.body.product;
    expect(product.id).toBe(shirt.id);
    expect(product.variants[0].id).toBe(second.id);
    expect(product.selected).toEqual(
      Object.entries(second.options).map(([name, label]) => ({ name, label })),
    );
    const values = product.options.flatMap((o: { values: { label: string; exists: boolean }[] }) => o.values);
    expect(values.every((v: { exists: boolean }) => typeof v.exists === "boolean")).toBe(true);
    // A selection no variant matches is relaxed, dropping the least preferred option first.
    const [optionA, optionB] = Object.keys(first.options) as [string, string];
    const relaxed = await ucp("/ucp/v1/catalog/product", {
      id: shirt.id,
      selected: [
        { name: optionA, label: first.options[optionA] },
        { name: optionB, label: "No such value" },
      ],
      preferences: [optionA, optionB],
    });
    expect(relaxed.body.product.selected).toEqual([{ name: optionA, label: first.options[optionA] }]);
    for (const variant of relaxed.body.product.variants) {
      expect(variant.options).toContainEqual({ name: optionA, label: first.options[optionA] });
    }
  });

  test("an unknown or another shop's product is UCP's not-found outcome", async () => {
    const theirs = (await other.admin.get("/v1/admin/products")).body.data[0];
    for (const id of ["prod_nope", theirs.id]) {
      const missing = await ucp("/ucp/v1/catalog/product", { id });
      expect(missing.status).toBe(200);
      expect(missing.body.ucp.status).toBe("error");
      expect(missing.body.messages[0].code).toBe("not_found");
    }
  });

  test("the shop's profile offers the catalog capabilities", async () => {
    const profile = await t.json("/.well-known/ucp", { headers: { host: HOST } });
    expect(Object.keys(profile.body.ucp.capabilities)).toEqual(
      expect.arrayContaining(["dev.ucp.shopping.catalog.search", "dev.ucp.shopping.catalog.lookup"]),
    );
  });
});
