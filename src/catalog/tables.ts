import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Tenant file. Times are epoch milliseconds, money integer minor units, localized text JSON maps.

export type Localized = Record<string, string>;

export interface TaxRate {
  country: string;
  /** Basis points: 2300 = 23 %. */
  rate: number;
}

/** The shop's policy pages, by what they are about; agent platforms show them to buyers (docs/catalog.md). */
export const POLICY_PAGES = ["terms", "privacy", "returns", "shipping", "faq", "contact"] as const;
export type PolicyPage = (typeof POLICY_PAGES)[number];
/** The address of each policy page the shop has; a page it does not have is absent. */
export type PolicyLinks = Partial<Record<PolicyPage, string>>;

/** One row (id = 1): the store's settings. */
export const storeSettings = sqliteTable("store_settings", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  currency: text("currency").notNull(),
  defaultLocale: text("default_locale").notNull(),
  locales: text("locales", { mode: "json" }).$type<string[]>().notNull(),
  country: text("country").notNull(),
  pricesIncludeTax: integer("prices_include_tax", { mode: "boolean" }).notNull(),
  taxRates: text("tax_rates", { mode: "json" }).$type<TaxRate[]>().notNull(),
  contactEmail: text("contact_email"),
  lowStockThreshold: integer("low_stock_threshold").notNull(),
  manualPaymentMethods: text("manual_payment_methods", { mode: "json" }).$type<string[]>().notNull(),
  /** Browser origins allowed to call the storefront operations cross-origin (CORS), e.g. `https://shop.example`. */
  allowedOrigins: text("allowed_origins", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  /** The name the shop's emails are sent under (default: the store's name). */
  emailSenderName: text("email_sender_name"),
  /** Where replies to the shop's emails go (default: the contact email). */
  emailReplyTo: text("email_reply_to"),
  /** The storefront's order page: emails link to it with `?order=<id>&token=<link token>`. */
  orderPageUrl: text("order_page_url"),
  policyLinks: text("policy_links", { mode: "json" }).$type<PolicyLinks>().notNull().default(sql`'{}'`),
  updatedAt: integer("updated_at").notNull(),
});

export const categories = sqliteTable(
  "categories",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name", { mode: "json" }).$type<Localized>().notNull(),
    description: text("description", { mode: "json" }).$type<Localized>(),
    parentId: text("parent_id"),
    position: integer("position").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("categories_parent_idx").on(t.parentId, t.position)],
);

export const PRODUCT_STATUSES = ["draft", "active", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export interface ProductOption {
  name: string;
  values: string[];
}

export interface ProductImage {
  url: string;
  alt?: string;
}

export const products = sqliteTable(
  "products",
  {
    /** Stable integer key (the rowid): the product's rowid in the `product_search` full-text index. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    slug: text("slug").notNull().unique(),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull(),
    name: text("name", { mode: "json" }).$type<Localized>().notNull(),
    description: text("description", { mode: "json" }).$type<Localized>(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    images: text("images", { mode: "json" }).$type<ProductImage[]>().notNull(),
    options: text("options", { mode: "json" }).$type<ProductOption[]>().notNull(),
    taxRate: integer("tax_rate"),
    requiresShipping: integer("requires_shipping", { mode: "boolean" }).notNull(),
    /** Name in the store's default locale, lower-cased: the `name` sort key. */
    sortName: text("sort_name").notNull(),
    /** Lowest and highest variant price: the `price` sort key and `priceRange`. */
    minPrice: integer("min_price").notNull(),
    maxPrice: integer("max_price").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("products_status_price_idx").on(t.status, t.minPrice, t.id),
    index("products_status_name_idx").on(t.status, t.sortName, t.id),
    index("products_status_created_idx").on(t.status, t.createdAt, t.id),
    // The admin list of every status, newest first, without a sort of the whole table.
    index("products_created_idx").on(t.createdAt, t.id),
  ],
);

export const productCategories = sqliteTable(
  "product_categories",
  {
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index("product_categories_category_idx").on(t.categoryId, t.productId),
  ],
);

export const variants = sqliteTable(
  "variants",
  {
    id: text("id").primaryKey(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sku: text("sku"),
    title: text("title").notNull(),
    options: text("options", { mode: "json" }).$type<Record<string, string>>().notNull(),
    price: integer("price").notNull(),
    compareAtPrice: integer("compare_at_price"),
    tracked: integer("tracked", { mode: "boolean" }).notNull(),
    onHand: integer("on_hand").notNull(),
    allowBackorder: integer("allow_backorder", { mode: "boolean" }).notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    index("variants_product_idx").on(t.productId, t.position),
    uniqueIndex("variants_sku_idx").on(t.sku),
    check("variants_on_hand_not_negative", sql`${t.onHand} >= 0`),
  ],
);

/**
 * How many products have each status: the total of an unfiltered listing without a `count(*)` scan.
 * Kept exact by the catalog's product writes (`src/catalog/counts.ts`), in the same transaction.
 */
export const productCounts = sqliteTable("product_counts", {
  status: text("status", { enum: PRODUCT_STATUSES }).primaryKey(),
  n: integer("n").notNull(),
});

/**
 * How many products of each status `?categoryId=` lists for a category: those in it or in any
 * category below it, each once. Kept like `product_counts`; a missing row is 0.
 */
export const categoryProductCounts = sqliteTable(
  "category_product_counts",
  {
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.status] })],
);
