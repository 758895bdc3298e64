import {
  type ObjectOptions,
  type TNull,
  type TOptional,
  type TString,
  type TUnion,
  Type,
} from "@sinclair/typebox";
import { Body, Id, named, PageQuery, Text, Timestamp } from "../core/schemas.ts";
import { POLICY_PAGES, type PolicyPage } from "./tables.ts";

// Shapes of the catalog on the wire. Limits keep every write bounded: at most 3 options,
// 100 variants, 20 images, 50 tags, 20 categories per product; texts have maximum lengths.

export const LOCALE_PATTERN = "^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$";
export const COUNTRY_PATTERN = "^[A-Z]{2}$";
const CURRENCY_PATTERN = "^[A-Z]{3}$";
/** `https://host[:port]`, or `http://localhost` / `http://127.0.0.1` for development; no path, no trailing slash. */
const ORIGIN_PATTERN =
  "^(https://[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*|http://(localhost|127\\.0\\.0\\.1))(:[0-9]{1,5})?$";
const MAX_ALLOWED_ORIGINS = 20;
export const SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9-]{0,118}[a-z0-9])?$";

const MAX_VARIANTS = 100;
export const MAX_OPTIONS = 3;
/** The most units a variant can hold: what `onHand` may be set to, and what `adjust` may reach. */
export const MAX_ON_HAND = 1_000_000_000;

export const Locale = Type.String({ pattern: LOCALE_PATTERN, maxLength: 20 });
export const CountryCode = Type.String({ pattern: COUNTRY_PATTERN, description: "ISO 3166-1 alpha-2" });
const Slug = Type.String({ pattern: SLUG_PATTERN, maxLength: 120 });
const MinorUnits = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 100_000_000_00, description });

const NAME_EXAMPLE = { en: "Linen shirt", pt: "Camisa de linho" };

/**
 * Text per locale. The value schema is also `additionalProperties`, so the values are declared
 * whatever the key (clients type the map `Record<string, string>`); a key that is no store locale
 * is refused by `checkLocalized`. The example gives viewers real locale keys to show instead of
 * a key made up from the pattern.
 */
const localizedMap = (value: TString, example: Record<string, string>, options: ObjectOptions) =>
  Type.Record(Locale, value, { ...options, additionalProperties: value, examples: [example] });

/** Text per locale, e.g. `{"en": "Shirt", "pt": "Camisa"}`; the store's default locale is required. */
export const Localized = named(
  "LocalizedText",
  localizedMap(Type.String({ maxLength: 20_000 }), NAME_EXAMPLE, {
    maxProperties: 20,
    description: "Text per locale (BCP 47 keys); the store's default locale is required",
  }),
);
export const LocalizedName = localizedMap(Text({ min: 1, max: 200 }), NAME_EXAMPLE, {
  minProperties: 1,
  maxProperties: 20,
  description: "Text per locale; the store's default locale is required",
});
export const LocalizedDescription = localizedMap(
  Text({ max: 20_000, multiline: true }),
  { en: "Washed linen, relaxed fit.", pt: "Linho lavado, corte solto." },
  { maxProperties: 20 },
);

export const Money = named(
  "Money",
  Type.Object({
    amount: Type.Integer({ description: "Integer minor units (cents)" }),
    currency: Type.String({ description: "ISO 4217" }),
  }),
);

// ---------------------------------------------------------------- store

const TaxRateSchema = Type.Object(
  { country: CountryCode, rate: Type.Integer({ minimum: 0, maximum: 10_000, description: "Basis points" }) },
  { additionalProperties: false },
);
const MANUAL_PAYMENT_METHODS = ["bank_transfer", "cash_on_delivery"] as const;

/**
 * An absolute https address of the storefront's; `bare`: without query or fragment (the service
 * adds its own query to it).
 */
const HttpsUrl = (options: { maxLength: number; bare?: boolean; description: string }) =>
  Type.String({
    pattern: options.bare ? "^https://[^\\s?#]+$" : "^https://[^\\s/?#]+([/?#]\\S*)?$",
    maxLength: options.maxLength,
    description: options.description,
  });

const POLICY_PAGE_TITLES: Record<PolicyPage, string> = {
  terms: "terms and conditions",
  privacy: "privacy policy",
  returns: "returns and refunds policy",
  shipping: "shipping information",
  faq: "frequently asked questions",
  contact: "contact page",
};

const PolicyLinks = named(
  "PolicyLinks",
  Type.Object(
    Object.fromEntries(
      POLICY_PAGES.map((page) => [
        page,
        Type.Union([Type.String(), Type.Null()], { description: `The shop's ${POLICY_PAGE_TITLES[page]}` }),
      ]),
    ) as Record<PolicyPage, TUnion<[TString, TNull]>>,
    { description: "The shop's policy pages, which agent platforms (UCP, ACP) show buyers; null: none" },
  ),
);

