import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listProducts, SEARCH_COUNT_CAP, updateProduct } from "../../src/catalog/products.ts";
import { seedProducts } from "../../src/catalog/seed.ts";
import type { ProductStatus } from "../../src/catalog/tables.ts";
import type { TenantDb } from "../../src/db/tenant-pool.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, simpleProduct } from "../helpers/catalog.ts";

let t: TestApp;
let admin: AdminClient;
let orgId: string;

beforeAll(async () => {
  t = makeTestApp();
  const org = await t.org("Counted");
  orgId = org.id;
  admin = adminClient(t, org.key);
});
afterAll(() => t.cleanup());

/** The kept counts next to real `count(*)`s over the products, per status and per category. */
async function keptAndReal() {
  return t.app.ctx.tenants.with(orgId, (tenant) => {
    const q = (sql: string) => tenant.sqlite.query(sql).all();
    return {
      kept: q("SELECT status, n FROM product_counts WHERE n <> 0 ORDER BY status"),
      real: q("SELECT status, count(*) AS n FROM products GROUP BY status ORDER BY status"),
      keptByCategory: q(
        "SELECT category_id, status, n FROM category_product_counts WHERE n <> 0 ORDER BY category_id, status",
      ),
      realByCategory: q(
        `WITH RECURSIVE tree(root, id) AS (SELECT id, id FROM categories
           UNION SELECT tree.root, c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
         SELECT tree.root AS category_id, p.status, count(DISTINCT p.id) AS n FROM tree
           JOIN product_categories pc ON pc.category_id = tree.id JOIN products p ON p.id = pc.product_id
         GROUP BY tree.root, p.status ORDER BY tree.root, p.status`,
      ),
    };
  });
}

async function expectCountsExact() {
  const { kept, real, keptByCategory, realByCategory } = await keptAndReal();
  expect(kept).toEqual(real);
  expect(keptByCategory).toEqual(realByCategory);
}

describe("kept product counts", () => {
  test("stay equal to count(*) after concurrent creates, deletes and status changes by several writers", async () => {
    const parent = (await admin.post("/v1/admin/categories", { name: { en: "Parent" } })).body.data.id;
    const child = (await admin.post("/v1/admin/categories", { name: { en: "Child" }, parentId: parent })).body
      .data.id;
    const writer = async (w: number) => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await admin.post(
          "/v1/admin/products",
          simpleProduct(`Writer ${w} item ${i}`, 100 + i, {
            categoryIds: i % 2 ? [child] : [parent, child],
            status: i % 3 === 0 ? "draft" : "active",
          }),
        );
        expect(res.status).toBe(201);
        ids.push(res.body.data.id);
      }
      await Promise.all([
        admin.patch(`/v1/admin/products/${ids[0]}`, { status: "active" }),
        admin.patch(`/v1/admin/products/${ids[1]}`, { status: "archived" }),
        admin.delete(`/v1/admin/products/${ids[2]}`),
        admin.delete(`/v1/admin/products/${ids[3]}`),
      ]);
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    await expectCountsExact();
    const listed = await admin.get("/v1/admin/products?limit=1");
    const { real } = await keptAndReal();
    expect(listed.body.meta.total).toBe((real as { n: number }[]).reduce((sum, r) => sum + r.n, 0));
    expect(listed.body.meta.total).toBe(24);
  });

  test("follow category moves, category deletes and a product's category changes", async () => {
    const a = (await admin.post("/v1/admin/categories", { name: { en: "Shelf A" } })).body.data.id;
    const b = (await admin.post("/v1/admin/categories", { name: { en: "Shelf B" } })).body.data.id;
    const leaf = (await admin.post("/v1/admin/categories", { name: { en: "Leaf" }, parentId: a })).body.data
      .id;
    const product = (
      await admin.post("/v1/admin/products", simpleProduct("Mover", 300, { categoryIds: [leaf] }))
    ).body.data.id;
    await admin.post("/v1/admin/products", simpleProduct("Stayer", 300, { categoryIds: [a, leaf] }));
    expect((await admin.patch(`/v1/admin/categories/${leaf}`, { parentId: b })).status).toBe(200);
    await expectCountsExact();
    expect((await admin.get(`/v1/admin/products?categoryId=${b}`)).body.meta.total).toBe(2);
    expect((await admin.patch(`/v1/admin/products/${product}`, { categoryIds: [a] })).status).toBe(200);
    await expectCountsExact();
    expect((await admin.delete(`/v1/admin/categories/${leaf}`)).status).toBe(204);
    await expectCountsExact();
    const listedA = await admin.get(`/v1/admin/products?categoryId=${a}`);
    expect(listedA.body.meta.total).toBe(2);
  });

  test("follow a CSV import: a dry run keeps nothing, a real one counts every created product", async () => {
    const before = await keptAndReal();
    const csv = "slug,name.en,status,price\ncsv-one,CSV one,active,100\ncsv-two,CSV two,draft,200\n";
    const dry = await admin.post("/v1/admin/products/import?dryRun=true", { csv });
    expect(dry.status).toBe(200);
    expect(await keptAndReal()).toEqual(before);
    const real = await admin.post("/v1/admin/products/import", { csv });
    expect(real.status).toBe(200);
    expect(real.body.data.created).toBe(2);
    await expectCountsExact();
    expect(await keptAndReal()).not.toEqual(before);
  });
});

