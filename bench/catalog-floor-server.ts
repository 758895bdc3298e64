// The floor of the catalog benchmark (bench/catalog.ts): a bare Bun.serve over one tenant file that
// runs the SQL of src/catalog/products.ts (listProducts, getProduct, assemble) as bun:sqlite statements
// prepared once, and builds the same JSON bytes. No Elysia, no pipeline, no caller resolution, no
// validation, no request log, and nothing imported from src/: the least work that gives the same answer.
//
//   FLOOR_DB=<DATA_DIR>/tenants/<orgId>.sqlite PORT=… HOST=127.0.0.1 bun bench/catalog-floor-server.ts
//
// Answers GET /v1/products (newest first, or `query` = full-text search by relevance; `page`, `limit`)
// and GET /v1/products/<id or slug> (active products only), like the storefront operations.
import { Database } from "bun:sqlite";

const file = process.env.FLOOR_DB;
if (!file) throw new Error("FLOOR_DB (the tenant's .sqlite file) is required");

// As src/db/sqlite.ts openSqlite (the service opens tenant files with synchronous=NORMAL).
const sqlite = new Database(file, { readwrite: true, strict: true });
sqlite.run("PRAGMA busy_timeout = 5000");
sqlite.run("PRAGMA journal_mode = WAL");
sqlite.run("PRAGMA synchronous = NORMAL");
sqlite.run("PRAGMA foreign_keys = ON");

// The service keeps the store settings in memory after the first read; so does the floor.
const { currency, low_stock_threshold: lowStockThreshold } = sqlite
  .query("SELECT currency, low_stock_threshold FROM store_settings WHERE id = 1")
  .get() as { currency: string; low_stock_threshold: number };

// The SQL text listProducts builds for the storefront (status = 'active', no category, no sort).
const LIST_FILTER = "FROM products p WHERE p.status = ?";
const SEARCH_FILTER =
  "FROM product_search JOIN products p ON p.seq = product_search.rowid WHERE product_search MATCH ? AND p.status = ?";
