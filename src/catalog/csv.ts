import type { Database } from "bun:sqlite";
import type { Static } from "@sinclair/typebox";
import Papa from "papaparse";
import { ApiError, type ErrorDetail } from "../core/errors.ts";
import { recordEvent } from "../core/events.ts";
import { compileInput } from "../core/validation.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { currencyDigits, decimalAmount, minorUnits } from "../lib/currency.ts";
import { allProducts, createProduct, getProduct, type ProductView, updateProduct } from "./products.ts";
import { CreateProductBody, LOCALE_PATTERN, MAX_OPTIONS, UpdateProductBody } from "./schema.ts";
import { getStore, type Store } from "./store-settings.ts";
import type { ProductOption } from "./tables.ts";

// The catalog as a spreadsheet: one row per variant, its product's columns repeated, written by the
// export and read back by the import (docs/catalog.md, "CSV export and import"). The import turns
// each product's rows into the body the product operations take and saves it through the same
// functions, so a row is refused by exactly the rules that refuse the operation.

/** The most rows one import reads: a larger file is a 413, to be split. */
export const MAX_IMPORT_ROWS = 5000;
/** The most refused cells a report lists. */
const MAX_REPORTED_ERRORS = 1000;
const BOM = "\uFEFF";
/** Separates the items of a list cell (categories, tags, images). */
const LIST_SEPARATOR = "|";

const OPTION_NUMBERS = Array.from({ length: MAX_OPTIONS }, (_, i) => i + 1);
const PRODUCT_COLUMNS = ["categories", "tags", "images", "taxRate", "requiresShipping"];
const OPTION_COLUMNS = OPTION_NUMBERS.flatMap((n) => [`option${n}.name`, `option${n}.value`]);
const VARIANT_COLUMNS = [
  "sku",
  "title",
  "price",
  "compareAtPrice",
  "currency",
  "tracked",
  "onHand",
  "allowBackorder",
];
const FIXED_COLUMNS = new Set(["slug", "status", ...PRODUCT_COLUMNS, ...OPTION_COLUMNS, ...VARIANT_COLUMNS]);
const LOCALIZED_COLUMN = new RegExp(`^(name|description)\\.${LOCALE_PATTERN.slice(1)}`);

/** Cells a person types words in keep their spaces; the others (numbers, flags, ids) are trimmed. */
const isTextColumn = (column: string) =>
  LOCALIZED_COLUMN.test(column) || column === "title" || column.startsWith("option");

type Cells = Record<string, string>;
type Variant = ProductView["variants"][number];

// ---------------------------------------------------------------- export

/** The store's locales, the default first: the order of the name and description columns. */
const localesOf = (store: Store) => [
  store.defaultLocale,
  ...store.locales.filter((locale) => locale !== store.defaultLocale),
];

function exportColumns(store: Store): string[] {
  const locales = localesOf(store);
  return [
    "slug",
    "status",
    ...locales.map((locale) => `name.${locale}`),
    ...locales.map((locale) => `description.${locale}`),
    ...PRODUCT_COLUMNS,
    ...OPTION_COLUMNS,
    ...VARIANT_COLUMNS,
  ];
}

/** Category id → slug. */
function categorySlugs(tenant: TenantDb): Map<string, string> {
  const rows = tenant.sqlite.query("SELECT id, slug FROM categories").all() as { id: string; slug: string }[];
  return new Map(rows.map((row) => [row.id, row.slug]));
}

function productCells(product: ProductView, slugs: Map<string, string>): Cells {
  const cells: Cells = {
    slug: product.slug,
    status: product.status,
    categories: product.categoryIds.map((id) => slugs.get(id) ?? id).join(LIST_SEPARATOR),
    tags: product.tags.join(LIST_SEPARATOR),
    images: product.images.map((image) => image.url).join(LIST_SEPARATOR),
    taxRate: product.taxRate === null ? "" : String(product.taxRate),
    requiresShipping: String(product.requiresShipping),
  };
  for (const [locale, text] of Object.entries(product.name)) cells[`name.${locale}`] = text;
  for (const [locale, text] of Object.entries(product.description ?? {}))
    cells[`description.${locale}`] = text;
  product.options.forEach((option, i) => {
    cells[`option${i + 1}.name`] = option.name;
  });
  return cells;
}

