import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sha256Hex } from "../../src/auth/crypto.ts";
import { addMember, createApiKey, revokeApiKey } from "../../src/auth/service.ts";
import { CREDENTIAL_CACHE_MS } from "../../src/db/platform.ts";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { probeOperations } from "../helpers/probe-operations.ts";

let t: TestApp;
let shopA: { id: string; slug: string; key: string };
let shopB: { id: string; slug: string; key: string };
let sessionCookie: string;
let userId: string;

beforeAll(async () => {
  t = makeTestApp({ operations: probeOperations, env: { PLATFORM_DOMAIN: "shops.test" } });
  shopA = await t.org("Shop A", { host: "www.shop-a.example" });
  shopB = await t.org("Shop B", { host: "www.shop-b.example" });
  sessionCookie = await signUp(t, "owner@example.com");
  const session = await t.json("/api/auth/session", { headers: { cookie: sessionCookie } });
  userId = session.body.data.user.id;
  addMember(t.app.ctx.platform, shopA.id, userId, "owner");
  await t.request(
    "/api/auth/organization/set-active",
    jsonBody({ organizationId: shopA.id }, { cookie: sessionCookie }),
  );
});
afterAll(() => t.cleanup());

const me = (headers: Record<string, string>) => t.json("/v1/me", { headers });

describe("GET /v1/me resolves each caller type", () => {
  test("API key → type api-key with the key's org and scopes, no userId", async () => {
    const { status, body } = await me({ "x-api-key": shopA.key });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { orgId: shopA.id, scopes: ["admin", "storefront"], type: "api-key" } });
  });

  test("session cookie → type session with the active org, admin and storefront, and the userId", async () => {
    const { status, body } = await me({ cookie: sessionCookie });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { orgId: shopA.id, scopes: ["admin", "storefront"], type: "session", userId },
    });
  });

  test("verified domain Host → type host with storefront only", async () => {
    const { status, body } = await me({ host: "www.shop-b.example" });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { orgId: shopB.id, scopes: ["storefront"], type: "host" } });
  });

  test("Host is lower-cased and its port stripped; {slug}.{PLATFORM_DOMAIN} resolves by slug", async () => {
    expect((await me({ host: "WWW.Shop-B.Example:8080" })).body.data.orgId).toBe(shopB.id);
    const bySlug = await me({ host: `${shopA.slug}.shops.test:3000` });
    expect(bySlug.body.data).toEqual({ orgId: shopA.id, scopes: ["storefront"], type: "host" });
  });

  test("an unknown host, a nested subdomain or the bare platform domain is 401", async () => {
    for (const host of ["unknown.example", `x.${shopA.slug}.shops.test`, "shops.test", "nope.shops.test"]) {
      const { status, body } = await me({ host });
      expect(status).toBe(401);
      expect(body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", status: 401 });
    }
  });
});

describe("priority: API key, then session, then Host", () => {
  test("an API key wins over a session cookie and a Host", async () => {
    const { body } = await me({ "x-api-key": shopB.key, cookie: sessionCookie, host: "www.shop-a.example" });
    expect(body.data).toEqual({ orgId: shopB.id, scopes: ["admin", "storefront"], type: "api-key" });
  });

  test("a session wins over a Host", async () => {
    const { body } = await me({ cookie: sessionCookie, host: "www.shop-b.example" });
    expect(body.data.type).toBe("session");
    expect(body.data.orgId).toBe(shopA.id);
  });
});

