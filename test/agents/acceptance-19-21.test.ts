import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Server } from "bun";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { addMember } from "../../src/auth/service.ts";
import type { Operation } from "../../src/core/operation.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import { isAgentOperation } from "../../src/core/registry.ts";
import { UCP_OPERATIONS } from "../../src/ucp/checkout.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { approve, relaxRegisterLimit, type TestAgent, TestHost } from "./helpers.ts";

// The Agent Auth acceptance statements 19–21 (the approval page and MCP), one test each, named after
// the statement. The same ground is
// covered in more detail by approval-page.test.ts (browser) and test/mcp/mcp.test.ts; these tests
// run over a listening server without a browser.

const PAGE = "/device/capabilities";
const HOST = "acceptance-shop.example";
const SLOW = 30_000;

let t: TestApp;
let server: Server<unknown>;
let base: string;
let shop: Shop;
let ownerCookie: string;
const clients: Client[] = [];

beforeAll(async () => {
  // BASE_URL is the listening address: agent JWTs for /mcp carry it as `aud`.
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base } });
  relaxRegisterLimit(t);
  const limits = agentRuntime(t.app.ctx)!.limits;
  limits.pageGet = new RateLimiter(10_000, 60_000);
  limits.capabilities = new RateLimiter(10_000, 60_000);
  shop = await makeShop(t, "Acceptance Shop", HOST);
  ownerCookie = await signUp(t, "owner@acceptance-shop.example");
  const session = await t.json("/api/auth/session", { headers: { cookie: ownerCookie } });
  addMember(t.app.ctx.platform, shop.org.id, session.body.data.user.id, "owner");
}, SLOW);
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.stop(true);
  t.cleanup();
});

const agentOperations = () => t.app.operations.filter(isAgentOperation);
const byRegistry = (names: string[]) => {
  const order = t.app.operations.map((op) => op.operationId);
  return [...names].sort((a, b) => order.indexOf(a) - order.indexOf(b));
};

/** A host with real Ed25519 keys registers an agent asking for `capabilities`: pending, with a code. */
async function pendingAgent(name: string, capabilities: string[]) {
  const host = await TestHost.create(t, `${base}/api/auth`);
  const registered = await host.register({ name, capabilities });
  expect(registered.status).toBe(201);
  expect(registered.body.status).toBe("pending");
  return { agent: registered.agent!, approval: registered.body.approval };
}