function variantCells(product: ProductView, variant: Variant): Cells {
  const { currency } = variant.price;
  const cells: Cells = {
    sku: variant.sku ?? "",
    title: variant.title,
    price: decimalAmount(variant.price.amount, currency),
    compareAtPrice: variant.compareAtPrice ? decimalAmount(variant.compareAtPrice.amount, currency) : "",
    currency,
    tracked: String(variant.inventory.tracked),
    onHand: String(variant.inventory.onHand),
    allowBackorder: String(variant.inventory.allowBackorder),
  };
  product.options.forEach((option, i) => {
    cells[`option${i + 1}.value`] = variant.options[option.name] ?? "";
  });
  return cells;
}

/**
 * Every product of every status, oldest first, one row per variant. It starts with a UTF-8
 * byte-order mark: without one, Excel reads the file in the computer's legacy encoding and garbles
 * every accent.
 */
export function exportCatalog(tenant: TenantDb): string {
  const columns = exportColumns(getStore(tenant));
  const slugs = categorySlugs(tenant);
  const data: string[][] = [];
  for (const product of allProducts(tenant)) {
    const shared = productCells(product, slugs);
    for (const variant of product.variants) {
      const cells = { ...shared, ...variantCells(product, variant) };
      data.push(columns.map((column) => cells[column] ?? ""));
    }
  }
  return `${BOM}${Papa.unparse({ fields: columns, data }, { newline: "\r\n" })}\r\n`;
}

// ---------------------------------------------------------------- reading the file

interface SheetRow {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  /** Every column of the header; `""` for an empty cell. */
  cells: Cells;
}

interface Sheet {
  columns: Set<string>;
  rows: SheetRow[];
}

const pointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** Where a cell is in the input: `/body/csv/{row}/{column}`. */
const csvPath = (row: number, column?: string) =>
  `/body/csv/${row}${column === undefined ? "" : `/${pointer(column)}`}`;

/** A file the import cannot read at all: a 400 naming where. */
const unreadable = (message: string, row?: number) =>
  new ApiError("VALIDATION_ERROR", message, [
    { path: row === undefined ? "/body/csv" : csvPath(row), message },
  ]);

/**
 * The separator of the header row: a comma (what the export writes), a semicolon (what a
 * spreadsheet saves in locales whose decimal separator is a comma) or a tab, whichever it holds
 * most. Column names hold none of them, so the header alone decides.
 */
function delimiterOf(text: string): string {
  const end = text.search(/[\r\n]/);
  const header = end === -1 ? text : text.slice(0, end);
  let best = ",";
  let most = 0;
  for (const candidate of [",", ";", "\t"]) {
    const count = header.split(candidate).length - 1;
    if (count > most) [best, most] = [candidate, count];
  }
  return best;
}

const KNOWN_COLUMNS =
  "slug, status, name.<locale>, description.<locale>, categories, tags, images, taxRate, requiresShipping, " +
  "option1.name, option1.value (up to option3), sku, title, price, compareAtPrice, currency, tracked, onHand, allowBackorder";

/** The header's column names; unknown or repeated ones, and a missing `slug`, are a 400. */
function checkHeader(header: string[]): string[] {
  const columns = header.map((name) => name.trim());
  if (columns.every((column) => column === "")) {
    throw unreadable("The file is empty: its first row must name the columns");
  }
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const column of columns) {
    const known = FIXED_COLUMNS.has(column) || LOCALIZED_COLUMN.test(column);
    if (!known || seen.has(column)) {
      details.push({ path: csvPath(1, column), message: known ? "named twice" : "unknown column" });
    }
    seen.add(column);
  }
  if (details.length) {
    const names = details.map((detail) => JSON.stringify(detail.path.slice(csvPath(1).length + 1)));
    throw new ApiError(
      "VALIDATION_ERROR",
      `Unknown or repeated columns ${names.join(", ")}; the columns are ${KNOWN_COLUMNS}`,
      details.slice(0, 20),
    );
  }
  if (!seen.has("slug"))
    throw unreadable("The file has no slug column: each row names its product by slug", 1);
  return columns;
}

