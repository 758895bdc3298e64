import { eq } from "drizzle-orm";
import { checkLocalized, getStore, money } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { iso } from "../lib/time.ts";
import { isCountryCode } from "./countries.ts";
import { shippingMethods } from "./tables.ts";

// Shipping methods (docs/orders.md): admin CRUD plus the reads the cart and the countries list use.

/** A shipping method as the cart sees it. Money in minor units of the store currency. */
export interface ShippingMethodRow {
  id: string;
  name: Localized;
  description: Localized | null;
  price: number;
  /** Shipping is free once the subtotal after discount reaches this amount; null = never. */
  freeOver: number | null;
  /** ISO 3166-1 alpha-2 codes served; empty = every country. */
  countries: string[];
  minDays: number | null;
  maxDays: number | null;
  active: boolean;
  position: number;
}

interface ShippingMethodRecord extends ShippingMethodRow {
  createdAt: number;
  updatedAt: number;
}

interface ShippingMethodInput {
  name?: Localized;
  description?: Localized | null;
  price?: number;
  freeOver?: number | null;
  countries?: string[];
  minDays?: number | null;
  maxDays?: number | null;
  active?: boolean;
  position?: number;
}

/** `SELECT *` of shipping_methods. */
type SqlRow = Row<typeof shippingMethods>;

