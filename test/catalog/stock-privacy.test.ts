import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Server } from "bun";
import { createApiKey } from "../../src/auth/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// Storefront operations show `available` and `lowStock`, never stock counts; admin operations
// show everything. The store's low-stock threshold starts at 5.

let t: TestApp;
let shop: Shop;
let storefrontKey: string;
let server: Server<unknown>;
const HOST = "privacy-shop.example";

/** Variants by SKU, set up with distinct stock situations. */
let lamp: any;
const client: { mcp?: Client } = {};

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Privacy Shop", HOST);
  storefrontKey = createApiKey(t.app.ctx.platform, {
    organizationId: shop.org.id,
    name: "storefront",
    scopes: ["storefront"],
  }).key;
  const created = await shop.admin.post("/v1/admin/products", {
    name: { en: "Reading lamp" },
    tags: ["lampstock"],
    options: [{ name: "Finish", values: ["Brass", "Steel", "Oak", "Ash", "Glass"] }],
    variants: [
      { sku: "LAMP-BRASS", options: { Finish: "Brass" }, price: 5000, inventory: { onHand: 3 } },
      { sku: "LAMP-STEEL", options: { Finish: "Steel" }, price: 5000, inventory: { onHand: 40 } },
      { sku: "LAMP-OAK", options: { Finish: "Oak" }, price: 5000, inventory: { onHand: 0 } },
      {
        sku: "LAMP-ASH",
        options: { Finish: "Ash" },
        price: 5000,
        inventory: { onHand: 2, allowBackorder: true },
      },
      { sku: "LAMP-GLASS", options: { Finish: "Glass" }, price: 5000 },
    ],
  });
  expect(created.status).toBe(201);
  lamp = created.body.data;
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
});
afterAll(async () => {
  await client.mcp?.close();
  await server.stop(true);
  t.cleanup();
});

const variantOf = (product: any, sku: string) => product.variants.find((v: any) => v.sku === sku);

/** A storefront body must not carry a stock count anywhere, whatever the nesting. */
function expectNoStockCounts(response: { body: any; response: Response }) {
  const text = JSON.stringify(response.body);
  expect(text).not.toContain("onHand");
  expect(text).not.toContain('"inventory"');
}

const readers = {
  "a Host-only shopper": () => ({ host: HOST }),
  "a storefront API key": () => ({ "x-api-key": storefrontKey }),
  // An admin key reading a storefront route gets the storefront view: the route decides, not the
  // caller, so one cached body per tenant and URL stays right for everyone.
  "an admin API key on a storefront route": () => ({ "x-api-key": shop.org.key }),
};

describe("storefront reads show availability, not stock counts", () => {
  for (const [who, headers] of Object.entries(readers)) {
    test(`${who}: list, search and detail carry available and lowStock but no inventory`, async () => {
      const list = await t.json("/v1/products?limit=100", { headers: headers() });
      const search = await t.json("/v1/products?query=lampstock", { headers: headers() });
      const byId = await t.json(`/v1/products/${lamp.id}`, { headers: headers() });
      const bySlug = await t.json(`/v1/products/${lamp.slug}`, { headers: headers() });
      for (const res of [list, search, byId, bySlug]) {
        expect(res.status).toBe(200);
        expectNoStockCounts(res);
      }
      expect(search.body.data.map((p: any) => p.id)).toEqual([lamp.id]);
      const product = byId.body.data;
      expect(variantOf(product, "LAMP-BRASS")).toMatchObject({ available: true, lowStock: true });
      expect(Object.keys(variantOf(product, "LAMP-BRASS")).sort()).toEqual(
        ["available", "compareAtPrice", "id", "lowStock", "options", "price", "sku", "title"].sort(),
      );
      expect(list.body.data.find((p: any) => p.id === lamp.id)).toEqual(product);
    });
  }

  test("the admin routes still show every count, plus the same flags", async () => {
    const res = await shop.admin.get(`/v1/admin/products/${lamp.id}`);
    expect(variantOf(res.body.data, "LAMP-BRASS")).toMatchObject({
      inventory: { tracked: true, onHand: 3, allowBackorder: false },
      available: true,
      lowStock: true,
    });
    const listed = await shop.admin.get("/v1/admin/products?query=lampstock");
    expect(variantOf(listed.body.data[0], "LAMP-STEEL").inventory.onHand).toBe(40);
  });

  test("an admin read of a storefront route first does not leak counts into the cached body", async () => {
    // A write empties the tenant's cache; the admin key then renders the body first.
    await shop.admin.patch(`/v1/admin/inventory/${variantOf(lamp, "LAMP-STEEL").id}`, { adjust: 1 });
    const asAdmin = await t.json(`/v1/products/${lamp.id}`, { headers: { "x-api-key": shop.org.key } });
    const asShopper = await t.json(`/v1/products/${lamp.id}`, { headers: { host: HOST } });
    expectNoStockCounts(asAdmin);
    expectNoStockCounts(asShopper);
    expect(asShopper.body).toEqual(asAdmin.body);
  });
});

