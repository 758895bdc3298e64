import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "bun";
import { addMember } from "../../src/auth/service.ts";
import type { Caller, Operation } from "../../src/core/operation.ts";
import { isAgentOperation } from "../../src/core/registry.ts";
import { McpEndpoint, SERVER_NAME } from "../../src/mcp/endpoint.ts";
import { UCP_OPERATIONS } from "../../src/ucp/checkout.ts";
import { approve, TestHost } from "../agents/helpers.ts";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { collectLog } from "../helpers/log.ts";
import { strictAjv } from "../helpers/openapi-conformance.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

/** UCP's tools, which a shop's host lists after its operations (docs/ucp.md). */
const UCP_TOOLS = Object.keys(UCP_OPERATIONS);

let t: TestApp;
let shop: Shop;
let server: Server<unknown>;
let url: URL;
const HOST = "mcp-shop.example";
const clients: Client[] = [];

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "MCP Shop", HOST);
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  url = new URL(`http://127.0.0.1:${server.port}/mcp`);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.stop(true);
  t.cleanup();
});

/** An SDK client over Streamable HTTP to the listening server, sending these headers on every request. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const agentOperations = () => t.app.operations.filter(isAgentOperation);

/** A tool call that must succeed: its `{data}` / `{data, meta}` envelope. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent as object);
  return result.structuredContent as { data: any; meta?: any };
}

/** A tool call that must be refused: the error body, also found as the text content. */
async function refused(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  const content = result.content as { type: string; text: string }[];
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent as object);
  return result.structuredContent as { error: string; code: string; status: number; details?: any[] };
}

const bodyOf = (response: Response): Promise<any> => response.json();

/** A raw JSON-RPC POST to /mcp, as an MCP client sends it. */
const rpc = (
  headers: Record<string, string>,
  message: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" },
) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: JSON.stringify(message),
  });

