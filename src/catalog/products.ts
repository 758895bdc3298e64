import { ApiError, type ErrorDetail, notFound } from "../core/errors.ts";
import type { PageParams } from "../core/schemas.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { freeSlug, slugify } from "../lib/slug.ts";
import { iso } from "../lib/time.ts";
import { unknownCategories } from "./categories.ts";
import { countedProductWrite, keptProductCount } from "./counts.ts";
import type { ProductSort } from "./schema.ts";
import { indexProduct, removeFromIndex, toMatchQuery } from "./search.ts";
import { checkLocalized, getStore, money, type Store } from "./store-settings.ts";
import type {
  Localized,
  ProductImage,
  ProductOption,
  ProductStatus,
  productCategories,
  products,
  variants,
} from "./tables.ts";

// ---------------------------------------------------------------- input

export interface VariantInput {
  id?: string;
  sku?: string | null;
  title?: string;
  options?: Record<string, string>;
  price: number;
  compareAtPrice?: number | null;
  inventory?: { tracked?: boolean; onHand?: number; allowBackorder?: boolean };
}

interface ProductInput {
  name?: Localized;
  slug?: string;
  status?: ProductStatus;
  description?: Localized | null;
  categoryIds?: string[];
  tags?: string[];
  images?: ProductImage[];
  options?: ProductOption[];
  taxRate?: number | null;
  requiresShipping?: boolean;
  variants?: VariantInput[];
}

// ---------------------------------------------------------------- rows and views

/** `SELECT *` / `p.*` of products. */
type ProductRow = Row<typeof products>;

/** `SELECT *` of variants. */
type VariantRow = Row<typeof variants>;

// Can be bought now: untracked, open to backorder, or in stock. The same rule in SQL, over a
// `variants` table aliased `v`, for reads that only ask whether such a variant exists.
const isAvailable = (v: VariantRow) => v.tracked === 0 || v.allow_backorder === 1 || v.on_hand > 0;
export const AVAILABLE_VARIANT_SQL = "(v.tracked = 0 OR v.allow_backorder = 1 OR v.on_hand > 0)";

/**
 * Few units left: the variant sells only what it holds (tracked, no backorder), still has some, and
 * holds no more than the store's threshold. Sold out is `available: false`, not low stock. The same
 * rule in SQL is `countLowStockVariants` below, the dashboard's `lowStockVariants`.
 */
const isLowStock = (v: VariantRow, threshold: number) =>
  v.tracked === 1 && v.allow_backorder === 0 && v.on_hand > 0 && v.on_hand <= threshold;

/** How many variants of active products the storefront shows as `lowStock` now. */
export function countLowStockVariants(tenant: TenantDb, threshold: number): number {
  const row = tenant.sqlite
    .query(
      `SELECT count(*) AS n FROM variants v JOIN products p ON p.id = v.product_id
        WHERE p.status = 'active' AND v.tracked = 1 AND v.allow_backorder = 0
          AND v.on_hand > 0 AND v.on_hand <= ?`,
    )
    .get(threshold) as { n: number };
  return row.n;
}

function variantView(v: VariantRow, currency: string, lowStockThreshold: number) {
  return {
    id: v.id,
    sku: v.sku,
    title: v.title,
    options: JSON.parse(v.options) as Record<string, string>,
    price: money(v.price, currency),
    compareAtPrice: v.compare_at_price === null ? null : money(v.compare_at_price, currency),
    inventory: { tracked: v.tracked === 1, onHand: v.on_hand, allowBackorder: v.allow_backorder === 1 },
    available: isAvailable(v),
    lowStock: isLowStock(v, lowStockThreshold),
  };
}

/** The admin view of a product: stock counts included. */
export type ProductView = ReturnType<typeof productView>;

