import type { TenantDb } from "../db/tenant-pool.ts";
import type { ProductStatus } from "./tables.ts";

// The kept product counts (`product_counts` per status, `category_product_counts` per category and
// status, subcategories included): the totals of unfiltered and category-only listings without a
// `count(*)` over the catalog. They are written here, by the catalog's own write functions and in
// their transaction, not by SQLite triggers: a category's count covers its subcategories, which
// takes the category tree (a recursive query), and SQLite allows no `WITH` inside a trigger.

/** Where a product counts: its status, and its categories with every category above them. */
interface Placement {
  status: ProductStatus;
  categories: string[];
}

function placementOf(tenant: TenantDb, productId: string): Placement | null {
  const row = tenant.sqlite.query("SELECT status FROM products WHERE id = ?").get(productId) as {
    status: ProductStatus;
  } | null;
  if (!row) return null;
  const categories = tenant.sqlite
    .query(
      `WITH RECURSIVE up(id) AS (
         SELECT category_id FROM product_categories WHERE product_id = ?
         UNION SELECT c.parent_id FROM categories c JOIN up ON c.id = up.id WHERE c.parent_id IS NOT NULL)
       SELECT id FROM up`,
    )
    .all(productId) as { id: string }[];
  return { status: row.status, categories: categories.map((c) => c.id) };
}

function addTo(tenant: TenantDb, placement: Placement, delta: 1 | -1) {
  tenant.sqlite
    .query(
      "INSERT INTO product_counts (status, n) VALUES (?, ?) ON CONFLICT (status) DO UPDATE SET n = n + excluded.n",
    )
    .run(placement.status, delta);
  const add = tenant.sqlite.query(
    `INSERT INTO category_product_counts (category_id, status, n) VALUES (?, ?, ?)
     ON CONFLICT (category_id, status) DO UPDATE SET n = n + excluded.n`,
  );
  for (const id of placement.categories) add.run(id, placement.status, delta);
}

/**
 * Runs a write of one product (create, update, delete) and moves the kept counts by what it
 * changed: out of where the product counted before, into where it counts after. Call it inside the
 * write's transaction.
 */
export function countedProductWrite<T>(tenant: TenantDb, productId: string, write: () => T): T {
  const before = placementOf(tenant, productId);
  const result = write();
  const after = placementOf(tenant, productId);
  if (before) addTo(tenant, before, -1);
  if (after) addTo(tenant, after, 1);
  return result;
}

/** The category and every category above it. */
export function categoryWithAncestors(tenant: TenantDb, categoryId: string): string[] {
  const rows = tenant.sqlite
    .query(
      `WITH RECURSIVE up(id) AS (
         SELECT ? UNION SELECT c.parent_id FROM categories c JOIN up ON c.id = up.id WHERE c.parent_id IS NOT NULL)
       SELECT id FROM up`,
    )
    .all(categoryId) as { id: string }[];
  return rows.map((r) => r.id);
}

/**
 * Counts these categories again from the products (after a category moved or was deleted, which
 * changes what the categories above it hold). Costs a count over each one's products: category
 * writes are rare, product writes use the deltas of `countedProductWrite`.
 */
export function recountCategories(tenant: TenantDb, categoryIds: string[]): void {
  const ids = JSON.stringify([...new Set(categoryIds)]);
  tenant.sqlite
    .query("DELETE FROM category_product_counts WHERE category_id IN (SELECT value FROM json_each(?))")
    .run(ids);
  tenant.sqlite
    .query(
      `INSERT INTO category_product_counts (category_id, status, n)
       WITH RECURSIVE tree(root, id) AS (
         SELECT id, id FROM categories WHERE id IN (SELECT value FROM json_each(?))
         UNION SELECT tree.root, c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
       SELECT tree.root, p.status, count(DISTINCT p.id) FROM tree
         JOIN product_categories pc ON pc.category_id = tree.id
         JOIN products p ON p.id = pc.product_id
       GROUP BY tree.root, p.status`,
    )
    .run(ids);
}

/** The kept number of products with `status` (every status when undefined), in `categoryId` when given. */
export function keptProductCount(
  tenant: TenantDb,
  status: ProductStatus | undefined,
  categoryId?: string,
): number {
  const row = (
    categoryId === undefined
      ? tenant.sqlite
          .query("SELECT coalesce(sum(n), 0) AS n FROM product_counts WHERE ?1 IS NULL OR status = ?1")
          .get(status ?? null)
      : tenant.sqlite
          .query(
            `SELECT coalesce(sum(n), 0) AS n FROM category_product_counts
              WHERE category_id = ?2 AND (?1 IS NULL OR status = ?1)`,
          )
          .get(status ?? null, categoryId)
  ) as { n: number };
  return row.n;
}
