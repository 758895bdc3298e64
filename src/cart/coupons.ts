import { eq } from "drizzle-orm";
import { getStore, money } from "../catalog/store-settings.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { PageParams } from "../core/schemas.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import { type CouponType, coupons } from "./tables.ts";

// Coupons (docs/orders.md): admin CRUD plus the two checks the cart and place-order use. Codes are
// stored upper-case and matched case-insensitively; `usageCount` is only ever changed by orders.

/** A coupon as the cart and place-order see it. Times are epoch ms, money minor units. */
export interface CouponRow {
  id: string;
  code: string;
  type: CouponType;
  /** Percent (1–100) for percentage, minor units for fixed, 0 for free shipping. */
  value: number;
  minSubtotal: number | null;
  startsAt: number | null;
  endsAt: number | null;
  usageLimit: number | null;
  usageCount: number;
  active: boolean;
}

interface CouponRecord extends CouponRow {
  createdAt: number;
  updatedAt: number;
}

interface CouponInput {
  code?: string;
  type?: CouponType;
  value?: number;
  minSubtotal?: number | null;
  /** ISO 8601 */
  startsAt?: string | null;
  /** ISO 8601 */
  endsAt?: string | null;
  usageLimit?: number | null;
  active?: boolean;
}

/** `SELECT *` of coupons. */
type SqlRow = Row<typeof coupons>;

