import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { createApiKey } from "../../src/auth/service.ts";
import { MAX_IMPORT_ROWS } from "../../src/catalog/csv.ts";
import { seedDemoCatalog } from "../../src/catalog/seed.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, shirtProduct, simpleProduct } from "../helpers/catalog.ts";
import { AnswerChecker } from "../helpers/openapi-conformance.ts";
import { tenantRows } from "../helpers/tenant-rows.ts";

const EXPORT = "/v1/admin/products/export";
const IMPORT = "/v1/admin/products/import";
const HOST = "csv-shop.example";

let t: TestApp;
let shop: { id: string; key: string };
let admin: AdminClient;
let other: { id: string; key: string };
let otherAdmin: AdminClient;
let storefrontKey: string;
let shirt: any;

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("CSV Shop", { host: HOST });
  admin = adminClient(t, shop.key);
  other = await t.org("Other CSV Shop", { host: "other-csv.example" });
  otherAdmin = adminClient(t, other.key);
  storefrontKey = createApiKey(t.app.ctx.platform, {
    organizationId: shop.id,
    name: "storefront",
    scopes: ["storefront"],
  }).key;
  for (const client of [admin, otherAdmin]) {
    expect((await client.patch("/v1/admin/store", { locales: ["en", "pt"] })).status).toBe(200);
    const category = await client.post("/v1/admin/categories", { name: { en: "Tops" }, slug: "tops" });
    expect(category.status).toBe(201);
  }
  const tops = (await admin.get("/v1/admin/categories")).body.data[0].id;
  shirt = (await admin.post("/v1/admin/products", shirtProduct("EXP", { categoryIds: [tops] }))).body.data;
  expect(shirt.slug).toBe("exp-shirt");
});
afterAll(() => t.cleanup());