/** The rows of a CSV text; a text that is no readable CSV with known columns is a 400, too many rows a 413. */
function parseSheet(csv: string): Sheet {
  const text = csv.startsWith(BOM) ? csv.slice(1) : csv;
  const parsed = Papa.parse<string[]>(text, { delimiter: delimiterOf(text) });
  const fault = parsed.errors[0];
  if (fault) {
    const row = (fault.row ?? 0) + 1;
    throw unreadable(`Row ${row} cannot be read: ${fault.message}`, row);
  }
  const [header = [], ...records] = parsed.data;
  const columns = checkHeader(header);
  const rows: SheetRow[] = [];
  records.forEach((record, i) => {
    const row = i + 2;
    if (record.every((cell) => cell.trim() === "")) return;
    if (record.slice(columns.length).some((cell) => cell.trim() !== "")) {
      throw unreadable(`Row ${row} has more cells than the header has columns`, row);
    }
    const cells: Cells = {};
    columns.forEach((column, j) => {
      const cell = record[j] ?? "";
      const trimmed = cell.trim();
      cells[column] = trimmed !== "" && isTextColumn(column) ? cell : trimmed;
    });
    rows.push({ row, cells });
  });
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `The file has ${rows.length} rows; an import takes at most ${MAX_IMPORT_ROWS}: split it`,
    );
  }
  return { columns: new Set(columns), rows };
}

// ---------------------------------------------------------------- cells

interface RowError {
  row: number;
  column?: string;
  message: string;
}

type Fail = (row: number, column: string | undefined, message: string) => void;

/** A cell of a column the file has. */
interface Cell {
  text: string;
  row: number;
  column: string;
}

function booleanOf(cell: Cell, fail: Fail): boolean | undefined {
  const text = cell.text.toLowerCase();
  if (text === "true" || text === "false") return text === "true";
  fail(cell.row, cell.column, "must be true or false");
  return undefined;
}

function integerOf(cell: Cell, fail: Fail): number | undefined {
  if (/^-?\d{1,15}$/.test(cell.text)) return Number(cell.text);
  fail(cell.row, cell.column, "must be a whole number");
  return undefined;
}

function amountOf(cell: Cell, currency: string, fail: Fail): number | undefined {
  const amount = minorUnits(cell.text, currency);
  if (amount === undefined) {
    const digits = currencyDigits(currency);
    fail(
      cell.row,
      cell.column,
      `must be an amount in ${currency} like ${decimalAmount(4950, currency)} (at most ${digits} decimals, no thousands separator)`,
    );
  }
  return amount;
}

const listOf = (text: string) =>
  text
    .split(LIST_SEPARATOR)
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** The object without its undefined fields (a field left out keeps what is stored). */
const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

// ---------------------------------------------------------------- rows → product bodies

/** What the whole file is checked against, read once: the store, categories by slug, the products its SKUs and slugs name. */
interface Catalog {
  store: Store;
  categoryBySlug: Map<string, string>;
  productOfSku: Map<string, string>;
  productOfSlug: Map<string, string>;
}

function catalogOf(tenant: TenantDb, sheet: Sheet): Catalog {
  const values = (column: string) =>
    JSON.stringify(sheet.rows.map((row) => row.cells[column]).filter((value) => value));
  const bySku = tenant.sqlite
    .query("SELECT sku, product_id FROM variants WHERE sku IN (SELECT value FROM json_each(?))")
    .all(values("sku")) as { sku: string; product_id: string }[];
  const bySlug = tenant.sqlite
    .query("SELECT slug, id FROM products WHERE slug IN (SELECT value FROM json_each(?))")
    .all(values("slug")) as { slug: string; id: string }[];
  return {
    store: getStore(tenant),
    categoryBySlug: new Map([...categorySlugs(tenant)].map(([id, slug]) => [slug, id])),
    productOfSku: new Map(bySku.map((row) => [row.sku, row.product_id])),
    productOfSlug: new Map(bySlug.map((row) => [row.slug, row.id])),
  };
}

/** The rows of one product, and the product they update (none: they create one). */
interface Group {
  slug: string;
  rows: SheetRow[];
  productId?: string;
}

/**
 * The product a group's rows name: the one its known SKUs belong to, else the one with its slug,
 * else none (a new product). Undefined when its SKUs belong to two products.
 */
