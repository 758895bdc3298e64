import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { makeTestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

const HOST = "api.cors-shop.example";
const SHOP_ORIGIN = "https://cors-shop.example";
const DEV_ORIGIN = "http://localhost:5173";
const STRANGER = "https://evil.example";

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Cors Shop", HOST);
  const res = await shop.admin.patch("/v1/admin/store", { allowedOrigins: [SHOP_ORIGIN, DEV_ORIGIN] });
  expect(res.status).toBe(200);
});
afterAll(() => t.cleanup());

const preflight = (path: string, origin: string, method = "POST", host = HOST) =>
  t.request(path, {
    method: "OPTIONS",
    headers: {
      host,
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type, idempotency-key",
    },
  });

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));

describe("allowedOrigins in the store settings", () => {
  test("are set through PATCH /v1/admin/store and shown in the admin store view", async () => {
    const view = await shop.admin.get("/v1/admin/store");
    expect(view.body.data.allowedOrigins).toEqual([SHOP_ORIGIN, DEV_ORIGIN]);
  });

  test("accept only origins as browsers send them, and a bounded list", async () => {
    const refused = [
      ["https://shop.example/"],
      ["https://shop.example/path"],
      ["http://shop.example"],
      ["https://Shop.example"],
      ["https://shop.example:443"],
      ["*"],
      Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      [SHOP_ORIGIN, SHOP_ORIGIN],
    ];
    for (const allowedOrigins of refused) {
      const res = await shop.admin.patch("/v1/admin/store", { allowedOrigins });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toStartWith("/body/allowedOrigins");
    }
    expect((await shop.admin.get("/v1/admin/store")).body.data.allowedOrigins).toEqual([
      SHOP_ORIGIN,
      DEV_ORIGIN,
    ]);
  });
});