const listPage = sqlite.prepare(
  `SELECT p.* ${LIST_FILTER} ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
);
// The total of a listing is the kept count (src/catalog/counts.ts); a search counts its matches up
// to one past the cap, and past it answers the cap with `totalIsEstimate`.
const listCount = sqlite.prepare("SELECT coalesce(sum(n), 0) AS total FROM product_counts WHERE status = ?");
const SEARCH_COUNT_CAP = 1000;
// Relevance (bm25 rank, ties oldest first) ranked on the search index alone, then only the first
// candidates joined: the service's query when a page fills (every seeded product is active).
const searchPage = sqlite.prepare(
  `WITH hits(seq, rank) AS MATERIALIZED (SELECT rowid, rank FROM product_search WHERE product_search MATCH ?
     ORDER BY rank, rowid LIMIT ?)
   SELECT p.* FROM hits CROSS JOIN products p ON p.seq = hits.seq WHERE p.status = ?
   ORDER BY hits.rank, hits.seq LIMIT ? OFFSET ?`,
);
const searchCount = sqlite.prepare(`SELECT count(*) AS total FROM (SELECT 1 ${SEARCH_FILTER} LIMIT ?)`);
// getProduct with activeOnly.
const productByIdOrSlug = sqlite.prepare(
  "SELECT * FROM products WHERE (id = ?1 OR slug = ?1) AND status = 'active'",
);
// assemble.
const variantsOfPage = sqlite.prepare(
  "SELECT * FROM variants WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position",
);
const categoriesOfPage = sqlite.prepare(
  `SELECT product_id, category_id FROM product_categories
        WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position`,
);

interface ProductRow {
  seq: number;
  id: string;
  slug: string;
  status: string;
  name: string;
  description: string | null;
  tags: string;
  images: string;
  options: string;
  tax_rate: number | null;
  requires_shipping: number;
  min_price: number;
  max_price: number;
  created_at: number;
  updated_at: number;
}

interface VariantRow {
  id: string;
  product_id: string;
  sku: string | null;
  title: string;
  options: string;
  price: number;
  compare_at_price: number | null;
  tracked: number;
  on_hand: number;
  allow_backorder: number;
  position: number;
}

const money = (amount: number) => ({ amount, currency });
const isAvailable = (v: VariantRow) => v.tracked === 0 || v.allow_backorder === 1 || v.on_hand > 0;
const isLowStock = (v: VariantRow) =>
  v.tracked === 1 && v.allow_backorder === 0 && v.on_hand > 0 && v.on_hand <= lowStockThreshold;

// The storefront view (storefrontProduct): `available` and `lowStock`, never the stock counts.
function variantView(v: VariantRow) {
  return {
    id: v.id,
    sku: v.sku,
    title: v.title,
    options: JSON.parse(v.options) as unknown,
    price: money(v.price),
    compareAtPrice: v.compare_at_price === null ? null : money(v.compare_at_price),
    available: isAvailable(v),
    lowStock: isLowStock(v),
  };
}

function productView(row: ProductRow, variants: VariantRow[], categoryIds: string[]) {
  const available = variants.filter(isAvailable);
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    name: JSON.parse(row.name) as unknown,
    description: row.description === null ? null : (JSON.parse(row.description) as unknown),
    categoryIds,
    tags: JSON.parse(row.tags) as unknown,
    images: JSON.parse(row.images) as unknown,
    options: JSON.parse(row.options) as unknown,
    variants: variants.map(variantView),
    priceRange: { min: money(row.min_price), max: money(row.max_price) },
    inStock: available.length > 0,
    lowStock: available.length > 0 && available.every(isLowStock),
    taxRate: row.tax_rate,
    requiresShipping: row.requires_shipping === 1,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** Views of `rows` in their order: variants and categories of all of them in two queries. */
function assemble(rows: ProductRow[]) {
  if (rows.length === 0) return [];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const variantRows = variantsOfPage.all(ids) as VariantRow[];
  const categoryRows = categoriesOfPage.all(ids) as { product_id: string; category_id: string }[];
  const variantsOf = new Map<string, VariantRow[]>();
  for (const v of variantRows) {
    const list = variantsOf.get(v.product_id);
    if (list) list.push(v);
    else variantsOf.set(v.product_id, [v]);
  }
  const categoriesOf = new Map<string, string[]>();
  for (const c of categoryRows) {
    const list = categoriesOf.get(c.product_id);
    if (list) list.push(c.category_id);
    else categoriesOf.set(c.product_id, [c.category_id]);
  }
  return rows.map((row) => productView(row, variantsOf.get(row.id) ?? [], categoriesOf.get(row.id) ?? []));
}

/** What a shopper typed as an FTS5 query: every word a quoted prefix (as src/catalog/search.ts). */
function toMatchQuery(input: string): string | null {
  const words = input.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words
    .slice(0, 12)
    .map((w) => `"${w}"*`)
    .join(" ");
}

// The service's headers for a client that asks no compression (as wrk): a catalog read is kept by
// caches but revalidated, with a strong ETag (SHA-256 of the bytes, base64url, 27 characters) and the
// catalog's Vary; an error is not kept. Every answer carries a request id.
const CONTENT_TYPE = "application/json; charset=utf-8";
const CATALOG_VARY = "Origin, Accept-Encoding, Authorization, X-Api-Key, Cookie";

function ok(body: unknown): Response {
  const bytes = JSON.stringify(body);
  const etag = new Bun.CryptoHasher("sha256").update(bytes).digest("base64url").slice(0, 27);
  return new Response(bytes, {
    headers: {
      "content-type": CONTENT_TYPE,
      "cache-control": "no-cache",
      vary: CATALOG_VARY,
      etag: `"${etag}"`,
      "x-request-id": crypto.randomUUID(),
    },
  });
}

const notFound = (error: string) =>
  new Response(JSON.stringify({ error, code: "NOT_FOUND", status: 404 }), {
    status: 404,
    headers: {
      "content-type": CONTENT_TYPE,
      "cache-control": "no-store",
      "x-request-id": crypto.randomUUID(),
    },
  });

function listProducts(params: URLSearchParams): Response {
  const page = Number(params.get("page") ?? 1);
  const limit = Number(params.get("limit") ?? 20);
  const raw = params.get("query");
  const search = raw?.trim() ? raw : undefined;
  const match = search === undefined ? undefined : toMatchQuery(search);
  let data: ReturnType<typeof assemble> = [];
  let total = 0;
  let estimate = false;
  if (match === undefined) {
    data = assemble(listPage.all("active", limit, (page - 1) * limit) as ProductRow[]);
    total = (listCount.get("active") as { total: number }).total;
  } else if (match !== null) {
    data = assemble(
      searchPage.all(match, 4 * page * limit, "active", limit, (page - 1) * limit) as ProductRow[],
    );
    total = (searchCount.get(match, "active", SEARCH_COUNT_CAP + 1) as { total: number }).total;
    if (total > SEARCH_COUNT_CAP) [total, estimate] = [SEARCH_COUNT_CAP, true];
  }
  return ok({ data, meta: { page, limit, total, ...(estimate && { totalIsEstimate: true }) } });
}

function getProduct(idOrSlug: string): Response {
  const row = productByIdOrSlug.get(idOrSlug) as ProductRow | null;
  if (!row) return notFound("Product not found");
  return ok({ data: assemble([row])[0] });
}

const PRODUCTS = "/v1/products";

Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch(request) {
    if (request.method !== "GET") return new Response(null, { status: 405 });
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", start);
    const path = q === -1 ? url.slice(start) : url.slice(start, q);
    if (path === PRODUCTS) return listProducts(new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
    if (path.startsWith(`${PRODUCTS}/`) && path.indexOf("/", PRODUCTS.length + 1) === -1) {
      return getProduct(decodeURIComponent(path.slice(PRODUCTS.length + 1)));
    }
    return notFound(`No route GET ${path}`);
  },
});
