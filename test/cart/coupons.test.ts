import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type CouponRow, couponProblem, findCouponByCode } from "../../src/cart/coupons.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let other: AdminClient;
let orgId: string;
let adminKey: string;
let storefrontOnlyKey: string;
const HOST = "coupons.example";

beforeAll(async () => {
  t = makeTestApp();
  const org = await t.org("Coupon shop", { host: HOST });
  orgId = org.id;
  adminKey = org.key;
  admin = adminClient(t, org.key);
  other = adminClient(t, (await t.org("Other shop")).key);
  storefrontOnlyKey = (await t.org("Storefront only", { scopes: ["storefront"] })).key;
});
afterAll(() => t.cleanup());

const create = async (body: Record<string, unknown>) => {
  const res = await admin.post("/v1/admin/coupons", body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const count = async () => (await admin.get("/v1/admin/coupons")).body.meta.total as number;

describe("admin coupons: create, read, update, delete", () => {
  test("create → 201: code upper-cased, defaults applied, minSubtotal as Money, times as ISO", async () => {
    const res = await admin.post("/v1/admin/coupons", {
      code: "summer-10_a",
      type: "percentage",
      value: 10,
      minSubtotal: 5000,
      startsAt: "2030-06-01T00:00:00Z",
      endsAt: "2030-09-01T00:00:00+01:00",
      usageLimit: 100,
    });
    expect(res.status).toBe(201);
    const coupon = res.body.data;
    expect(coupon).toMatchObject({
      code: "SUMMER-10_A",
      type: "percentage",
      value: 10,
      minSubtotal: { amount: 5000, currency: "EUR" },
      startsAt: "2030-06-01T00:00:00.000Z",
      endsAt: "2030-08-31T23:00:00.000Z",
      usageLimit: 100,
      usageCount: 0,
      active: true,
    });
    expect(coupon.id).toMatch(/^cpn_[A-Za-z0-9]+$/);
    expect(Date.parse(coupon.createdAt)).toBeGreaterThan(0);

    const read = await admin.get(`/v1/admin/coupons/${coupon.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(coupon);
  });

  test("each type: fixed in minor units, free_shipping stores 0; optional fields default to null", async () => {
    const fixed = await create({ code: "FIVEOFF", type: "fixed", value: 500 });
    expect(fixed).toMatchObject({
      type: "fixed",
      value: 500,
      minSubtotal: null,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      usageCount: 0,
      active: true,
    });
    expect((await create({ code: "SHIPFREE", type: "free_shipping" })).value).toBe(0);
    expect((await create({ code: "SHIPFREE0", type: "free_shipping", value: 0, active: false })).active).toBe(
      false,
    );
    expect((await create({ code: "HALF", type: "percentage", value: 100 })).value).toBe(100);
  });

  test("a duplicate code in any case → 409, in create and update; a code is free again after delete", async () => {
    const first = await create({ code: "Welcome", type: "fixed", value: 100 });
    for (const code of ["WELCOME", "welcome", "wElCoMe"]) {
      const res = await admin.post("/v1/admin/coupons", { code, type: "percentage", value: 5 });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("CONFLICT");
    }
    const second = await create({ code: "welcome2", type: "fixed", value: 100 });
    const clash = await admin.patch(`/v1/admin/coupons/${second.id}`, { code: "welcome" });
    expect(clash.status).toBe(409);
    // Its own code in another case is not a clash.
    const same = await admin.patch(`/v1/admin/coupons/${first.id}`, { code: "welcome" });
    expect(same.status).toBe(200);
    expect(same.body.data.code).toBe("WELCOME");

    expect((await admin.delete(`/v1/admin/coupons/${first.id}`)).status).toBe(204);
    expect((await create({ code: "welcome", type: "fixed", value: 1 })).code).toBe("WELCOME");
  });

  test("update takes any subset; null clears; changing type re-checks value; usageCount is read-only", async () => {
    const coupon = await create({
      code: "PATCHME",
      type: "fixed",
      value: 1000,
      minSubtotal: 2000,
      usageLimit: 5,
      startsAt: "2030-01-01T00:00:00Z",
    });
    const active = await admin.patch(`/v1/admin/coupons/${coupon.id}`, { active: false });
    expect(active.status).toBe(200);
    expect(active.body.data).toMatchObject({ active: false, value: 1000, usageLimit: 5, code: "PATCHME" });
    expect(active.body.data.createdAt).toBe(coupon.createdAt);

    const cleared = await admin.patch(`/v1/admin/coupons/${coupon.id}`, {
      minSubtotal: null,
      usageLimit: null,
      startsAt: null,
      endsAt: "2031-01-01T00:00:00Z",
    });
    expect(cleared.body.data).toMatchObject({
      minSubtotal: null,
      usageLimit: null,
      startsAt: null,
      endsAt: "2031-01-01T00:00:00.000Z",
    });

    const value = await admin.patch(`/v1/admin/coupons/${coupon.id}`, { value: 250 });
    expect(value.body.data).toMatchObject({ type: "fixed", value: 250 });

    const percent = await admin.patch(`/v1/admin/coupons/${coupon.id}`, { type: "percentage", value: 15 });
    expect(percent.body.data).toMatchObject({ type: "percentage", value: 15 });

    const free = await admin.patch(`/v1/admin/coupons/${coupon.id}`, { type: "free_shipping" });
    expect(free.body.data).toMatchObject({ type: "free_shipping", value: 0, usageCount: 0 });

    const readOnly = await admin.patch(`/v1/admin/coupons/${coupon.id}`, { usageCount: 3 });
    expect(readOnly.status).toBe(400);
    expect((await admin.get(`/v1/admin/coupons/${coupon.id}`)).body.data.usageCount).toBe(0);
  });

  test("delete → 204; then read, update and delete → 404; a malformed id → 400", async () => {
    const coupon = await create({ code: "GONE", type: "fixed", value: 1 });
    const res = await admin.delete(`/v1/admin/coupons/${coupon.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await admin.get(`/v1/admin/coupons/${coupon.id}`)).status).toBe(404);
    expect((await admin.patch(`/v1/admin/coupons/${coupon.id}`, { active: false })).status).toBe(404);
    expect((await admin.delete(`/v1/admin/coupons/${coupon.id}`)).status).toBe(404);
    expect((await admin.get("/v1/admin/coupons/not-an-id")).status).toBe(400);
  });
});

describe("admin coupons: validation", () => {
  test("each invalid create body → 400 VALIDATION_ERROR, nothing stored", async () => {
    await create({ code: "TAKEN", type: "fixed", value: 1 });
    const before = await count();
    const bad: Record<string, unknown>[] = [
      {},
      { code: "NOTYPE" },
      { type: "fixed", value: 1 },
      { code: "", type: "fixed", value: 1 },
      { code: "HAS SPACE", type: "fixed", value: 1 },
      { code: "ÉTÉ", type: "fixed", value: 1 },
      { code: "X".repeat(65), type: "fixed", value: 1 },
      { code: "BADTYPE", type: "bogus", value: 1 },
      { code: "P0", type: "percentage", value: 0 },
      { code: "P101", type: "percentage", value: 101 },
      { code: "PNONE", type: "percentage" },
      { code: "PFRAC", type: "percentage", value: 12.5 },
      { code: "F0", type: "fixed", value: 0 },
      { code: "FNEG", type: "fixed", value: -100 },
      { code: "FNONE", type: "fixed" },
      { code: "FSTR", type: "fixed", value: "100" },
      { code: "SHIPVAL", type: "free_shipping", value: 5 },
      { code: "MINNEG", type: "fixed", value: 1, minSubtotal: -1 },
      { code: "MINMONEY", type: "fixed", value: 1, minSubtotal: { amount: 100, currency: "EUR" } },
      { code: "BADDATE", type: "fixed", value: 1, startsAt: "tomorrow" },
      { code: "NOZONE", type: "fixed", value: 1, startsAt: "2030-01-01T00:00:00" },
      { code: "DATEONLY", type: "fixed", value: 1, endsAt: "2030-01-01" },
      {
        code: "BACKWARDS",
        type: "fixed",
        value: 1,
        startsAt: "2030-02-01T00:00:00Z",
        endsAt: "2030-01-01T00:00:00Z",
      },
      {
        code: "ZEROLENGTH",
        type: "fixed",
        value: 1,
        startsAt: "2030-01-01T00:00:00Z",
        endsAt: "2030-01-01T00:00:00Z",
      },
      { code: "LIMIT0", type: "fixed", value: 1, usageLimit: 0 },
      { code: "COUNT", type: "fixed", value: 1, usageCount: 5 },
      { code: "ACTIVESTR", type: "fixed", value: 1, active: "yes" },
      { code: "UNKNOWN", type: "fixed", value: 1, discount: 5 },
    ];
    for (const body of bad) {
      const res = await admin.post("/v1/admin/coupons", body);
      if (res.status !== 400) throw new Error(`${JSON.stringify(body)} → ${res.status}`);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details?.length).toBeGreaterThan(0);
    }
    expect(await count()).toBe(before);
  });

  test("each invalid update → 400, the coupon unchanged", async () => {
    const coupon = await create({
      code: "STEADY",
      type: "fixed",
      value: 300,
      startsAt: "2030-03-01T00:00:00Z",
    });
    const bad: Record<string, unknown>[] = [
      { type: "percentage" },
      { value: 0 },
      { type: "percentage", value: 300 },
      { type: "free_shipping", value: 300 },
      { endsAt: "2030-02-01T00:00:00Z" },
      { startsAt: "2030-03-01T00:00:00Z", endsAt: "2030-03-01T00:00:00Z" },
      { code: "no spaces allowed" },
      { usageLimit: -3 },
      { usageCount: 0 },
      { id: "cpn_other" },
      { createdAt: "2020-01-01T00:00:00Z" },
    ];
    for (const body of bad) {
      const res = await admin.patch(`/v1/admin/coupons/${coupon.id}`, body);
      if (res.status !== 400) throw new Error(`${JSON.stringify(body)} → ${res.status}`);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await admin.get(`/v1/admin/coupons/${coupon.id}`)).body.data).toEqual(coupon);
  });
});

