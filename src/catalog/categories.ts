import { eq } from "drizzle-orm";
import { ApiError, notFound } from "../core/errors.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { freeSlug, slugify } from "../lib/slug.ts";
import { iso } from "../lib/time.ts";
import { categoryWithAncestors, recountCategories } from "./counts.ts";
import { checkLocalized, getStore } from "./store-settings.ts";
import { categories, type Localized } from "./tables.ts";

export interface CategoryInput {
  name?: Localized;
  slug?: string;
  description?: Localized | null;
  parentId?: string | null;
  position?: number;
}

/** `c.*` plus the computed `product_count` of SELECT below. */
type CategoryRow = Row<typeof categories> & { product_count: number };

const toView = (row: CategoryRow) => ({
  id: row.id,
  slug: row.slug,
  name: JSON.parse(row.name) as Localized,
  description: parseJsonOrNull<Localized>(row.description),
  parentId: row.parent_id,
  position: row.position,
  productCount: row.product_count,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

// `product_count` is what `GET /v1/products?categoryId=` lists for the category: active products in
// it or in any category below it, each once (a product in a parent and its child counts once), as
// kept in `category_product_counts` (src/catalog/counts.ts).
const SELECT = `SELECT c.*, coalesce(k.n, 0) AS product_count
                  FROM categories c
                  LEFT JOIN category_product_counts k ON k.category_id = c.id AND k.status = 'active'`;

/** Every category, by position (then name), each with its count of active products, subcategories included. */
export function listCategories(tenant: TenantDb) {
  const rows = tenant.sqlite.query(`${SELECT} ORDER BY c.position, c.slug, c.id`).all() as CategoryRow[];
  return rows.map(toView);
}

export function getCategory(tenant: TenantDb, id: string) {
  const row = tenant.sqlite.query(`${SELECT} WHERE c.id = ?`).get(id) as CategoryRow | null;
  if (!row) throw notFound("Category");
  return toView(row);
}

function slugTaken(tenant: TenantDb, slug: string, except?: string): boolean {
  const row = tenant.sqlite.query("SELECT id FROM categories WHERE slug = ?").get(slug) as Pick<
    Row<typeof categories>,
    "id"
  > | null;
  return row !== null && row.id !== except;
}

/** Refuses a parent that does not exist or that would put `id` under itself. */
function checkParent(tenant: TenantDb, id: string | undefined, parentId: string) {
  if (parentId === id) throw new ApiError("CONFLICT", "A category cannot be its own parent");
  const ancestors = tenant.sqlite
    .query(
      `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM categories WHERE id = ?
         UNION SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id)
       SELECT id FROM up`,
    )
    .all(parentId) as Pick<Row<typeof categories>, "id">[];
  if (ancestors.length === 0) {
    throw new ApiError("VALIDATION_ERROR", "The parent category does not exist", [
      { path: "/body/parentId", message: "unknown category" },
    ]);
  }
  if (id && ancestors.some((a) => a.id === id)) {
    throw new ApiError("CONFLICT", "That parent would make a cycle: it is inside this category");
  }
}

export function createCategory(tenant: TenantDb, input: CategoryInput & { name: Localized }) {
  const store = getStore(tenant);
  checkLocalized(store, input.name, "/body/name", true);
  if (input.description) checkLocalized(store, input.description, "/body/description", false);
  if (input.parentId) checkParent(tenant, undefined, input.parentId);
  let slug = input.slug;
  if (slug && slugTaken(tenant, slug)) throw new ApiError("CONFLICT", `The category slug "${slug}" is taken`);
  slug ??= freeSlug(slugify(input.name[store.defaultLocale]!, 100, "category"), (s) => slugTaken(tenant, s));
  const now = Date.now();
  const id = newId("cat");
  tenant.db
    .insert(categories)
    .values({
      id,
      slug,
      name: input.name,
      description: input.description ?? null,
      parentId: input.parentId ?? null,
      position: input.position ?? 0,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return getCategory(tenant, id);
}

export function updateCategory(tenant: TenantDb, id: string, input: CategoryInput) {
  const current = getCategory(tenant, id);
  const store = getStore(tenant);
  if (input.name) checkLocalized(store, input.name, "/body/name", true);
  if (input.description) checkLocalized(store, input.description, "/body/description", false);
  if (input.parentId) checkParent(tenant, id, input.parentId);
  if (input.slug && slugTaken(tenant, input.slug, id)) {
    throw new ApiError("CONFLICT", `The category slug "${input.slug}" is taken`);
  }
  const moved = input.parentId !== undefined && input.parentId !== current.parentId;
  // What the categories above it hold changes with a move: those above the old place and the new one.
  const recount = moved ? categoryWithAncestors(tenant, id) : [];
  tenant.db
    .update(categories)
    .set({
      name: input.name ?? current.name,
      slug: input.slug ?? current.slug,
      description: input.description === undefined ? current.description : input.description,
      parentId: input.parentId === undefined ? current.parentId : input.parentId,
      position: input.position ?? current.position,
      updatedAt: Date.now(),
    })
    .where(eq(categories.id, id))
    .run();
  if (moved) recountCategories(tenant, [...recount, ...categoryWithAncestors(tenant, id)]);
  return getCategory(tenant, id);
}

/** Deletes a category without children; its products simply lose it. */
export function deleteCategory(tenant: TenantDb, id: string): void {
  getCategory(tenant, id);
  const child = tenant.sqlite.query("SELECT id FROM categories WHERE parent_id = ? LIMIT 1").get(id);
  if (child) throw new ApiError("CONFLICT", "The category has subcategories: move or delete them first");
  const above = categoryWithAncestors(tenant, id).filter((c) => c !== id);
  tenant.db.delete(categories).where(eq(categories.id, id)).run();
  recountCategories(tenant, above);
}

/** Unknown ids among `ids`, for validating a product's categories. */
export function unknownCategories(tenant: TenantDb, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const found = tenant.sqlite
    .query("SELECT id FROM categories WHERE id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify(ids)) as Pick<Row<typeof categories>, "id">[];
  const known = new Set(found.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}