const fromSql = (r: SqlRow): ShippingMethodRecord => ({
  id: r.id,
  name: JSON.parse(r.name) as Localized,
  description: parseJsonOrNull<Localized>(r.description),
  price: r.price,
  freeOver: r.free_over,
  countries: JSON.parse(r.countries) as string[],
  minDays: r.min_days,
  maxDays: r.max_days,
  active: r.active === 1,
  position: r.position,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const shippingMethodView = (m: ShippingMethodRecord, currency: string) => ({
  id: m.id,
  name: m.name,
  description: m.description,
  price: money(m.price, currency),
  freeOver: m.freeOver === null ? null : money(m.freeOver, currency),
  countries: m.countries,
  minDays: m.minDays,
  maxDays: m.maxDays,
  active: m.active,
  position: m.position,
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
});

type ShippingMethodView = ReturnType<typeof shippingMethodView>;

/** Position, then the name in the store's default locale (case-insensitive), then id. */
function ordered(tenant: TenantDb, activeOnly: boolean): ShippingMethodRecord[] {
  const namePath = `$."${getStore(tenant).defaultLocale}"`;
  const rows = tenant.sqlite
    .query(
      `SELECT * FROM shipping_methods${activeOnly ? " WHERE active = 1" : ""}
        ORDER BY position, lower(coalesce(json_extract(name, ?), '')), id`,
    )
    .all(namePath) as SqlRow[];
  return rows.map(fromSql);
}

// ---------------------------------------------------------------- for carts and countries

/** Active methods, by position, then name in the default locale, then id. */
export function listActiveShippingMethods(tenant: TenantDb): ShippingMethodRow[] {
  return ordered(tenant, true);
}

/** The method with this id, active or not; null when none. */
export function findShippingMethod(tenant: TenantDb, id: string): ShippingMethodRow | null {
  const row = tenant.sqlite.query("SELECT * FROM shipping_methods WHERE id = ?").get(id) as SqlRow | null;
  return row ? fromSql(row) : null;
}

/**
 * Whether `method` ships to `country` (alpha-2). Before an address is set (`null`) every method
 * applies. Whether the method is active is not considered here.
 */
export function servesCountry(method: Pick<ShippingMethodRow, "countries">, country: string | null): boolean {
  return country === null || method.countries.length === 0 || method.countries.includes(country);
}

/** The countries some active method serves, or "all" when an active method serves every country. */
export function shippingCountries(tenant: TenantDb): Set<string> | "all" {
  const rows = tenant.sqlite.query("SELECT countries FROM shipping_methods WHERE active = 1").all() as Pick<
    SqlRow,
    "countries"
  >[];
  const served = new Set<string>();
  for (const row of rows) {
    const countries = JSON.parse(row.countries) as string[];
    if (countries.length === 0) return "all";
    for (const country of countries) served.add(country);
  }
  return served;
}

// ---------------------------------------------------------------- admin

function findRecord(tenant: TenantDb, id: string): ShippingMethodRecord {
  const row = tenant.sqlite.query("SELECT * FROM shipping_methods WHERE id = ?").get(id) as SqlRow | null;
  if (!row) throw notFound("Shipping method");
  return fromSql(row);
}

/** Every method, active or not, in the order the cart offers them. */
export function listShippingMethods(tenant: TenantDb): ShippingMethodView[] {
  const { currency } = getStore(tenant);
  return ordered(tenant, false).map((m) => shippingMethodView(m, currency));
}

export function getShippingMethod(tenant: TenantDb, id: string): ShippingMethodView {
  return shippingMethodView(findRecord(tenant, id), getStore(tenant).currency);
}

const invalid = (path: string, message: string) =>
  new ApiError("VALIDATION_ERROR", `${path.slice("/body/".length)}: ${message}`, [{ path, message }]);

/** Known alpha-2 codes, duplicates dropped (first occurrence kept). */
function checkCountries(countries: string[]): string[] {
  countries.forEach((code, i) => {
    if (!isCountryCode(code))
      throw invalid(`/body/countries/${i}`, `"${code}" is not an ISO 3166-1 alpha-2 code`);
  });
  return [...new Set(countries)];
}

/** The stored values after applying `input` to `current` (or to nothing, on creation), checked. */
function resolve(tenant: TenantDb, input: ShippingMethodInput, current: ShippingMethodRecord | null) {
  const store = getStore(tenant);
  if (input.name) checkLocalized(store, input.name, "/body/name", true);
  if (input.description) checkLocalized(store, input.description, "/body/description", false);
  const name = input.name ?? current?.name;
  const price = input.price ?? current?.price;
  if (name === undefined) throw invalid("/body/name", "required");
  if (price === undefined) throw invalid("/body/price", "required");
  const minDays = input.minDays === undefined ? (current?.minDays ?? null) : input.minDays;
  const maxDays = input.maxDays === undefined ? (current?.maxDays ?? null) : input.maxDays;
  if (minDays !== null && maxDays !== null && minDays > maxDays) {
    throw invalid("/body/maxDays", "must be at least minDays");
  }
  return {
    name,
    description: input.description === undefined ? (current?.description ?? null) : input.description,
    price,
    freeOver: input.freeOver === undefined ? (current?.freeOver ?? null) : input.freeOver,
    countries: input.countries === undefined ? (current?.countries ?? []) : checkCountries(input.countries),
    minDays,
    maxDays,
    active: input.active ?? current?.active ?? true,
    position: input.position ?? current?.position ?? 0,
  };
}

export function createShippingMethod(
  tenant: TenantDb,
  input: ShippingMethodInput & { name: Localized; price: number },
) {
  const values = resolve(tenant, input, null);
  const now = Date.now();
  const id = newId("shp");
  tenant.db
    .insert(shippingMethods)
    .values({ id, ...values, createdAt: now, updatedAt: now })
    .run();
  return getShippingMethod(tenant, id);
}

export function updateShippingMethod(tenant: TenantDb, id: string, input: ShippingMethodInput) {
  const current = findRecord(tenant, id);
  const values = resolve(tenant, input, current);
  tenant.db
    .update(shippingMethods)
    .set({ ...values, updatedAt: Date.now() })
    .where(eq(shippingMethods.id, id))
    .run();
  return getShippingMethod(tenant, id);
}

/** Deletes a method; carts still naming its id then get null from {@link findShippingMethod}. */
export function deleteShippingMethod(tenant: TenantDb, id: string): void {
  findRecord(tenant, id);
  tenant.sqlite.query("DELETE FROM shipping_methods WHERE id = ?").run(id);
}