describe("admin coupons: list", () => {
  test("newest first, paginated with meta; query matches part of the code in any case", async () => {
    const t2 = makeTestApp();
    try {
      const client = adminClient(t2, (await t2.org("Lister")).key);
      const codes = ["ALPHA-1", "BETA-1", "ALPHA-2", "GAMMA", "alpha-3"];
      for (const code of codes) {
        const res = await client.post("/v1/admin/coupons", { code, type: "fixed", value: 100 });
        expect(res.status).toBe(201);
      }
      const all = await client.get("/v1/admin/coupons");
      expect(all.status).toBe(200);
      expect(all.body.meta).toEqual({ page: 1, limit: 20, total: 5 });
      expect(all.body.data.map((c: any) => c.code)).toEqual([
        "ALPHA-3",
        "GAMMA",
        "ALPHA-2",
        "BETA-1",
        "ALPHA-1",
      ]);

      const page2 = await client.get("/v1/admin/coupons?page=2&limit=2");
      expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 5 });
      expect(page2.body.data.map((c: any) => c.code)).toEqual(["ALPHA-2", "BETA-1"]);
      const beyond = await client.get("/v1/admin/coupons?page=9&limit=2");
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.total).toBe(5);

      const alpha = await client.get("/v1/admin/coupons?query=alPHa");
      expect(alpha.body.data.map((c: any) => c.code)).toEqual(["ALPHA-3", "ALPHA-2", "ALPHA-1"]);
      expect(alpha.body.meta.total).toBe(3);
      expect((await client.get("/v1/admin/coupons?query=-1")).body.meta.total).toBe(2);
      expect((await client.get("/v1/admin/coupons?query=%25")).body.meta.total).toBe(0);
      expect((await client.get("/v1/admin/coupons?query=")).body.meta.total).toBe(5);

      for (const q of ["limit=0", "limit=101", "page=0", "limit=2.5", `query=${"x".repeat(65)}`]) {
        const res = await client.get(`/v1/admin/coupons?${q}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("VALIDATION_ERROR");
      }
    } finally {
      t2.cleanup();
    }
  });
});

describe("admin coupons: idempotency", () => {
  const post = (body: unknown, key: string) =>
    t.json("/v1/admin/coupons", {
      method: "POST",
      headers: { "x-api-key": adminKey, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    });

  test("the same key and body twice → one coupon, the same response, replayed", async () => {
    const before = await count();
    const body = { code: "ONCE", type: "percentage", value: 20 };
    const first = await post(body, "create-once-1");
    expect(first.status).toBe(201);
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    const second = await post(body, "create-once-1");
    expect(second.status).toBe(201);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
  });

  test("the same key with another body → 409 IDEMPOTENCY_CONFLICT, nothing stored", async () => {
    expect((await post({ code: "KEYED", type: "fixed", value: 100 }, "create-keyed")).status).toBe(201);
    const before = await count();
    const res = await post({ code: "KEYED2", type: "fixed", value: 100 }, "create-keyed");
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await count()).toBe(before);
  });

  test("a failed attempt is not stored: the key can be retried with a fixed body", async () => {
    const bad = await post({ code: "RETRY", type: "fixed", value: 0 }, "create-retry");
    expect(bad.status).toBe(400);
    const good = await post({ code: "RETRY", type: "fixed", value: 1 }, "create-retry");
    expect(good.status).toBe(201);
  });
});

describe("admin coupons: access and tenancy", () => {
  test("no credential or a wrong key → 401", async () => {
    expect((await t.json("/v1/admin/coupons")).status).toBe(401);
    const wrong = await t.json("/v1/admin/coupons", { headers: { "x-api-key": "ck_wrong" } });
    expect(wrong.status).toBe(401);
  });

  test("a storefront Host caller or a storefront-only key → 403 on every operation, nothing stored", async () => {
    const coupon = await create({ code: "ADMINONLY", type: "fixed", value: 1 });
    const before = await count();
    const calls: [string, string, unknown?][] = [
      ["GET", "/v1/admin/coupons"],
      ["POST", "/v1/admin/coupons", { code: "SNEAKY", type: "fixed", value: 1 }],
      ["GET", `/v1/admin/coupons/${coupon.id}`],
      ["PATCH", `/v1/admin/coupons/${coupon.id}`, { active: false }],
      ["DELETE", `/v1/admin/coupons/${coupon.id}`],
    ];
    const credentialSets: Record<string, string>[] = [{ host: HOST }, { "x-api-key": storefrontOnlyKey }];
    for (const credentials of credentialSets) {
      for (const [method, path, body] of calls) {
        const res = await t.json(path, {
          method,
          headers: { ...credentials, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe("FORBIDDEN");
      }
    }
    expect(await count()).toBe(before);
    expect((await admin.get(`/v1/admin/coupons/${coupon.id}`)).body.data).toEqual(coupon);
  });

  test("another tenant's coupon → 404 on read, update and delete; codes are per tenant", async () => {
    const mine = await create({ code: "MINE", type: "fixed", value: 1 });
    expect((await other.get(`/v1/admin/coupons/${mine.id}`)).status).toBe(404);
    expect((await other.patch(`/v1/admin/coupons/${mine.id}`, { active: false })).status).toBe(404);
    expect((await other.delete(`/v1/admin/coupons/${mine.id}`)).status).toBe(404);
    expect((await admin.get(`/v1/admin/coupons/${mine.id}`)).body.data).toEqual(mine);
    expect((await other.get("/v1/admin/coupons?query=MINE")).body.meta.total).toBe(0);
    const theirs = await other.post("/v1/admin/coupons", { code: "mine", type: "fixed", value: 1 });
    expect(theirs.status).toBe(201);
  });
});

describe("findCouponByCode and couponProblem", () => {
  test("findCouponByCode matches in any case, ignores surrounding spaces, null otherwise", async () => {
    const created = await create({ code: "Lookup-Me", type: "fixed", value: 250, minSubtotal: 1000 });
    await t.app.ctx.tenants.with(orgId, (tenant) => {
      for (const code of ["LOOKUP-ME", "lookup-me", " Lookup-Me "]) {
        expect(findCouponByCode(tenant, code)).toEqual({
          id: created.id,
          code: "LOOKUP-ME",
          type: "fixed",
          value: 250,
          minSubtotal: 1000,
          startsAt: null,
          endsAt: null,
          usageLimit: null,
          usageCount: 0,
          active: true,
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        } as unknown as CouponRow);
      }
      expect(findCouponByCode(tenant, "LOOKUP")).toBeNull();
      expect(findCouponByCode(tenant, "")).toBeNull();
      expect(findCouponByCode(tenant, "LOOKUP ME")).toBeNull();
    });
  });

  const base: CouponRow = {
    id: "cpn_x",
    code: "X",
    type: "percentage",
    value: 10,
    minSubtotal: null,
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    usageCount: 0,
    active: true,
  };
  const NOW = Date.parse("2030-06-15T12:00:00Z");
  const coupon = (patch: Partial<CouponRow>): CouponRow => ({ ...base, ...patch });

  test("null when the coupon applies, also at the bounds", () => {
    expect(couponProblem(base, 0, NOW)).toBeNull();
    expect(couponProblem(coupon({ startsAt: NOW }), 0, NOW)).toBeNull();
    expect(couponProblem(coupon({ endsAt: NOW + 1 }), 0, NOW)).toBeNull();
    expect(couponProblem(coupon({ usageLimit: 3, usageCount: 2 }), 0, NOW)).toBeNull();
    expect(couponProblem(coupon({ minSubtotal: 5000 }), 5000, NOW)).toBeNull();
  });

  test("each reason", () => {
    expect(couponProblem(null, 1000, NOW)).toBe("unknown");
    expect(couponProblem(coupon({ active: false }), 1000, NOW)).toBe("inactive");
    expect(couponProblem(coupon({ startsAt: NOW + 1 }), 1000, NOW)).toBe("not started");
    expect(couponProblem(coupon({ endsAt: NOW }), 1000, NOW)).toBe("expired");
    expect(couponProblem(coupon({ endsAt: NOW - 1000 }), 1000, NOW)).toBe("expired");
    expect(couponProblem(coupon({ usageLimit: 3, usageCount: 3 }), 1000, NOW)).toBe("usage limit reached");
    expect(couponProblem(coupon({ usageLimit: 3, usageCount: 4 }), 1000, NOW)).toBe("usage limit reached");
    expect(couponProblem(coupon({ minSubtotal: 5000 }), 4999, NOW)).toBe("minimum subtotal not met");
  });

  test("reasons are checked in order: inactive, not started, expired, usage limit, minimum subtotal", () => {
    const everything = coupon({
      active: false,
      startsAt: NOW + 1,
      endsAt: NOW - 1,
      usageLimit: 1,
      usageCount: 1,
      minSubtotal: 10_000,
    });
    expect(couponProblem(everything, 0, NOW)).toBe("inactive");
    expect(couponProblem({ ...everything, active: true }, 0, NOW)).toBe("not started");
    expect(couponProblem({ ...everything, active: true, startsAt: null }, 0, NOW)).toBe("expired");
    expect(couponProblem({ ...everything, active: true, startsAt: null, endsAt: null }, 0, NOW)).toBe(
      "usage limit reached",
    );
    expect(
      couponProblem({ ...everything, active: true, startsAt: null, endsAt: null, usageLimit: null }, 0, NOW),
    ).toBe("minimum subtotal not met");
  });
});
