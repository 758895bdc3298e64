import { Type } from "@sinclair/typebox";
import { recordEvent } from "../core/events.ts";
import { defineOperation, Paged } from "../core/operation.ts";
import { pageOf, SearchPageMeta } from "../core/schemas.ts";
import { createCategory, deleteCategory, listCategories, updateCategory } from "./categories.ts";
import { exportCatalog, importCatalog, MAX_IMPORT_ROWS } from "./csv.ts";
import { catalogCsvExample, productExample } from "./examples.ts";
import { updateInventory } from "./inventory.ts";
import {
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  storefrontProduct,
  updateProduct,
} from "./products.ts";
import {
  AdminListProductsQuery,
  CatalogCsv,
  CatalogImportReport,
  Category,
  CategoryIdParams,
  CreateCategoryBody,
  CreateProductBody,
  ImportProductsBody,
  ImportProductsQuery,
  InventoryLevel,
  ListProductsQuery,
  Product,
  ProductIdOrSlug,
  ProductIdParams,
  PublicStore,
  StorefrontProduct,
  StoreSettings,
  UpdateCategoryBody,
  UpdateInventoryBody,
  UpdateProductBody,
  UpdateStoreBody,
  VariantIdParams,
} from "./schema.ts";
import { getStore, publicStore, storeView, updateStore } from "./store-settings.ts";

const CATALOG = "Catalog";
const ADMIN_CATALOG = "Admin: catalog";

/** An empty search box means no search. */
const searchTerm = (query: string | undefined) => (query?.trim() ? query : undefined);

// ---------------------------------------------------------------- storefront

const listProductsOp = defineOperation({
  method: "GET",
  path: "/v1/products",
  operationId: "listProducts",
  cacheable: true,
  summary: "List active products",
  description:
    "Full-text `query` (prefix matching over names in every locale, descriptions, SKUs and tags; by relevance " +
    "unless `sort` is given), `categoryId` (includes its subcategories), `sort` = price | name | createdAt, " +
    "`order` = asc | desc (default asc, desc for createdAt). Without query or sort: newest first.",
  tag: CATALOG,
  access: "storefront",
  autoGrant: true,
  list: true,
  listMeta: SearchPageMeta,
  query: ListProductsQuery,
  response: StorefrontProduct,
  examples: { response: [productExample] },
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const listed = listProducts(tenant, { ...query, query: searchTerm(query.query), status: "active" }, page);
    return new Paged(listed.items.map(storefrontProduct), page, listed.total, listed.totalIsEstimate);
  },
});

const getProductOp = defineOperation({
  method: "GET",
  path: "/v1/products/{id}",
  operationId: "getProduct",
  cacheable: true,
  summary: "Get an active product by id or slug",
  description: "A draft or archived product, or one of another store, is a 404, as an unknown id.",
  tag: CATALOG,
  access: "storefront",
  autoGrant: true,
  params: ProductIdOrSlug,
  response: StorefrontProduct,
  examples: { response: productExample },
  handler: ({ tenant, params }) => storefrontProduct(getProduct(tenant, params.id, true)),
});

const listCategoriesOp = defineOperation({
  method: "GET",
  path: "/v1/categories",
  operationId: "listCategories",
  cacheable: true,
  summary: "List categories by position",
  description:
    "Every category with `parentId` (build the tree from it) and `productCount`: the active products " +
    "`GET /v1/products?categoryId=` lists for it, subcategories included.",
  tag: CATALOG,
  access: "storefront",
  autoGrant: true,
  response: Type.Array(Category),
  handler: ({ tenant }) => listCategories(tenant),
});

const getStoreOp = defineOperation({
  method: "GET",
  path: "/v1/store",
  operationId: "getStore",
  cacheable: true,
  summary: "Store info: name, currency, locales, country, whether prices include tax",
  description:
    "What a storefront needs to format prices and pick a language; the admin settings hold the rest.",
  tag: CATALOG,
  access: "storefront",
  autoGrant: true,
  response: PublicStore,
  handler: ({ tenant }) => publicStore(getStore(tenant)),
});

// ---------------------------------------------------------------- admin: products

const adminListProductsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/products",
  operationId: "adminListProducts",
  summary: "List products of every status",
  description: "The storefront list's filters plus `status`.",
  tag: ADMIN_CATALOG,
  access: "admin",
  list: true,
  listMeta: SearchPageMeta,
  query: AdminListProductsQuery,
  response: Product,
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const listed = listProducts(tenant, { ...query, query: searchTerm(query.query) }, page);
    return new Paged(listed.items, page, listed.total, listed.totalIsEstimate);
  },
});