function productView(row: ProductRow, variants: VariantRow[], categoryIds: string[], store: Store) {
  const available = variants.filter(isAvailable);
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    name: JSON.parse(row.name) as Localized,
    description: parseJsonOrNull<Localized>(row.description),
    categoryIds,
    tags: JSON.parse(row.tags) as string[],
    images: JSON.parse(row.images) as ProductImage[],
    options: JSON.parse(row.options) as ProductOption[],
    variants: variants.map((v) => variantView(v, store.currency, store.lowStockThreshold)),
    priceRange: { min: money(row.min_price, store.currency), max: money(row.max_price, store.currency) },
    inStock: available.length > 0,
    // Only when every variant a shopper can buy runs low: one low size must not mark the whole shirt.
    lowStock: available.length > 0 && available.every((v) => isLowStock(v, store.lowStockThreshold)),
    taxRate: row.tax_rate,
    requiresShipping: row.requires_shipping === 1,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * What storefront operations show (shoppers, Host callers, storefront keys, agents): `available`
 * and `lowStock` instead of the variant's raw `inventory`, so a competitor cannot read stock counts.
 */
export function storefrontProduct(product: ProductView) {
  return { ...product, variants: product.variants.map(({ inventory: _, ...variant }) => variant) };
}

/** Views of `rows` in their order, with variants and categories read in two queries for the whole page. */
function assemble(tenant: TenantDb, rows: ProductRow[], store: Store): ProductView[] {
  if (rows.length === 0) return [];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const variantRows = tenant.sqlite
    .query(
      "SELECT * FROM variants WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position",
    )
    .all(ids) as VariantRow[];
  const categoryRows = tenant.sqlite
    .query(
      `SELECT product_id, category_id FROM product_categories
        WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position`,
    )
    .all(ids) as Pick<Row<typeof productCategories>, "product_id" | "category_id">[];
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
  return rows.map((row) =>
    productView(row, variantsOf.get(row.id) ?? [], categoriesOf.get(row.id) ?? [], store),
  );
}

// ---------------------------------------------------------------- reads

interface ProductListQuery {
  query?: string;
  categoryId?: string;
  sort?: ProductSort;
  order?: "asc" | "desc";
  /** Only this status; undefined lists every status (admin). */
  status?: ProductStatus;
}

const SORT_COLUMN: Record<ProductSort, string> = {
  price: "p.min_price",
  name: "p.sort_name",
  createdAt: "p.created_at",
};

/** The most search matches counted exactly: past it `total` is this cap and `totalIsEstimate` is true. */
export const SEARCH_COUNT_CAP = 1000;

export interface ProductPage {
  items: ProductView[];
  total: number;
  /** Set (true) when a search had more matches than the cap counts, and `total` is the cap. */
  totalIsEstimate?: true;
}

/** The listing's conditions besides the search: `WITH` tables, `WHERE` terms and their arguments. */
interface ListFilter {
  ctes: string[];
  where: string[];
  args: (string | number)[];
}

function listFilter(q: ProductListQuery): ListFilter {
  const filter: ListFilter = { ctes: [], where: [], args: [] };
  if (q.categoryId) {
    filter.ctes.push(
      "tree(id) AS (SELECT ? UNION SELECT c.id FROM categories c JOIN tree ON c.parent_id = tree.id)",
    );
    filter.args.push(q.categoryId);
    filter.where.push(
      // Checked per product as the sort order reaches it (an index lookup), not a list of the
      // category's products built first: a first page of a big category stops after a few rows.
      "EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = p.id AND pc.category_id IN (SELECT id FROM tree))",
    );
  }
  if (q.status) {
    filter.where.push("p.status = ?");
    filter.args.push(q.status);
  }
  return filter;
}

const NO_FILTER: ListFilter = { ctes: [], where: [], args: [] };

const withClause = (ctes: string[]) => (ctes.length ? `WITH RECURSIVE ${ctes.join(", ")} ` : "");
const whereClause = (where: string[]) => (where.length ? ` WHERE ${where.join(" AND ")}` : "");

/**
 * One page of products and the total, in four queries whatever the page size: the page, the
 * total, then variants and categories of the page. Ties are broken by id (by relevance: oldest
 * first), so pages never repeat or skip a product. With a search query and no sort, results come by relevance. Without a search the
 * total is the kept count (src/catalog/counts.ts); a search counts its matches up to `countCap`.
 */
export function listProducts(
  tenant: TenantDb,
  q: ProductListQuery,
  page: PageParams,
  countCap = SEARCH_COUNT_CAP,
): ProductPage {
  const store = getStore(tenant);
  const match = q.query === undefined ? undefined : toMatchQuery(q.query);
  if (match === null) return { items: [], total: 0 };
  const filter = listFilter(q);
  if (match === undefined) {
    const orderBy = q.sort ? sortOrder(q) : "p.created_at DESC, p.id DESC";
    const rows = tenant.sqlite
      .query(
        `${withClause(filter.ctes)}SELECT p.* FROM products p${whereClause(filter.where)} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      )
      .all(...filter.args, page.limit, (page.page - 1) * page.limit) as ProductRow[];
    return { items: assemble(tenant, rows, store), total: keptProductCount(tenant, q.status, q.categoryId) };
  }
  const rows = q.sort
    ? sortedMatches(tenant, match, filter, sortOrder(q), page)
    : rankedMatches(tenant, match, filter, page);
  const matches = overCapByIndex(tenant, match, q, countCap)
    ? countCap + 1
    : countMatches(tenant, match, filter, countCap);
  const items = assemble(tenant, rows, store);
  return matches > countCap ? { items, total: countCap, totalIsEstimate: true } : { items, total: matches };
}

function sortOrder(q: ProductListQuery): string {
  const sort = q.sort!;
  const direction = (q.order ?? (sort === "createdAt" ? "desc" : "asc")).toUpperCase();
  return `${SORT_COLUMN[sort]} ${direction}, p.id ${direction}`;
}

const MATCHES = "product_search JOIN products p ON p.seq = product_search.rowid";

/** The matches, counted up to one past `cap`: enough to tell whether there are more than the cap. */
function countMatches(tenant: TenantDb, match: string, filter: ListFilter, cap: number): number {
  const where = whereClause(["product_search MATCH ?", ...filter.where]);
  const [cteArgs, whereArgs] = splitArgs(filter);
  const row = tenant.sqlite
    .query(`${withClause(filter.ctes)}SELECT count(*) AS n FROM (SELECT 1 FROM ${MATCHES}${where} LIMIT ?)`)
    .get(...cteArgs, match, ...whereArgs, cap + 1) as { n: number };
  return row.n;
}

/**
 * Whether more than `cap` products match, told from the search index alone when at most a status
 * filters them (a storefront search): besides the filter's products the index holds only those of
 * the other statuses (their kept count), so more than `cap` plus those index matches are more than
 * `cap` matches, counted without reading a product row (a third of a big search's time). With a
 * category, or more products of other statuses than the cap, the exact count decides.
 */
function overCapByIndex(tenant: TenantDb, match: string, q: ProductListQuery, cap: number): boolean {
  if (q.categoryId !== undefined) return false;
  const others =
    q.status === undefined ? 0 : keptProductCount(tenant, undefined) - keptProductCount(tenant, q.status);
  if (others > cap) return false;
  const row = tenant.sqlite
    .query("SELECT count(*) AS n FROM (SELECT 1 FROM product_search WHERE product_search MATCH ? LIMIT ?)")
    .get(match, cap + others + 1) as { n: number };
  return row.n > cap + others;
}

/** The filter's arguments of its `WITH` tables (first in the SQL) and of its `WHERE` terms. */
const splitArgs = (filter: ListFilter): [ListFilter["args"], ListFilter["args"]] => [
  filter.args.slice(0, filter.ctes.length),
  filter.args.slice(filter.ctes.length),
];

/** A page of matches in an explicit sort order (every match is sorted). */
function sortedMatches(
  tenant: TenantDb,
  match: string,
  filter: ListFilter,
  orderBy: string,
  page: PageParams,
) {
  const [cteArgs, whereArgs] = splitArgs(filter);
  return tenant.sqlite
    .query(
      `${withClause(filter.ctes)}SELECT p.* FROM ${MATCHES}${whereClause(["product_search MATCH ?", ...filter.where])}
       ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
    )
    .all(...cteArgs, match, ...whereArgs, page.limit, (page.page - 1) * page.limit) as ProductRow[];
}

/**
 * The relevance order: bm25 rank, ties oldest first. The tie-break is the FTS rowid (the product's
 * `seq`, which grows with each product created), so the order is total on the FTS side alone.
 * Ascending, a match tied with the deepest candidate arrives after it and is dropped at once;
 * descending, each one would replace a candidate (measured 1.2-2x slower on big tie groups).
 */
const RELEVANCE = "rank, rowid";

/**
 * A page of matches by relevance. FTS5 ranks alone, under `ORDER BY rank, rowid LIMIT depth`
 * (a bounded sort of rowids and ranks, no product rows), and only those candidates are joined to
 * products, filtered and paged. The candidates are the first `depth` matches of the whole order,
 * so the page is the exact one when it is full or when there were no more matches than `depth`;
 * otherwise (a filter removed too many candidates) every match is ranked with its product row.
 */
function rankedMatches(tenant: TenantDb, match: string, filter: ListFilter, page: PageParams): ProductRow[] {
  const [cteArgs, whereArgs] = splitArgs(filter);
  const ctes = [
    ...filter.ctes,
    `hits(seq, rank) AS MATERIALIZED (SELECT rowid, rank FROM product_search WHERE product_search MATCH ? ORDER BY ${RELEVANCE} LIMIT ?)`,
  ];
  const offset = (page.page - 1) * page.limit;
  // Room for a filter (status, category) to drop three candidates in four and still fill the page.
  const depth = 4 * (offset + page.limit);
  const rows = tenant.sqlite
    .query(
      // CROSS JOIN keeps the candidates as the outer loop: with a status filter the planner would
      // otherwise walk the status index over every product and probe the candidates.
      `${withClause(ctes)}SELECT p.* FROM hits CROSS JOIN products p ON p.seq = hits.seq${whereClause(filter.where)}
       ORDER BY hits.rank, hits.seq LIMIT ? OFFSET ?`,
    )
    .all(...cteArgs, match, depth, ...whereArgs, page.limit, offset) as ProductRow[];
  if (rows.length === page.limit || countMatches(tenant, match, NO_FILTER, depth) <= depth) return rows;
  return sortedMatches(tenant, match, filter, "product_search.rank, product_search.rowid", page);
}

/** Every product of every status, oldest first, in three queries (the catalog export). */
export function allProducts(tenant: TenantDb): ProductView[] {
  const rows = tenant.sqlite.query("SELECT * FROM products ORDER BY created_at, id").all() as ProductRow[];
  return assemble(tenant, rows, getStore(tenant));
}

/** A product by id or slug; `activeOnly` (storefront) hides drafts and archived products. */
export function getProduct(tenant: TenantDb, idOrSlug: string, activeOnly: boolean): ProductView {
  const row = tenant.sqlite
    .query(`SELECT * FROM products WHERE (id = ?1 OR slug = ?1)${activeOnly ? " AND status = 'active'" : ""}`)
    .get(idOrSlug) as ProductRow | null;
  if (!row) throw notFound("Product");
  return assemble(tenant, [row], getStore(tenant))[0]!;
}

/** The variant an id or SKU names, with its product's id (any status: reading it says whether it is sold), or null. */
export function variantByIdOrSku(
  tenant: TenantDb,
  idOrSku: string,
): { variantId: string; productId: string } | null {
  return tenant.sqlite
    .query("SELECT id AS variantId, product_id AS productId FROM variants WHERE id = ?1 OR sku = ?1 LIMIT 1")
    .get(idOrSku) as { variantId: string; productId: string } | null;
}

// ---------------------------------------------------------------- writes

const invalid = (message: string, details: ErrorDetail[]) =>
  new ApiError("VALIDATION_ERROR", message, details);

interface ResolvedVariant {
  id: string;
  sku: string | null;
  title: string;
  options: Record<string, string>;
  price: number;
  compareAtPrice: number | null;
  tracked: boolean;
  onHand: number;
  allowBackorder: boolean;
}

/**
 * Checks the variants against the options (each variant names one value of each option, no two
 * share a combination; no options means exactly one variant) and fills defaults: a title from the
 * option values, and inventory untracked unless a count or `tracked` is given.
 */
function resolveVariants(
  options: ProductOption[],
  inputs: VariantInput[],
  existing: Map<string, VariantRow>,
): ResolvedVariant[] {
  const names = options.map((o) => o.name);
  if (new Set(names).size !== names.length) {
    throw invalid("Two options have the same name", [
      { path: "/body/options", message: "option names must differ" },
    ]);
  }
  if (options.length === 0 && inputs.length !== 1) {
    throw invalid("A product without options has exactly one variant", [
      { path: "/body/variants", message: "exactly one variant when there are no options" },
    ]);
  }
  const combinations = new Set<string>();
  return inputs.map((input, i) => {
    const path = `/body/variants/${i}`;
    const current = input.id === undefined ? undefined : existing.get(input.id);
    if (input.id !== undefined && !current) {
      throw invalid("A variant id does not belong to this product", [
        { path: `${path}/id`, message: "unknown variant" },
      ]);
    }
    const chosen = input.options ?? (current ? (JSON.parse(current.options) as Record<string, string>) : {});
    for (const key of Object.keys(chosen)) {
      if (!names.includes(key)) {
        throw invalid(`Variant ${i} names an option the product does not have`, [
          { path: `${path}/options/${key}`, message: "not an option of the product" },
        ]);
      }
    }
    for (const option of options) {
      const value = chosen[option.name];
      if (value === undefined || !option.values.includes(value)) {
        throw invalid(`Variant ${i} needs one of the values of option "${option.name}"`, [
          { path: `${path}/options/${option.name}`, message: `one of: ${option.values.join(", ")}` },
        ]);
      }
    }
    const key = JSON.stringify(names.map((n) => chosen[n]));
    if (combinations.has(key)) {
      throw invalid("Two variants have the same option values", [
        { path: `${path}/options`, message: "duplicate combination" },
      ]);
    }
    combinations.add(key);
    const inventory = input.inventory ?? {};
    const title =
      input.title ?? (names.length ? names.map((n) => chosen[n]).join(" / ") : (current?.title ?? "Default"));
    return {
      id: current?.id ?? newId("var"),
      sku: input.sku === undefined ? (current?.sku ?? null) : input.sku,
      title,
      options: chosen,
      price: input.price,
      compareAtPrice:
        input.compareAtPrice === undefined ? (current?.compare_at_price ?? null) : input.compareAtPrice,
      tracked: inventory.tracked ?? (current ? current.tracked === 1 : inventory.onHand !== undefined),
      onHand: inventory.onHand ?? current?.on_hand ?? 0,
      allowBackorder: inventory.allowBackorder ?? (current ? current.allow_backorder === 1 : false),
    };
  });
}

function checkSkus(tenant: TenantDb, productId: string, variants: ResolvedVariant[]) {
  const skus = variants.map((v) => v.sku).filter((s): s is string => s !== null);
  if (new Set(skus).size !== skus.length) throw new ApiError("CONFLICT", "Two variants have the same SKU");
  if (skus.length === 0) return;
  const taken = tenant.sqlite
    .query("SELECT sku FROM variants WHERE sku IN (SELECT value FROM json_each(?)) AND product_id <> ?")
    .all(JSON.stringify(skus), productId) as Pick<VariantRow, "sku">[];
  if (taken.length) throw new ApiError("CONFLICT", `SKU ${taken[0]!.sku} is already used by another product`);
}

function slugTaken(tenant: TenantDb, slug: string, except: string): boolean {
  const row = tenant.sqlite.query("SELECT id FROM products WHERE slug = ?").get(slug) as Pick<
    Row<typeof products>,
    "id"
  > | null;
  return row !== null && row.id !== except;
}

/** Refuses names and descriptions outside the store's locales and categories that do not exist. */
function checkReferences(tenant: TenantDb, store: Store, input: ProductInput) {
  if (input.name) checkLocalized(store, input.name, "/body/name", true);
  if (input.description) checkLocalized(store, input.description, "/body/description", false);
  if (input.categoryIds) {
    const unknown = unknownCategories(tenant, input.categoryIds);
    if (unknown.length) {
      throw invalid(`Unknown category ${unknown[0]}`, [
        { path: `/body/categoryIds/${input.categoryIds.indexOf(unknown[0]!)}`, message: "unknown category" },
      ]);
    }
  }
}

/** The product's options and checked variants after the write: those sent, else the stored ones. */
function variantsAfterWrite(
  tenant: TenantDb,
  id: string,
  existingRow: ProductRow | null,
  input: ProductInput,
) {
  const existingVariants = existingRow
    ? (tenant.sqlite
        .query("SELECT * FROM variants WHERE product_id = ? ORDER BY position")
        .all(id) as VariantRow[])
    : [];
  const options = input.options ?? (existingRow ? (JSON.parse(existingRow.options) as ProductOption[]) : []);
  const variantInputs: VariantInput[] =
    input.variants ??
    existingVariants.map((v) => ({
      id: v.id,
      price: v.price,
      options: JSON.parse(v.options) as Record<string, string>,
    }));
  const variants = resolveVariants(options, variantInputs, new Map(existingVariants.map((v) => [v.id, v])));
  checkSkus(tenant, id, variants);
  return { options, variants };
}

/** The slug sent (refused when another product has it), else the stored one, else a free one from the name. */
function productSlug(
  tenant: TenantDb,
  id: string,
  existingRow: ProductRow | null,
  input: ProductInput,
  name: Localized,
  store: Store,
): string {
  if (input.slug !== undefined && slugTaken(tenant, input.slug, id)) {
    throw new ApiError("CONFLICT", `The product slug "${input.slug}" is taken`);
  }
  return (
    input.slug ??
    existingRow?.slug ??
    freeSlug(slugify(name[store.defaultLocale] ?? Object.values(name)[0] ?? "", 100, "product"), (s) =>
      slugTaken(tenant, s, id),
    )
  );
}

/** The `products` row after the write: each field sent, else the stored one, else its default. */
function productRowAfterWrite(
  existingRow: ProductRow | null,
  input: ProductInput,
  resolved: {
    id: string;
    slug: string;
    name: Localized;
    options: ProductOption[];
    variants: ResolvedVariant[];
  },
  store: Store,
) {
  const { name, variants } = resolved;
  const prices = variants.map((v) => v.price);
  const now = Date.now();
  const pick = <K extends keyof ProductRow>(key: K, fallback: ProductRow[K]) =>
    existingRow ? existingRow[key] : fallback;
  return {
    id: resolved.id,
    slug: resolved.slug,
    status: input.status ?? pick("status", "active"),
    name: JSON.stringify(name),
    description:
      input.description === undefined
        ? pick("description", null)
        : input.description && JSON.stringify(input.description),
    tags: input.tags ? JSON.stringify(input.tags) : pick("tags", "[]"),
    images: input.images ? JSON.stringify(input.images) : pick("images", "[]"),
    options: JSON.stringify(resolved.options),
    tax_rate: input.taxRate === undefined ? pick("tax_rate", null) : input.taxRate,
    requires_shipping:
      input.requiresShipping === undefined ? pick("requires_shipping", 1) : Number(input.requiresShipping),
    // A product named before the default locale changed may lack it: keep its sort key, as
    // updateStore does, else the first name it has.
    sort_name: (
      name[store.defaultLocale] ??
      existingRow?.sort_name ??
      Object.values(name)[0] ??
      ""
    ).toLowerCase(),
    min_price: Math.min(...prices),
    max_price: Math.max(...prices),
    created_at: pick("created_at", now),
    updated_at: now,
  };
}

type ProductRowAfterWrite = ReturnType<typeof productRowAfterWrite>;

function insertOrUpdateProduct(tenant: TenantDb, row: ProductRowAfterWrite, creating: boolean) {
  if (creating) {
    tenant.sqlite
      .query(
        `INSERT INTO products (id, slug, status, name, description, tags, images, options, tax_rate,
           requires_shipping, sort_name, min_price, max_price, created_at, updated_at)
         VALUES ($id, $slug, $status, $name, $description, $tags, $images, $options, $tax_rate,
           $requires_shipping, $sort_name, $min_price, $max_price, $created_at, $updated_at)`,
      )
      .run(row);
    return;
  }
  const { created_at: _, ...updated } = row;
  tenant.sqlite
    .query(
      `UPDATE products SET slug = $slug, status = $status, name = $name, description = $description,
         tags = $tags, images = $images, options = $options, tax_rate = $tax_rate,
         requires_shipping = $requires_shipping, sort_name = $sort_name, min_price = $min_price,
         max_price = $max_price, updated_at = $updated_at
       WHERE id = $id`,
    )
    .run(updated);
}

/** Replaces the product's variants with `variants`, in their order: missing ones deleted, others upserted. */
function replaceVariants(tenant: TenantDb, productId: string, variants: ResolvedVariant[]) {
  const sqlite = tenant.sqlite;
  const keep = variants.map((v) => v.id);
  sqlite
    .query("DELETE FROM variants WHERE product_id = ? AND id NOT IN (SELECT value FROM json_each(?))")
    .run(productId, JSON.stringify(keep));
  // SKUs move between variants of one product: clear them first so the unique index never sees a swap.
  sqlite.query("UPDATE variants SET sku = NULL WHERE product_id = ?").run(productId);
  const upsert = sqlite.query(
    `INSERT INTO variants (id, product_id, sku, title, options, price, compare_at_price, tracked, on_hand,
       allow_backorder, position)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
     ON CONFLICT (id) DO UPDATE SET sku = ?3, title = ?4, options = ?5, price = ?6, compare_at_price = ?7,
       tracked = ?8, on_hand = ?9, allow_backorder = ?10, position = ?11`,
  );
  variants.forEach((v, position) => {
    upsert.run(
      v.id,
      productId,
      v.sku,
      v.title,
      JSON.stringify(v.options),
      v.price,
      v.compareAtPrice,
      Number(v.tracked),
      v.onHand,
      Number(v.allowBackorder),
      position,
    );
  });
}

function replaceCategories(tenant: TenantDb, productId: string, categoryIds: string[]) {
  tenant.sqlite.query("DELETE FROM product_categories WHERE product_id = ?").run(productId);
  const link = tenant.sqlite.query(
    "INSERT INTO product_categories (product_id, category_id, position) VALUES (?, ?, ?)",
  );
  categoryIds.forEach((categoryId, position) => {
    link.run(productId, categoryId, position);
  });
}

/** Writes the product's search entry from the row just written. */
function reindexProduct(tenant: TenantDb, row: ProductRowAfterWrite, variants: ResolvedVariant[]) {
  const { seq } = tenant.sqlite.query("SELECT seq FROM products WHERE id = ?").get(row.id) as Pick<
    Row<typeof products>,
    "seq"
  >;
  indexProduct(tenant, {
    seq,
    name: JSON.parse(row.name) as Localized,
    description: parseJsonOrNull<Localized>(row.description),
    tags: JSON.parse(row.tags) as string[],
    skus: variants.map((v) => v.sku),
  });
}

/** Writes a product (new or existing) and everything hanging off it, in one transaction. */
function save(
  tenant: TenantDb,
  id: string,
  existingRow: ProductRow | null,
  input: ProductInput,
): ProductView {
  const store = getStore(tenant);
  checkReferences(tenant, store, input);
  const { options, variants } = variantsAfterWrite(tenant, id, existingRow, input);
  const name = input.name ?? (JSON.parse(existingRow!.name) as Localized);
  const slug = productSlug(tenant, id, existingRow, input, name, store);
  const row = productRowAfterWrite(existingRow, input, { id, slug, name, options, variants }, store);
  tenant.sqlite.transaction(() =>
    countedProductWrite(tenant, id, () => {
      insertOrUpdateProduct(tenant, row, existingRow === null);
      replaceVariants(tenant, id, variants);
      if (input.categoryIds) replaceCategories(tenant, id, input.categoryIds);
      reindexProduct(tenant, row, variants);
    }),
  )();
  return getProduct(tenant, id, false);
}

export function createProduct(
  tenant: TenantDb,
  input: ProductInput & { name: Localized; variants: VariantInput[] },
) {
  return save(tenant, newId("prod"), null, input);
}

export function updateProduct(tenant: TenantDb, id: string, input: ProductInput) {
  const row = tenant.sqlite.query("SELECT * FROM products WHERE id = ?").get(id) as ProductRow | null;
  if (!row) throw notFound("Product");
  return save(tenant, id, row, input);
}

export function deleteProduct(tenant: TenantDb, id: string): void {
  const row = tenant.sqlite.query("SELECT seq FROM products WHERE id = ?").get(id) as Pick<
    Row<typeof products>,
    "seq"
  > | null;
  if (!row) throw notFound("Product");
  tenant.sqlite.transaction(() =>
    countedProductWrite(tenant, id, () => {
      tenant.sqlite.query("DELETE FROM products WHERE id = ?").run(id);
      removeFromIndex(tenant, row.seq);
    }),
  )();
}
