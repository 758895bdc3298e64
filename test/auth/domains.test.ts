import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  addDomain,
  createOrganization,
  createSession,
  createUser,
  deleteOrganization,
  findSession,
  listDomains,
  normalizeDomainHost,
  normalizeHost,
  removeDomain,
} from "../../src/auth/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let shopA: { id: string; slug: string; key: string };
let shopB: { id: string; slug: string; key: string };

beforeAll(async () => {
  t = makeTestApp({ env: { PLATFORM_DOMAIN: "shops.test" } });
  shopA = await t.org("Shop A", { host: "www.shop-a.example." });
  shopB = await t.org("Shop B");
});
afterAll(() => t.cleanup());

const me = (headers: Record<string, string>) => t.json("/v1/me", { headers });

describe("host normalisation", () => {
  test("a trailing dot is dropped from stored and compared hosts", () => {
    expect(normalizeDomainHost(" Shop.Example.COM. ")).toBe("shop.example.com");
    expect(normalizeHost("Shop.Example.com.:8080")).toBe("shop.example.com");
    expect(normalizeHost("shop.example.com.")).toBe("shop.example.com");
    expect(listDomains(t.app.ctx.platform, shopA.id).map((d) => d.host)).toEqual(["www.shop-a.example"]);
  });

  test("a Host header with a trailing dot resolves like the host without it", async () => {
    for (const host of ["www.shop-a.example", "www.shop-a.example.", "WWW.shop-a.example.:3000"]) {
      const { status, body } = await me({ host });
      expect(status).toBe(200);
      expect(body.data.orgId).toBe(shopA.id);
    }
    expect((await me({ host: `${shopB.slug}.shops.test.` })).body.data.orgId).toBe(shopB.id);
  });
});

describe("addDomain refuses hosts answered by another organization", () => {
  test("another organization's domain, in any spelling, is a conflict", () => {
    for (const host of ["www.shop-a.example", "WWW.Shop-A.example."]) {
      expect(() => addDomain(t.app.ctx, shopB.id, host)).toThrow(/already belongs/);
    }
  });

  test("{slug}.{PLATFORM_DOMAIN} of any organization is a conflict, its own included", () => {
    expect(() => addDomain(t.app.ctx, shopB.id, `${shopA.slug}.shops.test`)).toThrow(/platform host/);
    expect(() => addDomain(t.app.ctx, shopB.id, `${shopB.slug}.shops.test.`)).toThrow(/platform host/);
    expect(() => createOrganization(t.app.ctx, { name: "Shadow", host: `${shopA.slug}.shops.test` })).toThrow(
      /platform host/,
    );
    expect(() =>
      createOrganization(t.app.ctx, { name: "Self", slug: "self", host: "self.shops.test" }),
    ).toThrow(/platform host/);
    // Refused before any tenant file was created.
    const files = readdirSync(join(t.dataDir, "tenants")).filter((f) => f.endsWith(".sqlite"));
    expect(files.sort()).toEqual([`${shopA.id}.sqlite`, `${shopB.id}.sqlite`].sort());
  });

  test("the service's own host (PLATFORM_DOMAIN itself) is a conflict for domain add and org create --host", () => {
    expect(() => addDomain(t.app.ctx, shopB.id, "Shops.Test.")).toThrow(/service's own/);
    expect(() => createOrganization(t.app.ctx, { name: "Platform", host: "shops.test" })).toThrow(
      /service's own/,
    );
    expect(listDomains(t.app.ctx.platform, shopB.id)).toEqual([]);
  });

  test("a slug whose platform host is already a domain is taken", () => {
    addDomain(t.app.ctx, shopB.id, "future.shops.test");
    expect(() => createOrganization(t.app.ctx, { name: "Future", slug: "future" })).toThrow(/taken/);
    const generated = createOrganization(t.app.ctx, { name: "Future" });
    expect(generated.slug).not.toBe("future");
    removeDomain(t.app.ctx.platform, "future.shops.test.");
    expect(listDomains(t.app.ctx.platform, shopB.id)).toEqual([]);
  });
});

describe("deleteOrganization", () => {
  test("removes rows, clears sessions' active organization, closes the open handle and removes the file", async () => {
    const doomed = await t.org("Doomed", { host: "doomed.example" });
    const user = await createUser(t.app.ctx.platform, {
      email: "doomed@example.com",
      password: "long password",
    });
    const org = createOrganization(t.app.ctx, { name: "Doomed Too", ownerUserId: user.id });
    const { session } = createSession(t.app.ctx.platform, user.id, null);
    expect(session.activeOrganizationId).toBe(org.id);

    // Warm the caches and the tenant pool through real requests.
    expect((await me({ "x-api-key": doomed.key })).status).toBe(200);
    expect((await me({ host: "doomed.example" })).status).toBe(200);

    await t.app.ctx.tenants.with(doomed.id, () => {});
    const inUse = t.app.ctx.tenants.acquire(org.id); // a request still holding the handle
    deleteOrganization(t.app.ctx, doomed.id);
    deleteOrganization(t.app.ctx, org.id);
    expect(() => inUse.sqlite.query("SELECT 1").get()).not.toThrow(); // closed only at its release
    t.app.ctx.tenants.release(inUse);
    expect(() => inUse.sqlite.query("SELECT 1").get()).toThrow();

    const file = join(t.dataDir, "tenants", `${doomed.id}.sqlite`);
    for (const suffix of ["", "-wal", "-shm"]) expect(existsSync(`${file}${suffix}`)).toBe(false);
    expect(findSession(t.app.ctx.platform, session.id)?.activeOrganizationId).toBeNull();
    expect((await me({ "x-api-key": doomed.key })).status).toBe(401);
    expect((await me({ host: "doomed.example" })).status).toBe(401);
    expect(() => deleteOrganization(t.app.ctx, doomed.id)).toThrow();
    // The host is free again.
    addDomain(t.app.ctx, shopB.id, "doomed.example");
  });
});