function targetOf(group: Group, catalog: Catalog, fail: Fail): string | null | undefined {
  let owner: { id: string; row: number } | undefined;
  for (const { row, cells } of group.rows) {
    const id = cells.sku ? catalog.productOfSku.get(cells.sku) : undefined;
    if (id === undefined || id === owner?.id) continue;
    if (owner) {
      fail(row, "sku", `belongs to another product than the SKU of row ${owner.row}, under the same slug`);
      return undefined;
    }
    owner = { id, row };
  }
  return owner?.id ?? catalog.productOfSlug.get(group.slug) ?? null;
}

/** Rows grouped by slug, each group with the product it updates; refused rows and groups are left out. */
function groupRows(sheet: Sheet, catalog: Catalog, fail: Fail): Group[] {
  const groups = new Map<string, Group>();
  const rowOfSku = new Map<string, number>();
  for (const sheetRow of sheet.rows) {
    const { row, cells } = sheetRow;
    const sku = cells.sku ?? "";
    const first = rowOfSku.get(sku);
    if (first !== undefined) fail(row, "sku", `also on row ${first}: a SKU names one variant`);
    else if (!cells.slug) fail(row, "slug", "required: the slug of the product the row belongs to");
    else {
      if (sku) rowOfSku.set(sku, row);
      const group = groups.get(cells.slug) ?? { slug: cells.slug, rows: [] };
      group.rows.push(sheetRow);
      groups.set(cells.slug, group);
    }
  }
  const slugOfProduct = new Map<string, string>();
  return [...groups.values()].filter((group) => {
    const target = targetOf(group, catalog, fail);
    if (target === undefined) return false;
    const other = target === null ? undefined : slugOfProduct.get(target);
    if (other !== undefined) {
      fail(group.rows[0]!.row, "slug", `names the same product as the rows of slug "${other}"`);
      return false;
    }
    if (target !== null) slugOfProduct.set(target, group.slug);
    group.productId = target ?? undefined;
    return true;
  });
}

/** One product's rows turned into the body of `adminCreateProduct` or `adminUpdateProduct`. */
interface Plan {
  existing: ProductView | null;
  body: Record<string, unknown>;
  /** The row each entry of `body.variants` comes from (a variant no row names: the first row). */
  rowOfVariant: number[];
  firstRow: number;
  /** The option names by column number (`option2.name` → 2). */
  optionNames: Map<number, string>;
}

/** How one group's cells are read: the file, its product's stored view, the store, where faults go. */
interface Reading {
  sheet: Sheet;
  group: Group;
  existing: ProductView | null;
  catalog: Catalog;
  fail: Fail;
}

/**
 * A product column's value: its non-empty cells among the product's rows, which must agree (rows
 * may repeat it or leave it empty); `""` when all are empty; undefined when the file has no such column.
 */
function productValue({ sheet, group, fail }: Reading, column: string): Cell | undefined {
  if (!sheet.columns.has(column)) return undefined;
  let found: Cell = { text: "", row: group.rows[0]!.row, column };
  for (const { row, cells } of group.rows) {
    const text = cells[column]!;
    if (text === "" || text === found.text) continue;
    if (found.text === "") found = { text, row, column };
    else fail(row, column, `differs from row ${found.row} of the same product`);
  }
  return found;
}

/**
 * Names or descriptions: the stored text, with each locale the file has a column for set or (empty)
 * removed. A product must have a name, so name cells that are all empty keep the stored one.
 */
function localizedField(reading: Reading, kind: "name" | "description") {
  const columns = [...reading.sheet.columns].filter((column) => column.startsWith(`${kind}.`));
  const cells = columns.map((column) => productValue(reading, column)!);
  if (cells.length === 0 || (kind === "name" && cells.every((cell) => cell.text === ""))) return undefined;
  const text: Record<string, string> = { ...reading.existing?.[kind] };
  for (const cell of cells) {
    const locale = cell.column.slice(kind.length + 1);
    if (cell.text) text[locale] = cell.text;
    else delete text[locale];
  }
  return text;
}