const UpdatePolicyLinks = Body(
  Object.fromEntries(
    POLICY_PAGES.map((page) => [
      page,
      Type.Optional(
        Type.Union([
          HttpsUrl({
            maxLength: 2000,
            description: `The shop's ${POLICY_PAGE_TITLES[page]}, e.g. \`https://shop.example/${page}\``,
          }),
          Type.Null(),
        ]),
      ),
    ]),
  ) as Record<PolicyPage, TOptional<TUnion<[TString, TNull]>>>,
  { description: "Policy pages to set (an https address) or remove (null); pages left out keep theirs" },
);

export const PublicStore = named(
  "Store",
  Type.Object({
    name: Type.String(),
    currency: Type.String(),
    defaultLocale: Type.String(),
    locales: Type.Array(Type.String()),
    country: Type.String(),
    pricesIncludeTax: Type.Boolean(),
    policyLinks: PolicyLinks,
  }),
);

export const StoreSettings = named(
  "StoreSettings",
  Type.Intersect([
    PublicStore,
    Type.Object({
      taxRates: Type.Array(Type.Object({ country: Type.String(), rate: Type.Integer() })),
      contactEmail: Type.Union([Type.String(), Type.Null()]),
      lowStockThreshold: Type.Integer(),
      manualPaymentMethods: Type.Array(Type.String()),
      allowedOrigins: Type.Array(Type.String(), {
        description: "Browser origins allowed to call the storefront operations (CORS)",
      }),
      emailSenderName: Type.Union([Type.String(), Type.Null()], {
        description: "The name the shop's emails are sent under; null: the store's name",
      }),
      emailReplyTo: Type.Union([Type.String(), Type.Null()], {
        description: "Where replies to the shop's emails go; null: the contact email",
      }),
      orderPageUrl: Type.Union([Type.String(), Type.Null()], {
        description:
          "The storefront's order page: emails link to it with `?order=<id>&token=<link token>` (readable by `GET /v1/orders/{id}?token=`); null: emails carry no order link",
      }),
      updatedAt: Timestamp,
    }),
  ]),
);

export const UpdateStoreBody = Body({
  name: Type.Optional(Text({ min: 1, max: 200 })),
  currency: Type.Optional(Type.String({ pattern: CURRENCY_PATTERN })),
  defaultLocale: Type.Optional(Locale),
  locales: Type.Optional(Type.Array(Locale, { minItems: 1, maxItems: 20, uniqueItems: true })),
  country: Type.Optional(CountryCode),
  pricesIncludeTax: Type.Optional(Type.Boolean()),
  taxRates: Type.Optional(Type.Array(TaxRateSchema, { maxItems: 250 })),
  contactEmail: Type.Optional(Type.Union([Type.String({ format: "email", maxLength: 254 }), Type.Null()])),
  lowStockThreshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  manualPaymentMethods: Type.Optional(
    Type.Array(Type.Union(MANUAL_PAYMENT_METHODS.map((m) => Type.Literal(m))), { uniqueItems: true }),
  ),
  emailSenderName: Type.Optional(Type.Union([Text({ min: 1, max: 100 }), Type.Null()])),
  emailReplyTo: Type.Optional(Type.Union([Type.String({ format: "email", maxLength: 254 }), Type.Null()])),
  orderPageUrl: Type.Optional(
    Type.Union([
      HttpsUrl({
        maxLength: 500,
        bare: true,
        description: "An https address without query or fragment, e.g. `https://shop.example/order`",
      }),
      Type.Null(),
    ]),
  ),
  policyLinks: Type.Optional(UpdatePolicyLinks),
  allowedOrigins: Type.Optional(
    Type.Array(Type.String({ pattern: ORIGIN_PATTERN, maxLength: 200 }), {
      maxItems: MAX_ALLOWED_ORIGINS,
      uniqueItems: true,
      description:
        "Browser origins (e.g. `https://shop.example`) whose pages may call the storefront operations; `http://localhost[:port]` is allowed for development",
    }),
  ),
});

// ---------------------------------------------------------------- categories

