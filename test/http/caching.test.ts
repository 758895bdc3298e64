import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Caller } from "../../src/core/operation.ts";
import type { TestApp } from "../helpers/app.ts";
import { makeTestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

const HOST = "api.caching-shop.example";

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Caching Shop", HOST);
});
afterAll(() => t.cleanup());

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  t.request(path, { method, headers: { host: HOST, ...headers } });

describe("conditional GETs of catalog reads", () => {
  test("carry a strong ETag, revalidate (no-cache) and Vary on what the body depends on", async () => {
    for (const path of ["/v1/products", `/v1/products/${shop.shirt.id}`, "/v1/categories", "/v1/store"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const vary = res.headers
        .get("vary")!
        .split(/,\s*/)
        .map((name) => name.toLowerCase());
      for (const name of ["origin", "accept-encoding", "x-api-key", "authorization", "cookie"]) {
        expect(vary).toContain(name);
      }
    }
  });

  test("a matching If-None-Match → 304 with no body and the same ETag; a stale one → 200", async () => {
    const first = await get("/v1/products");
    const etag = first.headers.get("etag")!;
    const body = await first.text();
    const again = await get("/v1/products", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("no-cache");
    for (const ifNoneMatch of [`W/${etag}`, `"other", ${etag}`, "*"]) {
      expect((await get("/v1/products", { "if-none-match": ifNoneMatch })).status).toBe(304);
    }
    const stale = await get("/v1/products", { "if-none-match": '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
  });

  test("after a write the same If-None-Match → 200 with the new body and a new ETag", async () => {
    const before = await get(`/v1/products/${shop.shirt.id}`);
    const etag = before.headers.get("etag")!;
    const renamed = await shop.admin.patch(`/v1/admin/products/${shop.shirt.id}`, {
      name: { en: "Renamed shirt" },
    });
    expect(renamed.status).toBe(200);
    const after = await get(`/v1/products/${shop.shirt.id}`, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(((await after.json()) as any).data.name.en).toBe("Renamed shirt");
    const now = after.headers.get("etag")!;
    expect((await get(`/v1/products/${shop.shirt.id}`, { "if-none-match": now })).status).toBe(304);
  });

  test("a kept body is the same object until the data changes, so its ETag and encodings are worked out once", async () => {
    const op = t.app.operations.find((o) => o.operationId === "listProducts")!;
    const caller: Caller = { type: "host", orgId: shop.org.id, scopes: ["storefront"], id: `host:${HOST}` };
    const run = () => t.app.executor.execute(op, { caller }, { limit: "7" }, { requestId: "kept" });
    const first = await run();
    const second = await run();
    expect(first.kept).toBeDefined();
    expect(second.kept).toBe(first.kept!);
    const written = await shop.admin.patch(`/v1/admin/products/${shop.shirt.id}`, { tags: ["kept"] });
    expect(written.status).toBe(200);
    const third = await run();
    expect(third.kept).toBeDefined();
    expect(third.kept).not.toBe(first.kept!);
  });

  test("HEAD answers the headers of GET with no body, and 304 when the ETag matches", async () => {
    const full = await get("/v1/products");
    const head = await get("/v1/products", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("etag")).toBe(full.headers.get("etag"));
    const notModified = await get("/v1/products", { "if-none-match": full.headers.get("etag")! }, "HEAD");
    expect(notModified.status).toBe(304);
  });

  test("an error on a catalog path is not kept by any cache", async () => {
    const res = await get("/v1/products/nope");
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("etag")).toBeNull();
  });
});

describe("answers nothing may keep", () => {
  test("carts, accounts and orders are no-store, without ETag", async () => {
    const cart = await shop.storefront("/v1/carts", { body: {} });
    expect(cart.status).toBe(201);
    expect(cart.response.headers.get("cache-control")).toBe("no-store");
    const read = await get(`/v1/carts/${cart.body.data.id}`);
    expect(read.headers.get("cache-control")).toBe("no-store");
    expect(read.headers.get("etag")).toBeNull();
    expect(read.headers.get("vary")).toContain("Origin");
    for (const path of ["/v1/account", "/v1/orders"]) {
      expect((await get(path)).headers.get("cache-control")).toBe("no-store");
    }
  });

  test("every admin answer is no-store, and ignores If-None-Match", async () => {
    for (const path of ["/v1/admin/store", "/v1/admin/products", `/v1/admin/products/${shop.shirt.id}`]) {
      const res = await get(path, { "x-api-key": shop.org.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("etag")).toBeNull();
      const conditional = await get(path, { "x-api-key": shop.org.key, "if-none-match": "*" });
      expect(conditional.status).toBe(200);
    }
  });

  test("the health check and unknown routes are no-store", async () => {
    expect((await get("/v1/health")).headers.get("cache-control")).toBe("no-store");
    expect((await get("/v1/nothing-here")).headers.get("cache-control")).toBe("no-store");
  });
});

describe("public documents", () => {
  test("the OpenAPI document and every docs asset carry an ETag and answer 304 when unchanged", async () => {
    const page = await (await t.request("/v1/docs")).text();
    const scripts = [...page.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!);
    for (const path of ["/v1/openapi.json", "/v1/docs", ...scripts]) {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      const etag = res.headers.get("etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(res.headers.get("cache-control")).toBeTruthy();
      const again = await t.request(path, { headers: { "if-none-match": etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    }
    expect((await t.request("/v1/openapi.json")).headers.get("cache-control")).toBe("no-cache");
  });
});
