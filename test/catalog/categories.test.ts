import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, simpleProduct } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let other: AdminClient;
const HOST = "cats.example";

beforeAll(async () => {
  t = makeTestApp();
  admin = adminClient(t, (await t.org("Cats", { host: HOST })).key);
  other = adminClient(t, (await t.org("Dogs")).key);
  await admin.patch("/v1/admin/store", { locales: ["en", "pt"] });
});
afterAll(() => t.cleanup());

const create = async (body: Record<string, unknown>) => {
  const res = await admin.post("/v1/admin/categories", body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};

describe("categories", () => {
  test("create → 201 with a slug from the default-locale name; list by position with active product counts", async () => {
    const home = await create({ name: { en: "Home & Garden", pt: "Casa e Jardim" }, position: 2 });
    expect(home).toMatchObject({
      slug: "home-garden",
      parentId: null,
      position: 2,
      productCount: 0,
      description: null,
    });
    const kitchen = await create({ name: { en: "Kitchen" }, parentId: home.id, position: 1 });
    await admin.post("/v1/admin/products", simpleProduct("Pan", 2000, { categoryIds: [kitchen.id] }));
    await admin.post(
      "/v1/admin/products",
      simpleProduct("Pot", 2000, { categoryIds: [kitchen.id], status: "draft" }),
    );

    const list = await t.json("/v1/categories", { headers: { host: HOST } });
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.data.map((c: any) => [c.name.en, c]));
    expect(byName.Kitchen.productCount).toBe(1);
    expect(list.body.data.map((c: any) => c.name.en)).toEqual(["Kitchen", "Home & Garden"]);
    expect((await admin.get("/v1/admin/categories")).body.data).toEqual(list.body.data);
  });

  test("a duplicate slug → 409; an unknown parent → 400; bad input → 400, nothing stored", async () => {
    await create({ name: { en: "Books" }, slug: "books" });
    expect(
      (await admin.post("/v1/admin/categories", { name: { en: "More books" }, slug: "books" })).status,
    ).toBe(409);
    const before = (await admin.get("/v1/admin/categories")).body.data.length;
    const bad = [
      { name: { en: "X" }, parentId: "cat_missing" },
      {},
      { name: { pt: "Sem inglês" } },
      { name: { en: "" } },
      { name: { en: "x".repeat(201) } },
      { name: { en: "X" }, slug: "Not A Slug" },
      { name: { en: "X" }, position: -1 },
      { name: { en: "X" }, unknown: 1 },
    ];
    for (const body of bad) {
      const res = await admin.post("/v1/admin/categories", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await admin.get("/v1/admin/categories")).body.data.length).toBe(before);
  });

  test("a parent that would form a cycle → 409 (itself, a child, a grandchild)", async () => {
    const a = await create({ name: { en: "A" } });
    const b = await create({ name: { en: "B" }, parentId: a.id });
    const c = await create({ name: { en: "C" }, parentId: b.id });
    for (const parentId of [a.id, b.id, c.id]) {
      const res = await admin.patch(`/v1/admin/categories/${a.id}`, { parentId });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("CONFLICT");
    }
    const moved = await admin.patch(`/v1/admin/categories/${c.id}`, { parentId: a.id, name: { en: "C2" } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ parentId: a.id, name: { en: "C2" }, slug: "c" });
    const root = await admin.patch(`/v1/admin/categories/${c.id}`, { parentId: null });
    expect(root.body.data.parentId).toBeNull();
  });

  test("deleting a parent → 409; deleting a category with products → 204 and they lose it", async () => {
    const parent = await create({ name: { en: "Parent" } });
    const child = await create({ name: { en: "Child" }, parentId: parent.id });
    const res = await admin.delete(`/v1/admin/categories/${parent.id}`);
    expect(res.status).toBe(409);
    const product = (
      await admin.post("/v1/admin/products", simpleProduct("Kid toy", 500, { categoryIds: [child.id] }))
    ).body.data;
    expect((await admin.delete(`/v1/admin/categories/${child.id}`)).status).toBe(204);
    expect((await admin.get(`/v1/admin/products/${product.id}`)).body.data.categoryIds).toEqual([]);
    expect((await admin.delete(`/v1/admin/categories/${parent.id}`)).status).toBe(204);
    expect((await admin.patch(`/v1/admin/categories/${parent.id}`, { position: 1 })).status).toBe(404);
  });

  test("another tenant's category is 404 for writes and unusable in its products", async () => {
    const mine = await create({ name: { en: "Mine" } });
    expect((await other.patch(`/v1/admin/categories/${mine.id}`, { position: 3 })).status).toBe(404);
    expect((await other.delete(`/v1/admin/categories/${mine.id}`)).status).toBe(404);
    const res = await other.post(
      "/v1/admin/products",
      simpleProduct("Theirs", 100, { categoryIds: [mine.id] }),
    );
    expect(res.status).toBe(400);
    expect((await other.get("/v1/admin/categories")).body.data).toEqual([]);
  });

  test("a category's productCount is what GET /v1/products?categoryId= lists for it (active products, subcategories included, each once), for parent and child, in the storefront and admin lists", async () => {
    const parent = await create({ name: { en: "Outdoor" } });
    const child = await create({ name: { en: "Tents" }, parentId: parent.id });
    const product = (name: string, categoryIds: string[], status = "active") =>
      admin.post("/v1/admin/products", simpleProduct(name, 9900, { categoryIds, status }));
    await product("Hammock", [parent.id]);
    await product("Dome tent", [child.id]);
    await product("Tunnel tent", [child.id]);
    await product("Tent and tarp", [parent.id, child.id]);
    await product("Tent prototype", [child.id], "draft");
    await product("Old stove", [parent.id], "archived");

    const listed = async (categoryId: string) =>
      (await t.json(`/v1/products?categoryId=${categoryId}&limit=1`, { headers: { host: HOST } })).body.meta
        .total as number;
    const storefront = (await t.json("/v1/categories", { headers: { host: HOST } })).body.data;
    const adminList = (await admin.get("/v1/admin/categories")).body.data;
    for (const [category, expected] of [
      [parent, 4],
      [child, 3],
    ] as const) {
      expect(await listed(category.id)).toBe(expected);
      for (const list of [storefront, adminList]) {
        expect(list.find((c: { id: string }) => c.id === category.id).productCount).toBe(expected);
      }
    }
  });

  test("storefront callers cannot write categories", async () => {
    const res = await t.json("/v1/admin/categories", {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json" },
      body: JSON.stringify({ name: { en: "Nope" } }),
    });
    expect(res.status).toBe(403);
  });
});
