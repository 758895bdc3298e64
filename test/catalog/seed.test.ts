import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeContext, createContext } from "../../src/app-context.ts";
import { listCategories } from "../../src/catalog/categories.ts";
import { listProducts, type ProductView } from "../../src/catalog/products.ts";
import { seedDemoCatalog, seedProducts } from "../../src/catalog/seed.ts";
import { getStore } from "../../src/catalog/store-settings.ts";
import { loadConfig } from "../../src/config.ts";
import type { TenantDb } from "../../src/db/tenant-pool.ts";
import { ensureDemoTenant } from "../../src/demo.ts";
import { modules } from "../../src/modules.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.cleanup());

/** Every product of the tenant, all statuses, newest first. */
function allProducts(tenant: TenantDb): ProductView[] {
  const items: ProductView[] = [];
  for (let page = 1; ; page++) {
    const result = listProducts(tenant, {}, { page, limit: 100 });
    items.push(...result.items);
    if (items.length >= result.total) return items;
  }
}

const total = (tenant: TenantDb, status?: "active") =>
  listProducts(tenant, status ? { status } : {}, { page: 1, limit: 1 }).total;

/** A new org whose tenant holds the demo catalog, and the products it got. */
async function demoOrg(name: string) {
  const org = await t.org(name);
  const products = await t.app.ctx.tenants.with(org.id, (tenant) => {
    seedDemoCatalog(tenant);
    return allProducts(tenant);
  });
  return { org, products };
}

