import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  findShippingMethod,
  listActiveShippingMethods,
  servesCountry,
  shippingCountries,
} from "../../src/cart/shipping-methods.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let other: AdminClient;
let adminKey: string;
let storefrontOnlyKey: string;
const HOST = "shipping.example";
const PATH = "/v1/admin/shipping-methods";

beforeAll(async () => {
  t = makeTestApp();
  const org = await t.org("Shipping shop", { host: HOST });
  adminKey = org.key;
  admin = adminClient(t, org.key);
  other = adminClient(t, (await t.org("Other shop")).key);
  storefrontOnlyKey = (await t.org("Storefront only", { scopes: ["storefront"] })).key;
  await admin.patch("/v1/admin/store", { locales: ["en", "pt"] });
});
afterAll(() => t.cleanup());

const createWith = async (client: AdminClient, body: Record<string, unknown>) => {
  const res = await client.post(PATH, body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const create = (body: Record<string, unknown>) => createWith(admin, body);
const count = async () => (await admin.get(PATH)).body.data.length as number;

/** A new organization with its own empty tenant, and its admin client. */
const freshShop = async (name: string) => {
  const org = await t.org(name);
  return { orgId: org.id, client: adminClient(t, org.key) };
};

describe("admin shipping methods: create, read, update, delete", () => {
  test("create → 201: Money out, countries de-duplicated, defaults applied", async () => {
    const res = await admin.post(PATH, {
      name: { en: "Standard", pt: "Normal" },
      description: { en: "Tracked parcel" },
      price: 499,
      freeOver: 5000,
      countries: ["PT", "ES", "PT"],
      minDays: 2,
      maxDays: 5,
    });
    expect(res.status).toBe(201);
    const method = res.body.data;
    expect(method).toMatchObject({
      name: { en: "Standard", pt: "Normal" },
      description: { en: "Tracked parcel" },
      price: { amount: 499, currency: "EUR" },
      freeOver: { amount: 5000, currency: "EUR" },
      countries: ["PT", "ES"],
      minDays: 2,
      maxDays: 5,
      active: true,
      position: 0,
    });
    expect(method.id).toMatch(/^shp_[A-Za-z0-9]+$/);
    expect(Date.parse(method.createdAt)).toBeGreaterThan(0);
    const read = await admin.get(`${PATH}/${method.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(method);
  });

  test("a minimal body: free, every country, no delivery estimate", async () => {
    const method = await create({ name: { en: "Pick-up" }, price: 0 });
    expect(method).toMatchObject({
      description: null,
      price: { amount: 0, currency: "EUR" },
      freeOver: null,
      countries: [],
      minDays: null,
      maxDays: null,
      active: true,
      position: 0,
    });
    const sameDay = await create({ name: { en: "Same day" }, price: 900, minDays: 0, maxDays: 0 });
    expect(sameDay).toMatchObject({ minDays: 0, maxDays: 0 });
  });

  test("update takes any subset; null clears; countries replace the list; days are checked together", async () => {
    const method = await create({
      name: { en: "Express" },
      price: 1500,
      freeOver: 10_000,
      countries: ["PT"],
      minDays: 1,
      maxDays: 2,
      position: 3,
    });
    const price = await admin.patch(`${PATH}/${method.id}`, { price: 1200 });
    expect(price.status).toBe(200);
    expect(price.body.data).toMatchObject({
      name: { en: "Express" },
      price: { amount: 1200, currency: "EUR" },
      freeOver: { amount: 10_000, currency: "EUR" },
      countries: ["PT"],
      position: 3,
    });
    expect(price.body.data.createdAt).toBe(method.createdAt);

    const changed = await admin.patch(`${PATH}/${method.id}`, {
      name: { en: "Express", pt: "Expresso" },
      description: { pt: "Rápido" },
      countries: ["FR", "DE", "FR"],
      active: false,
      position: 1,
      maxDays: 4,
    });
    expect(changed.body.data).toMatchObject({
      name: { en: "Express", pt: "Expresso" },
      description: { pt: "Rápido" },
      countries: ["FR", "DE"],
      active: false,
      position: 1,
      minDays: 1,
      maxDays: 4,
    });

    const cleared = await admin.patch(`${PATH}/${method.id}`, {
      description: null,
      freeOver: null,
      minDays: null,
      maxDays: null,
      countries: [],
    });
    expect(cleared.body.data).toMatchObject({
      description: null,
      freeOver: null,
      minDays: null,
      maxDays: null,
      countries: [],
    });
  });

  test("delete → 204; then read, update and delete → 404; a malformed id → 400", async () => {
    const method = await create({ name: { en: "Doomed" }, price: 100 });
    const res = await admin.delete(`${PATH}/${method.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await admin.get(`${PATH}/${method.id}`)).status).toBe(404);
    expect((await admin.patch(`${PATH}/${method.id}`, { price: 1 })).status).toBe(404);
    expect((await admin.delete(`${PATH}/${method.id}`)).status).toBe(404);
    expect((await admin.get(`${PATH}/cpn_abc`)).status).toBe(400);
  });

  test("list: every method, by position then default-locale name (any case), without pagination", async () => {
    const { client } = await freshShop("Ordered shop");
    const names = [
      ["zulu", 0],
      ["Bravo", 1],
      ["alpha", 1],
      ["Charlie", 0],
      ["Delta", 2],
    ] as const;
    for (const [name, position] of names) {
      await createWith(client, { name: { en: name }, price: 100, position, active: name !== "alpha" });
    }
    const list = await client.get(PATH);
    expect(list.status).toBe(200);
    expect(list.body.meta).toBeUndefined();
    expect(list.body.data.map((m: any) => m.name.en)).toEqual(["Charlie", "zulu", "alpha", "Bravo", "Delta"]);
  });
});

describe("admin shipping methods: validation", () => {
  test("each invalid create body → 400 VALIDATION_ERROR, nothing stored", async () => {
    const before = await count();
    const name = { en: "Valid" };
    const bad: Record<string, unknown>[] = [
      {},
      { name },
      { price: 100 },
      { name: { pt: "Sem inglês" }, price: 100 },
      { name: { en: "Hi", fr: "Salut" }, price: 100 },
      { name: { en: "" }, price: 100 },
      { name: { en: "   " }, price: 100 },
      { name: {}, price: 100 },
      { name: "Standard", price: 100 },
      { name, description: { fr: "Non" }, price: 100 },
      { name, price: -1 },
      { name, price: 1.5 },
      { name, price: "100" },
      { name, price: { amount: 100, currency: "EUR" } },
      { name, price: 100, freeOver: -5 },
      { name, price: 100, countries: ["XX"] },
      { name, price: 100, countries: ["PT", "ZZ"] },
      { name, price: 100, countries: ["pt"] },
      { name, price: 100, countries: ["PRT"] },
      { name, price: 100, countries: "PT" },
      { name, price: 100, minDays: -1 },
      { name, price: 100, maxDays: 366 },
      { name, price: 100, minDays: 5, maxDays: 2 },
      { name, price: 100, minDays: 1.5 },
      { name, price: 100, position: -1 },
      { name, price: 100, active: "yes" },
      { name, price: 100, currency: "EUR" },
    ];
    for (const body of bad) {
      const res = await admin.post(PATH, body);
      if (res.status !== 400) throw new Error(`${JSON.stringify(body)} → ${res.status}`);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details?.length).toBeGreaterThan(0);
    }
    expect(await count()).toBe(before);
  });

  test("an unknown country names its index; each invalid update → 400, the method unchanged", async () => {
    const bad = await admin.post(PATH, { name: { en: "X" }, price: 1, countries: ["PT", "QQ"] });
    expect(bad.body.details).toEqual([{ path: "/body/countries/1", message: expect.stringContaining("QQ") }]);

    const method = await create({ name: { en: "Steady" }, price: 700, minDays: 3, maxDays: 6 });
    const updates: Record<string, unknown>[] = [
      { maxDays: 2 },
      { minDays: 7 },
      { name: { pt: "Só português" } },
      { name: null },
      { price: null },
      { countries: ["EU"] },
      { description: { de: "Nein" } },
      { id: "shp_other" },
      { createdAt: "2020-01-01T00:00:00Z" },
    ];
    for (const body of updates) {
      const res = await admin.patch(`${PATH}/${method.id}`, body);
      if (res.status !== 400) throw new Error(`${JSON.stringify(body)} → ${res.status}`);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await admin.get(`${PATH}/${method.id}`)).body.data).toEqual(method);
  });
});