const fromSql = (r: SqlRow): CouponRecord => ({
  id: r.id,
  code: r.code,
  type: r.type,
  value: r.value,
  minSubtotal: r.min_subtotal,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  usageLimit: r.usage_limit,
  usageCount: r.usage_count,
  active: r.active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const couponView = (c: CouponRecord, currency: string) => ({
  id: c.id,
  code: c.code,
  type: c.type,
  value: c.value,
  minSubtotal: c.minSubtotal === null ? null : money(c.minSubtotal, currency),
  startsAt: isoOrNull(c.startsAt),
  endsAt: isoOrNull(c.endsAt),
  usageLimit: c.usageLimit,
  usageCount: c.usageCount,
  active: c.active,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

type CouponView = ReturnType<typeof couponView>;

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

// ---------------------------------------------------------------- for carts and orders

/** The coupon with this code, compared case-insensitively (surrounding spaces ignored); null when none. */
export function findCouponByCode(tenant: TenantDb, code: string): CouponRow | null {
  const normalized = code.trim();
  if (!CODE.test(normalized)) return null;
  const row = tenant.sqlite
    .query("SELECT * FROM coupons WHERE code = ?")
    .get(normalized.toUpperCase()) as SqlRow | null;
  return row ? fromSql(row) : null;
}

/** Why a coupon cannot apply, in the order checked; `COUPON_INVALID` carries it as the reason. */
type CouponProblem =
  | "unknown"
  | "inactive"
  | "not started"
  | "expired"
  | "usage limit reached"
  | "minimum subtotal not met";

/**
 * The reason `coupon` cannot apply to a cart of `subtotal` (minor units) at `now` (epoch ms), or
 * null when it applies. A coupon is valid from `startsAt` (inclusive) until `endsAt` (exclusive).
 */
export function couponProblem(coupon: CouponRow | null, subtotal: number, now: number): CouponProblem | null {
  if (coupon === null) return "unknown";
  if (!coupon.active) return "inactive";
  if (coupon.startsAt !== null && now < coupon.startsAt) return "not started";
  if (coupon.endsAt !== null && now >= coupon.endsAt) return "expired";
  if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) return "usage limit reached";
  if (coupon.minSubtotal !== null && subtotal < coupon.minSubtotal) return "minimum subtotal not met";
  return null;
}

// ---------------------------------------------------------------- admin

function findRecord(tenant: TenantDb, id: string): CouponRecord {
  const row = tenant.sqlite.query("SELECT * FROM coupons WHERE id = ?").get(id) as SqlRow | null;
  if (!row) throw notFound("Coupon");
  return fromSql(row);
}

/** One page of coupons, newest first; `query` matches part of the code, case-insensitively. */
export function listCoupons(tenant: TenantDb, q: { query?: string }, page: PageParams) {
  const term = q.query?.trim().toUpperCase();
  const where = term ? " WHERE instr(code, ?) > 0" : "";
  const args = term ? [term] : [];
  const rows = tenant.sqlite
    .query(`SELECT * FROM coupons${where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`)
    .all(...args, page.limit, (page.page - 1) * page.limit) as SqlRow[];
  const { total } = tenant.sqlite.query(`SELECT count(*) AS total FROM coupons${where}`).get(...args) as {
    total: number;
  };
  const { currency } = getStore(tenant);
  return { items: rows.map((row) => couponView(fromSql(row), currency)), total };
}

export function getCoupon(tenant: TenantDb, id: string): CouponView {
  return couponView(findRecord(tenant, id), getStore(tenant).currency);
}

const invalid = (field: string, message: string) =>
  new ApiError("VALIDATION_ERROR", `${field}: ${message}`, [{ path: `/body/${field}`, message }]);

const toMs = (value: string | null | undefined, current: number | null): number | null =>
  value === undefined ? current : value === null ? null : Date.parse(value);

function checkCodeFree(tenant: TenantDb, code: string, except?: string) {
  const row = tenant.sqlite.query("SELECT id FROM coupons WHERE code = ?").get(code) as Pick<
    SqlRow,
    "id"
  > | null;
  if (row && row.id !== except) throw new ApiError("CONFLICT", `The coupon code "${code}" is taken`);
}

/**
 * The stored values after applying `input` to `current` (or to nothing, on creation), with every
 * rule that spans fields checked: the value fits the type, the period ends after it starts.
 */
function resolve(input: CouponInput, current: CouponRecord | null) {
  const type = input.type ?? current?.type;
  if (type === undefined) throw invalid("type", "required");
  const typeChanged = current === null || type !== current.type;
  let value: number;
  if (type === "free_shipping") {
    if (input.value !== undefined && input.value !== 0) {
      throw invalid("value", "a free_shipping coupon has no value (omit it or send 0)");
    }
    value = 0;
  } else {
    if (input.value === undefined && typeChanged) {
      throw invalid("value", `required for a ${type} coupon`);
    }
    value = input.value ?? current!.value;
    if (type === "percentage" && (value < 1 || value > 100)) {
      throw invalid("value", "a percentage coupon takes a whole percent from 1 to 100");
    }
    if (type === "fixed" && value < 1) {
      throw invalid("value", "a fixed coupon takes at least 1 minor unit");
    }
  }
  const startsAt = toMs(input.startsAt, current?.startsAt ?? null);
  const endsAt = toMs(input.endsAt, current?.endsAt ?? null);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
    throw invalid("endsAt", "must be after startsAt");
  }
  return {
    code: input.code === undefined ? current!.code : input.code.toUpperCase(),
    type,
    value,
    minSubtotal: input.minSubtotal === undefined ? (current?.minSubtotal ?? null) : input.minSubtotal,
    startsAt,
    endsAt,
    usageLimit: input.usageLimit === undefined ? (current?.usageLimit ?? null) : input.usageLimit,
    active: input.active ?? current?.active ?? true,
  };
}

export function createCoupon(tenant: TenantDb, input: CouponInput & { code: string; type: CouponType }) {
  const values = resolve(input, null);
  checkCodeFree(tenant, values.code);
  const now = Date.now();
  const id = newId("cpn");
  tenant.db
    .insert(coupons)
    .values({ id, ...values, usageCount: 0, createdAt: now, updatedAt: now })
    .run();
  return getCoupon(tenant, id);
}

/** Updates any subset of the fields; `usageCount` is not one of them. */
export function updateCoupon(tenant: TenantDb, id: string, input: CouponInput) {
  const current = findRecord(tenant, id);
  const values = resolve(input, current);
  if (values.code !== current.code) checkCodeFree(tenant, values.code, id);
  tenant.db
    .update(coupons)
    .set({ ...values, updatedAt: Date.now() })
    .where(eq(coupons.id, id))
    .run();
  return getCoupon(tenant, id);
}

/** Deletes a coupon; a cart holding its code finds it unknown on its next read. */
export function deleteCoupon(tenant: TenantDb, id: string): void {
  findRecord(tenant, id);
  tenant.sqlite.query("DELETE FROM coupons WHERE id = ?").run(id);
}

/**
 * Counts one use of the coupon against its limit, in the caller's transaction; false (nothing
 * counted) when the limit is reached.
 */
export function countCouponUse(tenant: TenantDb, couponId: string): boolean {
  return (
    tenant.sqlite
      .query(
        "UPDATE coupons SET usage_count = usage_count + 1 WHERE id = ? AND (usage_limit IS NULL OR usage_count < usage_limit)",
      )
      .run(couponId).changes > 0
  );
}

/** Counts a use again by code, whatever the limit (a cancelled order paid after all keeps its coupon). */
export function recountCouponUse(tenant: TenantDb, code: string): void {
  tenant.sqlite
    .query("UPDATE coupons SET usage_count = usage_count + 1 WHERE code = ?")
    .run(code.toUpperCase());
}

/** Gives one use back by code, never below zero (a cancelled order). */
export function releaseCouponUse(tenant: TenantDb, code: string): void {
  tenant.sqlite
    .query("UPDATE coupons SET usage_count = usage_count - 1 WHERE code = ? AND usage_count > 0")
    .run(code.toUpperCase());
}