describe("a wrong credential is a 401 and never falls through", () => {
  test("no credential at all → 401 UNAUTHORIZED", async () => {
    const { status, body } = await me({});
    expect(status).toBe(401);
    expect(body.code).toBe("UNAUTHORIZED");
    expect(body.status).toBe(401);
  });

  test("an invalid API key with a valid Host → 401", async () => {
    const { status, body } = await me({ "x-api-key": "ck_not-a-real-key", host: "www.shop-a.example" });
    expect(status).toBe(401);
    expect(body.code).toBe("UNAUTHORIZED");
  });

  test("an empty x-api-key header is an invalid key, not an absent one", async () => {
    expect((await me({ "x-api-key": "", host: "www.shop-a.example" })).status).toBe(401);
  });

  test("a bearer token is refused (agent tokens are not yet accepted) even beside a valid key and Host", async () => {
    const { status, body } = await me({
      authorization: "Bearer eyJhbGciOiJFZERTQSJ9.e30.c2ln",
      "x-api-key": shopA.key,
      host: "www.shop-a.example",
    });
    expect(status).toBe(401);
    expect(body.code).toBe("UNAUTHORIZED");
  });

  test("an Authorization header that is not `Bearer <token>` → 401, never the Host caller", async () => {
    const unusable = ["Basic dXNlcjpwYXNz", "Token x", "Bearer", "Bearer ", "bearer\t", "Digest a=1", ""];
    for (const authorization of unusable) {
      const attempts: Record<string, string>[] = [
        { authorization, host: "www.shop-a.example" },
        { authorization, host: "www.shop-a.example", cookie: sessionCookie },
      ];
      for (const headers of attempts) {
        const { status, body, response } = await me(headers);
        expect(status).toBe(401);
        expect(body).toEqual({ error: expect.any(String), code: "UNAUTHORIZED", status: 401 });
        expect(response.headers.get("x-request-id")).toBeTruthy();
      }
    }
    // The same Host alone is a storefront caller: the header, not the Host, made the 401.
    expect((await me({ host: "www.shop-a.example" })).status).toBe(200);
  });

  test("/mcp resolves callers the same way: an unusable Authorization is a 401, not the Host", async () => {
    const rpc = (headers: Record<string, string>) =>
      t.json("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await rpc({ host: "www.shop-a.example" })).status).toBe(200);
    for (const authorization of ["Basic dXNlcjpwYXNz", "Token x", "Bearer"]) {
      const { status, body } = await rpc({ authorization, host: "www.shop-a.example" });
      expect(status).toBe(401);
      expect(body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    }
  });

  test("an unknown session cookie with a valid Host → 401", async () => {
    const { status } = await me({ cookie: "session_token=forged", host: "www.shop-a.example" });
    expect(status).toBe(401);
  });

  test("an expired session → 401", async () => {
    const cookie = await signUp(t, "expired@example.com");
    const token = cookie.split("=")[1]!;
    t.app.ctx.platform.sqlite
      .query("UPDATE sessions SET expires_at = ? WHERE token_hash = ?")
      .run(Date.now() - 1000, sha256Hex(token));
    const { status } = await me({ cookie, host: "www.shop-a.example" });
    expect(status).toBe(401);
  });

  test("a signed-out session → 401", async () => {
    const cookie = await signUp(t, "leaver@example.com");
    addMember(
      t.app.ctx.platform,
      shopA.id,
      (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id,
      "admin",
    );
    await t.request("/api/auth/organization/set-active", jsonBody({ organizationId: shopA.id }, { cookie }));
    expect((await me({ cookie })).status).toBe(200);
    const out = await t.request("/api/auth/sign-out", { method: "POST", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await me({ cookie, host: "www.shop-a.example" })).status).toBe(401);
  });

  test("a key revoked in this process → 401 on the very next request", async () => {
    const revoked = createApiKey(t.app.ctx.platform, {
      organizationId: shopA.id,
      name: "r",
      scopes: ["admin"],
    });
    expect((await me({ "x-api-key": revoked.key })).status).toBe(200);
    revokeApiKey(t.app.ctx.platform, shopA.id, revoked.id);
    expect((await me({ "x-api-key": revoked.key, host: "www.shop-a.example" })).status).toBe(401);
  });

  test("a key revoked by another process (the CLI, a script) → 401 within CREDENTIAL_CACHE_MS", async () => {
    const key = createApiKey(t.app.ctx.platform, { organizationId: shopA.id, name: "o", scopes: ["admin"] });
    expect((await me({ "x-api-key": key.key })).status).toBe(200);
    const other = new Database(join(t.dataDir, "platform.sqlite"));
    other.query("UPDATE api_keys SET revoked_at = ? WHERE id = ?").run(Date.now(), key.id);
    other.close();
    await Bun.sleep(CREDENTIAL_CACHE_MS + 50);
    expect((await me({ "x-api-key": key.key })).status).toBe(401);
  });

  test("an expired API key → 401", async () => {
    const expired = createApiKey(t.app.ctx.platform, {
      organizationId: shopA.id,
      name: "e",
      scopes: ["admin"],
      expiresAt: Date.now() - 1,
    });
    expect((await me({ "x-api-key": expired.key })).status).toBe(401);
    const soon = createApiKey(t.app.ctx.platform, {
      organizationId: shopA.id,
      name: "s",
      scopes: ["admin"],
      expiresAt: Date.now() + 300,
    });
    expect((await me({ "x-api-key": soon.key })).status).toBe(200);
    await Bun.sleep(350);
    expect((await me({ "x-api-key": soon.key })).status).toBe(401);
  });

  test("a signed-in user without an active organization gets 403 on /v1", async () => {
    const cookie = await signUp(t, "loner@example.com");
    const { status, body } = await me({ cookie });
    expect(status).toBe(403);
    expect(body.code).toBe("FORBIDDEN");
  });
});

describe("scopes", () => {
  test("a storefront caller on an admin route → 403 naming the missing scope", async () => {
    const storefrontKey = createApiKey(t.app.ctx.platform, {
      organizationId: shopA.id,
      name: "sf",
      scopes: ["storefront"],
    }).key;
    const callers: Record<string, string>[] = [
      { host: "www.shop-a.example" },
      { "x-api-key": storefrontKey },
    ];
    for (const headers of callers) {
      const { status, body } = await t.json("/v1/admin/probe", { headers });
      expect(status).toBe(403);
      expect(body.code).toBe("FORBIDDEN");
      expect(body.status).toBe(403);
      expect(body.error).toContain('"admin" scope');
    }
  });

  test("an admin-only key cannot call a storefront route", async () => {
    const adminKey = createApiKey(t.app.ctx.platform, {
      organizationId: shopA.id,
      name: "a",
      scopes: ["admin"],
    }).key;
    expect((await t.json("/v1/probe", { headers: { "x-api-key": adminKey } })).status).toBe(403);
    expect((await t.json("/v1/admin/probe", { headers: { "x-api-key": adminKey } })).status).toBe(200);
  });

  test("sessions reach admin routes of their active organization", async () => {
    const { status, body } = await t.json("/v1/admin/probe", { headers: { cookie: sessionCookie } });
    expect(status).toBe(200);
    expect(body.data.orgId).toBe(shopA.id);
  });

  test("health and the OpenAPI document need no credential", async () => {
    expect((await t.request("/v1/health")).status).toBe(200);
    expect((await t.request("/v1/openapi.json")).status).toBe(200);
  });
});

describe("tenant isolation", () => {
  test("each organization has its own file and each credential reaches only its own", async () => {
    const a = await t.json("/v1/probe", { headers: { "x-api-key": shopA.key } });
    const b = await t.json("/v1/probe", { headers: { host: "www.shop-b.example" } });
    expect(a.body.data.orgId).toBe(shopA.id);
    expect(b.body.data.orgId).toBe(shopB.id);
    expect(await Bun.file(`${t.dataDir}/tenants/${shopA.id}.sqlite`).exists()).toBe(true);
    expect(await Bun.file(`${t.dataDir}/tenants/${shopB.id}.sqlite`).exists()).toBe(true);
  });

  test("shop A's key with shop B's Host stays in shop A", async () => {
    const { body } = await t.json("/v1/probe", {
      headers: { "x-api-key": shopA.key, host: "www.shop-b.example" },
    });
    expect(body.data.orgId).toBe(shopA.id);
  });

  test("a user cannot make another organization active, list its keys or revoke them", async () => {
    const setActive = await t.json(
      "/api/auth/organization/set-active",
      jsonBody({ organizationId: shopB.id }, { cookie: sessionCookie }),
    );
    expect(setActive.status).toBe(404);
    expect(setActive.body.code).toBe("NOT_FOUND");

    const list = await t.json(`/api/auth/api-key/list?organizationId=${shopB.id}`, {
      headers: { cookie: sessionCookie },
    });
    expect(list.status).toBe(404);

    const bKey = createApiKey(t.app.ctx.platform, { organizationId: shopB.id, name: "b", scopes: ["admin"] });
    const revoke = await t.json(
      "/api/auth/api-key/revoke",
      jsonBody({ keyId: bKey.id }, { cookie: sessionCookie }),
    );
    expect(revoke.status).toBe(404);
    expect((await me({ "x-api-key": bKey.key })).status).toBe(200);

    const create = await t.json(
      "/api/auth/api-key/create",
      jsonBody({ name: "steal", organizationId: shopB.id, scopes: ["admin"] }, { cookie: sessionCookie }),
    );
    expect(create.status).toBe(404);
  });
});