describe("seedDemoCatalog", () => {
  let orgId: string;
  let orgKey: string;
  let products: ProductView[];

  beforeAll(async () => {
    const seeded = await demoOrg("Seeded");
    orgId = seeded.org.id;
    orgKey = seeded.org.key;
    products = seeded.products;
  });

  const withTenant = <T>(fn: (tenant: TenantDb) => T) => t.app.ctx.tenants.with(orgId, fn);

  test("sets up the store: EUR, Portugal, en + pt, EU VAT rates", async () => {
    const store = await withTenant(getStore);
    expect(store).toMatchObject({
      name: "Demo Store",
      currency: "EUR",
      country: "PT",
      locales: ["en", "pt"],
      defaultLocale: "en",
      pricesIncludeTax: true,
      contactEmail: "hello@demo-store.example",
      manualPaymentMethods: ["bank_transfer"],
      lowStockThreshold: 5,
    });
    expect(store.contactEmail).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
    expect(store.taxRates).toEqual([
      { country: "PT", rate: 2300 },
      { country: "ES", rate: 2100 },
      { country: "FR", rate: 2000 },
      { country: "DE", rate: 1900 },
    ]);
  });

  test("builds a category tree of at least 10 categories, three levels deep, named in en and pt", async () => {
    const categories = await withTenant(listCategories);
    expect(categories.length).toBeGreaterThanOrEqual(10);
    const byId = new Map(categories.map((c) => [c.id, c]));
    const depth = (id: string): number => {
      const parentId = byId.get(id)!.parentId;
      return parentId ? 1 + depth(parentId) : 1;
    };
    expect(Math.max(...categories.map((c) => depth(c.id)))).toBe(3);
    for (const category of categories) {
      expect(category.name.en).toBeTruthy();
      expect(category.name.pt).toBeTruthy();
    }
    const tshirts = categories.find((c) => c.slug === "men-t-shirts")!;
    const men = byId.get(tshirts.parentId!)!;
    expect([men.slug, byId.get(men.parentId!)!.slug]).toEqual(["men", "clothing"]);
    expect(tshirts.productCount).toBeGreaterThan(0);
  });

  test("creates about 200 products named in en and pt, each in a category, leaving images to the media module", () => {
    expect(products.length).toBeGreaterThanOrEqual(190);
    for (const product of products) {
      expect(product.name.en?.trim()).toBeTruthy();
      expect(product.name.pt?.trim()).toBeTruthy();
      expect(product.description?.en).toBeTruthy();
      expect(product.description?.pt).toBeTruthy();
      expect(product.categoryIds.length).toBeGreaterThanOrEqual(1);
      // The demo's images are its own media, set by the media module's demo data (test/media).
      expect(product.images).toEqual([]);
      for (const variant of product.variants) expect(variant.price.amount).toBeGreaterThan(0);
    }
    expect(new Set(products.map((p) => p.slug)).size).toBe(products.length);
    expect(products.some((p) => p.categoryIds.length === 2)).toBe(true);
  });

  test("includes size × colour variants with SKUs, sale prices and reduced tax rates", () => {
    const apparel = products.filter((p) => p.variants.length > 1);
    expect(apparel.length).toBeGreaterThanOrEqual(20);
    for (const product of apparel) {
      expect(product.options.map((o) => o.name)).toEqual(["Size", "Colour"]);
      expect(product.variants).toHaveLength(12);
    }
    const skus = products.flatMap((p) => p.variants.map((v) => v.sku));
    expect(skus.every((sku) => typeof sku === "string")).toBe(true);
    expect(skus.some((sku) => /^TSH-\d{3}-[A-Z]+-(S|M|L|XL)$/.test(sku!))).toBe(true);
    expect(products.some((p) => p.variants.some((v) => v.compareAtPrice !== null))).toBe(true);
    expect(products.some((p) => p.taxRate === 600)).toBe(true);
    expect(products.some((p) => !p.requiresShipping)).toBe(true);
  });

  test("stock varies: out of stock, untracked and backorder products", () => {
    const variants = products.flatMap((p) => p.variants);
    expect(products.some((p) => !p.inStock)).toBe(true);
    expect(variants.some((v) => !v.inventory.tracked)).toBe(true);
    expect(variants.some((v) => v.inventory.allowBackorder && v.inventory.onHand === 0 && v.available)).toBe(
      true,
    );
    expect(variants.some((v) => v.inventory.tracked && v.inventory.onHand > 5)).toBe(true);
  });

  test("demo stock starts above the low-stock threshold, except the deliberate showcases: sold-out and backorder products (0 units) and one product with few units left", async () => {
    const { lowStockThreshold } = await withTenant(getStore);
    const atOrUnder = products.flatMap((p) =>
      p.variants
        .filter((v) => v.inventory.tracked && v.inventory.onHand <= lowStockThreshold)
        .map((v) => ({ p, v })),
    );
    const soldOut = (p: ProductView) => p.variants.every((v) => v.inventory.onHand === 0 && !v.available);
    const backorder = atOrUnder.filter(({ v }) => v.inventory.allowBackorder && v.inventory.onHand === 0);
    const emptied = atOrUnder.filter(({ p }) => soldOut(p));
    const fewLeft = atOrUnder.filter(({ v }) => v.lowStock);
    expect(backorder.length).toBeGreaterThan(0);
    expect(emptied.length).toBeGreaterThan(0);
    // Exactly one product runs low, all of it (a single-variant product with 2 units).
    expect(new Set(fewLeft.map(({ p }) => p.id)).size).toBe(1);
    expect(fewLeft.map(({ p, v }) => [v.sku, p.lowStock, v.inventory.onHand])).toEqual([
      ["KIT-001", true, 2],
    ]);
    expect(products.filter((p) => p.lowStock)).toHaveLength(1);
    // Nothing else is at or under the threshold.
    expect(atOrUnder.length).toBe(backorder.length + emptied.length + fewLeft.length);
    // The dashboard counts what the storefront flags: the showcase, not the sold-out or backorder ones.
    const stats = await t.json("/v1/admin/dashboard/stats", { headers: { "x-api-key": orgKey } });
    expect(stats.body.data.lowStockVariants).toBe(1);
  });

  test("drafts and the archived product are left out of the active listing", async () => {
    const drafts = products.filter((p) => p.status === "draft").length;
    const archived = products.filter((p) => p.status === "archived").length;
    expect(drafts).toBeGreaterThanOrEqual(2);
    expect(archived).toBe(1);
    const active = await withTenant((tenant) => total(tenant, "active"));
    expect(active).toBe(products.length - drafts - archived);
  });

  test("products are found by full-text search in both languages", async () => {
    const [en, pt] = await withTenant((tenant) => [
      listProducts(tenant, { query: "linen" }, { page: 1, limit: 5 }).total,
      listProducts(tenant, { query: "linho" }, { page: 1, limit: 5 }).total,
    ]);
    expect(en).toBeGreaterThan(0);
    expect(pt).toBe(en);
  });

  test("is deterministic: two fresh organizations get the same catalog", async () => {
    const [a, b] = await Promise.all([demoOrg("Same A"), demoOrg("Same B")]);
    const shape = (list: ProductView[]) =>
      list
        .map((p) => ({
          slug: p.slug,
          name: p.name,
          status: p.status,
          prices: p.variants.map((v) => [v.sku, v.price.amount, v.inventory.onHand]),
        }))
        .sort((x, y) => x.slug.localeCompare(y.slug));
    expect(a.products.length).toBe(products.length);
    expect(shape(a.products)).toEqual(shape(b.products));
    expect(shape(a.products)).toEqual(shape(products));
  });
});

