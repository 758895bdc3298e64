import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "bun";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { type PlatformServer, platformServer, shippingTo, ucpAnswerErrors } from "./helpers.ts";

// UCP's MCP binding on a shop's `/mcp`, through the official SDK client: the checkout tools with
// `meta`, `id` and `checkout`, the checkout as structured content, protocol errors as JSON-RPC errors.

const HOST = "ucp-mcp.example";

let t: TestApp;
let platforms: PlatformServer;
let META: { "ucp-agent": { profile: string } };
let server: Server<unknown>;
let shop: Shop;
let client: Client;

beforeAll(async () => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  platforms = platformServer();
  META = { "ucp-agent": { profile: platforms.profile() } };
  t = makeTestApp({
    env: { BASE_URL: `http://127.0.0.1:${server.port}`, WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" },
  });
  shop = await makeShop(t, "UCP MCP", HOST);
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
    requestInit: { headers: { host: HOST } },
  });
  client = new Client({ name: "ucp-platform", version: "1.0.0" });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  await server.stop(true);
  await platforms.stop();
  t.cleanup();
});

let keys = 0;
const key = () => `mcp-key-${++keys}`;
async function checkout(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent as object);
  expect(ucpAnswerErrors(200, result.structuredContent as Record<string, any>)).toEqual([]);
  return result.structuredContent as Record<string, any>;
}

describe("UCP over MCP on a shop's host", () => {
  test("the checkout tools run a checkout to its order, with the same answers as REST", async () => {
    const created = await checkout("create_checkout", {
      meta: { ...META, "idempotency-key": key() },
      checkout: {
        line_items: [{ item: { id: shop.shirt.variants[0].id }, quantity: 1 }],
        buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
      },
    });
    expect(created.status).toBe("incomplete");
    const id = created.id as string;
    const updated = await checkout("update_checkout", {
      meta: { ...META, "idempotency-key": key() },
      id,
      // An update replaces the checkout: the buyer is sent again.
      checkout: {
        line_items: [{ item: { id: shop.shirt.variants[0].id }, quantity: 1 }],
        buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
        fulfillment: shippingTo(shop.ptShipping.id),
      },
    });
    expect(updated.messages.map((m: { path: string }) => m.path)).toEqual(["$.payment.instruments"]);
    const completed = await checkout("complete_checkout", {
      meta: { ...META, "idempotency-key": key() },
      id,
      checkout: {
        payment: { instruments: [{ id: "i", handler_id: "manual_bank_transfer", type: "offline" }] },
      },
    });
    expect(completed.status).toBe("completed");
    expect(completed.order.id).toStartWith("ord_");
    const read = await checkout("get_checkout", { meta: META, id });
    expect(read).toEqual(completed);
  });

  test("a protocol error is a JSON-RPC error -32000 with UCP's code; a missing profile is -32001", async () => {
    const noKey = client.callTool({
      name: "create_checkout",
      arguments: {
        meta: META,
        checkout: { line_items: [{ item: { id: shop.shirt.variants[0].id }, quantity: 1 }] },
      },
    });
    await expect(noKey).rejects.toBeInstanceOf(McpError);
    await expect(noKey).rejects.toMatchObject({
      code: -32000,
      data: { code: "invalid_request", status: 400 },
    });
    const noProfile = client.callTool({ name: "get_checkout", arguments: { meta: {}, id: "chk_x" } });
    await expect(noProfile).rejects.toMatchObject({ code: -32001, data: { code: "invalid_profile_url" } });
  });

  test("the catalog tools search, look up and detail the shop's products, as the REST binding answers them", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["search_catalog", "lookup_catalog", "get_product"]));
    const found = await checkout("search_catalog", { meta: META, catalog: { query: "shirt" } });
    expect(found.products.map((p: { id: string }) => p.id)).toEqual([shop.shirt.id]);
    const variant = shop.shirt.variants[0].id;
    const looked = await checkout("lookup_catalog", { meta: META, catalog: { ids: [variant] } });
    expect(looked.products[0].variants[0].inputs).toEqual([{ id: variant, match: "exact" }]);
    const detail = await checkout("get_product", { meta: META, catalog: { id: shop.shirt.id } });
    expect(detail.product.id).toBe(shop.shirt.id);
  });

  test("an unknown checkout is UCP's not-found outcome, as a result", async () => {
    const answer = await checkout("get_checkout", { meta: META, id: "chk_doesnotexist0000" });
    expect(answer.ucp.status).toBe("error");
    expect(answer.messages[0]).toMatchObject({ code: "not_found", severity: "unrecoverable" });
  });

  test("a caller with a key sees the shop's operations' tools, not UCP's", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { "x-api-key": shop.org.key } },
    });
    const keyed = new Client({ name: "key", version: "1.0.0" });
    await keyed.connect(transport);
    const names = (await keyed.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("openCheckoutSession");
    expect(names).not.toContain("create_checkout");
    await keyed.close();
  });
});
