import { eq } from "drizzle-orm";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { iso } from "../lib/time.ts";
import {
  type Localized,
  POLICY_PAGES,
  type PolicyLinks,
  type PolicyPage,
  storeSettings,
  type TaxRate,
} from "./tables.ts";

export interface Store {
  name: string;
  currency: string;
  defaultLocale: string;
  locales: string[];
  country: string;
  pricesIncludeTax: boolean;
  taxRates: TaxRate[];
  contactEmail: string | null;
  lowStockThreshold: number;
  manualPaymentMethods: string[];
  /** Browser origins whose storefronts may call the storefront operations (src/http/cors.ts). */
  allowedOrigins: string[];
  /** The name the shop's emails are sent under; null: the store's name. */
  emailSenderName: string | null;
  /** Where replies to the shop's emails go; null: the contact email. */
  emailReplyTo: string | null;
  /** The storefront's order page, which the emails link to (docs/email.md); null: no link. */
  orderPageUrl: string | null;
  /** The shop's policy pages (terms, privacy, returns…), which agent platforms show buyers. */
  policyLinks: PolicyLinks;
  updatedAt: number;
}

// Read on almost every request, written rarely and only through this module. A value read inside
// a transaction is committed state unless that transaction wrote the settings itself, which
// `writtenInTransaction` remembers until a read outside any transaction sees the outcome.
const cached = new WeakMap<TenantDb, Store>();
const writtenInTransaction = new WeakSet<TenantDb>();

/** Settings of a new store (EU defaults: prices include VAT). */
export function initializeStore(tenant: TenantDb, name: string): void {
  tenant.db
    .insert(storeSettings)
    .values({
      id: 1,
      name,
      currency: "EUR",
      defaultLocale: "en",
      locales: ["en"],
      country: "PT",
      pricesIncludeTax: true,
      taxRates: [{ country: "PT", rate: 2300 }],
      contactEmail: null,
      lowStockThreshold: 5,
      manualPaymentMethods: [],
      allowedOrigins: [],
      emailSenderName: null,
      emailReplyTo: null,
      orderPageUrl: null,
      policyLinks: {},
      updatedAt: Date.now(),
    })
    .run();
}

interface StoreRow {
  name: string;
  currency: string;
  default_locale: string;
  locales: string;
  country: string;
  prices_include_tax: number;
  tax_rates: string;
  contact_email: string | null;
  low_stock_threshold: number;
  manual_payment_methods: string;
  allowed_origins: string;
  email_sender_name: string | null;
  email_reply_to: string | null;
  order_page_url: string | null;
  policy_links: string;
  updated_at: number;
}

/** The store settings; a prepared statement and a per-handle cache, as nearly every request reads them. */
export function getStore(tenant: TenantDb): Store {
  let store = cached.get(tenant);
  if (!store) {
    const row = tenant.sqlite.query("SELECT * FROM store_settings WHERE id = 1").get() as StoreRow | null;
    if (!row) throw new Error(`tenant ${tenant.orgId} has no store settings`);
    store = {
      name: row.name,
      currency: row.currency,
      defaultLocale: row.default_locale,
      locales: JSON.parse(row.locales) as string[],
      country: row.country,
      pricesIncludeTax: row.prices_include_tax === 1,
      taxRates: JSON.parse(row.tax_rates) as TaxRate[],
      contactEmail: row.contact_email,
      lowStockThreshold: row.low_stock_threshold,
      manualPaymentMethods: JSON.parse(row.manual_payment_methods) as string[],
      allowedOrigins: JSON.parse(row.allowed_origins) as string[],
      emailSenderName: row.email_sender_name,
      emailReplyTo: row.email_reply_to,
      orderPageUrl: row.order_page_url,
      policyLinks: JSON.parse(row.policy_links) as PolicyLinks,
      updatedAt: row.updated_at,
    };
    if (!tenant.sqlite.inTransaction) writtenInTransaction.delete(tenant);
    if (!writtenInTransaction.has(tenant)) cached.set(tenant, store);
  }
  return store;
}

/** A change of settings; `policyLinks` changes the pages it names, null removing one. */
type StorePatch = Partial<Omit<Store, "updatedAt" | "policyLinks">> & {
  policyLinks?: Partial<Record<PolicyPage, string | null>>;
};

