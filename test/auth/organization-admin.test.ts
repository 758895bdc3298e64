import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addMember, createApiKey, createUser } from "../../src/auth/service.ts";
import { cookieFrom, jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";

// The organization's domains and members as `/v1/admin` operations: the rules of the command line's
// `domain add|list|remove`, for the caller's own organization only.

const PLATFORM_DOMAIN = "shops.test";
const OWN_HOST = "commerce.example.net"; // BASE_URL's host: the service's own

let t: TestApp;
let shopA: { id: string; slug: string; key: string };
let shopB: { id: string; slug: string; key: string };
let storefrontKeyA: string;
let ownerA: string; // session cookies
let memberA: string;

/** A dashboard user of `orgId` with `role`, signed in through the API: its session cookie. */
async function signedIn(email: string, orgId: string, role: "owner" | "admin" | "member") {
  const password = "correct horse battery";
  const user = await createUser(t.app.ctx.platform, { email, password, name: email.split("@")[0] });
  addMember(t.app.ctx.platform, orgId, user.id, role);
  const response = await t.request("/api/auth/sign-in/email", jsonBody({ email, password }));
  expect(response.status).toBe(200);
  return cookieFrom(response);
}

beforeAll(async () => {
  t = makeTestApp({ env: { PLATFORM_DOMAIN, BASE_URL: `https://${OWN_HOST}` } });
  shopA = await t.org("Shop A");
  shopB = await t.org("Shop B", { host: "www.shop-b.example" });
  storefrontKeyA = createApiKey(t.app.ctx.platform, {
    organizationId: shopA.id,
    name: "storefront",
    scopes: ["storefront"],
  }).key;
  ownerA = await signedIn("owner-a@example.com", shopA.id, "owner");
  memberA = await signedIn("member-a@example.com", shopA.id, "member");
  await signedIn("owner-b@example.com", shopB.id, "owner");
});
afterAll(() => t.cleanup());

const key = (apiKey: string) => ({ "x-api-key": apiKey });
const listDomains = (headers: Record<string, string>) => t.json("/v1/admin/domains", { headers });
const addDomain = (headers: Record<string, string>, body: unknown) =>
  t.json("/v1/admin/domains", jsonBody(body, headers));
const removeDomain = (headers: Record<string, string>, host: string) =>
  t.json(`/v1/admin/domains/${encodeURIComponent(host)}`, { method: "DELETE", headers });
const hostCaller = (host: string) => t.json("/v1/me", { headers: { host } });

/** Every stored host and its organization, to show that a refused call changed nothing. */
const storedDomains = () =>
  t.app.ctx.platform.sqlite.query("SELECT host, organization_id FROM domains ORDER BY host").all();

describe("domains: GET, POST /v1/admin/domains and DELETE /v1/admin/domains/{host}", () => {
  test("an admin key adds a host, stored lower-case without its trailing dot, verified; it answers for the shop at once and is listed", async () => {
    const added = await addDomain(key(shopA.key), { host: "Shop-A.Example.COM." });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      host: "shop-a.example.com",
      verified: true,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const me = await hostCaller("shop-a.example.com");
    expect(me.body.data).toEqual({ orgId: shopA.id, scopes: ["storefront"], type: "host" });
    const listed = await listDomains(key(shopA.key));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [added.body.data] });
  });

  test("the list shows only the caller's own organization's hosts", async () => {
    expect((await listDomains(key(shopB.key))).body.data.map((d: { host: string }) => d.host)).toEqual([
      "www.shop-b.example",
    ]);
    expect((await listDomains({ cookie: ownerA })).body.data.map((d: { host: string }) => d.host)).toEqual([
      "shop-a.example.com",
    ]);
  });

  test("the dashboard session of an owner adds and removes; a member may list but neither add nor remove (403, nothing changed)", async () => {
    const added = await addDomain({ cookie: ownerA }, { host: "owner.shop-a.example" });
    expect(added.status).toBe(201);
    const before = storedDomains();
    const refusedAdd = await addDomain({ cookie: memberA }, { host: "member.shop-a.example" });
    expect(refusedAdd.status).toBe(403);
    expect(refusedAdd.body.code).toBe("FORBIDDEN");
    const refusedRemove = await removeDomain({ cookie: memberA }, "owner.shop-a.example");
    expect(refusedRemove.status).toBe(403);
    expect(storedDomains()).toEqual(before);
    expect((await listDomains({ cookie: memberA })).status).toBe(200);
    expect((await removeDomain({ cookie: ownerA }, "owner.shop-a.example")).status).toBe(204);
  });

  test("removing a host answers 204, and the host stops answering and leaves the list", async () => {
    await addDomain(key(shopA.key), { host: "gone.shop-a.example" });
    expect((await hostCaller("gone.shop-a.example")).status).toBe(200); // resolved and kept in the host cache
    const removed = await removeDomain(key(shopA.key), "GONE.shop-a.example.");
    expect(removed.status).toBe(204);
    expect(removed.body).toBeNull();
    expect((await hostCaller("gone.shop-a.example")).status).toBe(401);
    const hosts = (await listDomains(key(shopA.key))).body.data.map((d: { host: string }) => d.host);
    expect(hosts).not.toContain("gone.shop-a.example");
  });

  test("another organization's host is a 404 on delete and keeps answering for it; an unknown host is a 404 too", async () => {
    const before = storedDomains();
    for (const host of ["www.shop-b.example", "WWW.Shop-B.example.", "nobody.example.org"]) {
      const { status, body } = await removeDomain(key(shopA.key), host);
      expect(status).toBe(404);
      expect(body).toEqual({ error: "Domain not found", code: "NOT_FOUND", status: 404 });
    }
    expect(storedDomains()).toEqual(before);
    expect((await hostCaller("www.shop-b.example")).body.data.orgId).toBe(shopB.id);
  });

  test("409 CONFLICT and nothing stored: another organization's host in any spelling, the organization's own again, {slug}.{PLATFORM_DOMAIN} of any organization (its own included), the service's own hosts", async () => {
    const before = storedDomains();
    const conflicts = [
      ["www.shop-b.example", "already belongs"],
      ["WWW.SHOP-B.EXAMPLE.", "already belongs"],
      ["shop-a.example.com", "already belongs"],
      [`${shopB.slug}.${PLATFORM_DOMAIN}`, "platform host"],
      [`${shopA.slug}.${PLATFORM_DOMAIN}`, "platform host"],
      [PLATFORM_DOMAIN, "service's own"],
      [OWN_HOST, "service's own"],
    ] as const;
    for (const [host, message] of conflicts) {
      const { status, body } = await addDomain(key(shopA.key), { host });
      expect({ host, status, code: body.code }).toEqual({ host, status: 409, code: "CONFLICT" });
      expect(body.error).toContain(message);
    }
    expect(storedDomains()).toEqual(before);
  });

  test("400 VALIDATION_ERROR at the field and nothing stored: not a host, a huge host, a missing or wrong-typed host, unknown fields; on delete a malformed or huge host", async () => {
    const before = storedDomains();
    const label = "a".repeat(63);
    const tooLong = `${[label, label, label, label].join(".")}.example`; // 264 characters
    const bodies: [unknown, string][] = [
      [{ host: "not a host" }, "/body/host"],
      [{ host: "shop.example.com/path" }, "/body/host"],
      [{ host: "localhost" }, "/body/host"], // one label: no shop's domain
      [{ host: "-shop.example.com" }, "/body/host"],
      [{ host: "" }, "/body/host"],
      [{ host: tooLong }, "/body/host"],
      [{ host: "x".repeat(100_000) }, "/body/host"],
      [{ host: 42 }, "/body/host"],
      [{}, "/body/host"],
      [{ host: "ok.example.com", verified: false }, "/body/verified"],
    ];
    for (const [body, path] of bodies) {
      const answer = await addDomain(key(shopA.key), body);
      expect({ body, status: answer.status, code: answer.body.code }).toEqual({
        body,
        status: 400,
        code: "VALIDATION_ERROR",
      });
      expect(answer.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    for (const host of ["not a host", tooLong]) {
      const answer = await removeDomain(key(shopA.key), host);
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].path).toBe("/params/host");
    }
    expect(storedDomains()).toEqual(before);
  });

  test("401 without a credential; 403 for a storefront key and for a shop's Host", async () => {
    const callers: [Record<string, string>, number][] = [
      [{}, 401],
      [key(storefrontKeyA), 403],
      [{ host: "shop-a.example.com" }, 403],
    ];
    const before = storedDomains();
    for (const [headers, status] of callers) {
      expect((await listDomains(headers)).status).toBe(status);
      expect((await addDomain(headers, { host: "refused.shop-a.example" })).status).toBe(status);
      expect((await removeDomain(headers, "shop-a.example.com")).status).toBe(status);
    }
    expect(storedDomains()).toEqual(before);
  });

  test("an add replayed with its Idempotency-Key answers the stored 201, not a conflict", async () => {
    const headers = { ...key(shopA.key), "idempotency-key": "add-domain-1" };
    const first = await addDomain(headers, { host: "replay.shop-a.example" });
    const again = await addDomain(headers, { host: "replay.shop-a.example" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});

describe("members: GET /v1/admin/members", () => {
  const listMembers = (headers: Record<string, string>, query = "") =>
    t.json(`/v1/admin/members${query}`, { headers });

  test("lists the organization's members with userId, email, name, role and when they joined, oldest first, and no password hash", async () => {
    const { status, body, response } = await listMembers(key(shopA.key));
    expect(status).toBe(200);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    expect(body.data).toEqual([
      {
        userId: expect.stringMatching(/^usr_/),
        email: "owner-a@example.com",
        name: "owner-a",
        role: "owner",
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      {
        userId: expect.stringMatching(/^usr_/),
        email: "member-a@example.com",
        name: "member-a",
        role: "member",
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/i);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("only the caller's own organization's members, for every kind of admin caller; pages by page and limit", async () => {
    const emails = async (headers: Record<string, string>, query = "") =>
      (await listMembers(headers, query)).body.data.map((m: { email: string }) => m.email);
    expect(await emails(key(shopB.key))).toEqual(["owner-b@example.com"]);
    expect(await emails({ cookie: memberA })).toEqual(["owner-a@example.com", "member-a@example.com"]);
    const second = await listMembers(key(shopA.key), "?page=2&limit=1");
    expect(second.body.meta).toEqual({ page: 2, limit: 1, total: 2 });
    expect(second.body.data.map((m: { email: string }) => m.email)).toEqual(["member-a@example.com"]);
  });

  test("401 without a credential, 403 for a storefront key, 400 for a page out of range", async () => {
    expect((await listMembers({})).status).toBe(401);
    const storefront = await listMembers(key(storefrontKeyA));
    expect(storefront.status).toBe(403);
    expect(storefront.body.code).toBe("FORBIDDEN");
    for (const query of ["?limit=0", "?limit=101", "?page=0", "?page=x"]) {
      const { status, body } = await listMembers(key(shopA.key), query);
      expect({ query, status, code: body.code }).toEqual({ query, status: 400, code: "VALIDATION_ERROR" });
    }
  });
});