describe("seedProducts", () => {
  test("adds the requested number of products, and can run again on the same tenant", async () => {
    const org = await t.org("Bench");
    await t.app.ctx.tenants.with(org.id, (tenant) => {
      const before = total(tenant);
      const first = seedProducts(tenant, 500, { batch: 200 });
      expect(first.created).toBe(500);
      expect(first.ms).toBeGreaterThanOrEqual(0);
      expect(total(tenant)).toBe(before + 500);
      expect(seedProducts(tenant, 30).created).toBe(30);
      expect(total(tenant)).toBe(before + 530);
      const found = listProducts(tenant, { query: "cotton" }, { page: 1, limit: 1 });
      expect(found.total).toBeGreaterThan(0);
      const variantCounts = new Set(allProducts(tenant).map((p) => p.variants.length));
      expect([...variantCounts].sort()).toEqual([1, 6]);
    });
  });

  test("works after the demo catalog, reusing its categories", async () => {
    const org = await t.org("Bench after demo");
    await t.app.ctx.tenants.with(org.id, (tenant) => {
      seedDemoCatalog(tenant);
      const categories = listCategories(tenant).length;
      const before = total(tenant);
      expect(seedProducts(tenant, 100).created).toBe(100);
      expect(total(tenant)).toBe(before + 100);
      expect(listCategories(tenant).length).toBe(categories);
    });
  });
});

describe("CLI seed", () => {
  const cli = (...args: string[]) => runCli(args, { DATA_DIR: t.dataDir });

  test("seed --products 50 --org ID --json prints orgId, created and ms", async () => {
    const org = await t.org("CLI seed");
    const run = await cli("seed", "--products", "50", "--org", org.id, "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout.trim());
    expect(Object.keys(result).sort()).toEqual(["created", "ms", "orgId"]);
    expect(result).toMatchObject({ orgId: org.id, created: 50 });
    expect(typeof result.ms).toBe("number");
    const count = await t.app.ctx.tenants.with(org.id, (tenant) => total(tenant));
    expect(count).toBe(50);
  });

  test("the products' pictures are the shop's own media, served by the service and stored once however often the seed runs", async () => {
    const org = await t.org("CLI seed pictures");
    for (const count of ["30", "5"])
      expect((await cli("seed", "--products", count, "--org", org.id)).code).toBe(0);
    const { products, media } = await t.app.ctx.tenants.with(org.id, (tenant) => ({
      products: allProducts(tenant),
      media: tenant.sqlite.query("SELECT count(*) AS n FROM media").get() as { n: number },
    }));
    const urls = new Set(products.flatMap((product) => product.images.map((image) => image.url)));
    expect(products.every((product) => product.images.length === 1)).toBe(true);
    expect([...urls].every((url) => /^\/media\/med_[A-Za-z0-9]+$/.test(url))).toBe(true);
    expect(urls.size).toBe(24);
    expect(media.n).toBe(24);
    const file = await t.request([...urls][0]!, { headers: { "x-api-key": org.key } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
  });

  test("without --json prints a sentence", async () => {
    const org = await t.org("CLI seed text");
    const run = await cli("seed", "--products", "3", "--org", org.id);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Created 3 products in ${org.id}`);
  });

  test("a count outside 1..1000000 or not a whole number is a usage error (exit 2)", async () => {
    const org = await t.org("CLI seed bad");
    for (const value of ["0", "1000001", "-5", "2.5", "ten"]) {
      const run = await cli("seed", "--products", value, "--org", org.id);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--products");
    }
    expect((await cli("seed", "--org", org.id)).code).toBe(2);
  });

  test("an unknown organization exits 1", async () => {
    const run = await cli("seed", "--products", "5", "--org", "org_doesNotExist1234", "--json");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("first start", () => {
  test("ensureDemoTenant creates the demo organization with the seeded catalog", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "commerce-demo-"));
    const ctx = createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }), modules);
    try {
      const demo = await ensureDemoTenant(ctx);
      expect(demo).toBeDefined();
      const { products, locales } = await ctx.tenants.with(demo!.org.id, (tenant) => ({
        products: total(tenant),
        locales: getStore(tenant).locales,
      }));
      expect(products).toBeGreaterThanOrEqual(190);
      expect(locales).toEqual(["en", "pt"]);
      expect(await ensureDemoTenant(ctx)).toBeUndefined();
    } finally {
      closeContext(ctx);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
