import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// Customers, the order list's filters and the order's payments, Home's to-do lists, and Settings →
// Domains and Members, driven through the dashboard's UI only (docs/dashboard.md). The orders are
// placed through the storefront API first, as shoppers would; results are read back through the API.

const SKIP_BROWSER = skipBrowserTests("customers-orders.test.ts");
const SLOW = 60_000;
const SHOP_HOST = "customers-shop.example";

let served: DashboardServer;
let t: TestApp;
let shop: Shop;
let dashboard: DashboardBrowser;
let page: Page;
/** Two shoppers' orders by bank transfer: Ana's is marked paid (through the API), Rui's still awaits payment. */
let paid: { id: string; number: number };
let pending: { id: string; number: number };

async function placeOrder(email: string, firstName: string) {
  const variantId = shop.shirt.variants[0].id;
  const cart = (await shop.storefront("/v1/carts", { body: { email, items: [{ variantId, quantity: 1 }] } }))
    .body.data;
  await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: { ...PT_ADDRESS, firstName } });
  await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
    body: { shippingMethodId: shop.ptShipping.id },
  });
  const placed = await shop.storefront(`/v1/carts/${cart.id}/place-order`, {
    body: { paymentMethodId: "manual_bank_transfer" },
  });
  expect(placed.status).toBe(201);
  return placed.body.data as { id: string; number: number };
}

const adminCall = (path: string, method = "GET") =>
  t.json(path, { method, headers: { "x-api-key": shop.org.key } });

beforeAll(async () => {
  served = await startDashboardServer("Customers Shop", SHOP_HOST);
  ({ t, shop } = served);
  const accept = await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  expect(accept.status).toBe(200);
  paid = await placeOrder("ana@example.com", "Ana");
  pending = await placeOrder("rui@example.com", "Rui");
  expect((await adminCall(`/v1/admin/orders/${paid.id}/mark-paid`, "POST")).status).toBe(200);
  if (!SKIP_BROWSER) {
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
    await dashboard.signIn();
  }
}, SLOW);
afterAll(async () => {
  await dashboard?.close();
  await served?.close();
});

