import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { createApiKey } from "../../src/auth/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { activeAgent, type Merchant, newMerchant, relaxRegisterLimit } from "./helpers.ts";

// Proxied execution: when API_PUBLIC_URL is another origin, capability execute sends the call to
// `R/v1/...` with the organization's proxy key, after checking with `GET R/v1/me` that the key
// belongs to the agent's organization. Here R is a second server on 127.0.0.1, port 0.

let upstream: TestApp;
let server: Server<unknown>;
let t: TestApp;
let shopA: Merchant;
let shopB: Merchant;
let shopC: Merchant;
const seen: {
  method: string;
  path: string;
  apiKey: string | null;
  agentId: string | null;
  idem: string | null;
}[] = [];

beforeAll(async () => {
  upstream = makeTestApp();
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, srv) {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        apiKey: request.headers.get("x-api-key"),
        agentId: request.headers.get("x-agent-id"),
        idem: request.headers.get("idempotency-key"),
      });
      return upstream.app.fetch(request, srv);
    },
  });
  // The org, users and keys live in the shared control plane; the agent-facing app is made once they exist.
  shopA = await newMerchant(upstream, "a@proxy.example", "Proxy A");
  shopB = await newMerchant(upstream, "b@proxy.example", "Proxy B");
  shopC = await newMerchant(upstream, "c@proxy.example", "Proxy C");
  const keyA = createApiKey(upstream.app.ctx.platform, {
    organizationId: shopA.orgId,
    name: "agent proxy",
    scopes: ["admin", "storefront"],
  }).key;
  t = makeTestApp({
    dataDir: upstream.dataDir,
    env: {
      BASE_URL: "http://localhost:3000",
      API_PUBLIC_URL: `http://127.0.0.1:${server.port}`,
      // Org B is (wrongly) configured with org A's key; org C has none.
      AGENT_PROXY_API_KEY: JSON.stringify({ [shopA.orgId]: keyA, [shopB.orgId]: keyA }),
    },
  });
  relaxRegisterLimit(t);
});
afterAll(() => {
  t.close();
  server.stop(true);
  upstream.cleanup();
});

describe("proxied execution (R ≠ B)", () => {
  test("16. with R ≠ B execute sends x-api-key to R and answers what R answered", async () => {
    const agent = await activeAgent(t, shopA, {
      name: "Remote catalog manager",
      capabilities: ["adminCreateProduct", "adminGetProduct", "listProducts"],
    });
    seen.length = 0;
    const created = await agent.execute("adminCreateProduct", simpleProduct("Proxied", 999), {
      "idempotency-key": "proxy-create-1",
    });
    expect(created.status).toBe(201);
    expect(created.body.data.name).toEqual({ en: "Proxied" });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /v1/me", "POST /v1/admin/products"]);
    expect(seen[1]).toMatchObject({ agentId: agent.id, idem: "proxy-create-1" });
    expect(seen[1]!.apiKey).toStartWith("ck_");

    // The product is in org A, read back directly from the upstream with org A's setup key.
    const direct = await upstream.json(`/v1/admin/products/${created.body.data.id}`, {
      headers: { "x-api-key": shopA.apiKey },
    });
    expect(direct.status).toBe(200);

    // The key check is cached; query strings and 404s pass through.
    seen.length = 0;
    const missing = await agent.execute("adminGetProduct", { id: "prod_missing" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    const listed = await agent.execute("listProducts", { limit: 5, page: 1 });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ limit: 5, page: 1 });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /v1/admin/products/prod_missing",
      "GET /v1/products?limit=5&page=1",
    ]);
    // Validation happens before anything is sent.
    seen.length = 0;
    const invalid = await agent.execute("adminCreateProduct", { name: 5 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
    expect(seen).toEqual([]);
  });

  test("16. a proxy key whose /v1/me org differs → 403 with no upstream write", async () => {
    const agent = await activeAgent(t, shopB, { name: "Wrong key", capabilities: ["adminCreateProduct"] });
    seen.length = 0;
    const res = await agent.execute("adminCreateProduct", simpleProduct("Must not exist", 100));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("unauthorized");
    // The key's identity was checked (or taken from the 5-minute cache); nothing was written.
    expect(seen.filter((s) => s.method !== "GET")).toEqual([]);
  });

  test("constraints are checked before proxying; no key for the organization → 503 proxy_not_configured", async () => {
    const refunder = await activeAgent(t, shopA, {
      name: "Remote refunder",
      capabilities: [{ name: "adminRefundOrder", constraints: { amount: { max: 100 } } }],
    });
    seen.length = 0;
    const violated = await refunder.execute("adminRefundOrder", { id: "ord_x", amount: 500 });
    expect(violated.status).toBe(403);
    expect(violated.body.error).toBe("constraint_violated");
    expect(seen).toEqual([]);

    const noKey = await activeAgent(t, shopC, { name: "No key", capabilities: ["listProducts"] });
    const res = await noKey.execute("listProducts");
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("proxy_not_configured");
  });

  test("an unreachable API origin → 502 upstream_error", async () => {
    const down = makeTestApp({
      env: {
        BASE_URL: "http://localhost:3000",
        API_PUBLIC_URL: "http://127.0.0.1:9",
        AGENT_PROXY_API_KEY: "ck_any",
      },
    });
    try {
      relaxRegisterLimit(down);
      const m = await newMerchant(down, "down@proxy.example");
      const agent = await activeAgent(down, m, { name: "Lonely", capabilities: ["listProducts"] });
      const res = await agent.execute("listProducts");
      expect(res.status).toBe(502);
      expect(res.body.error).toBe("upstream_error");
    } finally {
      down.cleanup();
    }
  });
});