describe("MCP at /mcp through the SDK Client", () => {
  test("initialize: tools without listChanged, server named after the OpenAPI title with the package version", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const openapi = (await t.json("/v1/openapi.json")).body;
    expect(client.getServerVersion()).toEqual({
      name: SERVER_NAME,
      version: (await import("../../package.json")).version,
    });
    expect(SERVER_NAME).toBe(openapi.info.title);
  });

  test("an admin API key lists exactly the registry's agent operations, in registry order", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(agentOperations().map((op) => op.operationId));
    expect(tools.some((tool) => tool.name === "adminRefundOrder")).toBe(true);
    // The organization's domains and members, declared like any operation, are tools too.
    for (const name of ["adminListDomains", "adminAddDomain", "adminRemoveDomain", "adminListMembers"])
      expect(tools.map((tool) => tool.name)).toContain(name);
    for (const name of ["getHealth", "getMe", "signUpCustomer", "signInCustomer", "getAccount"])
      expect(tools.map((tool) => tool.name)).not.toContain(name);
  });

  test("each tool: title and description from the operation, input = params + query + body as one JSON Schema object", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const { tools } = await client.listTools();
    const byId = new Map(agentOperations().map((op) => [op.operationId, op]));
    const names = (schema: unknown) =>
      Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});
    for (const tool of tools) {
      const op = byId.get(tool.name) as Operation;
      expect(tool.title).toBe(op.summary);
      expect(tool.description).toBe(op.description ? `${op.summary}\n\n${op.description}` : op.summary);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(
        [...names(op.params), ...names(op.query), ...names(op.body)].sort(),
      );
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"$id"');
    }
    const addItem = tools.find((tool) => tool.name === "addCartItem")!;
    expect(addItem.inputSchema).toMatchObject({
      properties: {
        id: { type: "string" },
        variantId: { type: "string" },
        productId: { type: "string" },
        quantity: { type: "integer" },
      },
      required: ["id", "quantity"],
    });
    const list = tools.find((tool) => tool.name === "listProducts")!;
    expect(list.inputSchema.properties?.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(list.inputSchema.required).toBeUndefined();
  });

  test("every tool's inputSchema is plain JSON Schema: Ajv 2020 in strict mode compiles each, line-break fields included", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const { tools } = await client.listTools();
    expect(tools.length).toBe(agentOperations().length);
    const ajv = strictAjv();
    const refused: string[] = [];
    for (const tool of tools) {
      try {
        ajv.compile(tool.inputSchema);
      } catch (error) {
        refused.push(`${tool.name}: ${(error as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
    // What strict mode refuses: a keyword of our own, as the multi-line marker once was.
    expect(() => strictAjv().compile({ type: "string", "x-multiline": true })).toThrow(/unknown keyword/);
    // The multi-line fields still take line breaks, through the tool as through REST.
    const product = await ok(client, "adminUpdateProduct", {
      id: shop.shirt.id,
      description: { en: "Line one\n\tLine two" },
    });
    expect(product.data.description).toEqual({ en: "Line one\n\tLine two" });
  });

  test("annotations follow the method: GET read-only, DELETE destructive, refund and cancel destructive", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const { tools } = await client.listTools();
    const hints = (name: string) => tools.find((tool) => tool.name === name)!.annotations;
    expect(hints("listProducts")).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(hints("createCart")).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(hints("updateCartItem")).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(hints("removeCartItem")).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(hints("adminRefundOrder")).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(hints("adminCancelOrder")?.destructiveHint).toBe(true);
    expect(hints("adminFulfillOrder")?.destructiveHint).toBe(false);
    for (const tool of tools) {
      const op = agentOperations().find((o) => o.operationId === tool.name)!;
      expect(tool.annotations?.readOnlyHint).toBe(op.method === "GET");
      if (op.method === "DELETE") expect(tool.annotations?.destructiveHint).toBe(true);
    }
  });

  test("a storefront shopper (Host) buys through tools: listProducts, createCart, addCartItem, placeOrder", async () => {
    const client = await connect({ host: HOST });
    const products = await ok(client, "listProducts", { limit: 5 });
    expect(products.meta).toMatchObject({ page: 1, limit: 5, total: 1 });
    const variantId = products.data[0].variants[0].id;

    const cart = (await ok(client, "createCart", { email: "agent-buyer@example.com" })).data;
    expect(cart.id).toMatch(/^cart_/);
    const withItem = (await ok(client, "addCartItem", { id: cart.id, variantId, quantity: 2 })).data;
    expect(withItem.items).toHaveLength(1);
    expect(withItem.items[0]).toMatchObject({ variantId, quantity: 2 });
    await ok(client, "setCartShippingAddress", { id: cart.id, ...PT_ADDRESS });
    await ok(client, "setCartShippingMethod", { id: cart.id, shippingMethodId: shop.ptShipping.id });

    const order = (await ok(client, "placeOrder", { id: cart.id, note: "via MCP" })).data;
    expect(order).toMatchObject({ status: "open", email: "agent-buyer@example.com", note: "via MCP" });
    expect(order.accessToken).toBeString();

    // The same order as REST sees it: one pipeline.
    const rest = await shop.admin.get(`/v1/admin/orders/${order.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.items[0]).toMatchObject({ variantId, quantity: 2 });
  });

  test("a storefront-only caller (Host) does not see admin tools and gets FORBIDDEN when it calls one; after the operations, UCP's checkout tools", async () => {
    const client = await connect({ host: HOST });
    const { tools } = await client.listTools();
    const byId = new Map(agentOperations().map((op) => [op.operationId, op]));
    const operations = tools.filter((tool) => byId.has(tool.name));
    expect(operations.length).toBeGreaterThan(5);
    for (const tool of operations) expect(byId.get(tool.name)!.access).not.toBe("admin");
    expect(tools.map((tool) => tool.name)).toEqual([
      ...agentOperations()
        .filter((op) => op.access !== "admin")
        .map((op) => op.operationId),
      ...UCP_TOOLS,
    ]);
    const error = await refused(client, "adminListOrders");
    expect(error).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(error.error).toContain("admin");
  });

  test("a storefront-scoped API key sees what a Host caller sees", async () => {
    const key = await t.org("MCP storefront key", { scopes: ["storefront"] });
    const client = await connect({ "x-api-key": key.key });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      agentOperations()
        .filter((op) => op.access !== "admin")
        .map((op) => op.operationId),
    );
  });

  test("validation errors come back as isError with VALIDATION_ERROR and details", async () => {
    const client = await connect({ host: HOST });
    const tooMany = await refused(client, "listProducts", { limit: 1000 });
    expect(tooMany).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(tooMany.details?.[0].path).toBe("/query/limit");

    const cart = (await ok(client, "createCart")).data;
    const zero = await refused(client, "addCartItem", {
      id: cart.id,
      variantId: shop.shirt.variants[0].id,
      quantity: 0,
    });
    expect(zero).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(zero.details?.[0].path).toBe("/body/quantity");

    const unknown = await refused(client, "getCart", { id: cart.id, colour: "red" });
    expect(unknown).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });

    const missing = await refused(client, "getCart");
    expect(missing).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  });

  test("business refusals are tool results with the API's code: NOT_FOUND, INSUFFICIENT_STOCK", async () => {
    const client = await connect({ host: HOST });
    expect(await refused(client, "getProduct", { id: "no-such-product" })).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
    const cart = (await ok(client, "createCart")).data;
    expect(
      await refused(client, "addCartItem", {
        id: cart.id,
        variantId: shop.shirt.variants[0].id,
        quantity: 999,
      }),
    ).toMatchObject({ code: "INSUFFICIENT_STOCK", status: 409 });
  });

  test("a name that is no tool is a JSON-RPC error -32602", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const error = await client.callTool({ name: "noSuchTool", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  test("Idempotency-Key: from _meta.idempotencyKey or the HTTP header, a repeated write replays its answer", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const call = () =>
      client.callTool({
        name: "createCart",
        arguments: { email: "once@example.com" },
        _meta: { idempotencyKey: "mcp-meta-1" },
      });
    const first = await call();
    const second = await call();
    expect(first.isError).toBeFalsy();
    expect((second.structuredContent as any).data.id).toBe((first.structuredContent as any).data.id);
    expect(first._meta?.idempotentReplayed).toBeUndefined();
    expect(second._meta).toEqual({ idempotentReplayed: true });
    const changed = await client.callTool({
      name: "createCart",
      arguments: { email: "other@example.com" },
      _meta: { idempotencyKey: "mcp-meta-1" },
    });
    expect(changed.structuredContent).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", status: 409 });

    const withHeader = await connect({ "x-api-key": shop.org.key, "idempotency-key": "mcp-header-1" });
    const a = await ok(withHeader, "createCart");
    const b = await ok(withHeader, "createCart");
    expect(b.data.id).toBe(a.data.id);

    const bad = await client.callTool({ name: "createCart", arguments: {}, _meta: { idempotencyKey: 42 } });
    expect(bad.structuredContent).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  test("the x-customer-session header signs the storefront customer in, as on REST", async () => {
    const signUp = await shop.storefront("/v1/account/sign-up", {
      body: { email: "member@example.com", password: "a long password" },
    });
    expect(signUp.status).toBe(201);
    const { token, customer } = signUp.body.data;
    const client = await connect({ host: HOST, "x-customer-session": token });
    const cart = (await ok(client, "createCart")).data;
    expect(cart.customerId).toBe(customer.id);
    const anonymous = await connect({ host: HOST });
    expect((await ok(anonymous, "createCart")).data.customerId).toBeNull();
  });
});

describe("MCP over plain HTTP", () => {
  test("each call's request log line names its shop and its kind of caller, as a REST request's does", async () => {
    const lines: Record<string, unknown>[] = [];
    const restore = collectLog(t.app.ctx.log, lines, ["info"]);
    try {
      const listed = await rpc({ "x-api-key": shop.org.key, "x-request-id": "mcp-log-list" });
      expect(listed.status).toBe(200);
      await listed.text();
      const call = {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "listProducts", arguments: {} },
      };
      const called = await rpc({ "x-api-key": shop.org.key, "x-request-id": "mcp-log-call" }, call);
      expect(called.status).toBe(200);
      await called.text();
    } finally {
      restore();
    }
    for (const requestId of ["mcp-log-list", "mcp-log-call"]) {
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: "request",
          route: "/mcp",
          requestId,
          org: shop.org.id,
          caller: "api-key",
        }),
      );
    }
  });

  test("no credential: HTTP 401 with the error body and WWW-Authenticate (OAuth, then Agent Auth), before any MCP message is read", async () => {
    const response = await rpc({});
    expect(response.status).toBe(401);
    const base = t.app.ctx.config.baseUrl;
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp", ` +
        `AgentAuth discovery="${base}/.well-known/agent-configuration"`,
    );
    const body = await bodyOf(response);
    expect(body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect(body.error).toBeString();
  });

  test("a wrong API key or bearer token is a 401, never a fall-through to the Host", async () => {
    const attempts: Record<string, string>[] = [
      { "x-api-key": "ck_wrong", host: HOST },
      { authorization: "Bearer not-a-jwt", host: HOST },
    ];
    for (const headers of attempts) {
      const response = await rpc(headers);
      expect(response.status).toBe(401);
      expect((await bodyOf(response)).code).toBe("UNAUTHORIZED");
    }
  });

  test("GET and DELETE /mcp are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(url, { method, headers: { "x-api-key": shop.org.key } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await bodyOf(response)).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 });
    }
  });

  test("an Origin other than the service's own is a 403; the service's own is accepted", async () => {
    const foreign = await rpc({ "x-api-key": shop.org.key, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await bodyOf(foreign)).code).toBe("FORBIDDEN");
    const own = await rpc({ "x-api-key": shop.org.key, origin: t.app.ctx.config.baseUrl });
    expect(own.status).toBe(200);
    const body = await bodyOf(own);
    expect(body.result.tools.length).toBe(agentOperations().length);
  });

  test("a tools/call answers JSON (stateless: no session id) with x-request-id", async () => {
    const response = await rpc(
      { host: HOST, "x-request-id": "mcp-req-1" },
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "getStore", arguments: {} } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(response.headers.get("x-request-id")).toBe("mcp-req-1");
    const body = await bodyOf(response);
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.data).toBeDefined();
    expect(body.result.isError).toBeUndefined();
  });
});