export function updateStore(tenant: TenantDb, patch: StorePatch): Store {
  const current = getStore(tenant);
  const next = {
    ...current,
    ...patch,
    policyLinks: patch.policyLinks ? mergeLinks(current.policyLinks, patch.policyLinks) : current.policyLinks,
    updatedAt: Date.now(),
  };
  if (patch.locales && !patch.defaultLocale && !patch.locales.includes(current.defaultLocale)) {
    throw new ApiError("VALIDATION_ERROR", "locales must include the default locale", [
      { path: "/body/locales", message: `must include "${current.defaultLocale}"` },
    ]);
  }
  if (!next.locales.includes(next.defaultLocale)) next.locales = [next.defaultLocale, ...next.locales];
  patch.allowedOrigins?.forEach(checkOrigin);
  const countries = next.taxRates.map((r) => r.country);
  if (new Set(countries).size !== countries.length) {
    throw new ApiError("VALIDATION_ERROR", "taxRates lists a country twice", [
      { path: "/body/taxRates", message: "one rate per country" },
    ]);
  }
  const { updatedAt, ...values } = next;
  tenant.sqlite.transaction(() => {
    // Orders, payments and refunds are recorded in the store currency: once one order exists,
    // changing it would make their amounts mean something else (docs/catalog.md, "Store").
    if (next.currency !== current.currency && tenant.sqlite.query("SELECT 1 FROM orders LIMIT 1").get()) {
      throw new ApiError(
        "CONFLICT",
        `The store currency cannot change from ${current.currency} to ${next.currency}: orders already exist in ${current.currency}`,
        [{ path: "/body/currency", message: `fixed at ${current.currency} once an order exists` }],
      );
    }
    tenant.db
      .update(storeSettings)
      .set({ ...values, updatedAt })
      .where(eq(storeSettings.id, 1))
      .run();
    if (next.defaultLocale !== current.defaultLocale) {
      // The name sort key follows the default locale.
      tenant.sqlite.run(
        "UPDATE products SET sort_name = lower(coalesce(json_extract(name, '$.' || ?), sort_name))",
        [next.defaultLocale],
      );
    }
  })();
  if (tenant.sqlite.inTransaction) {
    // An enclosing transaction may still roll back: no read inside it may fill the cache.
    cached.delete(tenant);
    writtenInTransaction.add(tenant);
  } else cached.set(tenant, next);
  return next;
}

function mergeLinks(current: PolicyLinks, patch: NonNullable<StorePatch["policyLinks"]>): PolicyLinks {
  const merged: PolicyLinks = { ...current };
  for (const [page, url] of Object.entries(patch) as [PolicyPage, string | null | undefined][]) {
    if (url) merged[page] = url;
    else if (url === null) delete merged[page];
  }
  return merged;
}

/**
 * An allowed origin is written exactly as a browser sends it in `Origin`: scheme, lower-case host,
 * a port only when not the default one; no path, no trailing slash. The schema allows `https://`
 * and, for development, `http://localhost` / `http://127.0.0.1`; this catches what a pattern
 * cannot (`https://shop.example:443` is sent as `https://shop.example`).
 */
function checkOrigin(origin: string, index: number): void {
  let normalized: string | undefined;
  try {
    normalized = new URL(origin).origin;
  } catch {
    normalized = undefined;
  }
  if (normalized !== origin) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `allowedOrigins: "${origin}" is not an origin as browsers send it`,
      [
        {
          path: `/body/allowedOrigins/${index}`,
          message: normalized ? `write it as "${normalized}"` : "expected scheme://host[:port]",
        },
      ],
    );
  }
}

export const publicStore = (store: Store) => ({
  name: store.name,
  currency: store.currency,
  defaultLocale: store.defaultLocale,
  locales: store.locales,
  country: store.country,
  pricesIncludeTax: store.pricesIncludeTax,
  policyLinks: policyLinksView(store.policyLinks),
});

/** Every policy page, null where the shop has none. */
const policyLinksView = (links: PolicyLinks) =>
  Object.fromEntries(POLICY_PAGES.map((page) => [page, links[page] ?? null])) as Record<
    PolicyPage,
    string | null
  >;

export const storeView = (store: Store) => ({
  ...store,
  policyLinks: policyLinksView(store.policyLinks),
  updatedAt: iso(store.updatedAt),
});

export const money = (amount: number, currency: string) => ({ amount, currency });
export type Money = ReturnType<typeof money>;

/**
 * Checks a localized text against the store: every key is one of its locales, and the default
 * locale is present when `required`. `path` names the field in error details.
 */
export function checkLocalized(store: Store, text: Localized, path: string, required: boolean): void {
  for (const locale of Object.keys(text)) {
    if (!store.locales.includes(locale)) {
      throw new ApiError("VALIDATION_ERROR", `${path}: "${locale}" is not one of the store's locales`, [
        { path: `${path}/${locale}`, message: `not a store locale (${store.locales.join(", ")})` },
      ]);
    }
  }
  if (required && !text[store.defaultLocale]?.trim()) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `${path}: the default locale "${store.defaultLocale}" is required`,
      [{ path: `${path}/${store.defaultLocale}`, message: "required (store default locale)" }],
    );
  }
}