/** The product's own fields, each one the file has a column for (the rest keep what is stored). */
function productFields(reading: Reading): Record<string, unknown> {
  const { existing, catalog, fail } = reading;
  const value = (column: string) => productValue(reading, column);
  const booleanCell = (cell: Cell | undefined) => (cell?.text ? booleanOf(cell, fail) : undefined);
  const list = (cell: Cell | undefined) => (cell ? listOf(cell.text) : undefined);
  const description = localizedField(reading, "description");
  const categories = value("categories");
  const taxRate = value("taxRate");
  return defined({
    slug: reading.group.slug,
    status: value("status")?.text || undefined,
    name: localizedField(reading, "name"),
    description: description && (Object.keys(description).length ? description : null),
    categoryIds: list(categories)?.map((slug) => {
      const id = catalog.categoryBySlug.get(slug);
      if (!id) fail(categories!.row, "categories", `no category has the slug "${slug}"`);
      return id;
    }),
    tags: list(value("tags")),
    // An image keeps its alt text while its URL stays.
    images: list(value("images"))?.map((url) => {
      const alt = existing?.images.find((image) => image.url === url)?.alt;
      return alt === undefined ? { url } : { url, alt };
    }),
    taxRate: taxRate && (taxRate.text === "" ? null : integerOf(taxRate, fail)),
    requiresShipping: booleanCell(value("requiresShipping")),
  });
}

/** Option names by column number: from `optionN.name`, else (values only) the product's Nth option. */
function optionNamesOf(reading: Reading): Map<number, string> {
  const names = new Map<number, string>();
  for (const n of OPTION_NUMBERS) {
    const cell = productValue(reading, `option${n}.name`);
    const name = cell
      ? cell.text
      : reading.sheet.columns.has(`option${n}.value`)
        ? reading.existing?.options[n - 1]?.name
        : "";
    if (name) names.set(n, name);
  }
  return names;
}

/** The product's options when the file names them: the stored values of each, then new ones in the order rows bring them. */
function optionsField(reading: Reading, names: Map<number, string>): ProductOption[] | undefined {
  if (!OPTION_NUMBERS.some((n) => reading.sheet.columns.has(`option${n}.name`))) return undefined;
  return [...names].map(([n, name]) => {
    const values = [...(reading.existing?.options.find((option) => option.name === name)?.values ?? [])];
    for (const { cells } of reading.group.rows) {
      const value = cells[`option${n}.value`];
      if (value && !values.includes(value)) values.push(value);
    }
    return { name, values };
  });
}

/** The option values a row names, or undefined when the file has no option columns. */
function chosenOptions(reading: Reading, { row, cells }: SheetRow, names: Map<number, string>) {
  const columns = OPTION_NUMBERS.filter((n) => reading.sheet.columns.has(`option${n}.value`));
  if (columns.length === 0) return undefined;
  const chosen: Record<string, string> = {};
  for (const n of columns) {
    const value = cells[`option${n}.value`];
    if (!value) continue;
    const name = names.get(n);
    if (name) chosen[name] = value;
    else reading.fail(row, `option${n}.value`, `has no option name: fill option${n}.name`);
  }
  return chosen;
}

const sameOptions = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * The stored variant each row updates, or undefined for a new one: first by SKU, then, among the
 * variants left, the one with the row's option values (the only one, for a product without
 * options), so a row can give a variant its first SKU.
 */
function matchVariants(
  rows: SheetRow[],
  chosen: (Record<string, string> | undefined)[],
  existing: ProductView | null,
): (Variant | undefined)[] {
  const variants = existing?.variants ?? [];
  const matches = rows.map(({ cells }) => variants.find((v) => cells.sku && v.sku === cells.sku));
  const free = variants.filter((v) => !matches.includes(v));
  rows.forEach((_, i) => {
    const wanted = chosen[i] ?? (existing?.options.length === 0 ? {} : undefined);
    if (matches[i] || !wanted) return;
    const found = free.find((v) => sameOptions(v.options, wanted));
    if (found) free.splice(free.indexOf(found), 1);
    matches[i] = found;
  });
  return matches;
}

