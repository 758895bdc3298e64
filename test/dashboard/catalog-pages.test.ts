import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { skipBrowserTests } from "../helpers/browser.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import {
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { PT_ADDRESS, type Shop, stockedVariant } from "../helpers/shop.ts";

// The Inventory, Shipping, Coupons and Categories pages of the dashboard (docs/dashboard.md), driven
// through the UI only in headless Chromium; every result is read back through the API.

const SKIP_BROWSER = skipBrowserTests("catalog-pages.test.ts");
const SLOW = 60_000;

describe.skipIf(SKIP_BROWSER)("the catalog pages in a browser", () => {
  let served: DashboardServer;
  let shop: Shop;
  let dashboard: DashboardBrowser;
  let page: Page;

  beforeAll(async () => {
    served = await startDashboardServer("Catalog Pages Shop", "catalog-pages.example");
    shop = served.shop;
    dashboard = await openDashboard(served);
    page = dashboard.page;
    await dashboard.signIn();
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
    await served?.close();
  });

  const check = (name: string) => dashboard.check(name);
  const nav = (name: string) => dashboard.nav(name);
  const expectRejected = (status: number, path: string) => dashboard.expectRejected(status, path);
  const adminGet = async (path: string) => (await shop.admin.get(path)).body.data;

  test(
    "inventory: Add 1, Remove 1 and a counted total change a variant's stock, read back through the API; low stock is marked; a counted total starts tracking",
    async () => {
      const variantId = await stockedVariant(shop, "Candle", 1200, 10);
      await nav("Inventory").click();
      await page.getByRole("heading", { name: "Inventory" }).waitFor();
      const row = page.getByRole("row", { name: /Candle/ });
      await row.getByText("10", { exact: true }).waitFor();
      await check("inventory");
      await page.getByRole("button", { name: "Add 1 to Candle" }).click();
      await row.getByText("11", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Remove 1 from Candle" }).click();
      await page.getByRole("button", { name: "Remove 1 from Candle" }).click();
      await row.getByText("9", { exact: true }).waitFor();
      expect((await variantProduct(variantId)).variants[0].inventory.onHand).toBe(9);
      await page.getByLabel("On hand of Candle", { exact: true }).fill("2");
      await page.getByRole("button", { name: "Set on hand of Candle" }).click();
      await row.getByText("Low stock").waitFor();
      await check("inventory-low-stock");
      const product = await variantProduct(variantId);
      expect(product.variants[0].inventory).toMatchObject({ tracked: true, onHand: 2 });
      expect(product.variants[0].lowStock).toBe(true);

      // A counted total starts tracking a variant whose stock was not tracked.
      const lamp = (await shop.admin.post("/v1/admin/products", simpleProduct("Lamp", 3000))).body.data;
      await page.reload();
      const lampRow = page.getByRole("row", { name: /Lamp/ });
      await lampRow.getByText("Not tracked").waitFor();
      expect(await page.getByRole("button", { name: "Add 1 to Lamp" }).count()).toBe(0);
      await page.getByLabel("On hand of Lamp", { exact: true }).fill("40");
      await page.getByRole("button", { name: "Set on hand of Lamp" }).click();
      await page.getByRole("button", { name: "Add 1 to Lamp" }).waitFor();
      expect((await variantProduct(lamp.variants[0].id)).variants[0].inventory).toMatchObject({
        tracked: true,
        onHand: 40,
      });
    },
    SLOW,
  );

  test(
    "shipping: a method created for PT is offered to a PT cart; an edit and a confirmed delete show in the API",
    async () => {
      await nav("Shipping").click();
      await page.getByRole("heading", { name: "Shipping" }).waitFor();
      await page.getByRole("button", { name: "Edit Portugal" }).waitFor();
      await check("shipping");
      await page.getByRole("button", { name: "Create shipping method" }).click();
      const dialog = page.getByRole("dialog", { name: "Create shipping method" });
      await dialog.getByLabel("Name (English)").fill("Express");
      await dialog.getByLabel("Name (Portuguese)").fill("Expresso");
      await dialog.getByLabel("Price").fill("abc");
      await dialog.getByLabel("Countries").fill("pt");
      await dialog.getByText("Portugal").waitFor();
      await dialog.getByRole("button", { name: "Create shipping method" }).click();
      await dialog.getByText("Enter an amount such as 4.90").waitFor();
      await dialog.getByLabel("Price").fill("7.50");
      await dialog.getByLabel("Free over").fill("100");
      await dialog.getByLabel("Minimum days").fill("3");
      await dialog.getByLabel("Maximum days").fill("1");
      await dialog.getByRole("button", { name: "Create shipping method" }).click();
      // The API's own rule (minDays ≤ maxDays) comes back next to a field.
      await dialog.getByText("must be at least minDays").waitFor();
      expect(await dialog.getByLabel("Maximum days").getAttribute("aria-invalid")).toBe("true");
      expectRejected(400, "/v1/admin/shipping-methods");
      await check("shipping-create-error");
      await dialog.getByLabel("Minimum days").fill("1");
      await dialog.getByLabel("Maximum days").fill("2");
      await dialog.getByRole("button", { name: "Create shipping method" }).click();
      await page.getByRole("button", { name: "Edit Express" }).waitFor();
      await check("shipping-created");

      const methods = await adminGet("/v1/admin/shipping-methods");
      const express = methods.find((m: { name: { en: string } }) => m.name.en === "Express");
      expect(express).toMatchObject({
        name: { en: "Express", pt: "Expresso" },
        price: { amount: 750, currency: "EUR" },
        freeOver: { amount: 10000, currency: "EUR" },
        countries: ["PT"],
        minDays: 1,
        maxDays: 2,
        active: true,
      });
      const cart = (
        await shop.storefront("/v1/carts", {
          body: { items: [{ variantId: shop.shirt.variants[0].id, quantity: 1 }] },
        })
      ).body.data;
      await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
      const offered = (await shop.storefront(`/v1/carts/${cart.id}/shipping-methods`)).body.data;
      expect(offered.map((m: { id: string }) => m.id)).toContain(express.id);

      await page.getByRole("button", { name: "Edit Express" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Express" });
      expect(await edit.getByLabel("Price").inputValue()).toBe("7.50");
      await edit.getByLabel("Price").fill("8");
      await edit.getByLabel("Active").uncheck();
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByRole("cell", { name: "€8.00", exact: true }).waitFor();
      expect(await adminGet(`/v1/admin/shipping-methods/${express.id}`)).toMatchObject({
        price: { amount: 800 },
        active: false,
      });

      await page.getByRole("button", { name: "Delete Express" }).click();
      await page.getByRole("alertdialog", { name: "Delete Express?" }).waitFor();
      await check("shipping-delete");
      await page.getByRole("button", { name: "Delete shipping method" }).click();
      await page.getByRole("button", { name: "Edit Express" }).waitFor({ state: "detached" });
      expect((await shop.admin.get(`/v1/admin/shipping-methods/${express.id}`)).status).toBe(404);
    },
    SLOW,
  );

  test(
    "coupons: a fixed-amount coupon created in the page discounts a storefront cart; an edit to a percentage and a confirmed delete show in the API",
    async () => {
      await nav("Coupons").click();
      await page.getByRole("heading", { name: "Coupons" }).waitFor();
      await page.getByRole("cell", { name: "WELCOME10", exact: true }).waitFor();
      await check("coupons");
      await page.getByRole("button", { name: "Create coupon" }).click();
      const dialog = page.getByRole("dialog", { name: "Create coupon" });
      await dialog.getByLabel("Code").fill("summer5");
      await dialog.getByLabel("Type").selectOption({ label: "Fixed amount off" });
      await dialog.getByLabel("Amount off").fill("5,00");
      await dialog.getByLabel("Minimum subtotal").fill("10");
      await dialog.getByLabel("Usage limit").fill("100");
      await check("coupons-create");
      await dialog.getByRole("button", { name: "Create coupon" }).click();
      await page.getByRole("cell", { name: "SUMMER5", exact: true }).waitFor();
      await check("coupons-created");

      const coupons = await adminGet("/v1/admin/coupons?query=summer5");
      expect(coupons).toHaveLength(1);
      const coupon = coupons[0];
      expect(coupon).toMatchObject({
        code: "SUMMER5",
        type: "fixed",
        value: 500,
        minSubtotal: { amount: 1000, currency: "EUR" },
        usageLimit: 100,
        active: true,
      });
      const cart = (
        await shop.storefront("/v1/carts", {
          body: { items: [{ variantId: shop.shirt.variants[0].id, quantity: 1 }] },
        })
      ).body.data;
      const applied = await shop.storefront(`/v1/carts/${cart.id}/coupon`, { body: { code: "summer5" } });
      expect(applied.status).toBe(200);
      expect(applied.body.data.coupon).toMatchObject({ code: "SUMMER5", type: "fixed", value: 500 });
      expect(applied.body.data.totals.discount.amount).toBe(500);

      await page.getByRole("button", { name: "Edit SUMMER5" }).click();
      const edit = page.getByRole("dialog", { name: "Edit SUMMER5" });
      expect(await edit.getByLabel("Amount off").inputValue()).toBe("5.00");
      await edit.getByLabel("Type").selectOption({ label: "Percentage off" });
      await edit.getByLabel("Percent off").fill("15");
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByRole("cell", { name: "15 %", exact: true }).waitFor();
      expect(await adminGet(`/v1/admin/coupons/${coupon.id}`)).toMatchObject({
        type: "percentage",
        value: 15,
      });

      await page.getByRole("button", { name: "Delete SUMMER5" }).click();
      await page.getByRole("button", { name: "Delete coupon" }).click();
      await page.getByRole("cell", { name: "SUMMER5", exact: true }).waitFor({ state: "detached" });
      expect((await shop.admin.get(`/v1/admin/coupons/${coupon.id}`)).status).toBe(404);
    },
    SLOW,
  );

  test(
    "categories: a category and a child are created, the child renamed and moved under another; deleting a parent is refused until it is empty",
    async () => {
      await nav("Categories").click();
      await page.getByRole("heading", { name: "Categories" }).waitFor();
      await page.getByText("No categories yet.").waitFor();
      await check("categories-empty");
      const create = async (en: string, pt: string, parent?: string) => {
        await page.getByRole("button", { name: "Create category" }).click();
        const dialog = page.getByRole("dialog", { name: "Create category" });
        await dialog.getByLabel("Name (English)").fill(en);
        await dialog.getByLabel("Name (Portuguese)").fill(pt);
        if (parent) await dialog.getByLabel("Parent").selectOption({ label: parent });
        await dialog.getByRole("button", { name: "Create category" }).click();
        await page.getByRole("button", { name: `Edit ${en}` }).waitFor();
      };
      await create("Clothing", "Roupa");
      await create("Shirts", "Camisas", "Clothing");
      await create("Sale", "Saldos");
      const item = (name: string) =>
        page
          .getByRole("listitem")
          .filter({ has: page.getByRole("button", { name: `Edit ${name}`, exact: true }) });
      await item("Clothing").getByRole("button", { name: "Edit Shirts" }).waitFor();
      await check("categories-tree");
      const byName = async (en: string) =>
        (await adminGet("/v1/admin/categories")).find((c: { name: { en: string } }) => c.name.en === en);
      const clothing = await byName("Clothing");
      expect(await byName("Shirts")).toMatchObject({
        name: { en: "Shirts", pt: "Camisas" },
        parentId: clothing.id,
      });

      await page.getByRole("button", { name: "Edit Shirts" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Shirts" });
      // A category cannot be moved under itself: it is not offered as a parent.
      expect(await edit.getByRole("option", { name: "Shirts" }).count()).toBe(0);
      await edit.getByLabel("Name (English)").fill("Tops");
      await edit.getByLabel("Parent").selectOption({ label: "Sale" });
      await check("categories-edit");
      await edit.getByRole("button", { name: "Save" }).click();
      await item("Sale").getByRole("button", { name: "Edit Tops" }).waitFor();
      expect(await item("Clothing").getByRole("button", { name: "Edit Tops" }).count()).toBe(0);
      const sale = await byName("Sale");
      const tops = await byName("Tops");
      expect(tops).toMatchObject({ name: { en: "Tops", pt: "Camisas" }, parentId: sale.id });

      await page.getByRole("button", { name: "Delete Sale" }).click();
      await page.getByRole("button", { name: "Delete category" }).click();
      await item("Sale").getByRole("alert").waitFor();
      expectRejected(409, `/v1/admin/categories/${sale.id}`);
      await check("categories-delete-refused");
      await page.getByRole("button", { name: "Delete Tops" }).click();
      await page.getByRole("button", { name: "Delete category" }).click();
      await page.getByRole("button", { name: "Edit Tops" }).waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Delete Sale" }).click();
      await page.getByRole("button", { name: "Delete category" }).click();
      await page.getByRole("button", { name: "Edit Sale" }).waitFor({ state: "detached" });
      const left = await adminGet("/v1/admin/categories");
      expect(left.map((c: { name: { en: string } }) => c.name.en)).toEqual(["Clothing"]);
    },
    SLOW,
  );

  /** The product holding a variant, as the admin API shows it. */
  async function variantProduct(variantId: string) {
    const list = await adminGet("/v1/admin/products?limit=100");
    return list.find((p: { variants: { id: string }[] }) => p.variants.some((v) => v.id === variantId));
  }
});