describe("preflight", () => {
  test("from an allowed origin on a storefront path → 204 with methods, headers and max age", async () => {
    const res = await preflight("/v1/carts/cart_123/items", SHOP_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("POST");
    const allowHeaders = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
    for (const name of ["content-type", "idempotency-key", "x-customer-session", "x-request-id"]) {
      expect(allowHeaders).toContain(name);
    }
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(res.headers.get("vary")).toBe("Origin");
    expect(await res.text()).toBe("");
    const dev = await preflight("/v1/carts/cart_123/items/item_1", DEV_ORIGIN, "PATCH");
    expect(dev.status).toBe(204);
    expect(dev.headers.get("access-control-allow-methods")!.split(", ").sort()).toEqual(["DELETE", "PATCH"]);
  });

  test("from an origin the shop does not list → 403 with no CORS headers", async () => {
    const res = await preflight("/v1/carts", STRANGER);
    expect(res.status).toBe(403);
    expect(corsHeaders(res)).toEqual([]);
    expect(((await res.json()) as { code: string }).code).toBe("FORBIDDEN");
  });

  test("on a host that is no shop → 403 with no CORS headers", async () => {
    const res = await preflight("/v1/carts", SHOP_ORIGIN, "POST", "nobody.example");
    expect(res.status).toBe(403);
    expect(corsHeaders(res)).toEqual([]);
  });

  test("admin, dashboard and MCP paths are never CORS-enabled, even for the shop's own origin", async () => {
    for (const path of ["/v1/admin/products", "/v1/admin/store", "/api/auth/sign-in/email", "/mcp"]) {
      const res = await preflight(path, SHOP_ORIGIN);
      expect(corsHeaders(res)).toEqual([]);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
  });

  test("public documents allow any origin", async () => {
    for (const path of ["/v1/health", "/v1/openapi.json", "/v1/docs"]) {
      const res = await preflight(path, STRANGER, "GET", "anything.example");
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });
});

describe("real requests", () => {
  test("from an allowed origin echo it with Vary: Origin and the exposed headers", async () => {
    const res = await t.request("/v1/products", { headers: { host: HOST, origin: SHOP_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(res.headers.get("vary")).toContain("Origin");
    const exposed = res.headers.get("access-control-expose-headers")!.split(/,\s*/);
    expect(exposed.sort()).toEqual(["etag", "idempotent-replayed", "retry-after", "x-request-id"]);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("from an origin not in the list get no CORS headers (the data is the same)", async () => {
    const res = await t.request("/v1/products", { headers: { host: HOST, origin: STRANGER } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    expect(res.headers.get("vary")).toContain("Origin");
  });

  test("errors to an allowed origin carry the CORS headers, so the browser can read the envelope", async () => {
    const missing = await t.request("/v1/products/nope", { headers: { host: HOST, origin: SHOP_ORIGIN } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
    expect(missing.headers.get("vary")).toContain("Origin");
    expect(((await missing.json()) as { code: string }).code).toBe("NOT_FOUND");

    const invalid = await t.request("/v1/carts", {
      method: "POST",
      headers: { host: HOST, origin: SHOP_ORIGIN, "content-type": "application/json" },
      body: "{not json",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);

    // Too large a body is refused before any route runs: the path's policy still applies.
    const tooLarge = await t.request("/v1/carts", {
      method: "POST",
      headers: {
        host: HOST,
        origin: SHOP_ORIGIN,
        "content-type": "application/json",
        "content-length": "99999999",
      },
      body: "{}",
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
  });

  test("admin answers never carry CORS headers, whatever the origin", async () => {
    const res = await t.request("/v1/admin/store", {
      headers: { host: HOST, origin: SHOP_ORIGIN, "x-api-key": shop.org.key },
    });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    const refused = await t.request("/v1/admin/store", { headers: { host: HOST, origin: SHOP_ORIGIN } });
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual([]);
  });

  test("the health check and the OpenAPI document allow any origin", async () => {
    for (const path of ["/v1/health", "/v1/openapi.json"]) {
      const res = await t.request(path, { headers: { origin: STRANGER } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  test("a storefront on another origin signs a customer in and checks out with x-customer-session", async () => {
    const call = async (
      path: string,
      method = "GET",
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await t.request(path, {
        method,
        headers: {
          host: HOST,
          origin: SHOP_ORIGIN,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.headers.get("access-control-allow-origin")).toBe(SHOP_ORIGIN);
      return { status: res.status, body: (await res.json()) as any };
    };
    const signUp = await call("/v1/account/sign-up", "POST", {
      email: "cross@example.com",
      password: "correct horse battery",
      firstName: "Ana",
      lastName: "Silva",
    });
    expect(signUp.status).toBe(201);
    const signIn = await call("/v1/account/sign-in", "POST", {
      email: "cross@example.com",
      password: "correct horse battery",
    });
    expect(signIn.status).toBe(200);
    const session = { "x-customer-session": signIn.body.data.token as string };
    expect((await call("/v1/account", "GET", undefined, session)).body.data.customer.email).toBe(
      "cross@example.com",
    );

    const cart = (await call("/v1/carts", "POST", {}, { ...session, "idempotency-key": "cross-cart-1" })).body
      .data;
    const variantId = shop.shirt.variants[0].id;
    expect(
      (await call(`/v1/carts/${cart.id}/items`, "POST", { variantId, quantity: 1 }, session)).status,
    ).toBe(200);
    expect((await call(`/v1/carts/${cart.id}/shipping-address`, "POST", PT_ADDRESS, session)).status).toBe(
      200,
    );
    const shipping = { shippingMethodId: shop.ptShipping.id };
    expect((await call(`/v1/carts/${cart.id}/shipping-method`, "POST", shipping, session)).status).toBe(200);
    const placed = await call(
      `/v1/carts/${cart.id}/place-order`,
      "POST",
      {},
      { ...session, "idempotency-key": "cross-order-1" },
    );
    expect(placed.status).toBe(201);
    const orders = await call("/v1/orders", "GET", undefined, session);
    expect(orders.body.data.map((order: { id: string }) => order.id)).toContain(placed.body.data.id);
  });
});