const adminCreateProductOp = defineOperation({
  method: "POST",
  path: "/v1/admin/products",
  operationId: "adminCreateProduct",
  summary: "Create a product with its variants",
  description:
    "Prices are integer minor units. Without options a product has exactly one variant; with options each " +
    "variant names one value of each, and no two share a combination. A variant's stock is tracked when " +
    "`inventory.onHand` or `inventory.tracked` is given. Status defaults to active.",
  tag: ADMIN_CATALOG,
  access: "admin",
  status: 201,
  errors: ["CONFLICT"],
  body: CreateProductBody,
  response: Product,
  handler: ({ tenant, body }) => {
    const product = createProduct(tenant, body);
    recordEvent(tenant, "product.created", product);
    return product;
  },
});

const adminGetProductOp = defineOperation({
  method: "GET",
  path: "/v1/admin/products/{id}",
  operationId: "adminGetProduct",
  summary: "Get a product of any status by id or slug",
  description: "Drafts and archived products too, with each variant's inventory.",
  tag: ADMIN_CATALOG,
  access: "admin",
  params: ProductIdOrSlug,
  response: Product,
  handler: ({ tenant, params }) => getProduct(tenant, params.id, false),
});

const adminUpdateProductOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/products/{id}",
  operationId: "adminUpdateProduct",
  summary: "Update a product",
  description:
    "Any subset of the fields. A `variants` array replaces the list: entries with an `id` update that " +
    "variant, entries without one are created, variants left out are deleted.",
  tag: ADMIN_CATALOG,
  access: "admin",
  errors: ["CONFLICT"],
  params: ProductIdParams,
  body: UpdateProductBody,
  response: Product,
  handler: ({ tenant, params, body }) => {
    const product = updateProduct(tenant, params.id, body);
    recordEvent(tenant, "product.updated", product);
    return product;
  },
});

const adminDeleteProductOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/products/{id}",
  operationId: "adminDeleteProduct",
  summary: "Delete a product and its variants",
  description:
    "Removes it from the catalog and search at once. Placed orders keep their own copy of its titles and prices.",
  tag: ADMIN_CATALOG,
  access: "admin",
  status: 204,
  params: ProductIdParams,
  handler: ({ tenant, params }) => {
    const product = getProduct(tenant, params.id, false);
    deleteProduct(tenant, params.id);
    recordEvent(tenant, "product.deleted", product);
    return undefined;
  },
});

// ---------------------------------------------------------------- admin: categories

const adminListCategoriesOp = defineOperation({
  method: "GET",
  path: "/v1/admin/categories",
  operationId: "adminListCategories",
  summary: "List categories by position",
  description:
    "The same categories and counts as the storefront list (`productCount`: active products, subcategories included).",
  tag: ADMIN_CATALOG,
  access: "admin",
  response: Type.Array(Category),
  handler: ({ tenant }) => listCategories(tenant),
});

const adminCreateCategoryOp = defineOperation({
  method: "POST",
  path: "/v1/admin/categories",
  operationId: "adminCreateCategory",
  summary: "Create a category",
  description: "The slug is made from the default-locale name when absent. A parent must exist.",
  tag: ADMIN_CATALOG,
  access: "admin",
  status: 201,
  errors: ["CONFLICT"],
  body: CreateCategoryBody,
  response: Category,
  handler: ({ tenant, body }) => createCategory(tenant, body),
});

const adminUpdateCategoryOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/categories/{id}",
  operationId: "adminUpdateCategory",
  summary: "Update a category",
  description: "A parent that would form a cycle is a 409.",
  tag: ADMIN_CATALOG,
  access: "admin",
  errors: ["CONFLICT"],
  params: CategoryIdParams,
  body: UpdateCategoryBody,
  response: Category,
  handler: ({ tenant, params, body }) => updateCategory(tenant, params.id, body),
});

const adminDeleteCategoryOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/categories/{id}",
  operationId: "adminDeleteCategory",
  summary: "Delete a category without subcategories",
  description: "A category with subcategories is a 409; its products simply lose it.",
  tag: ADMIN_CATALOG,
  access: "admin",
  status: 204,
  errors: ["CONFLICT"],
  params: CategoryIdParams,
  handler: ({ tenant, params }) => {
    deleteCategory(tenant, params.id);
    return undefined;
  },
});

