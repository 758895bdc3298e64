import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isAgentOperation } from "../../src/core/registry.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { activeAgent, BASE, ISSUER, LOCATION, newMerchant, relaxRegisterLimit, TestHost } from "./helpers.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
  relaxRegisterLimit(t);
});
afterAll(() => t.cleanup());

describe("discovery", () => {
  test("1. Discovery: 200 with the five contract members as absolute URLs under B/api/auth/agent/, version 1.0-draft, algorithms, modes, approval_methods, endpoints, default_location = L, Cache-Control public; a spoofed Host or x-forwarded-host changes no URL", async () => {
    const plain = await t.json("/.well-known/agent-configuration");
    expect(plain.status).toBe(200);
    expect(plain.response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(plain.response.headers.get("access-control-allow-origin")).toBe("*");
    const doc = plain.body;
    expect(doc).toMatchObject({
      version: "1.0-draft",
      issuer: ISSUER,
      default_location: LOCATION,
      authorization_endpoint: `${BASE}/api/auth/agent/authorize`,
      token_endpoint: `${BASE}/api/auth/agent/token`,
      registration_endpoint: `${BASE}/api/auth/agent/register`,
      capabilities_endpoint: `${BASE}/api/auth/agent/capabilities`,
      algorithms: ["Ed25519"],
      modes: ["delegated", "autonomous"],
      approval_methods: ["device_authorization"],
    });
    expect(doc.endpoints).toEqual({
      register: `${ISSUER}/agent/register`,
      capabilities: `${ISSUER}/capability/list`,
      describe_capability: `${ISSUER}/capability/describe`,
      execute: LOCATION,
      request_capability: `${ISSUER}/agent/request-capability`,
      status: `${ISSUER}/agent/status`,
      revoke: `${ISSUER}/agent/revoke`,
      rotate_key: `${ISSUER}/agent/rotate-key`,
      revoke_host: `${ISSUER}/host/revoke`,
      rotate_host_key: `${ISSUER}/host/rotate-key`,
      introspect: `${ISSUER}/agent/introspect`,
    });
    expect(doc.jwks_uri).toBeUndefined();
    // provider_name and description are the OpenAPI document's.
    const openapi = await t.json("/v1/openapi.json");
    expect(doc.provider_name).toBe(openapi.body.info.title);
    expect(doc.description).toBe(openapi.body.info.description);

    const spoofed = await t.json("/.well-known/agent-configuration", {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
    });
    expect(spoofed.body).toEqual(doc);
  });

  test("a spoofed x-forwarded-host changes no URL behind a trusted proxy either", async () => {
    const proxied = makeTestApp({ env: { TRUST_PROXY: "true", API_PUBLIC_URL: "https://shop.example.com" } });
    try {
      const res = await proxied.json("/.well-known/agent-configuration", {
        headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
      });
      expect(res.body.issuer).toBe("https://shop.example.com/api/auth");
      expect(res.body.endpoints.execute).toBe("https://shop.example.com/api/auth/capability/execute");
    } finally {
      proxied.cleanup();
    }
  });
});

describe("capabilities come from the registry", () => {
  test("12. A registry walk asserts the auto-grant set is exactly the storefront reads and createCart, with no admin operation and no mutating one other than createCart", () => {
    const auto = t.app.operations
      .filter((op) => isAgentOperation(op) && op.autoGrant)
      .map((op) => op.operationId);
    expect(auto.sort()).toEqual(
      [
        "listProducts",
        "getProduct",
        "listCategories",
        "getStore",
        "listCountries",
        "getCart",
        "listCartShippingMethods",
        "listCartPaymentMethods",
        "createCart",
      ].sort(),
    );
    for (const op of t.app.operations.filter((o) => o.autoGrant)) {
      expect(op.access).toBe("storefront");
      if (op.operationId !== "createCart") expect(op.method).toBe("GET");
    }
    for (const id of ["addCartItem", "placeOrder", "getOrder", "listOrders"]) {
      expect(t.app.operations.find((o) => o.operationId === id)?.autoGrant).not.toBe(true);
    }
  });

  test("the list is every agent operation by name, filtered by query, paged by cursor; non-agent operations are not capabilities", async () => {
    const all: { name: string; class: string; auto_grant: boolean }[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await t.json(`/api/auth/capability/list?limit=20${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      all.push(...res.body.capabilities);
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
    }
    const expected = t.app.operations.filter(isAgentOperation).map((o) => o.operationId);
    expect(all.map((c) => c.name)).toEqual([...expected].sort());
    expect(all.map((c) => c.name)).not.toContain("getMe");
    expect(all.map((c) => c.name)).not.toContain("signUpCustomer");
    expect(all.find((c) => c.name === "listProducts")).toMatchObject({ class: "read", auto_grant: true });
    expect(all.find((c) => c.name === "addCartItem")).toMatchObject({ class: "write", auto_grant: false });
    expect(all.find((c) => c.name === "adminGetOrder")).toMatchObject({ class: "admin-read" });
    expect(all.find((c) => c.name === "adminRefundOrder")).toMatchObject({ class: "admin-write" });

    const alias = await t.json("/api/auth/agent/capabilities?query=ADMINREFUNDORD");
    expect(alias.body.capabilities.map((c: { name: string }) => c.name)).toEqual(["adminRefundOrder"]);
    expect(alias.body.capabilities[0].grant_status).toBeUndefined();
    const bad = await t.json("/api/auth/capability/list?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_request");
  });

  test("17. Capability list with an agent JWT has grant_status on every item; describe returns the JSON Schema input; unknown name → 404 capability_not_found", async () => {
    const merchant = await newMerchant(t, "caps@example.com");
    const agent = await activeAgent(t, merchant, {
      name: "Cap reader",
      capabilities: ["listProducts", "addCartItem"],
    });
    const token = await agent.jwt(ISSUER);
    const list = await t.json("/api/auth/capability/list?limit=100", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    for (const c of list.body.capabilities) expect(c.grant_status).toBeDefined();
    const status = (name: string) =>
      list.body.capabilities.find((c: { name: string }) => c.name === name).grant_status;
    expect(status("listProducts")).toBe("granted");
    expect(status("addCartItem")).toBe("granted");
    expect(status("placeOrder")).toBe("not_granted");

    const described = await t.json("/api/auth/capability/describe?name=adminRefundOrder");
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({
      name: "adminRefundOrder",
      method: "POST",
      path: "/v1/admin/orders/{id}/refund",
      scope: "admin",
      class: "admin-write",
      location: LOCATION,
    });
    expect(described.body.input.type).toBe("object");
    expect(described.body.input.additionalProperties).toBe(false);
    expect(Object.keys(described.body.input.properties).sort()).toEqual([
      "amount",
      "id",
      "reason",
      "restock",
    ]);
    expect(described.body.input.required).toContain("id");
    expect(described.body.output.type).toBe("object");

    const listProducts = await t.json("/api/auth/capability/describe?name=listProducts");
    expect(listProducts.body.output.type).toBe("array");

    for (const name of ["nope", "getMe", "getHealth"]) {
      const missing = await t.json(`/api/auth/capability/describe?name=${name}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe("capability_not_found");
    }
  });

  test("a bad credential on the capability list is a 401, never an anonymous answer", async () => {
    const host = await TestHost.create(t);
    const res = await t.json("/api/auth/capability/list", {
      headers: { authorization: `Bearer ${await host.jwt()}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_jwt");
    expect(res.response.headers.get("www-authenticate")).toBe(
      `AgentAuth discovery="${BASE}/.well-known/agent-configuration"`,
    );
  });
});
