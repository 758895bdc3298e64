import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { addMember } from "../../src/auth/service.ts";
import { cookieFrom, jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.cleanup());

const post = (path: string, body: unknown, cookie?: string) =>
  t.json(path, jsonBody(body, cookie ? { cookie } : {}));

describe("sign-up, sign-in, session, sign-out", () => {
  test("sign-up creates the user, answers 201 with an httpOnly SameSite=Lax cookie, and stores no plaintext", async () => {
    const { status, body, response } = await post("/api/auth/sign-up/email", {
      email: "Ana@Example.com",
      password: "long enough",
      name: "Ana",
    });
    expect(status).toBe(201);
    expect(body.data.user).toMatchObject({ email: "ana@example.com", name: "Ana" });
    expect(body.data.session.activeOrganizationId).toBeNull();
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^session_token=[A-Za-z0-9]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const token = cookieFrom(response).split("=")[1]!;
    const row = t.app.ctx.platform.sqlite
      .query("SELECT token_hash FROM sessions WHERE id = ?")
      .get(body.data.session.id) as {
      token_hash: string;
    };
    expect(row.token_hash).not.toBe(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const user = t.app.ctx.platform.sqlite
      .query("SELECT password_hash FROM users WHERE email = ?")
      .get("ana@example.com") as {
      password_hash: string;
    };
    expect(user.password_hash.startsWith("$argon2id$")).toBe(true);
  });

  test("the same email again (any case) → 409 CONFLICT", async () => {
    const { status, body } = await post("/api/auth/sign-up/email", {
      email: "ANA@example.com",
      password: "long enough",
    });
    expect(status).toBe(409);
    expect(body.code).toBe("CONFLICT");
  });

  test("bad sign-up input → 400 with details, nothing stored", async () => {
    const before = t.app.ctx.platform.sqlite.query("SELECT count(*) AS n FROM users").get() as { n: number };
    for (const body of [
      { email: "no-at-sign", password: "long enough" },
      { email: "b@example.com", password: "short" },
      { email: "b@example.com" },
      { email: 42, password: "long enough" },
      { email: "b@example.com", password: "long enough", name: "x".repeat(201) },
      { email: "b@example.com", password: "long enough", admin: true },
      { email: `${"x".repeat(300)}@example.com`, password: "long enough" },
    ]) {
      const res = await post("/api/auth/sign-up/email", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details.length).toBeGreaterThan(0);
      expect(res.body.details[0].path).toMatch(/^\/body/);
    }
    const after = t.app.ctx.platform.sqlite.query("SELECT count(*) AS n FROM users").get() as { n: number };
    expect(after.n).toBe(before.n);
  });

  test("sign-in with the right password sets a new session; a wrong one or unknown email is the same 401", async () => {
    const ok = await post("/api/auth/sign-in/email", { email: "ana@example.com", password: "long enough" });
    expect(ok.status).toBe(200);
    const cookie = cookieFrom(ok.response);
    const session = await t.json("/api/auth/session", { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.data.user.email).toBe("ana@example.com");

    const wrong = await post("/api/auth/sign-in/email", {
      email: "ana@example.com",
      password: "wrong password",
    });
    const unknown = await post("/api/auth/sign-in/email", {
      email: "nobody@example.com",
      password: "wrong password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  test("sign-in is rate limited per address and email: the 11th try in the window → 429 with Retry-After", async () => {
    await signUp(t, "target@example.com");
    for (let i = 0; i < 10; i++) {
      expect(
        (await post("/api/auth/sign-in/email", { email: "target@example.com", password: "guess guess" }))
          .status,
      ).toBe(401);
    }
    const limited = await post("/api/auth/sign-in/email", {
      email: "target@example.com",
      password: "correct horse battery",
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("session and sign-out need a session: 401 without", async () => {
    expect((await t.json("/api/auth/session")).status).toBe(401);
    expect((await t.json("/api/auth/sign-out", { method: "POST" })).status).toBe(401);
    expect((await t.json("/api/auth/organization/list")).status).toBe(401);
  });
});

describe("organizations", () => {
  let cookie: string;
  let orgId: string;

  beforeAll(async () => {
    cookie = await signUp(t, "merchant@example.com");
  });

  test("create → 201, a migrated tenant file, owner role, and it becomes the active organization", async () => {
    const { status, body } = await post("/api/auth/organization/create", { name: "Loja da Praça" }, cookie);
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ name: "Loja da Praça", slug: "loja-da-praca", role: "owner" });
    orgId = body.data.id;
    const file = `${t.dataDir}/tenants/${orgId}.sqlite`;
    expect(existsSync(file)).toBe(true);
    const sqlite = new Database(file, { readonly: true });
    expect(sqlite.query("SELECT value FROM tenant_meta WHERE key = 'organization_id'").get()).toEqual({
      value: orgId,
    });
    sqlite.close();

    const me = await t.json("/v1/me", { headers: { cookie } });
    expect(me.body.data).toMatchObject({ orgId, type: "session" });
  });

  test("list shows the user's organizations with roles; set-active switches /v1 to another", async () => {
    const second = await post(
      "/api/auth/organization/create",
      { name: "Second", slug: "second-shop" },
      cookie,
    );
    expect(second.body.data.slug).toBe("second-shop");
    const list = await t.json("/api/auth/organization/list", { headers: { cookie } });
    expect(list.body.data.map((o: { id: string; role: string }) => [o.id, o.role])).toEqual([
      [orgId, "owner"],
      [second.body.data.id, "owner"],
    ]);
    expect((await t.json("/v1/me", { headers: { cookie } })).body.data.orgId).toBe(orgId);
    const active = await post(
      "/api/auth/organization/set-active",
      { organizationId: second.body.data.id },
      cookie,
    );
    expect(active.status).toBe(200);
    expect(active.body.data.session.activeOrganizationId).toBe(second.body.data.id);
    expect((await t.json("/v1/me", { headers: { cookie } })).body.data.orgId).toBe(second.body.data.id);
    await post("/api/auth/organization/set-active", { organizationId: orgId }, cookie);
  });

  test("a taken slug → 409 and no tenant file is left behind", async () => {
    const before = (await Array.fromAsync(new Bun.Glob("*.sqlite").scan(`${t.dataDir}/tenants`))).length;
    const { status, body } = await post(
      "/api/auth/organization/create",
      { name: "Dup", slug: "second-shop" },
      cookie,
    );
    expect(status).toBe(409);
    expect(body.code).toBe("CONFLICT");
    const after = (await Array.fromAsync(new Bun.Glob("*.sqlite").scan(`${t.dataDir}/tenants`))).length;
    expect(after).toBe(before);
  });

  test("bad organization input → 400", async () => {
    for (const body of [
      {},
      { name: "" },
      { name: "x".repeat(201) },
      { name: "Ok", slug: "Bad Slug" },
      { name: 5 },
    ]) {
      expect((await post("/api/auth/organization/create", body, cookie)).status).toBe(400);
    }
    expect(
      (await post("/api/auth/organization/set-active", { organizationId: "../../etc" }, cookie)).status,
    ).toBe(400);
    expect(
      (await post("/api/auth/organization/set-active", { organizationId: "org_unknown123" }, cookie)).status,
    ).toBe(404);
  });

  describe("API keys (Settings → API Keys)", () => {
    test("create shows the key once; it works on /v1; list never shows it; revoke stops it at once", async () => {
      const created = await post(
        "/api/auth/api-key/create",
        { name: "Storefront", scopes: ["storefront"] },
        cookie,
      );
      expect(created.status).toBe(201);
      const key: string = created.body.data.key;
      expect(key).toMatch(/^ck_[A-Za-z0-9]{43}$/);
      expect(created.body.data).toMatchObject({
        name: "Storefront",
        start: key.slice(0, 8),
        metadata: { organizationId: orgId, scopes: ["storefront"] },
        revokedAt: null,
      });

      const me = await t.json("/v1/me", { headers: { "x-api-key": key } });
      expect(me.body.data).toEqual({ orgId, scopes: ["storefront"], type: "api-key" });

      const list = await t.json("/api/auth/api-key/list", { headers: { cookie } });
      expect(list.status).toBe(200);
      expect(list.body.meta).toEqual({ page: 1, limit: 20, total: 1 });
      expect(list.body.data[0].id).toBe(created.body.data.id);
      expect(JSON.stringify(list.body)).not.toContain(key);

      const revoked = await post("/api/auth/api-key/revoke", { keyId: created.body.data.id }, cookie);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.revokedAt).not.toBeNull();
      expect((await t.json("/v1/me", { headers: { "x-api-key": key } })).status).toBe(401);
    });

    test("expiresIn sets an expiry; defaults to storefront scope", async () => {
      const created = await post("/api/auth/api-key/create", { name: "Temp", expiresIn: 3600 }, cookie);
      expect(created.body.data.metadata.scopes).toEqual(["storefront"]);
      const expires = Date.parse(created.body.data.expiresAt);
      expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(10_000);
    });

    test("list paginates: limit=0, limit=101, page=0 and page=abc are 400; limit=1 pages with the total", async () => {
      for (const q of ["limit=0", "limit=101", "page=0", "page=abc", "limit=-1", "limit=2.5"]) {
        const res = await t.json(`/api/auth/api-key/list?${q}`, { headers: { cookie } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
        expect(res.body.details[0].path).toMatch(/^\/query\/(limit|page)$/);
      }
      const page2 = await t.json("/api/auth/api-key/list?limit=1&page=2", { headers: { cookie } });
      expect(page2.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
      expect(page2.body.data).toHaveLength(1);
    });

    test("a member (not owner or admin) cannot create or revoke keys → 403", async () => {
      const memberCookie = await signUp(t, "staff@example.com");
      const staff = await t.json("/api/auth/session", { headers: { cookie: memberCookie } });
      addMember(t.app.ctx.platform, orgId, staff.body.data.user.id, "member");
      const res = await post("/api/auth/api-key/create", { name: "x", organizationId: orgId }, memberCookie);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    });

    test("bad key input → 400", async () => {
      for (const body of [
        {},
        { name: "k", scopes: ["root"] },
        { name: "k", scopes: [] },
        { name: "k", expiresIn: 1 },
      ]) {
        expect((await post("/api/auth/api-key/create", body, cookie)).status).toBe(400);
      }
      expect((await post("/api/auth/api-key/revoke", { keyId: "key_doesnotexist" }, cookie)).status).toBe(
        404,
      );
    });
  });
});
