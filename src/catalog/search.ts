import type { TenantDb } from "../db/tenant-pool.ts";
import type { Localized } from "./tables.ts";

// The FTS5 table `product_search` (migration 0002) mirrors each product's searchable text under
// the product's `seq` as rowid, so updates and deletes are lookups, never scans.

interface SearchableProduct {
  seq: number;
  name: Localized;
  description: Localized | null;
  tags: string[];
  skus: (string | null)[];
}

/** Replaces the product's row in the search index; call inside the product write's transaction. */
export function indexProduct(tenant: TenantDb, product: SearchableProduct): void {
  removeFromIndex(tenant, product.seq);
  tenant.sqlite
    .query("INSERT INTO product_search (rowid, name, description, sku, tags) VALUES (?, ?, ?, ?, ?)")
    .run(
      product.seq,
      Object.values(product.name).join(" "),
      Object.values(product.description ?? {}).join(" "),
      product.skus.filter(Boolean).join(" "),
      product.tags.join(" "),
    );
}

export function removeFromIndex(tenant: TenantDb, seq: number): void {
  tenant.sqlite.query("DELETE FROM product_search WHERE rowid = ?").run(seq);
}

/**
 * Turns what a shopper typed into an FTS5 query: every word must match as a prefix
 * (`"tshirt"* "red"*`). Words are quoted, so FTS operators and punctuation in the input are inert.
 * Returns null when nothing searchable is left.
 */
export function toMatchQuery(input: string): string | null {
  const words = input.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words
    .slice(0, 12)
    .map((w) => `"${w}"*`)
    .join(" ");
}