// ---------------------------------------------------------------- admin: store and inventory

const adminGetStoreOp = defineOperation({
  method: "GET",
  path: "/v1/admin/store",
  operationId: "adminGetStore",
  summary: "Get the store settings",
  description:
    "Every setting, including tax rates and the low-stock threshold, which the storefront's store info leaves out.",
  tag: "Admin: store",
  access: "admin",
  response: StoreSettings,
  handler: ({ tenant }) => storeView(getStore(tenant)),
});

const adminUpdateStoreOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/store",
  operationId: "adminUpdateStore",
  summary: "Update the store settings",
  description:
    "Tax rates are basis points (2300 = 23 %). `locales` always includes `defaultLocale`. `currency` is fixed once an order exists (409 `CONFLICT`).",
  tag: "Admin: store",
  access: "admin",
  errors: ["CONFLICT"],
  body: UpdateStoreBody,
  response: StoreSettings,
  handler: ({ tenant, body }) => storeView(updateStore(tenant, body)),
});

const adminUpdateInventoryOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/inventory/{variantId}",
  operationId: "adminUpdateInventory",
  summary: "Set or adjust a variant's stock",
  description:
    "`onHand` sets the count, `adjust` adds a signed delta (the result stays within 0..1000000000, " +
    "else 422); `tracked` and `allowBackorder` set the flags. Untracked variants are always available.",
  tag: "Admin: store",
  access: "admin",
  errors: ["UNPROCESSABLE"],
  params: VariantIdParams,
  body: UpdateInventoryBody,
  response: InventoryLevel,
  handler: ({ tenant, params, body }) => updateInventory(tenant, params.variantId, body),
});

// ---------------------------------------------------------------- admin: CSV export and import

const adminExportProductsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/products/export",
  operationId: "adminExportProducts",
  summary: "Export the catalog as a CSV file",
  description:
    "Every product of every status, one row per variant with the product's columns repeated: slug, status, " +
    "`name.<locale>` and `description.<locale>` per store locale, categories (slugs), tags and image URLs " +
    "separated by `|`, taxRate, requiresShipping, `option1.name`/`option1.value` up to option3, sku, title, " +
    "price and compareAtPrice as decimals in the store's currency (`49.00`), currency, tracked, onHand, " +
    "allowBackorder. UTF-8 with a byte-order mark, so spreadsheets read accents. For people and spreadsheets: " +
    "agents read products as JSON.",
  tag: ADMIN_CATALOG,
  access: "admin",
  agent: false,
  textResponse: "text/csv",
  response: CatalogCsv,
  examples: { response: catalogCsvExample },
  handler: ({ tenant }) => exportCatalog(tenant),
});

const adminImportProductsOp = defineOperation({
  method: "POST",
  path: "/v1/admin/products/import",
  operationId: "adminImportProducts",
  summary: "Create or update products from a CSV file (all or nothing)",
  description:
    'The export\'s columns, sent as a `text/csv` body or as `{"csv": "…"}`. Rows are grouped by slug into ' +
    "products; a row whose SKU exists updates that variant and its product, a slug no product has creates one. " +
    "Each product is checked by the rules of create and update. A column the file lacks keeps what is stored. " +
    "Any refused row imports nothing: a 422 whose `details` name each cell (`/body/csv/{row}/{column}`). " +
    `\`dryRun=true\` writes nothing and reports what would happen, refused rows included. At most ${MAX_IMPORT_ROWS} rows.`,
  tag: ADMIN_CATALOG,
  access: "admin",
  errors: ["UNPROCESSABLE"],
  textBody: { mediaType: "text/csv", field: "csv" },
  query: ImportProductsQuery,
  body: ImportProductsBody,
  response: CatalogImportReport,
  handler: ({ tenant, query, body }) => importCatalog(tenant, body.csv, query.dryRun === true),
});

export const catalogOperations = [
  listProductsOp,
  getProductOp,
  listCategoriesOp,
  getStoreOp,
  adminListProductsOp,
  adminCreateProductOp,
  adminGetProductOp,
  adminUpdateProductOp,
  adminDeleteProductOp,
  adminListCategoriesOp,
  adminCreateCategoryOp,
  adminUpdateCategoryOp,
  adminDeleteCategoryOp,
  adminGetStoreOp,
  adminUpdateStoreOp,
  adminUpdateInventoryOp,
  adminExportProductsOp,
  adminImportProductsOp,
];
