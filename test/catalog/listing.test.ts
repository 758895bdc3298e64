import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DATA_VERSION_CHECK_MS } from "../../src/core/response-cache.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, shirtProduct, simpleProduct } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
const HOST = "list.example";
const storefront = async (query: string) => {
  const res = await t.json(`/v1/products${query}`, { headers: { host: HOST } });
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { data: any[]; meta: { page: number; limit: number; total: number } };
};
const names = (body: { data: { name: { en: string } }[] }) => body.data.map((p) => p.name.en);

let clothing: string;
let shirts: string;
let books: string;

beforeAll(async () => {
  t = makeTestApp();
  admin = adminClient(t, (await t.org("Lister", { host: HOST })).key);
  await admin.patch("/v1/admin/store", { locales: ["en", "pt"] });
  clothing = (await admin.post("/v1/admin/categories", { name: { en: "Clothing" } })).body.data.id;
  shirts = (await admin.post("/v1/admin/categories", { name: { en: "Shirts" }, parentId: clothing })).body
    .data.id;
  books = (await admin.post("/v1/admin/categories", { name: { en: "Books" } })).body.data.id;

  const make = async (body: unknown) => {
    const res = await admin.post("/v1/admin/products", body);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    await Bun.sleep(2); // distinct createdAt
  };
  await make(
    simpleProduct("Banana bread cookbook", 1500, {
      categoryIds: [books],
      description: { en: "Recipes for baking" },
    }),
  );
  await make(simpleProduct("Apple pie stories", 900, { categoryIds: [books], tags: ["dessert"] }));
  await make(
    simpleProduct("Linen jacket", 8900, {
      categoryIds: [clothing],
      name: { en: "Linen jacket", pt: "Casaco de linho" },
    }),
  );
  await make(shirtProduct("ZEB", { categoryIds: [shirts], name: { en: "Zebra shirt", pt: "Camisa zebra" } }));
  await make(simpleProduct("Draft thing", 100, { status: "draft", categoryIds: [books] }));
  // Seven products with the same price, for tie-breaking.
  for (let i = 0; i < 7; i++) await make(simpleProduct(`Same price ${i}`, 500));
});
afterAll(() => t.cleanup());