/** An SDK client over Streamable HTTP to the listening server, sending these headers on every request. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  return track(transport);
}

/** An SDK client for an agent: a freshly signed agent JWT (aud = BASE_URL) on every HTTP request. */
async function connectAgent(agent: TestAgent): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${await agent.jwt(base)}`);
      return fetch(input, { ...init, headers });
    },
  });
  return track(transport);
}

async function track(transport: StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: "acceptance", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A tool call that must succeed: its `{data, meta?}` envelope. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as { data: any; meta?: any };
}

/** A tool call that must fail as a tool result: `isError: true`, `{error, code, status}` as text and structuredContent. */
async function refused(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  const body = result.structuredContent as { error: string; code: string; status: number };
  expect(JSON.parse(content[0]!.text)).toEqual(body);
  expect(body.error).toBeString();
  expect(body.code).toBeString();
  expect(body.status).toBeNumber();
  return body;
}

/** The MCP annotations an operation carries (refund and cancel POSTs are destructive). */
function expectedAnnotations(op: Operation) {
  const last = op.path.split("/").at(-1);
  switch (op.method) {
    case "GET":
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
    case "POST":
      return {
        readOnlyHint: false,
        destructiveHint: last === "refund" || last === "cancel",
        idempotentHint: false,
      };
    case "PUT":
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
    case "PATCH":
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
    case "DELETE":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    default:
      throw new Error(`unexpected method ${op.method}`);
  }
}

describe("Agent Auth acceptance", () => {
  test(
    "19. The approval page sends `frame-ancestors 'none'`, `X-Frame-Options: DENY`, `no-store`; an agent name containing `<script>` is shown escaped.",
    async () => {
      const name = '<script>alert("x")</script><b>bold</b>';
      const { approval } = await pendingAgent(name, ["listProducts", "adminGetOrder"]);
      const expectHeaders = (response: Response) => {
        expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        expect(response.headers.get("x-frame-options")).toBe("DENY");
        expect(response.headers.get("cache-control")).toBe("no-store");
      };

      // Without a session (the sign-in form) and with one (the request itself).
      const signIn = await fetch(`${base}${PAGE}?code=${approval.user_code}`);
      expect(signIn.status).toBe(200);
      expectHeaders(signIn);
      await signIn.arrayBuffer();

      const page = await fetch(`${base}${PAGE}?code=${approval.user_code}`, {
        headers: { cookie: ownerCookie },
      });
      expect(page.status).toBe(200);
      expectHeaders(page);
      const html = await page.text();
      expect(html).toContain(approval.approval_id);
      expect(html).toContain("&lt;script&gt;alert(");
      expect(html).toContain("&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;");
      expect(html).not.toContain("<script");
      expect(html).not.toContain("<b>bold");

      // A miss is a page too, with the same headers.
      const miss = await fetch(`${base}${PAGE}?code=ZZZZ-ZZZZ`, { headers: { cookie: ownerCookie } });
      expect(miss.status).toBe(404);
      expectHeaders(miss);
      await miss.arrayBuffer();
    },
    SLOW,
  );

  test(
    "20. MCP through the SDK `Client`: `initialize`, `tools/list`, `tools/call` work for an agent, an API key and a Host caller; the agent's list is exactly its granted operations.",
    async () => {
      // Agent: asks for three capabilities, the owner approves two of them.
      const asked = ["listProducts", "createCart", "adminGetOrder"];
      const { agent, approval } = await pendingAgent("MCP acceptance agent", asked);
      const decided = await approve(t, { cookie: ownerCookie, orgId: shop.org.id }, approval, {
        capabilities: ["listProducts", "adminGetOrder"],
      });
      expect(decided.status).toBe(200);
      expect(decided.body.agent_status).toBe("active");
      const status = await agent.host.call("GET", `/agent/status?agent_id=${agent.id}`);
      const granted = (status.body.agent_capability_grants as { capability: string; status: string }[])
        .filter((g) => g.status === "active")
        .map((g) => g.capability);
      expect(granted.sort()).toEqual(["adminGetOrder", "listProducts"]);

      const agentClient = await connectAgent(agent);
      expect(agentClient.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      const agentTools = (await agentClient.listTools()).tools.map((tool) => tool.name);
      expect(agentTools).toEqual(byRegistry(granted));
      expect((await ok(agentClient, "listProducts", { limit: 5 })).meta.total).toBe(1);
      // The denied capability is no tool of this agent, and calling it is refused.
      expect(agentTools).not.toContain("createCart");
      expect(await refused(agentClient, "createCart")).toMatchObject({ code: "FORBIDDEN", status: 403 });

      // API key (admin + storefront): every agent operation.
      const keyClient = await connect({ "x-api-key": shop.org.key });
      expect(keyClient.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      expect((await keyClient.listTools()).tools.map((tool) => tool.name)).toEqual(
        agentOperations().map((op) => op.operationId),
      );
      expect((await ok(keyClient, "listProducts", { limit: 5 })).meta.total).toBe(1);

      // Host caller: the storefront operations, then UCP's checkout tools (the shop's own host).
      const hostClient = await connect({ host: HOST });
      expect(hostClient.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      expect((await hostClient.listTools()).tools.map((tool) => tool.name)).toEqual([
        ...agentOperations()
          .filter((op) => op.access !== "admin")
          .map((op) => op.operationId),
        ...Object.keys(UCP_OPERATIONS),
      ]);
      const cart = (await ok(hostClient, "createCart", { email: "acceptance@example.com" })).data;
      expect(cart.id).toMatch(/^cart_/);
    },
    SLOW,
  );

  test(
    "21. MCP annotations follow the operation kind and each `inputSchema` equals the capability `input`; failures are `isError: true` with `{error, code, status}`; no credential → HTTP 401 with `WWW-Authenticate`; `GET /mcp` → 405.",
    async () => {
      const client = await connect({ "x-api-key": shop.org.key });
      const { tools } = await client.listTools();
      const byId = new Map(agentOperations().map((op) => [op.operationId, op]));
      expect(tools.length).toBe(byId.size);
      for (const tool of tools) {
        const op = byId.get(tool.name)!;
        expect({ name: tool.name, ...tool.annotations }).toEqual({
          name: tool.name,
          ...expectedAnnotations(op),
        });
        const described = await fetch(`${base}/api/auth/capability/describe?name=${tool.name}`);
        expect(described.status).toBe(200);
        const capability = (await described.json()) as { input: unknown };
        expect(tool.inputSchema).toEqual(capability.input as typeof tool.inputSchema);
      }
      const hints = (name: string) => tools.find((tool) => tool.name === name)!.annotations;
      expect(hints("adminRefundOrder")?.destructiveHint).toBe(true);
      expect(hints("adminCancelOrder")?.destructiveHint).toBe(true);
      expect(hints("removeCartItem")?.destructiveHint).toBe(true);
      expect(hints("listProducts")?.readOnlyHint).toBe(true);

      // Failures are tool results with isError and the API's error body.
      expect(await refused(client, "listProducts", { limit: 1000 })).toMatchObject({
        code: "VALIDATION_ERROR",
        status: 400,
      });
      expect(await refused(client, "getProduct", { id: "no-such-product" })).toMatchObject({
        code: "NOT_FOUND",
        status: 404,
      });
      const hostClient = await connect({ host: HOST });
      expect(await refused(hostClient, "adminListOrders")).toMatchObject({ code: "FORBIDDEN", status: 403 });

      // No credential: HTTP 401 before the MCP layer, with WWW-Authenticate.
      const anonymous = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp", ` +
          `AgentAuth discovery="${base}/.well-known/agent-configuration"`,
      );
      expect(await anonymous.json()).toMatchObject({ code: "UNAUTHORIZED", status: 401 });

      // GET /mcp: 405, POST only.
      const get = await fetch(`${base}/mcp`, { headers: { "x-api-key": shop.org.key } });
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
      expect(await get.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 });
    },
    SLOW,
  );
});