describe("search totals", () => {
  test("a storefront search's total past the cap is told by the index alone only when drafts cannot be the difference", async () => {
    const add = async (n: number, status: ProductStatus) => {
      for (let i = 0; i < n; i++) {
        const created = await admin.post(
          "/v1/admin/products",
          simpleProduct(`Zebra ${status} ${i}`, 100, { status }),
        );
        expect(created.status).toBe(201);
      }
    };
    const total = (cap: number) =>
      t.app.ctx.tenants.with(orgId, (tenant) => {
        const { total, totalIsEstimate } = listProducts(
          tenant,
          { status: "active", query: "zebra" },
          { page: 1, limit: 2 },
          cap,
        );
        return { total, totalIsEstimate };
      });
    await add(4, "draft");
    await add(5, "active");
    // 9 index matches, 5 active: not more than the cap of 5 plus the 4 others, so counted exactly.
    expect(await total(5)).toEqual({ total: 5, totalIsEstimate: undefined });
    expect(await total(4)).toEqual({ total: 4, totalIsEstimate: true });
    await add(1, "active");
    // 10 index matches past 5 + 4: six active at least.
    expect(await total(5)).toEqual({ total: 5, totalIsEstimate: true });
    // More products of other statuses than the cap: the exact count decides.
    expect(await total(3)).toEqual({ total: 3, totalIsEstimate: true });
    await add(2, "archived");
    expect(await total(6)).toEqual({ total: 6, totalIsEstimate: undefined });
    expect(await total(5)).toEqual({ total: 5, totalIsEstimate: true });
  });

  test("count matches exactly up to the cap; past it total is the cap and totalIsEstimate is true", async () => {
    // Every product seedProducts makes has a SKU word starting with "b" (`TEE-B12`).
    await t.app.ctx.tenants.with(orgId, (tenant) =>
      seedProducts(tenant, SEARCH_COUNT_CAP + 20, { batch: 2000 }),
    );
    const res = await admin.get("/v1/admin/products?query=b&limit=5");
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 5, total: SEARCH_COUNT_CAP, totalIsEstimate: true });
    expect(res.body.data).toHaveLength(5);
    const exact = await admin.get("/v1/admin/products?query=writer");
    expect(exact.body.meta.totalIsEstimate).toBeUndefined();
    await expectCountsExact();
  });

  test("a small cap: pages by relevance are the same as ranking every match, ties oldest first", async () => {
    await t.app.ctx.tenants.with(orgId, (tenant) => {
      const every = listProducts(tenant, { query: "cotton" }, { page: 1, limit: 100 }, 10_000);
      expect(every.total).toBeGreaterThan(40);
      expect(every.totalIsEstimate).toBeUndefined();
      expect(every.items.map((p) => p.id)).toEqual(rankedEveryMatch(tenant, "cotton").slice(0, 100));
      const paged = [1, 2, 3, 4, 5].flatMap(
        (page) => listProducts(tenant, { query: "cotton" }, { page, limit: 10 }, 5).items,
      );
      expect(paged.map((p) => p.id)).toEqual(every.items.slice(0, 50).map((p) => p.id));
      const capped = listProducts(tenant, { query: "cotton" }, { page: 1, limit: 10 }, 5);
      expect(capped.total).toBe(5);
      expect(capped.totalIsEstimate).toBe(true);
    });
  });

  test("pages by relevance are exact when a tie spans the candidates' cut-off and when a filter drops most candidates", async () => {
    await t.app.ctx.tenants.with(orgId, (tenant) => {
      const limit = 7;
      const ranks = rankedEveryMatch(tenant, "cotton", undefined, "product_search.rank");
      // Page 1 takes the best 4 × 7 matches as candidates: the 28th and 29th tie, so the cut-off
      // falls inside a tie group.
      expect(ranks[4 * limit - 1]).toBe(ranks[4 * limit]);
      const allPages = (status?: ProductStatus) => {
        const ids: string[] = [];
        for (let page = 1; ; page++) {
          const items = listProducts(tenant, { query: "cotton", status }, { page, limit }).items;
          ids.push(...items.map((p) => p.id));
          if (items.length < limit) return ids;
        }
      };
      const every = rankedEveryMatch(tenant, "cotton");
      expect(allPages()).toEqual(every);
      expect(new Set(every).size).toBe(every.length);
      // Nine in ten matches become drafts: the storefront's active-only filter removes most candidates.
      every.forEach((id, i) => {
        if (i % 10 !== 0) updateProduct(tenant, id, { status: "draft" });
      });
      const active = rankedEveryMatch(tenant, "cotton", "active");
      expect(active.length).toBe(Math.ceil(every.length / 10));
      expect(allPages("active")).toEqual(active);
      expect(allPages("draft")).toEqual(rankedEveryMatch(tenant, "cotton", "draft"));
      expect(allPages()).toEqual(rankedEveryMatch(tenant, "cotton"));
    });
  });
});

/**
 * The documented relevance order computed the slow way, over every match (bm25 rank, ties oldest
 * first): the ids, or the `column` asked for.
 */
function rankedEveryMatch(tenant: TenantDb, word: string, status?: ProductStatus, column = "p.id") {
  const rows = tenant.sqlite
    .query(
      `SELECT ${column} AS value FROM product_search JOIN products p ON p.seq = product_search.rowid
        WHERE product_search MATCH ?1 AND (?2 IS NULL OR p.status = ?2)
        ORDER BY product_search.rank, p.seq`,
    )
    .all(`"${word}"*`, status ?? null) as { value: string }[];
  return rows.map((r) => r.value);
}