describe("GET /v1/products", () => {
  test("defaults: page 1, limit 20, newest first, total counts every active product", async () => {
    const body = await storefront("");
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 11 });
    expect(body.data[0].name.en).toBe("Same price 6");
    expect(body.data.at(-1).name.en).toBe("Banana bread cookbook");
  });

  test("total is the number of matches, not the page length", async () => {
    const body = await storefront("?limit=3&page=2");
    expect(body.meta).toEqual({ page: 2, limit: 3, total: 11 });
    expect(body.data).toHaveLength(3);
    expect((await storefront("?page=5&limit=3")).data).toEqual([]);
  });

  test("sort by price asc and desc, by lowest variant price", async () => {
    const asc = await storefront("?sort=price&limit=100");
    const prices = asc.data.map((p) => p.priceRange.min.amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const desc = await storefront("?sort=price&order=desc&limit=100");
    expect(desc.data[0].name.en).toBe("Linen jacket");
    expect(desc.data.map((p) => p.id)).toEqual([...asc.data].reverse().map((p) => p.id));
  });

  test("sort by name (default locale) and by createdAt (desc by default, asc on request)", async () => {
    const byName = names(await storefront("?sort=name&limit=100"));
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const newest = names(await storefront("?sort=createdAt&limit=100"));
    const oldest = names(await storefront("?sort=createdAt&order=asc&limit=100"));
    expect(oldest[0]).toBe("Banana bread cookbook");
    expect(newest).toEqual([...oldest].reverse());
  });

  test("ties are broken by id: paging through equal prices never repeats or skips", async () => {
    for (const order of ["asc", "desc"]) {
      const seen: string[] = [];
      for (let page = 1; page <= 6; page++) {
        seen.push(
          ...(await storefront(`?sort=price&order=${order}&limit=2&page=${page}`)).data.map((p) => p.id),
        );
      }
      expect(seen).toHaveLength(11);
      expect(new Set(seen).size).toBe(11);
    }
  });

  test("categoryId includes its subcategories", async () => {
    expect(names(await storefront(`?categoryId=${clothing}&sort=name`))).toEqual([
      "Linen jacket",
      "Zebra shirt",
    ]);
    expect(names(await storefront(`?categoryId=${shirts}`))).toEqual(["Zebra shirt"]);
    const bookList = await storefront(`?categoryId=${books}&sort=name`);
    expect(names(bookList)).toEqual(["Apple pie stories", "Banana bread cookbook"]);
    expect(bookList.meta.total).toBe(2);
  });

  test("search: word prefix, SKU, second locale, tags, description; combined with a filter", async () => {
    expect(names(await storefront("?query=ban"))).toEqual(["Banana bread cookbook"]);
    expect(names(await storefront("?query=ZEB-BLUE-M"))).toEqual(["Zebra shirt"]);
    expect(names(await storefront("?query=zeb-red"))).toEqual(["Zebra shirt"]);
    expect(names(await storefront("?query=linho"))).toEqual(["Linen jacket"]);
    expect(names(await storefront("?query=dessert"))).toEqual(["Apple pie stories"]);
    expect(names(await storefront("?query=recipes"))).toEqual(["Banana bread cookbook"]);
    expect(names(await storefront(`?query=shirt&categoryId=${books}`))).toEqual([]);
    expect((await storefront("?query=draft")).meta.total).toBe(0);
  });

  test("search without sort orders by relevance (name matches first); with sort, by the sort", async () => {
    await admin.post(
      "/v1/admin/products",
      simpleProduct("Plain mug", 1000, { description: { en: "Not a cookbook at all" } }),
    );
    expect(names(await storefront("?query=cookbook"))).toEqual(["Banana bread cookbook", "Plain mug"]);
    expect(names(await storefront("?query=cookbook&sort=price"))).toEqual([
      "Plain mug",
      "Banana bread cookbook",
    ]);
  });

  test("FTS syntax in the query is inert; an empty query lists everything", async () => {
    for (const q of ['"', "NEAR(", "a OR b", "*", "-", "title:x", "(((("]) {
      const body = await storefront(`?query=${encodeURIComponent(q)}`);
      expect(body.meta.total).toBeGreaterThanOrEqual(0);
    }
    expect((await storefront("?query=")).meta.total).toBe(12);
  });

  test("an unknown sort or order, a negative page or a bad categoryId → 400", async () => {
    for (const q of [
      "?sort=popularity",
      "?order=sideways",
      "?page=-1",
      "?page=0",
      "?limit=101",
      "?categoryId=x",
    ]) {
      const res = await t.json(`/v1/products${q}`, { headers: { host: HOST } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });

  test("admin lists every status and filters by status", async () => {
    const all = await admin.get("/v1/admin/products?limit=100");
    expect(all.body.meta.total).toBe(13);
    const drafts = await admin.get("/v1/admin/products?status=draft");
    expect(drafts.body.data.map((p: { name: { en: string } }) => p.name.en)).toEqual(["Draft thing"]);
  });

  /**
   * Statements a request runs on the tenant handle (counted around the real connection), leaving out
   * the cache's `PRAGMA data_version` check, which runs at most once per DATA_VERSION_CHECK_MS.
   */
  async function statementsOf(path: string): Promise<number> {
    const tenantId = (await t.json("/v1/me", { headers: { host: HOST } })).body.data.orgId;
    return t.app.ctx.tenants.with(tenantId, async (tenant) => {
      let count = 0;
      const original = tenant.sqlite.query.bind(tenant.sqlite);
      (tenant.sqlite as { query: unknown }).query = (sql: string) => {
        if (sql !== "PRAGMA data_version") count++;
        return original(sql);
      };
      try {
        const res = await t.json(path, { headers: { host: HOST } });
        expect(res.status).toBe(200);
      } finally {
        (tenant.sqlite as { query: unknown }).query = original;
      }
      return count;
    });
  }

  test("a page is read in a fixed number of statements, whatever its size", async () => {
    const counts = [];
    for (const limit of [1, 5, 20]) counts.push(await statementsOf(`/v1/products?sort=price&limit=${limit}`));
    expect(counts[0]).toBe(counts[1]);
    expect(counts[1]).toBe(counts[2]);
    // page, count, variants, categories
    expect(counts[0]).toBeLessThanOrEqual(4);
  });

  test("a rendered page is reused until the catalog changes, then rendered afresh", async () => {
    const path = "/v1/products?sort=name&limit=3";
    const first = await t.json(path, { headers: { host: HOST } });
    expect(await statementsOf(path)).toBe(0);
    const renamed = first.body.data[0];
    await admin.patch(`/v1/admin/products/${renamed.id}`, { name: { en: "Aardvark lamp" } });
    const after = await t.json(path, { headers: { host: HOST } });
    expect(after.body.data[0].name.en).toBe("Aardvark lamp");
    expect(await statementsOf(path)).toBe(0);
    // A write by another process (here: another connection) is seen through data_version, at the
    // latest DATA_VERSION_CHECK_MS after it.
    const tenantId = (await t.json("/v1/me", { headers: { host: HOST } })).body.data.orgId;
    const other = new Database(`${t.dataDir}/tenants/${tenantId}.sqlite`);
    other
      .query("UPDATE products SET sort_name = 'aaa', name = json_set(name, '$.en', 'Aaa') WHERE id = ?")
      .run(first.body.data[1].id);
    other.close();
    await Bun.sleep(DATA_VERSION_CHECK_MS + 1);
    const seen = await t.json(path, { headers: { host: HOST } });
    expect(seen.body.data[0].name.en).toBe("Aaa");
  });
});