/** One row as a variant of the body: each cell given, else what the matched variant has (else the default). */
function variantBody(
  reading: Reading,
  { row, cells }: SheetRow,
  match: Variant | undefined,
  chosen: Record<string, string> | undefined,
): Record<string, unknown> {
  const { sheet, fail } = reading;
  const { currency } = reading.catalog.store;
  const cell = (column: string): Cell | undefined =>
    sheet.columns.has(column) ? { text: cells[column]!, row, column } : undefined;
  const given = (column: string) => (cells[column] ? cell(column) : undefined);
  const compareAt = cell("compareAtPrice");
  if (cells.currency && cells.currency !== currency) {
    fail(row, "currency", `prices are in the store's currency, ${currency}`);
  }
  const tracked = given("tracked");
  const onHand = given("onHand");
  const backorder = given("allowBackorder");
  const inventory = defined({
    tracked: tracked && booleanOf(tracked, fail),
    onHand: onHand && integerOf(onHand, fail),
    allowBackorder: backorder && booleanOf(backorder, fail),
  });
  const price = given("price");
  return defined({
    id: match?.id,
    sku: cells.sku || undefined,
    // An empty title is the default one (the option values); a file without titles keeps them.
    title: sheet.columns.has("title") ? cells.title || undefined : match?.title,
    options: chosen,
    price: price ? amountOf(price, currency, fail) : match?.price.amount,
    compareAtPrice: compareAt && (compareAt.text === "" ? null : amountOf(compareAt, currency, fail)),
    inventory: Object.keys(inventory).length ? inventory : undefined,
  });
}

/**
 * The product body of a group: its fields, options, and variants in their stored order (a variant
 * no row names stays as it is), new variants after them in the order of the rows.
 */
function planProduct(tenant: TenantDb, group: Group, sheet: Sheet, catalog: Catalog, fail: Fail): Plan {
  const existing = group.productId ? getProduct(tenant, group.productId, false) : null;
  const reading: Reading = { sheet, group, existing, catalog, fail };
  const optionNames = optionNamesOf(reading);
  const chosen = group.rows.map((row) => chosenOptions(reading, row, optionNames));
  const matches = matchVariants(group.rows, chosen, existing);
  const firstRow = group.rows[0]!.row;
  const variants: Record<string, unknown>[] = [];
  const rowOfVariant: number[] = [];
  for (const variant of existing?.variants ?? []) {
    const i = matches.indexOf(variant);
    variants.push(
      i === -1
        ? { id: variant.id, title: variant.title, price: variant.price.amount }
        : variantBody(reading, group.rows[i]!, variant, chosen[i]),
    );
    rowOfVariant.push(i === -1 ? firstRow : group.rows[i]!.row);
  }
  group.rows.forEach((row, i) => {
    if (matches[i]) return;
    variants.push(variantBody(reading, row, undefined, chosen[i]));
    rowOfVariant.push(row.row);
  });
  const body = defined({ ...productFields(reading), options: optionsField(reading, optionNames), variants });
  return { existing, body, rowOfVariant, firstRow, optionNames };
}

// ---------------------------------------------------------------- saving

/** Thrown to leave a savepoint without keeping what was written in it. */
class Undo {
  constructor(readonly value: unknown) {}
}

/** Runs `run` in a savepoint, kept only when it says so: a dry run, a refused file and an unchanged product leave nothing. */
function savepoint<T>(sqlite: Database, run: () => { value: T; keep: boolean }): T {
  try {
    return sqlite.transaction(() => {
      const { value, keep } = run();
      if (!keep) throw new Undo(value);
      return value;
    })();
  } catch (error) {
    if (error instanceof Undo) return error.value as T;
    throw error;
  }
}

let validators:
  | { create: ReturnType<typeof compileInput>; update: ReturnType<typeof compileInput> }
  | undefined;

/** Checks the body as the product operations check theirs, and saves it through the same functions. */
function applyPlan(tenant: TenantDb, { existing, body }: Plan): "created" | "updated" | "unchanged" {
  validators ??= {
    create: compileInput("body", CreateProductBody),
    update: compileInput("body", UpdateProductBody),
  };
  if (!existing) {
    const created = createProduct(tenant, validators.create.parse(body) as Static<typeof CreateProductBody>);
    recordEvent(tenant, "product.created", created);
    return "created";
  }
  const patch = validators.update.parse(body) as Static<typeof UpdateProductBody>;
  return savepoint(tenant.sqlite, () => {
    const after = updateProduct(tenant, existing.id, patch);
    const same =
      JSON.stringify({ ...after, updatedAt: "" }) === JSON.stringify({ ...existing, updatedAt: "" });
    if (!same) recordEvent(tenant, "product.updated", after);
    return { value: same ? "unchanged" : "updated", keep: !same };
  });
}