describe("lowStock", () => {
  const storefrontVariant = async (sku: string) =>
    variantOf((await shop.storefront(`/v1/products/${lamp.id}`)).body.data, sku);

  test("is true at or below the threshold with units left, false with plenty, when sold out, on backorder or untracked", async () => {
    expect(await storefrontVariant("LAMP-BRASS")).toMatchObject({ available: true, lowStock: true });
    expect(await storefrontVariant("LAMP-STEEL")).toMatchObject({ available: true, lowStock: false });
    expect(await storefrontVariant("LAMP-OAK")).toMatchObject({ available: false, lowStock: false });
    expect(await storefrontVariant("LAMP-ASH")).toMatchObject({ available: true, lowStock: false });
    expect(await storefrontVariant("LAMP-GLASS")).toMatchObject({ available: true, lowStock: false });
  });

  test("follows the store's lowStockThreshold, at the boundary", async () => {
    const brass = variantOf(lamp, "LAMP-BRASS").id;
    await shop.admin.patch(`/v1/admin/inventory/${brass}`, { onHand: 5 });
    expect((await storefrontVariant("LAMP-BRASS")).lowStock).toBe(true);
    await shop.admin.patch(`/v1/admin/inventory/${brass}`, { onHand: 6 });
    expect((await storefrontVariant("LAMP-BRASS")).lowStock).toBe(false);
    await shop.admin.patch("/v1/admin/store", { lowStockThreshold: 10 });
    expect((await storefrontVariant("LAMP-BRASS")).lowStock).toBe(true);
    await shop.admin.patch("/v1/admin/store", { lowStockThreshold: 5 });
    await shop.admin.patch(`/v1/admin/inventory/${brass}`, { onHand: 3 });
  });

  test("a product is lowStock only when every variant that can be bought is low", async () => {
    const product = async () => (await shop.storefront(`/v1/products/${lamp.id}`)).body.data;
    // Steel (40 units), Ash (backorder) and Glass (untracked) sell freely.
    expect(await product()).toMatchObject({ inStock: true, lowStock: false });
    const single = await shop.admin.post("/v1/admin/products", {
      name: { en: "Last candles" },
      variants: [{ price: 900, inventory: { onHand: 2 } }],
    });
    const candles = (await shop.storefront(`/v1/products/${single.body.data.id}`)).body.data;
    expect(candles).toMatchObject({ inStock: true, lowStock: true });
    await shop.admin.patch(`/v1/admin/inventory/${single.body.data.variants[0].id}`, { onHand: 0 });
    const soldOut = (await shop.storefront(`/v1/products/${single.body.data.id}`)).body.data;
    expect(soldOut).toMatchObject({ inStock: false, lowStock: false });
  });
});

describe("every storefront surface", () => {
  test("cart lines carry no stock counts", async () => {
    const cart = await shop.storefront("/v1/carts", {
      body: { items: [{ variantId: variantOf(lamp, "LAMP-BRASS").id, quantity: 1 }] },
    });
    expect(cart.status).toBe(201);
    expectNoStockCounts(cart);
    expectNoStockCounts(await shop.storefront(`/v1/carts/${cart.body.data.id}`));
  });

  test("MCP tools listProducts and getProduct answer the storefront view", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { host: HOST } },
    });
    client.mcp = new Client({ name: "stock-privacy-test", version: "1.0.0" });
    await client.mcp.connect(transport);
    for (const [name, args] of [
      ["listProducts", { query: "lampstock" }],
      ["getProduct", { id: lamp.id }],
    ] as const) {
      const result = await client.mcp.callTool({ name, arguments: args });
      expect(result.isError).toBeFalsy();
      const text = JSON.stringify(result);
      expect(text).toContain("lowStock");
      expect(text).not.toContain("onHand");
    }
  });

  test("the OpenAPI document: storefront reads answer StorefrontProduct without counts, admin reads Product", async () => {
    const doc = (await t.json("/v1/openapi.json")).body;
    const dataOf = (path: string) => doc.paths[path].get.responses["200"].content["application/json"].schema;
    expect(dataOf("/v1/products").properties.data.items.$ref).toBe("#/components/schemas/StorefrontProduct");
    expect(dataOf("/v1/products/{id}").properties.data.$ref).toBe("#/components/schemas/StorefrontProduct");
    expect(dataOf("/v1/admin/products/{id}").properties.data.$ref).toBe("#/components/schemas/Product");
    const schemas = doc.components.schemas;
    expect(schemas.StorefrontProduct.properties.variants.items.$ref).toBe(
      "#/components/schemas/StorefrontVariant",
    );
    expect(JSON.stringify(schemas.StorefrontVariant)).not.toContain("onHand");
    expect(JSON.stringify(schemas.StorefrontProduct)).not.toContain("onHand");
    expect(Object.keys(schemas.StorefrontVariant.properties)).toEqual(
      expect.arrayContaining(["available", "lowStock"]),
    );
    expect(Object.keys(schemas.Variant.properties)).toEqual(
      expect.arrayContaining(["available", "lowStock", "inventory"]),
    );
  });
});
