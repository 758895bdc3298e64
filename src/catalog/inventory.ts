import { ApiError, notFound } from "../core/errors.ts";
import { recordEvent } from "../core/events.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { MAX_ON_HAND } from "./schema.ts";
import { getStore } from "./store-settings.ts";
import type { variants } from "./tables.ts";

interface InventoryChange {
  onHand?: number;
  adjust?: number;
  tracked?: boolean;
  allowBackorder?: boolean;
}

/** The columns of SELECT below. */
type LevelRow = Pick<
  Row<typeof variants>,
  "id" | "product_id" | "sku" | "tracked" | "on_hand" | "allow_backorder"
>;

const view = (row: LevelRow) => ({
  variantId: row.id,
  productId: row.product_id,
  sku: row.sku,
  tracked: row.tracked === 1,
  onHand: row.on_hand,
  allowBackorder: row.allow_backorder === 1,
});

const SELECT = "SELECT id, product_id, sku, tracked, on_hand, allow_backorder FROM variants WHERE id = ?";

function getInventory(tenant: TenantDb, variantId: string) {
  const row = tenant.sqlite.query(SELECT).get(variantId) as LevelRow | null;
  if (!row) throw notFound("Variant");
  return view(row);
}

/**
 * Sets (`onHand`) or adjusts (`adjust`, a signed delta) a variant's stock, and its flags. An
 * adjustment is one conditional UPDATE, so concurrent adjustments never take stock below 0 nor
 * above `MAX_ON_HAND`, the most a set may write.
 */
export function updateInventory(tenant: TenantDb, variantId: string, change: InventoryChange) {
  if (change.onHand !== undefined && change.adjust !== undefined) {
    throw new ApiError("VALIDATION_ERROR", "Send onHand (set) or adjust (add or remove), not both", [
      { path: "/body", message: "onHand and adjust are exclusive" },
    ]);
  }
  const before = getInventory(tenant, variantId);
  tenant.sqlite.transaction(() => {
    if (change.adjust !== undefined) {
      const result = tenant.sqlite
        .query("UPDATE variants SET on_hand = on_hand + ?1 WHERE id = ?2 AND on_hand + ?1 BETWEEN 0 AND ?3")
        .run(change.adjust, variantId, MAX_ON_HAND);
      if (result.changes === 0) {
        throw change.adjust < 0
          ? new ApiError("UNPROCESSABLE", "Stock cannot go below 0", [
              { path: "/body/adjust", message: "would leave negative stock" },
            ])
          : new ApiError("UNPROCESSABLE", `Stock cannot go above ${MAX_ON_HAND}`, [
              { path: "/body/adjust", message: `would leave more than ${MAX_ON_HAND} units` },
            ]);
      }
    }
    tenant.sqlite
      .query(
        `UPDATE variants SET on_hand = coalesce(?2, on_hand), tracked = coalesce(?3, tracked),
           allow_backorder = coalesce(?4, allow_backorder) WHERE id = ?1`,
      )
      .run(
        variantId,
        change.onHand ?? null,
        change.tracked === undefined ? null : Number(change.tracked),
        change.allowBackorder === undefined ? null : Number(change.allowBackorder),
      );
    noteLowStock(tenant, variantId, before.onHand);
  })();
  return getInventory(tenant, variantId);
}

/**
 * Records `inventory.low_stock` when a variant that is sold only from stock (tracked, no backorder)
 * falls to the store's low-stock threshold or below from above it: once per crossing, not on every sale.
 */
function noteLowStock(tenant: TenantDb, variantId: string, onHandBefore: number, onHandAfter?: number): void {
  const threshold = getStore(tenant).lowStockThreshold;
  // Most changes cross nothing: stock already at or below the threshold, or a sale that leaves it
  // above (known without a read on place-order's path).
  if (onHandBefore <= threshold || (onHandAfter !== undefined && onHandAfter > threshold)) return;
  const after = getInventory(tenant, variantId);
  if (!after.tracked || after.allowBackorder || after.onHand > threshold) return;
  recordEvent(tenant, "inventory.low_stock", { ...after, lowStockThreshold: threshold });
}

// ---------------------------------------------------------------- for orders

/**
 * Takes `units` of a variant for an order line, in the caller's transaction: an untracked variant
 * gives 0; on backorder what is on hand goes first and the rest is owed; otherwise all of `units`
 * or nothing (a conditional decrement, so two orders never take the last unit twice). Returns the
 * units taken, or null when a variant without backorder has fewer than `units` on hand.
 */
export function takeStock(
  tenant: TenantDb,
  variant: { id: string; tracked: boolean; allowBackorder: boolean; onHand: number },
  units: number,
): number | null {
  if (!variant.tracked) return 0;
  if (variant.allowBackorder) {
    const take = Math.min(Math.max(variant.onHand, 0), units);
    tenant.sqlite.query("UPDATE variants SET on_hand = on_hand - ? WHERE id = ?").run(take, variant.id);
    return take;
  }
  const result = tenant.sqlite
    .query("UPDATE variants SET on_hand = on_hand - ?1 WHERE id = ?2 AND on_hand >= ?1")
    .run(units, variant.id);
  if (result.changes === 0) return null;
  noteLowStock(tenant, variant.id, variant.onHand, variant.onHand - units);
  return units;
}

/** What a variant has on hand now (0 when it was deleted). */
export function unitsOnHand(tenant: TenantDb, variantId: string): number {
  const row = tenant.sqlite.query("SELECT on_hand FROM variants WHERE id = ?").get(variantId) as {
    on_hand: number;
  } | null;
  return row?.on_hand ?? 0;
}

/** Gives units back to stock (a cancelled or refunded order); a deleted variant receives nothing. */
export function returnStock(tenant: TenantDb, returned: { variantId: string; units: number }[]): void {
  const give = tenant.sqlite.query("UPDATE variants SET on_hand = on_hand + ? WHERE id = ?");
  for (const { variantId, units } of returned) if (units > 0) give.run(units, variantId);
}