describe("agent callers", () => {
  /**
   * An endpoint without a grant lookup, bound to a fixed agent caller, driven by the SDK Client
   * through its `fetch` option.
   */
  async function agentClient() {
    const caller: Caller = {
      type: "agent",
      orgId: shop.org.id,
      scopes: ["storefront"],
      id: "agent:agt_test",
      agentId: "agt_test",
    };
    const endpoint = new McpEndpoint({
      ctx: t.app.ctx,
      executor: t.app.executor,
      operations: t.app.operations,
      shopOfHost: () => undefined,
      resolveCaller: async (_request, surface) => {
        expect(surface).toBe("mcp");
        return caller;
      },
    });
    const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
      fetch: (input, init) => endpoint.handle(new Request(String(input), init), "agent-request"),
    });
    const client = new Client({ name: "agent-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  test("without a grant lookup an agent sees the tools its scopes allow", async () => {
    const client = await agentClient();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      agentOperations()
        .filter((op) => op.access !== "admin")
        .map((op) => op.operationId),
    );
  });

  test("with the agents module's grant lookup an agent sees exactly its granted operations and shops through them", async () => {
    // A real agent: Ed25519 keys made by jose, registered by its host, approved by an owner of the
    // shop with the user code, calling the listening server with a fresh agent JWT (aud = BASE_URL)
    // on every HTTP request.
    const cookie = await signUp(t, "owner@mcp-shop.example");
    const session = await t.json("/api/auth/session", { headers: { cookie } });
    addMember(t.app.ctx.platform, shop.org.id, session.body.data.user.id, "owner");
    const host = await TestHost.create(t);
    const registered = await host.register({
      name: "MCP agent",
      capabilities: ["listProducts", "createCart", "addCartItem", "adminGetOrder"],
    });
    expect(registered.status).toBe(201);
    expect(registered.body.status).toBe("pending");
    const approved = await approve(t, { cookie, orgId: shop.org.id }, registered.body.approval);
    expect(approved.status).toBe(200);
    expect(approved.body.agent_status).toBe("active");
    const agent = registered.agent!;

    const transport = new StreamableHTTPClientTransport(url, {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${await agent.jwt(t.app.ctx.config.baseUrl)}`);
        return fetch(input, { ...init, headers });
      },
    });
    const client = new Client({ name: "real-agent", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      ["listProducts", "adminGetOrder", "createCart", "addCartItem"].sort(byRegistry),
    );
    expect((await ok(client, "listProducts")).meta.total).toBe(1);
    // It shops through its tools, in the organization it is bound to.
    const cart = (await ok(client, "createCart")).data;
    const variantId = shop.shirt.variants[0].id;
    const withItem = (await ok(client, "addCartItem", { id: cart.id, variantId, quantity: 2 })).data;
    expect(withItem.items).toHaveLength(1);
    expect(withItem.items[0].quantity).toBe(2);
    // A tool outside the grants is refused by the executor's grant check.
    const refusal = await refused(client, "getStore");
    expect(refusal).toMatchObject({ code: "FORBIDDEN", status: 403 });

    // A token for another surface (aud = the issuer) is an HTTP 401, before the MCP layer.
    const wrongAudience = await rpc({
      authorization: `Bearer ${await agent.jwt(`${t.app.ctx.config.baseUrl}/api/auth`)}`,
    });
    expect(wrongAudience.status).toBe(401);
  });
});

const byRegistry = (a: string, b: string) => {
  const order = t.app.operations.map((op) => op.operationId);
  return order.indexOf(a) - order.indexOf(b);
};

describe("tools/list and REST agree", () => {
  test("listProducts through MCP returns the same envelope as GET /v1/products", async () => {
    const client = await connect({ "x-api-key": shop.org.key });
    const viaMcp = await ok(client, "listProducts", { limit: 3, sort: "createdAt" });
    const viaRest = await t.json("/v1/products?limit=3&sort=createdAt", {
      headers: { "x-api-key": shop.org.key },
    });
    expect(viaMcp).toEqual(viaRest.body);
  });

  test("a dashboard session is a caller: 403 without an active organization, every tool with one", async () => {
    const signUp = await t.request(
      "/api/auth/sign-up/email",
      jsonBody({ email: "owner-mcp@example.com", password: "correct horse battery" }),
    );
    const cookie = signUp.headers.get("set-cookie")!.split(";")[0]!;
    // No active organization yet: the same 403 as on /v1.
    const response = await rpc({ cookie });
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).code).toBe("FORBIDDEN");

    const created = await t.request(
      "/api/auth/organization/create",
      jsonBody({ name: "MCP Owner Shop" }, { cookie }),
    );
    expect(created.status).toBe(201);
    const client = await connect({ cookie });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(agentOperations().map((op) => op.operationId));
    expect((await ok(client, "adminListOrders")).meta.total).toBe(0);
  });
});