const VARIANT_FIELDS = new Set(["sku", "title", "price", "compareAtPrice"]);

/** The column (and variant) a refusal's path names: `/body/variants/2/price` → the price of variant 2's row. */
function locate(path: string, plan: Plan, store: Store): { variant?: number; column?: string } {
  const [field, ...rest] = path
    .split("/")
    .slice(2)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  const optionColumn = (name: string | undefined) =>
    [...plan.optionNames].find(([, option]) => option === name)?.[0];
  switch (field) {
    case "variants": {
      const [index, key, inner] = rest;
      const n = key === "options" ? optionColumn(inner) : undefined;
      const column =
        key === "inventory"
          ? inner
          : n
            ? `option${n}.value`
            : key && VARIANT_FIELDS.has(key)
              ? key
              : undefined;
      return { variant: Number(index), column };
    }
    case "name":
    case "description":
      return { column: `${field}.${rest[0] || store.defaultLocale}` };
    case "categoryIds":
      return { column: "categories" };
    case "options": {
      const n = [...plan.optionNames.keys()][Number(rest[0])];
      return n ? { column: `option${n}.${rest[1] === "name" ? "name" : "value"}` } : {};
    }
    case "slug":
    case "status":
    case "tags":
    case "images":
    case "taxRate":
    case "requiresShipping":
      return { column: field };
    default:
      return {};
  }
}

/** A refusal of one product's body as the rows and cells it names. */
function refusedRows(error: ApiError, plan: Plan, store: Store): RowError[] {
  const details = error.details?.length ? error.details : [{ path: "", message: error.message }];
  return details.map(({ path, message }) => {
    const { variant, column } = locate(path, plan, store);
    const row = (variant === undefined ? undefined : plan.rowOfVariant[variant]) ?? plan.firstRow;
    const text = message === "Expected required property" ? "required" : message;
    return column ? { row, column, message: text } : { row, message: text };
  });
}

// ---------------------------------------------------------------- import

export interface ImportReport {
  dryRun: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: RowError[];
}

/** The 422 of an import with refused rows: each cell at `/body/csv/{row}/{column}`. */
function refused(errors: RowError[]): ApiError {
  const rows = new Set(errors.map((error) => error.row)).size;
  const [first] = errors;
  const where = first!.column ? `row ${first!.row}, ${first!.column}` : `row ${first!.row}`;
  return new ApiError(
    "UNPROCESSABLE",
    `Nothing was imported: ${rows} row${rows === 1 ? " is" : "s are"} refused (${where}: ${first!.message})`,
    errors.map((error) => ({ path: csvPath(error.row, error.column), message: error.message })),
  );
}

/**
 * Creates and updates products from a CSV file, all or nothing: any refused row writes nothing (a
 * 422 listing them). A dry run checks and reports the same and writes nothing either.
 */
export function importCatalog(tenant: TenantDb, csv: string, dryRun: boolean): ImportReport {
  const sheet = parseSheet(csv);
  const catalog = catalogOf(tenant, sheet);
  const errors: RowError[] = [];
  const fail: Fail = (row, column, message) => {
    errors.push(column === undefined ? { row, message } : { row, column, message });
  };
  const counts = { created: 0, updated: 0, unchanged: 0 };
  // Products are saved one after another in one savepoint, so each row is checked against the
  // rows before it (two new products with one slug), and the savepoint is kept only when all pass.
  savepoint(tenant.sqlite, () => {
    for (const group of groupRows(sheet, catalog, fail)) {
      const before = errors.length;
      const plan = planProduct(tenant, group, sheet, catalog, fail);
      if (errors.length > before) continue; // a cell that cannot be read: its product is not tried
      try {
        counts[applyPlan(tenant, plan)]++;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        errors.push(...refusedRows(error, plan, catalog.store));
      }
    }
    return { value: undefined, keep: !dryRun && errors.length === 0 };
  });
  errors.sort((a, b) => a.row - b.row);
  const reported = errors.slice(0, MAX_REPORTED_ERRORS);
  if (errors.length > 0 && !dryRun) throw refused(reported);
  return { dryRun, rows: sheet.rows.length, ...counts, errors: reported };
}