export const Category = named(
  "Category",
  Type.Object({
    id: Type.String(),
    slug: Type.String(),
    name: Localized,
    description: Type.Union([Localized, Type.Null()]),
    parentId: Type.Union([Type.String(), Type.Null()]),
    position: Type.Integer(),
    productCount: Type.Integer({
      description:
        "Active products in this category or its subcategories, each once: the `total` of GET /v1/products?categoryId=",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const CategoryId = Id("cat");

export const CreateCategoryBody = Body({
  name: LocalizedName,
  slug: Type.Optional(Slug),
  description: Type.Optional(Type.Union([LocalizedDescription, Type.Null()])),
  parentId: Type.Optional(Type.Union([CategoryId, Type.Null()])),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export const UpdateCategoryBody = Body({
  name: Type.Optional(LocalizedName),
  slug: Type.Optional(Slug),
  description: Type.Optional(Type.Union([LocalizedDescription, Type.Null()])),
  parentId: Type.Optional(Type.Union([CategoryId, Type.Null()])),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});

// ---------------------------------------------------------------- products

const Inventory = named(
  "Inventory",
  Type.Object({ tracked: Type.Boolean(), onHand: Type.Integer(), allowBackorder: Type.Boolean() }),
);

// Storefront operations show `available` and `lowStock`, never stock counts; admin operations
// show the same plus each variant's `inventory`.
const variantFields = {
  id: Type.String(),
  sku: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  options: Type.Record(Type.String(), Type.String()),
  price: Money,
  compareAtPrice: Type.Union([Money, Type.Null()]),
  available: Type.Boolean({ description: "Can be bought now: untracked, backorder allowed or in stock" }),
  lowStock: Type.Boolean({
    description:
      "Few units left: stock is tracked without backorder and at most the store's `lowStockThreshold` units remain (sold out is `available: false`)",
  }),
};

const StorefrontVariant = named("StorefrontVariant", Type.Object(variantFields));
const Variant = named("Variant", Type.Object({ ...variantFields, inventory: Inventory }));

const productFieldsOf = <V extends typeof StorefrontVariant | typeof Variant>(variant: V) => ({
  id: Type.String(),
  slug: Type.String(),
  status: Type.Union([Type.Literal("draft"), Type.Literal("active"), Type.Literal("archived")]),
  name: Localized,
  description: Type.Union([Localized, Type.Null()]),
  categoryIds: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  images: Type.Array(Type.Object({ url: Type.String(), alt: Type.Optional(Type.String()) })),
  options: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.String()) })),
  variants: Type.Array(variant),
  priceRange: Type.Object({ min: Money, max: Money }),
  inStock: Type.Boolean({ description: "Some variant is available" }),
  lowStock: Type.Boolean({ description: "In stock, and every available variant is low on stock" }),
  taxRate: Type.Union([Type.Integer(), Type.Null()]),
  requiresShipping: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** A product as storefront operations show it: no stock counts. */
export const StorefrontProduct = named("StorefrontProduct", Type.Object(productFieldsOf(StorefrontVariant)));
/** A product as admin operations show it: every variant's `inventory` included. */
export const Product = named("Product", Type.Object(productFieldsOf(Variant)));

const OptionValue = Text({ min: 1, max: 100 });
const ProductOptionInput = Type.Object(
  {
    name: Text({ min: 1, max: 100 }),
    values: Type.Array(OptionValue, { minItems: 1, maxItems: 100, uniqueItems: true }),
  },
  { additionalProperties: false },
);
const InventoryInput = Type.Object(
  {
    tracked: Type.Optional(Type.Boolean()),
    onHand: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ON_HAND })),
    allowBackorder: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const VariantInput = Type.Object(
  {
    id: Type.Optional(Id("var")),
    sku: Type.Optional(Type.Union([Text({ min: 1, max: 100, pattern: "^\\S(.*\\S)?$" }), Type.Null()])),
    title: Type.Optional(Text({ min: 1, max: 200 })),
    options: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), OptionValue, { maxProperties: MAX_OPTIONS }),
    ),
    price: MinorUnits("Price in minor units"),
    compareAtPrice: Type.Optional(Type.Union([MinorUnits("Was-price in minor units"), Type.Null()])),
    inventory: Type.Optional(InventoryInput),
  },
  { additionalProperties: false },
);
const ImageInput = Type.Object(
  {
    // An image anywhere on the web, or one of the shop's own media, served on the shop's hosts.
    url: Text({
      min: 1,
      max: 2000,
      pattern: "^(https?://|/media/med_[A-Za-z0-9]{1,64}$)",
      description: "An `https://` (or `http://`) URL, or the `url` of the shop's media: `/media/{id}`",
    }),
    alt: Type.Optional(Text({ max: 300 })),
  },
  { additionalProperties: false },
);
const Tag = Text({ min: 1, max: 50 });

const productFields = {
  slug: Type.Optional(Slug),
  status: Type.Optional(
    Type.Union([Type.Literal("draft"), Type.Literal("active"), Type.Literal("archived")]),
  ),
  description: Type.Optional(Type.Union([LocalizedDescription, Type.Null()])),
  categoryIds: Type.Optional(Type.Array(CategoryId, { maxItems: 20, uniqueItems: true })),
  tags: Type.Optional(Type.Array(Tag, { maxItems: 50 })),
  images: Type.Optional(Type.Array(ImageInput, { maxItems: 20 })),
  options: Type.Optional(Type.Array(ProductOptionInput, { maxItems: MAX_OPTIONS })),
  taxRate: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 10_000 }), Type.Null()])),
  requiresShipping: Type.Optional(Type.Boolean()),
};