describe("admin shipping methods: idempotency", () => {
  const post = (body: unknown, key: string) =>
    t.json(PATH, {
      method: "POST",
      headers: { "x-api-key": adminKey, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    });

  test("the same key and body twice → one method, the same response, replayed", async () => {
    const before = await count();
    const body = { name: { en: "Once" }, price: 300 };
    const first = await post(body, "ship-once");
    expect(first.status).toBe(201);
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    const second = await post(body, "ship-once");
    expect(second.status).toBe(201);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
  });

  test("the same key with another body → 409 IDEMPOTENCY_CONFLICT, nothing stored", async () => {
    expect((await post({ name: { en: "Keyed" }, price: 1 }, "ship-keyed")).status).toBe(201);
    const before = await count();
    const res = await post({ name: { en: "Keyed" }, price: 2 }, "ship-keyed");
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await count()).toBe(before);
  });
});

describe("admin shipping methods: access and tenancy", () => {
  test("no credential or a wrong key → 401", async () => {
    expect((await t.json(PATH)).status).toBe(401);
    expect((await t.json(PATH, { headers: { "x-api-key": "ck_wrong" } })).status).toBe(401);
  });

  test("a storefront Host caller or a storefront-only key → 403 on every operation, nothing stored", async () => {
    const method = await create({ name: { en: "Admin only" }, price: 100 });
    const before = await count();
    const calls: [string, string, unknown?][] = [
      ["GET", PATH],
      ["POST", PATH, { name: { en: "Sneaky" }, price: 1 }],
      ["GET", `${PATH}/${method.id}`],
      ["PATCH", `${PATH}/${method.id}`, { price: 1 }],
      ["DELETE", `${PATH}/${method.id}`],
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
    expect((await admin.get(`${PATH}/${method.id}`)).body.data).toEqual(method);
  });

  test("another tenant's method → 404 on read, update and delete, and absent from its list", async () => {
    const mine = await create({ name: { en: "Mine" }, price: 100 });
    expect((await other.get(`${PATH}/${mine.id}`)).status).toBe(404);
    expect((await other.patch(`${PATH}/${mine.id}`, { price: 1 })).status).toBe(404);
    expect((await other.delete(`${PATH}/${mine.id}`)).status).toBe(404);
    expect((await other.get(PATH)).body.data).toEqual([]);
    expect((await admin.get(`${PATH}/${mine.id}`)).body.data).toEqual(mine);
  });
});

describe("shipping methods for carts and the countries list", () => {
  test("servesCountry: empty countries serve everyone; no address yet (null) is served by every method", () => {
    const everywhere = { countries: [] as string[] };
    const iberia = { countries: ["PT", "ES"] };
    expect(servesCountry(everywhere, "PT")).toBe(true);
    expect(servesCountry(everywhere, "JP")).toBe(true);
    expect(servesCountry(everywhere, null)).toBe(true);
    expect(servesCountry(iberia, "PT")).toBe(true);
    expect(servesCountry(iberia, "ES")).toBe(true);
    expect(servesCountry(iberia, "FR")).toBe(false);
    expect(servesCountry(iberia, "pt")).toBe(false);
    expect(servesCountry(iberia, null)).toBe(true);
  });

  test("shippingCountries: the union over active methods, 'all' once an active method serves everyone", async () => {
    const { orgId, client } = await freshShop("Countries shop");
    const countries = () => t.app.ctx.tenants.with(orgId, (tenant) => shippingCountries(tenant));
    expect(await countries()).toEqual(new Set());

    await createWith(client, { name: { en: "Iberia" }, price: 100, countries: ["PT", "ES"] });
    await createWith(client, { name: { en: "Off" }, price: 100, countries: ["JP"], active: false });
    await createWith(client, { name: { en: "Off everywhere" }, price: 100, active: false });
    expect(await countries()).toEqual(new Set(["PT", "ES"]));

    await createWith(client, { name: { en: "Central" }, price: 100, countries: ["FR", "PT", "DE"] });
    expect(await countries()).toEqual(new Set(["PT", "ES", "FR", "DE"]));

    const world = await createWith(client, { name: { en: "World" }, price: 2500 });
    expect(await countries()).toBe("all");
    await client.patch(`${PATH}/${world.id}`, { active: false });
    expect(await countries()).toEqual(new Set(["PT", "ES", "FR", "DE"]));
  });

  test("listActiveShippingMethods (active, ordered) and findShippingMethod (any, or null)", async () => {
    const { orgId, client } = await freshShop("Cart shop");
    const b = await createWith(client, { name: { en: "b-method" }, price: 200, position: 1, freeOver: 3000 });
    const a = await createWith(client, {
      name: { en: "A-method" },
      price: 100,
      position: 1,
      countries: ["PT"],
    });
    const first = await createWith(client, { name: { en: "Zed" }, price: 50, position: 0 });
    const off = await createWith(client, { name: { en: "Off" }, price: 1, active: false });

    await t.app.ctx.tenants.with(orgId, (tenant) => {
      const active = listActiveShippingMethods(tenant);
      expect(active.map((m) => m.id)).toEqual([first.id, a.id, b.id]);
      expect(active[1]).toMatchObject({
        id: a.id,
        name: { en: "A-method" },
        description: null,
        price: 100,
        freeOver: null,
        countries: ["PT"],
        minDays: null,
        maxDays: null,
        active: true,
        position: 1,
      });
      expect(active[2]!.freeOver).toBe(3000);
      expect(findShippingMethod(tenant, off.id)).toMatchObject({ id: off.id, active: false, price: 1 });
      expect(findShippingMethod(tenant, "shp_missing")).toBeNull();
    });
  });
});