describe.skipIf(SKIP_BROWSER)(
  "dashboard customers, order filters, Home's to-do lists, domains and members",
  () => {
    const check = (name: string) => dashboard.check(name);
    const orderLink = (order: { number: number }) => page.getByRole("link", { name: `#${order.number}` });

    test(
      "Home lists the order awaiting payment and the paid one awaiting fulfilment, each linking to the filtered Orders list",
      async () => {
        const awaitingPayment = page.getByRole("region", { name: "Awaiting payment" });
        await awaitingPayment.getByRole("heading", { name: "Awaiting payment (1)" }).waitFor();
        expect(await awaitingPayment.getByRole("link", { name: `#${pending.number}` }).count()).toBe(1);
        const awaitingFulfilment = page.getByRole("region", { name: "Paid, awaiting fulfilment" });
        expect(await awaitingFulfilment.getByRole("link", { name: `#${paid.number}` }).count()).toBe(1);
        await page.getByRole("link", { name: "Open inventory" }).waitFor();
        await check("home-to-do");
        await awaitingPayment.getByRole("link", { name: "All orders awaiting payment" }).click();
        await page.getByRole("heading", { name: "Orders" }).waitFor();
        expect(await page.getByLabel("Payment").inputValue()).toBe("pending");
        await orderLink(pending).waitFor();
        expect(await orderLink(paid).count()).toBe(0);
      },
      SLOW,
    );

    test(
      "customers: a search finds Ana, her page lists her order, and its link opens the order with its payment and refund sections",
      async () => {
        await dashboard.nav("Customers").click();
        await page.getByRole("heading", { name: "Customers" }).waitFor();
        await page.getByRole("link", { name: "rui@example.com" }).waitFor();
        await check("customers");
        await page.getByLabel("Search").fill("ana@");
        await page.getByRole("button", { name: "Search" }).click();
        await page.getByRole("link", { name: "ana@example.com" }).click();
        await page.getByRole("heading", { name: "ana@example.com" }).waitFor();
        await orderLink(paid).waitFor();
        expect(await orderLink(pending).count()).toBe(0);
        await check("customer-detail");

        await orderLink(paid).click();
        await page.getByRole("heading", { name: `Order #${paid.number}` }).waitFor();
        await page.getByRole("heading", { name: "Payments and refunds" }).waitFor();
        await page.getByText("No refunds.").waitFor();
        await check("order-payments");

        await page.getByRole("link", { name: "ana@example.com" }).click();
        await page.getByRole("link", { name: "All orders of this customer" }).click();
        await page.getByRole("heading", { name: "Orders" }).waitFor();
        expect(await page.getByLabel("Search").inputValue()).toBe("ana@example.com");
        await orderLink(paid).waitFor();
        expect(await orderLink(pending).count()).toBe(0);
      },
      SLOW,
    );

    test(
      "orders: the payment-status filter, a search by number and a range of days each narrow the list; a filter that matches nothing says so",
      async () => {
        await dashboard.nav("Orders").click();
        await page.getByRole("heading", { name: "Orders" }).waitFor();
        await orderLink(paid).waitFor();
        await orderLink(pending).waitFor();
        await page.getByLabel("Payment").selectOption("paid");
        await page.waitForURL(/paymentStatus=paid/);
        await orderLink(paid).waitFor();
        expect(await orderLink(pending).count()).toBe(0);
        await check("orders-paid");

        await page.getByLabel("Payment").selectOption("");
        await page.getByLabel("Search").fill(String(pending.number));
        await page.getByRole("button", { name: "Search" }).click();
        await page.waitForURL(/query=/);
        await orderLink(pending).waitFor();
        expect(await orderLink(paid).count()).toBe(0);

        await page.getByLabel("Search").fill("nobody@nowhere.example");
        await page.getByRole("button", { name: "Search" }).click();
        await page.getByText("No orders match these filters.").waitFor();
        await check("orders-none");

        // Dates are days of the browser's time zone, both ends included.
        const day = (offset: number) => {
          const at = new Date(Date.now() + offset * 86_400_000);
          return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
        };
        await dashboard.nav("Orders").click();
        await page.getByLabel("Placed to").fill(day(-1));
        await page.getByText("No orders match these filters.").waitFor();
        await page.getByLabel("Placed to").fill(day(0));
        await page.getByLabel("Placed from").fill(day(0));
        await page.waitForURL(/from=.*to=|to=.*from=/);
        await orderLink(paid).waitFor();
        await orderLink(pending).waitFor();
      },
      SLOW,
    );

    test(
      "domains: a domain added in Settings is listed by the API; removed after confirming, the API no longer lists it",
      async () => {
        const hosts = async () =>
          ((await adminCall("/v1/admin/domains")).body.data as { host: string }[]).map((d) => d.host);
        await dashboard.nav("Settings").click();
        await page.getByRole("link", { name: "Domains" }).click();
        await page.getByRole("heading", { name: "Domains" }).waitFor();
        await page.getByRole("cell", { name: SHOP_HOST, exact: true }).waitFor();
        await check("domains");

        await page.getByRole("button", { name: "Add domain" }).click();
        const dialog = page.getByRole("dialog", { name: "Add domain" });
        await dialog.getByLabel("Host").fill(SHOP_HOST);
        await dialog.getByRole("button", { name: "Add domain" }).click();
        await dialog.getByRole("alert").waitFor(); // already this store's: the API's 409 is shown
        expect(await dialog.getByRole("alert").textContent()).toContain(SHOP_HOST);
        dashboard.expectRejected(409, "/v1/admin/domains");
        expect(dashboard.problems).toEqual([]);
        await check("domain-conflict");
        await dialog.getByLabel("Host").fill("Shop.Example.COM");
        await dialog.getByRole("button", { name: "Add domain" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByRole("cell", { name: "shop.example.com", exact: true }).waitFor();
        expect(await hosts()).toContain("shop.example.com");

        await page.getByRole("button", { name: "Remove shop.example.com" }).click();
        const confirm = page.getByRole("alertdialog", { name: "Remove shop.example.com?" });
        await check("domain-remove-confirm");
        await confirm.getByRole("button", { name: "Remove" }).click();
        await page
          .getByRole("cell", { name: "shop.example.com", exact: true })
          .waitFor({ state: "detached" });
        expect(await hosts()).toEqual([SHOP_HOST]);
      },
      SLOW,
    );

    test(
      "members: Settings → Members lists the owner with their role",
      async () => {
        await dashboard.nav("Settings").click();
        await page.getByRole("link", { name: "Members" }).click();
        await page.getByRole("heading", { name: "Members" }).waitFor();
        const row = page.getByRole("row").filter({ hasText: served.owner });
        await row.waitFor();
        expect(await row.getByRole("cell", { name: "Owner", exact: true }).count()).toBe(1);
        await check("members");
      },
      SLOW,
    );
  },
);
