import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { SAMPLES } from "../helpers/images.ts";

// The Products pages of the dashboard (docs/dashboard.md), driven through the UI only in headless
// Chromium; what they did is read back through the storefront and admin APIs.

const SKIP_BROWSER = skipBrowserTests("products.test.ts");
const SLOW = 60_000;
const SHOP_HOST = "products-shop.example";
const PNG = SAMPLES.find((sample) => sample.name === "PNG")!;

let served: DashboardServer;
let dashboard: DashboardBrowser;
let page: Page;
let files: string;
/** The product created through the editor. */
let productId: string;

beforeAll(async () => {
  served = await startDashboardServer("Products Shop", SHOP_HOST);
  files = mkdtempSync(join(tmpdir(), "dashboard-products-"));
  if (SKIP_BROWSER) return;
  dashboard = await openDashboard(served);
  page = dashboard.page;
  await dashboard.signIn();
}, SLOW);
afterAll(async () => {
  await dashboard?.close();
  await served.close();
  rmSync(files, { recursive: true, force: true });
});

const check = (name: string) => dashboard.check(name);
const storefrontProduct = async (id: string) => {
  const answer = await served.shop.storefront(`/v1/products/${id}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
};

describe.skipIf(SKIP_BROWSER)("products in the dashboard", () => {
  test(
    "the list shows the catalog with links to each product; a filter matching nothing says so",
    async () => {
      await dashboard.nav("Products").click();
      await page.getByRole("heading", { name: "Products" }).waitFor();
      await page.getByRole("link", { name: served.shop.shirt.name.en }).waitFor();
      await check("products");
      await page.getByLabel("Status").selectOption("archived");
      await page.getByText("No products match this search.").waitFor();
      await check("products-empty");
      await page.getByLabel("Status").selectOption("");
      await page.getByLabel("Search", { exact: true }).fill("nothing like this");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByText("No products match this search.").waitFor();
      await page.getByLabel("Search", { exact: true }).fill("");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("link", { name: served.shop.shirt.name.en }).waitFor();
    },
    SLOW,
  );

  test(
    "a product created with names per locale, options Size S/M, prices, stock and an uploaded image is sold by the storefront as entered; the API's refusal of a missing name stands under Name",
    async () => {
      await page.getByRole("link", { name: "Create product" }).click();
      await page.getByRole("heading", { name: "Create product" }).waitFor();
      await page.getByLabel("Status").selectOption("active");
      await page.getByRole("button", { name: "Add option" }).click();
      await page.getByLabel("Option 1 name").fill("Size");
      await page.getByLabel("Option 1 values").fill("S, M");
      for (const [size, price, stock] of [
        ["S", "49.00", "5"],
        ["M", "52.5", "0"],
      ] as const) {
        await page.getByLabel(`SKU, ${size}`).fill(`LINEN-${size}`);
        await page.getByLabel(`Price, ${size}`).fill(price);
        await page.getByLabel(`Track stock, ${size}`).check();
        await page.getByLabel(`Stock, ${size}`, { exact: true }).fill(stock);
      }
      const image = join(files, "linen.png");
      await Bun.write(image, PNG.bytes);
      await page.getByLabel("Upload images").setInputFiles(image);
      await page.getByLabel("Alt text of image 1").fill("A linen shirt, folded");
      // Without a name the API refuses the product; its message stands under the Name field.
      await page.getByRole("button", { name: "Create product" }).click();
      const name = page.getByLabel("Name (English)");
      await page.locator("[aria-invalid=true]").first().waitFor();
      expect(await name.getAttribute("aria-invalid")).toBe("true");
      const described = (await name.getAttribute("aria-describedby"))!;
      expect(await page.locator(`[id="${described}"]`).textContent()).toContain("at least 1");
      dashboard.expectRejected(400, "/v1/admin/products");
      expect(dashboard.problems).toEqual([]);
      await name.fill("Linen Shirt");
      await page.getByLabel("Name (Portuguese)").fill("Camisa de Linho");
      await page.getByLabel("Description (English)").fill("Cool in summer.");
      await check("product-editor");
      await page.getByRole("button", { name: "Create product" }).click();
      await page.getByRole("heading", { name: "Edit product" }).waitFor();
      productId = page.url().split("/").at(-1)!;

      const product = await storefrontProduct(productId);
      expect(product.name).toMatchObject({ en: "Linen Shirt", pt: "Camisa de Linho" });
      expect(
        product.variants.map((v: any) => ({
          sku: v.sku,
          options: v.options,
          price: v.price,
          available: v.available,
        })),
      ).toEqual([
        { sku: "LINEN-S", options: { Size: "S" }, price: { amount: 4900, currency: "EUR" }, available: true },
        {
          sku: "LINEN-M",
          options: { Size: "M" },
          price: { amount: 5250, currency: "EUR" },
          available: false,
        },
      ]);
      expect(product.images).toEqual([
        { url: expect.stringMatching(/^\/media\/med_/), alt: "A linen shirt, folded" },
      ]);
      const file = await fetch(`${served.base}${product.images[0].url}`, { headers: { host: SHOP_HOST } });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(PNG.bytes));
    },
    SLOW,
  );

  test(
    "a price changed in the editor is the storefront's price after Save; the other variant keeps its own",
    async () => {
      await page.getByLabel("Price, S").fill("45.00");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const product = await storefrontProduct(productId);
      expect(product.variants.map((v: any) => v.price.amount)).toEqual([4500, 5250]);
    },
    SLOW,
  );

  test(
    "images: a second upload moved up is the storefront's first image after Save; removed again, only the first is left",
    async () => {
      const gif = SAMPLES.find((sample) => sample.name === "GIF")!;
      const path = join(files, "second.gif");
      await Bun.write(path, gif.bytes);
      await page.getByLabel("Upload images").setInputFiles(path);
      await page.getByLabel("Alt text of image 2").fill("The label");
      await page.getByRole("button", { name: "Move image 2 up" }).click();
      expect(await page.getByLabel("Alt text of image 1").inputValue()).toBe("The label");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const images = (await storefrontProduct(productId)).images;
      expect(images.map((image: any) => image.alt)).toEqual(["The label", "A linen shirt, folded"]);
      const file = await fetch(`${served.base}${images[0].url}`, { headers: { host: SHOP_HOST } });
      expect(file.headers.get("content-type")).toBe("image/gif");

      await page.getByRole("button", { name: "Remove image 1" }).click();
      // The edit takes "Saved." away, so the one awaited after Save is this save's.
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect((await storefrontProduct(productId)).images).toEqual([images[1]]);
    },
    SLOW,
  );

  test(
    "a price that is not a decimal is refused beside its field and nothing is sent",
    async () => {
      await page.getByLabel("Price, M").fill("fifty");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Enter a price such as 49.00").waitFor();
      expect((await storefrontProduct(productId)).variants[1].price.amount).toBe(5250);
      await page.getByLabel("Price, M").fill("52.50");
    },
    SLOW,
  );

  test(
    "deleting a product asks first; after confirming, the API no longer has it",
    async () => {
      const shirt = served.shop.shirt;
      await dashboard.nav("Products").click();
      await page.getByRole("link", { name: shirt.name.en }).click();
      await page.getByRole("heading", { name: "Edit product" }).waitFor();
      await page.getByRole("button", { name: "Delete product" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Delete this product?" });
      await dialog.waitFor();
      await check("product-delete");
      await dialog.getByRole("button", { name: "Delete product" }).click();
      await page.getByRole("heading", { name: "Products" }).waitFor();
      await page.getByRole("link", { name: "Linen Shirt" }).waitFor();
      // The list may first show what it held before the delete; it is asked again at once.
      await page.getByRole("link", { name: shirt.name.en }).waitFor({ state: "detached" });
      expect((await served.shop.admin.get(`/v1/admin/products/${shirt.id}`)).status).toBe(404);
    },
    SLOW,
  );

  test(
    "Export CSV downloads the catalog with its header row; a dry run of that file reports it unchanged, and a refused cell is listed by row and column with nothing to apply",
    async () => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Export CSV" }).click(),
      ]);
      const path = join(files, "catalog.csv");
      await download.saveAs(path);
      const text = (await Bun.file(path).text()).replace(/^\uFEFF/, "");
      expect(text.startsWith("slug,status,name.en,name.pt,")).toBe(true);
      expect(text).toContain("LINEN-S");

      await page.getByRole("button", { name: "Import CSV" }).click();
      const dialog = page.getByRole("dialog", { name: "Import CSV" });
      await dialog.getByLabel("CSV file").setInputFiles(path);
      await dialog.getByRole("button", { name: "Check file" }).click();
      const report = dialog.getByRole("region", { name: "Import report" });
      await report.getByRole("status").filter({ hasText: "nothing is written until you import" }).waitFor();
      const count = async (term: string) =>
        (await report
          .getByRole("definition")
          .nth(["Created", "Updated", "Unchanged"].indexOf(term))
          .textContent())!;
      expect([await count("Created"), await count("Updated"), await count("Unchanged")]).toEqual([
        "0",
        "0",
        "1",
      ]);
      await check("products-import-report");

      // A refused cell is listed by row and column, and nothing can be applied.
      const broken = join(files, "broken.csv");
      await Bun.write(broken, text.replace(",45.00,", ",lots,"));
      await dialog.getByLabel("CSV file").setInputFiles(broken);
      await dialog.getByRole("button", { name: "Check file" }).click();
      const refused = report.getByRole("table", { name: /refused cell/ });
      await refused.waitFor();
      expect(await refused.getByRole("row").nth(1).getByRole("cell").allTextContents()).toEqual([
        "2",
        "price",
        expect.any(String),
      ]);
      expect(await dialog.getByRole("button", { name: "Import" }).isDisabled()).toBe(true);
      await check("products-import-errors");
    },
    SLOW,
  );
});