export const CreateProductBody = Body({
  name: LocalizedName,
  ...productFields,
  variants: Type.Array(VariantInput, { minItems: 1, maxItems: MAX_VARIANTS }),
});
export const UpdateProductBody = Body({
  name: Type.Optional(LocalizedName),
  ...productFields,
  variants: Type.Optional(Type.Array(VariantInput, { minItems: 1, maxItems: MAX_VARIANTS })),
});

const PRODUCT_SORTS = ["price", "name", "createdAt"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const ListProductsQuery = Type.Object({
  query: Type.Optional(Text({ max: 200, description: "Full-text search, prefix matching" })),
  categoryId: Type.Optional(CategoryId),
  sort: Type.Optional(
    Type.Union(
      PRODUCT_SORTS.map((s) => Type.Literal(s)),
      { description: "Sort field" },
    ),
  ),
  order: Type.Optional(
    Type.Union([Type.Literal("asc"), Type.Literal("desc")], {
      description: "Default asc, desc for createdAt",
    }),
  ),
  ...PageQuery,
});
export const AdminListProductsQuery = Type.Object({
  ...ListProductsQuery.properties,
  status: Type.Optional(
    Type.Union([Type.Literal("draft"), Type.Literal("active"), Type.Literal("archived")]),
  ),
});

export const ProductIdOrSlug = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 120,
    pattern: "^[A-Za-z0-9_-]+$",
    description: "Product id or slug",
  }),
});
export const ProductIdParams = Type.Object({ id: Id("prod") });
export const CategoryIdParams = Type.Object({ id: CategoryId });

// ---------------------------------------------------------------- inventory

export const InventoryLevel = named(
  "InventoryLevel",
  Type.Object({
    variantId: Type.String(),
    productId: Type.String(),
    sku: Type.Union([Type.String(), Type.Null()]),
    tracked: Type.Boolean(),
    onHand: Type.Integer(),
    allowBackorder: Type.Boolean(),
  }),
);
export const UpdateInventoryBody = Body({
  onHand: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ON_HAND, description: "Set the count" })),
  adjust: Type.Optional(
    Type.Integer({
      minimum: -MAX_ON_HAND,
      maximum: MAX_ON_HAND,
      description: `Add (or remove) units; the result stays within 0..${MAX_ON_HAND}`,
    }),
  ),
  tracked: Type.Optional(Type.Boolean()),
  allowBackorder: Type.Optional(Type.Boolean()),
});
export const VariantIdParams = Type.Object({ variantId: Id("var") });

// ---------------------------------------------------------------- CSV export and import

/** The most characters a CSV file sent as JSON may hold: the body limit (MAX_BODY_BYTES) bounds it first. */
const MAX_CSV_CHARACTERS = 64 * 1_048_576;

export const CatalogCsv = Type.String({
  description:
    "The catalog as CSV (RFC 4180, UTF-8, a header row): one row per variant, its product's columns repeated",
});

export const ImportProductsBody = Body({
  csv: Text({
    min: 1,
    max: MAX_CSV_CHARACTERS,
    multiline: true,
    description: "The CSV file as text, with the columns the export writes",
  }),
});

export const ImportProductsQuery = Type.Object({
  dryRun: Type.Optional(
    Type.Boolean({ description: "Check every row and report what would change, writing nothing" }),
  ),
});

export const CatalogImportReport = named(
  "CatalogImportReport",
  Type.Object({
    dryRun: Type.Boolean(),
    rows: Type.Integer({ description: "Rows read, blank ones left out" }),
    created: Type.Integer({ description: "Products created (in a dry run: that would be)" }),
    updated: Type.Integer({ description: "Products changed (in a dry run: that would be)" }),
    unchanged: Type.Integer({ description: "Products the file names as they already are" }),
    errors: Type.Array(
      Type.Object({
        row: Type.Integer({ description: "The row as a spreadsheet numbers it: the header is row 1" }),
        column: Type.Optional(Type.String({ description: "The column at fault, when it is one cell" })),
        message: Type.String(),
      }),
      { description: "Refused rows (a dry run only: an import with any answers 422 and writes nothing)" },
    ),
  }),
);