/** The export's answer; `text` decoded as a spreadsheet would (the byte-order mark dropped), `bytes` as sent. */
async function exportCsv(key: string) {
  const response = await t.request(EXPORT, { headers: { "x-api-key": key } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  return { status: response.status, type: response.headers.get("content-type"), bytes, text };
}

/** Sends a CSV text to the import, as a `text/csv` body or as `{csv}` JSON. */
function importCsv(
  key: string,
  csv: string,
  options: { dryRun?: boolean; json?: boolean; headers?: Record<string, string> } = {},
) {
  return t.json(`${IMPORT}${options.dryRun ? "?dryRun=true" : ""}`, {
    method: "POST",
    headers: {
      "x-api-key": key,
      "content-type": options.json ? "application/json" : "text/csv",
      ...options.headers,
    },
    body: options.json ? JSON.stringify({ csv }) : csv,
  });
}

/** A CSV text from rows of cells (the first is the header), as a spreadsheet saves it. */
const csvOf = (rows: string[][], delimiter = ",") => Papa.unparse(rows, { newline: "\r\n", delimiter });

/** The rows of a CSV text keyed by column. */
const recordsOf = (text: string) =>
  Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

const product = async (client: AdminClient, slug: string) =>
  (await client.get(`/v1/admin/products/${slug}`)).body.data;

const rowsOf = (org: { id: string }) => tenantRows(t.dataDir, org.id);

describe("export", () => {
  test("is UTF-8 CSV with a byte-order mark and a header row: one row per variant, its product's columns repeated, prices as decimals in the store's currency", async () => {
    const { status, type, bytes, text } = await exportCsv(shop.key);
    expect(status).toBe(200);
    expect(type).toBe("text/csv; charset=utf-8");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.slice(0, text.indexOf("\r\n")).split(",")).toEqual([
      "slug",
      "status",
      "name.en",
      "name.pt",
      "description.en",
      "description.pt",
      "categories",
      "tags",
      "images",
      "taxRate",
      "requiresShipping",
      "option1.name",
      "option1.value",
      "option2.name",
      "option2.value",
      "option3.name",
      "option3.value",
      "sku",
      "title",
      "price",
      "compareAtPrice",
      "currency",
      "tracked",
      "onHand",
      "allowBackorder",
    ]);
    const rows = recordsOf(text).filter((row) => row.slug === "exp-shirt");
    expect(rows.map((row) => row.sku)).toEqual(shirt.variants.map((v: any) => v.sku));
    expect(rows[0]).toMatchObject({
      status: "active",
      "name.en": "EXP shirt",
      "name.pt": "Camisa EXP",
      categories: "tops",
      requiresShipping: "true",
      "option1.name": "Size",
      "option1.value": "S",
      "option2.name": "Colour",
      "option2.value": "Red",
      title: "S / Red",
      price: "19.99",
      compareAtPrice: "",
      currency: "EUR",
      tracked: "true",
      onHand: "5",
      allowBackorder: "false",
    });
    expect(rows.find((row) => row.sku === "EXP-BLUE-L")!.price).toBe("21.99");
  });

  test("needs an admin credential (401 without one, 403 with a storefront key) and shows only the caller's shop", async () => {
    expect((await t.json(EXPORT)).status).toBe(401);
    const storefront = await t.json(EXPORT, { headers: { "x-api-key": storefrontKey } });
    expect(storefront.status).toBe(403);
    expect(storefront.body.code).toBe("FORBIDDEN");
    expect((await t.json(EXPORT, { headers: { host: HOST } })).status).toBe(403);
    const theirs = await exportCsv(other.key);
    expect(theirs.status).toBe(200);
    expect(recordsOf(theirs.text)).toEqual([]);
  });

  test("is declared as text/csv in the OpenAPI document, and the import takes text/csv or JSON", async () => {
    const doc = (await t.json("/v1/openapi.json")).body;
    const exported = doc.paths[EXPORT].get;
    expect(Object.keys(exported.responses["200"].content)).toEqual(["text/csv"]);
    expect(exported.responses["200"].content["text/csv"].schema.type).toBe("string");
    const imported = doc.paths[IMPORT].post;
    expect(Object.keys(imported.requestBody.content)).toEqual(["text/csv", "application/json"]);
    expect(Object.keys(imported.responses)).toEqual(expect.arrayContaining(["200", "400", "413", "422"]));
    // The suite's answer checker holds the export to that: a text/csv body, checked as a string.
    const checker = new AnswerChecker(doc);
    const answer = {
      operationId: "adminExportProducts",
      method: "GET",
      path: EXPORT,
      status: 200,
      contentType: "text/csv; charset=utf-8",
      body: "slug\r\n",
    };
    expect(checker.problem(answer)).toBeUndefined();
    expect(checker.problem({ ...answer, contentType: "application/json" })).toContain("is not declared");
  });
});

describe("round trip", () => {
  test("the demo catalog's export imported again, dry run or not, reports every product unchanged and changes no row", async () => {
    const demo = await t.org("CSV Demo");
    await t.app.ctx.tenants.with(demo.id, (tenant) => seedDemoCatalog(tenant));
    const { text } = await exportCsv(demo.key);
    const products = new Set(recordsOf(text).map((row) => row.slug)).size;
    expect(products).toBe(200);
    const before = rowsOf(demo);
    const dry = await importCsv(demo.key, text, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toEqual({
      dryRun: true,
      rows: recordsOf(text).length,
      created: 0,
      updated: 0,
      unchanged: products,
      errors: [],
    });
    const real = await importCsv(demo.key, text);
    expect(real.status).toBe(200);
    expect(real.body.data).toMatchObject({ dryRun: false, created: 0, updated: 0, unchanged: products });
    expect(rowsOf(demo)).toEqual(before);
  });
});

describe("import", () => {
  test("creates products from rows grouped by slug: options, variants, SKUs, stock, categories and prices", async () => {
    const csv = csvOf([
      ["slug", "name.en", "name.pt", "categories", "option1.name", "option1.value", "sku", "price", "onHand"],
      ["wool-cap", "Wool cap", "Gorro de lã", "tops", "Colour", "Grey", "CAP-GREY", "15.5", "4"],
      ["mug", "Mug", "Caneca", "", "", "", "MUG-1", "8", ""],
      ["wool-cap", "", "", "", "", "Navy", "CAP-NAVY", "16.00", "0"],
    ]);
    const res = await importCsv(shop.key, csv);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      dryRun: false,
      rows: 3,
      created: 2,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    const cap = await product(admin, "wool-cap");
    expect(cap.name).toEqual({ en: "Wool cap", pt: "Gorro de lã" });
    expect(cap.options).toEqual([{ name: "Colour", values: ["Grey", "Navy"] }]);
    expect(cap.variants.map((v: any) => [v.sku, v.title, v.price.amount, v.inventory])).toEqual([
      ["CAP-GREY", "Grey", 1550, { tracked: true, onHand: 4, allowBackorder: false }],
      ["CAP-NAVY", "Navy", 1600, { tracked: true, onHand: 0, allowBackorder: false }],
    ]);
    expect(cap.categoryIds).toEqual(shirt.categoryIds);
    const mug = await product(admin, "mug");
    expect(mug.variants).toHaveLength(1);
    expect(mug.variants[0]).toMatchObject({ sku: "MUG-1", title: "Default", price: { amount: 800 } });
    expect(mug.variants[0].inventory.tracked).toBe(false);
  });

  test("updates by SKU: the row's variant and its product change, columns the file lacks keep what is stored, and the storefront sees it at once", async () => {
    const storefront = (path: string) => t.json(path, { headers: { host: HOST } });
    expect((await storefront("/v1/products/exp-shirt")).body.data.variants[0].price.amount).toBe(1999);
    const csv = csvOf([
      ["slug", "status", "sku", "price", "compareAtPrice", "onHand"],
      ["exp-shirt", "", "EXP-RED-S", "17.50", "19.99", "4"],
    ]);
    const res = await importCsv(shop.key, csv);
    expect(res.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 0, errors: [] });
    const after = await product(admin, "exp-shirt");
    expect(after.variants[0]).toMatchObject({
      id: shirt.variants[0].id,
      sku: "EXP-RED-S",
      price: { amount: 1750 },
      compareAtPrice: { amount: 1999 },
      inventory: { tracked: true, onHand: 4, allowBackorder: false },
    });
    // Everything else as it was: the other variants, names, categories, status, options.
    const { variants: _, updatedAt: __, priceRange: ___, ...rest } = after;
    const { variants: _v, updatedAt: _u, priceRange: _p, ...was } = shirt;
    expect(rest).toEqual(was);
    expect(after.variants.slice(1)).toEqual(shirt.variants.slice(1));
    expect((await storefront("/v1/products/exp-shirt")).body.data.variants[0].price.amount).toBe(1750);
  });

  test("a row whose SKU is new updates the variant with its option values: a variant gets its first SKU, or another one", async () => {
    const created = await admin.post("/v1/admin/products", simpleProduct("No sku tee", 1200));
    expect(created.body.data.variants[0].sku).toBeNull();
    const csv = csvOf([
      ["slug", "sku", "price"],
      [created.body.data.slug, "TEE-1", "12.00"],
    ]);
    expect((await importCsv(shop.key, csv)).body.data).toMatchObject({ updated: 1, created: 0 });
    const after = await product(admin, created.body.data.slug);
    expect(after.variants).toHaveLength(1);
    expect(after.variants[0]).toMatchObject({ id: created.body.data.variants[0].id, sku: "TEE-1" });
    const renamed = await importCsv(shop.key, csv.replace("TEE-1", "TEE-2"));
    expect(renamed.body.data).toMatchObject({ updated: 1, created: 0 });
    const again = await product(admin, created.body.data.slug);
    expect(again.variants.map((v: any) => [v.id, v.sku])).toEqual([[after.variants[0].id, "TEE-2"]]);
  });

  test("one refused row among good ones writes nothing: a 422 naming its row and column, and the dry run lists it with what the others would do", async () => {
    const csv = csvOf([
      ["slug", "name.en", "sku", "price"],
      ["good-one", "Good one", "GOOD-1", "10.00"],
      ["exp-shirt", "", "EXP-RED-M", "12.00"],
      ["bad-one", "Bad one", "BAD-1", "12,345"],
      ["good-two", "Good two", "GOOD-2", "11"],
    ]);
    const before = rowsOf(shop);
    const res = await importCsv(shop.key, csv);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("UNPROCESSABLE");
    expect(res.body.error).toContain("Nothing was imported");
    expect(res.body.details).toEqual([
      { path: "/body/csv/4/price", message: expect.stringContaining("EUR") },
    ]);
    expect(rowsOf(shop)).toEqual(before);

    const dry = await importCsv(shop.key, csv, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, rows: 4, created: 2, updated: 1, unchanged: 0 });
    expect(dry.body.data.errors).toEqual([
      { row: 4, column: "price", message: expect.stringContaining("49.50") },
    ]);
    expect(rowsOf(shop)).toEqual(before);
  });

  test("rows are refused by the rules of product create and update, each at its own row and column", async () => {
    const csv = csvOf([
      ["slug", "name.en", "categories", "option1.name", "option1.value", "sku", "price", "onHand"],
      ["rules", "Line\nbreak", "tops", "Size", "S", "RULE-S", "5", "1"],
      ["rules", "", "", "", "M", "RULE-M", "5", "-3"],
      ["rules-2", "Fine name", "nowhere", "", "", "RULE-2", "5", ""],
      ["rules-3", "", "", "", "", "RULE-3", "5", ""],
    ]);
    const before = rowsOf(shop);
    const dry = await importCsv(shop.key, csv, { dryRun: true });
    expect(dry.status).toBe(200);
    const errors = dry.body.data.errors.map((e: any) => [e.row, e.column]);
    expect(errors).toEqual([
      [2, "name.en"],
      [3, "onHand"],
      [4, "categories"],
      [5, "name.en"],
    ]);
    expect(dry.body.data.errors[0].message).toContain("control character");
    expect(dry.body.data.errors[2].message).toContain('"nowhere"');
    expect(dry.body.data.errors[3].message).toBe("required");
    const real = await importCsv(shop.key, csv);
    expect(real.status).toBe(422);
    expect(real.body.details.map((d: any) => d.path)).toEqual([
      "/body/csv/2/name.en",
      "/body/csv/3/onHand",
      "/body/csv/4/categories",
      "/body/csv/5/name.en",
    ]);
    expect(rowsOf(shop)).toEqual(before);
  });

  test("a dry run writes nothing and reports what the import would do", async () => {
    const csv = csvOf([
      ["slug", "name.en", "sku", "price"],
      ["dry-new", "Dry new", "DRY-1", "3.00"],
      ["exp-shirt", "Renamed shirt", "EXP-BLUE-S", "19.99"],
    ]);
    const before = rowsOf(shop);
    const dry = await importCsv(shop.key, csv, { dryRun: true });
    expect(dry.body.data).toEqual({
      dryRun: true,
      rows: 2,
      created: 1,
      updated: 1,
      unchanged: 0,
      errors: [],
    });
    expect(rowsOf(shop)).toEqual(before);
    expect((await admin.get("/v1/admin/products/dry-new")).status).toBe(404);
  });

  test("quoting: commas, quotes and line breaks in cells survive a round trip", async () => {
    const created = await admin.post("/v1/admin/products", {
      name: { en: 'Shirt, "Linen" edition', pt: "Camisa; linho" },
      description: { en: 'First line,\nsecond "quoted" line\r\nthird' },
      variants: [{ sku: "QUOTE-1", price: 2500, title: "One, size" }],
    });
    expect(created.status).toBe(201);
    const { text } = await exportCsv(shop.key);
    expect(text).toContain('"Shirt, ""Linen"" edition"');
    await admin.delete(`/v1/admin/products/${created.body.data.id}`);
    const row = recordsOf(text).find((r) => r.sku === "QUOTE-1")!;
    const header = Object.keys(row);
    const res = await importCsv(shop.key, csvOf([header, header.map((column) => row[column]!)]));
    expect(res.body.data).toMatchObject({ created: 1, errors: [] });
    const again = await product(admin, created.body.data.slug);
    expect(again.name).toEqual(created.body.data.name);
    expect(again.description).toEqual(created.body.data.description);
    expect(again.variants[0].title).toBe("One, size");
  });

  test("UTF-8: Portuguese accents arrive intact with or without a byte-order mark, as text/csv or JSON; bytes that are not UTF-8 are a 400", async () => {
    const name = "Camisa de algodão — coleção verão";
    const csv = (slug: string, sku: string) =>
      csvOf([
        ["slug", "name.en", "name.pt", "sku", "price"],
        [slug, "Cotton shirt", name, sku, "30"],
      ]);
    expect((await importCsv(shop.key, `\uFEFF${csv("utf-bom", "UTF-1")}`)).status).toBe(200);
    expect((await importCsv(shop.key, csv("utf-json", "UTF-2"), { json: true })).status).toBe(200);
    expect((await importCsv(shop.key, `\uFEFF${csv("utf-json-bom", "UTF-3")}`, { json: true })).status).toBe(
      200,
    );
    for (const slug of ["utf-bom", "utf-json", "utf-json-bom"]) {
      expect((await product(admin, slug)).name.pt).toBe(name);
    }
    const latin1 = Buffer.from(csv("latin", "UTF-4"), "latin1");
    const res = await t.json(IMPORT, {
      method: "POST",
      headers: { "x-api-key": shop.key, "content-type": "text/csv" },
      body: latin1,
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toContain("UTF-8");
    expect((await admin.get("/v1/admin/products/latin")).status).toBe(404);
  });

  test("a file a spreadsheet saved with semicolons and decimal commas imports the same", async () => {
    const csv = csvOf(
      [
        ["slug", "name.en", "sku", "price"],
        ["semicolon", "Semicolon", "SEMI-1", "4,95"],
      ],
      ";",
    );
    expect((await importCsv(shop.key, csv)).body.data).toMatchObject({ created: 1, errors: [] });
    expect((await product(admin, "semicolon")).variants[0].price.amount).toBe(495);
  });

  test("Idempotency-Key: the same import sent again answers the stored report and creates nothing more", async () => {
    const csv = csvOf([
      ["slug", "name.en", "sku", "price"],
      ["once", "Once", "ONCE-1", "1"],
    ]);
    const headers = { "idempotency-key": "csv-import-once" };
    const first = await importCsv(shop.key, csv, { headers });
    const second = await importCsv(shop.key, csv, { headers });
    expect(second.status).toBe(200);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    const list = await admin.get("/v1/admin/products?query=ONCE-1");
    expect(list.body.meta.total).toBe(1);
  });
});

describe("access and isolation", () => {
  const csv = csvOf([
    ["slug", "name.en", "sku", "price"],
    ["iso-thing", "Iso thing", "ISO-1", "9.00"],
  ]);

  test("an import needs an admin credential: 401 without one, 403 with a storefront key or a shop host, nothing written", async () => {
    const before = rowsOf(shop);
    expect(
      (await t.json(IMPORT, { method: "POST", body: csv, headers: { "content-type": "text/csv" } })).status,
    ).toBe(401);
    expect((await importCsv(storefrontKey, csv)).status).toBe(403);
    const byHost = await t.json(IMPORT, {
      method: "POST",
      body: csv,
      headers: { "content-type": "text/csv", host: HOST },
    });
    expect(byHost.status).toBe(403);
    expect(rowsOf(shop)).toEqual(before);
  });

  test("an import in one shop never touches another's: its SKUs there are unknown here and create a product here", async () => {
    const theirs = await otherAdmin.post(
      "/v1/admin/products",
      simpleProduct("Theirs", 500, { variants: [{ sku: "ISO-1", price: 500 }] }),
    );
    expect(theirs.status).toBe(201);
    const otherBefore = rowsOf(other);
    const res = await importCsv(shop.key, csv);
    expect(res.body.data).toMatchObject({ created: 1, updated: 0 });
    expect(rowsOf(other)).toEqual(otherBefore);
    expect((await product(admin, "iso-thing")).variants[0].sku).toBe("ISO-1");
    expect((await otherAdmin.get(`/v1/admin/products/${theirs.body.data.id}`)).body.data).toEqual(
      theirs.body.data,
    );
  });
});

describe("bad input", () => {
  test("a body that is no CSV, unknown or repeated columns, a missing slug column and an unclosed quote are 400s naming the cell; nothing is written", async () => {
    const before = rowsOf(shop);
    const cases: [string, string][] = [
      ['{"products": []}', "/body/csv/1/"],
      [
        csvOf([
          ["slug", "colour", "price"],
          ["x", "red", "1"],
        ]),
        "/body/csv/1/colour",
      ],
      [
        csvOf([
          ["slug", "price", "price"],
          ["x", "1", "2"],
        ]),
        "/body/csv/1/price",
      ],
      [
        csvOf([
          ["name.en", "price"],
          ["X", "1"],
        ]),
        "/body/csv/1",
      ],
      ['slug,name.en\r\nx,"unclosed\r\n', "/body/csv/2"],
      ["\uFEFF", "/body/csv"],
    ];
    for (const [body, path] of cases) {
      const res = await importCsv(shop.key, body);
      expect([body, res.status, res.body.code]).toEqual([body, 400, "VALIDATION_ERROR"]);
      expect(res.body.details[0].path.startsWith(path)).toBe(true);
    }
    const unknown = await importCsv(shop.key, cases[1]![0]);
    expect(unknown.body.error).toContain('"colour"');
    expect((await importCsv(shop.key, "", { json: true })).status).toBe(400);
    expect(rowsOf(shop)).toEqual(before);
  });

  test(`a file of more than ${MAX_IMPORT_ROWS} rows, or a body above MAX_BODY_BYTES, is a 413`, async () => {
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => [`p-${i}`, "1"]);
    const many = await importCsv(shop.key, csvOf([["slug", "price"], ...rows]));
    expect(many.status).toBe(413);
    expect(many.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(many.body.error).toContain(String(MAX_IMPORT_ROWS));
    const huge = `slug,description.en\r\nbig,${"x".repeat(t.app.ctx.config.maxBodyBytes)}\r\n`;
    const big = await importCsv(shop.key, huge);
    expect(big.status).toBe(413);
    expect((await admin.get("/v1/admin/products/big")).status).toBe(404);
  });
});
