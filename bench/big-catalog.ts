// One shop with a big catalog, in process: the uncached list reads a storefront and the admin make,
// timed by calling `listProducts` directly (no HTTP, no response cache). The seeded data directory
// is kept when BENCH_DATA_DIR is given, so a later run (other code) measures the same file.
// Usage: BENCH_DATA_DIR=/tmp/big-catalog bun bench/big-catalog.ts
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { createApp } from "../src/app.ts";
import { createOrganization } from "../src/auth/service.ts";
import { listProducts } from "../src/catalog/products.ts";
import { seedProducts } from "../src/catalog/seed.ts";
import { loadConfig } from "../src/config.ts";
import { envInt, fmt, makeTempDir, median, percentile, printTable, saveResults } from "./lib.ts";

const PRODUCTS = envInt("BENCH_PRODUCTS", 100_000);
const ITERATIONS = envInt("BENCH_ITERATIONS", 200);
/** A prefix of "cotton", as in bench/catalog.ts: about 15 % of the seeded products match. */
const SEARCH = process.env.BENCH_SEARCH?.trim() || "cott";

const kept = process.env.BENCH_DATA_DIR;
const dataDir = kept ?? makeTempDir("big-catalog");
mkdirSync(dataDir, { recursive: true });
const app = createApp(
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false", MIN_FREE_DISK_MB: "0" }),
);
const existing = readdirSync(`${dataDir}/tenants`).find((f) => f.endsWith(".sqlite"));
const orgId = existing?.replace(/\.sqlite$/, "") ?? createOrganization(app.ctx, { name: "Big shop" }).id;
const tenant = app.ctx.tenants.acquire(orgId);

const { n } = tenant.sqlite.query("SELECT count(*) AS n FROM products").get() as { n: number };
if (n < PRODUCTS) {
  const { ms } = seedProducts(tenant, PRODUCTS - n, { batch: 2000 });
  console.log(`seeded ${PRODUCTS - n} products in ${ms} ms`);
}
// The parent category of the demo tree with the most products below it, and one leaf.
const parent = tenant.sqlite
  .query(
    "SELECT id FROM categories WHERE parent_id IS NULL AND id IN (SELECT parent_id FROM categories) LIMIT 1",
  )
  .get() as { id: string };
const leaf = tenant.sqlite
  .query(
    "SELECT category_id AS id FROM product_categories GROUP BY category_id ORDER BY count(*) DESC LIMIT 1",
  )
  .get() as { id: string };

const page1 = { page: 1, limit: 20 };
const scenarios: [string, () => { total: number }][] = [
  ["storefront first page", () => listProducts(tenant, { status: "active" }, page1)],
  ["admin first page", () => listProducts(tenant, {}, page1)],
  [
    "storefront parent category",
    () => listProducts(tenant, { status: "active", categoryId: parent.id }, page1),
  ],
  ["storefront leaf category", () => listProducts(tenant, { status: "active", categoryId: leaf.id }, page1)],
  ["storefront search page 1", () => listProducts(tenant, { status: "active", query: SEARCH }, page1)],
  [
    "storefront search page 3",
    () => listProducts(tenant, { status: "active", query: SEARCH }, { page: 3, limit: 20 }),
  ],
];

const rows: string[][] = [];
const results: Record<string, unknown>[] = [];
for (const [name, run] of scenarios) {
  run();
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    total = run().total;
    times.push(performance.now() - started);
  }
  rows.push([name, fmt(median(times), 3), fmt(percentile(times, 90), 3), String(total)]);
  results.push({ name, p50Ms: median(times), p90Ms: percentile(times, 90), total });
}
printTable(["list (20 a page)", "p50 ms", "p90 ms", "meta.total"], rows);
saveResults("big-catalog", { products: PRODUCTS, iterations: ITERATIONS, results });
app.ctx.tenants.release(tenant);
app.close();
if (!kept) rmSync(dataDir, { recursive: true, force: true });
