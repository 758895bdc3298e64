import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { DASHBOARD_CSP } from "../../src/dashboard/serve.ts";
import type { TestApp } from "../helpers/app.ts";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  DASHBOARD_PASSWORD as PASSWORD,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// The merchant dashboard served by the service (docs/dashboard.md), over HTTP and driven through its
// UI only in a real headless Chromium: one server and one browser for the file. Every page visited
// is screenshotted into test/artifacts/dashboard-*.png, checked with axe-core, and watched for
// console errors and requests to other origins (test/helpers/dashboard.ts).

const SKIP_BROWSER = skipBrowserTests("dashboard.test.ts");
const SLOW = 60_000;
const SHOP_HOST = "dashboard-shop.example";

let served: DashboardServer;
let t: TestApp;
let base: string;
let shop: Shop;
let OWNER: string;

beforeAll(async () => {
  served = await startDashboardServer("Dashboard Shop", SHOP_HOST);
  ({ t, base, shop, owner: OWNER } = served);
}, SLOW);
afterAll(() => served.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: "manual" });

describe("where the dashboard is served", () => {
  test("GET / on the platform host redirects to /dashboard", async () => {
    const response = await get("/");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
  });

  test("a shop host never serves the dashboard, its assets or the redirect: 404 envelopes", async () => {
    const page = await (await get("/dashboard")).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page)![1]!;
    for (const path of ["/", "/dashboard", "/dashboard/orders", script]) {
      const response = await get(path, { host: SHOP_HOST });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: `No route GET ${path}`,
        code: "NOT_FOUND",
        status: 404,
      });
    }
  });

  test(
    "the page is no-cache with the strict CSP on every client route; its hashed assets are immutable",
    async () => {
      const first = await get("/dashboard");
      const html = await first.text();
      for (const path of ["/dashboard", "/dashboard/orders/ord_123", "/dashboard/settings/api-keys"]) {
        const response = await get(path);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(response.headers.get("cache-control")).toBe("no-cache");
        expect(response.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
        expect(response.headers.get("x-frame-options")).toBe("DENY");
        expect(await response.text()).toBe(html);
      }
      expect(DASHBOARD_CSP).toContain("script-src 'self'");
      expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
      expect(DASHBOARD_CSP).toContain("default-src 'self'");
      expect(DASHBOARD_CSP).toContain("connect-src 'self'");
      // Inline styles are the one documented relaxation (Radix's scroll lock); never inline scripts.
      expect(/script-src ([^;]*)/.exec(DASHBOARD_CSP)![1]).toBe("'self'");
      // Nothing inline: the page only names its own scripts and styles.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
      const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.some((path) => path.endsWith(".js"))).toBe(true);
      expect(assets.some((path) => path.endsWith(".css"))).toBe(true);
      for (const path of assets) {
        expect(path).toMatch(/-[a-z0-9]{8}\.(js|css)$/);
        const response = await get(path);
        expect(response.status).toBe(200);
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("etag")).toBeTruthy();
      }
      expect((await get("/dashboard/assets/nothing-12345678.js")).status).toBe(404);
    },
    SLOW,
  );
});

describe.skipIf(SKIP_BROWSER)("the dashboard in a browser", () => {
  let dashboard: DashboardBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboard(served);
    ({ context, page } = dashboard);
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
  });

  const check = (name: string) => dashboard.check(name);
  const nav = (name: string) => dashboard.nav(name);
  const adminGet = async (path: string) =>
    (await t.json(path, { headers: { "x-api-key": shop.org.key } })).body.data;

  test(
    "sign in: a wrong password is shown as an alert; the right one opens Home with the readiness checklist",
    async () => {
      await page.goto(`${base}/dashboard`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await check("sign-in");
      await page.getByLabel("Email").fill(OWNER);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      expect(await page.getByRole("alert").textContent()).toMatch(/password/i);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Home" }).waitFor();
      for (const name of [
        "Home",
        "Products",
        "Categories",
        "Inventory",
        "Orders",
        "Customers",
        "Coupons",
        "Shipping",
        "Settings",
      ]) {
        expect(await nav(name).count()).toBe(1);
      }
      await page.getByRole("heading", { name: "Before your first order" }).waitFor();
      await page.getByRole("link", { name: "Choose a payment method" }).waitFor();
      await page.getByRole("term").filter({ hasText: "Revenue" }).waitFor();
      await check("home-blockers");
    },
    SLOW,
  );

  test(
    "store settings: accepting bank transfers from the checklist's link clears the blocker; name and low-stock threshold read back through the API",
    async () => {
      await page.getByRole("link", { name: "Choose a payment method" }).click();
      await page.getByRole("heading", { name: "Store settings" }).waitFor();
      await page.getByLabel("Name").fill("Dashboard Shop Renamed");
      await page.getByLabel("Low-stock threshold").fill("7");
      await page.getByLabel("Accept bank transfers (marked as paid by hand)").check();
      await check("settings-store");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      const store = await adminGet("/v1/admin/store");
      expect(store).toMatchObject({
        name: "Dashboard Shop Renamed",
        lowStockThreshold: 7,
        manualPaymentMethods: ["bank_transfer"],
      });
      await nav("Home").click();
      await page.getByRole("heading", { name: "Your store is ready to sell" }).waitFor();
      await check("home-ready");
    },
    SLOW,
  );

  test(
    "orders: an order placed through the storefront API is found, marked paid, fulfilled and partly refunded; the API shows each step",
    async () => {
      const variantId = shop.shirt.variants[0].id;
      const cart = (
        await shop.storefront("/v1/carts", {
          body: { email: "buyer@example.com", items: [{ variantId, quantity: 2 }] },
        })
      ).body.data;
      await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
      await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
        body: { shippingMethodId: shop.ptShipping.id },
      });
      const placed = await shop.storefront(`/v1/carts/${cart.id}/place-order`, {
        body: { paymentMethodId: "manual_bank_transfer" },
      });
      expect(placed.status).toBe(201);
      const order = placed.body.data;

      await nav("Orders").click();
      await page.getByRole("heading", { name: "Orders" }).waitFor();
      await page.getByRole("link", { name: `#${order.number}` }).waitFor();
      await check("orders");
      await page.getByLabel("Status").selectOption("cancelled");
      await page.getByText("No orders match these filters.").waitFor();
      await page.getByLabel("Status").selectOption("open");
      await page.getByRole("link", { name: `#${order.number}` }).click();
      await page.getByRole("heading", { name: `Order #${order.number}` }).waitFor();
      await page.getByRole("heading", { name: "Timeline" }).waitFor();
      await check("order-detail");

      await page.getByRole("button", { name: "Mark as paid" }).click();
      await page.getByRole("button", { name: "Refund" }).waitFor();
      expect((await adminGet(`/v1/admin/orders/${order.id}`)).paymentStatus).toBe("paid");

      await page.getByRole("button", { name: "Fulfil" }).click();
      const fulfil = page.getByRole("dialog", { name: `Fulfil order #${order.number}` });
      await fulfil.getByLabel("Carrier").fill("CTT");
      await fulfil.getByLabel("Tracking number").fill("RR123456789PT");
      await check("order-fulfil-dialog");
      await fulfil.getByRole("button", { name: "Fulfil" }).click();
      await fulfil.waitFor({ state: "detached" });
      await page.getByText("Fulfilled", { exact: false }).first().waitFor();

      await page.getByRole("button", { name: "Refund" }).click();
      const refund = page.getByRole("dialog", { name: `Refund order #${order.number}` });
      await refund.getByLabel("Amount").fill("abc");
      await refund.getByRole("button", { name: "Refund" }).click();
      await refund.getByText("Enter an amount such as 49.00").waitFor();
      await refund.getByLabel("Amount").fill("5.00");
      await refund.getByLabel("Reason").fill("Scratched");
      await refund.getByRole("button", { name: "Refund" }).click();
      await refund.waitFor({ state: "detached" });
      await page.getByText("Partially refunded").first().waitFor();
      await check("order-refunded");

      const after = await adminGet(`/v1/admin/orders/${order.id}`);
      expect(after).toMatchObject({ paymentStatus: "partially_refunded", fulfillmentStatus: "fulfilled" });
      expect(after.totals.refunded.amount).toBe(500);
      expect(after.refunds).toMatchObject([{ amount: { amount: 500 }, reason: "Scratched" }]);
      expect(after.fulfillments).toMatchObject([{ carrier: "CTT", trackingNumber: "RR123456789PT" }]);
    },
    SLOW,
  );

  test(
    "API keys: a new key is shown once and works; revoked, it is refused",
    async () => {
      await nav("Settings").click();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await check("settings");
      await page.getByRole("link", { name: "API keys" }).click();
      await page.getByRole("heading", { name: "API keys" }).waitFor();
      await page.getByRole("button", { name: "Create API key" }).click();
      const dialog = page.getByRole("dialog", { name: "Create API key" });
      await dialog.getByLabel("Name").fill("Storefront site");
      await dialog.getByRole("button", { name: "Create API key" }).click();
      const key = await dialog.getByLabel("New API key").inputValue();
      expect(key.length).toBeGreaterThan(20);
      await check("api-key-created");
      const me = () => t.json("/v1/me", { headers: { "x-api-key": key } });
      expect((await me()).status).toBe(200);
      await dialog.getByRole("button", { name: "Done" }).click();
      const row = page.getByRole("row").filter({ hasText: "Storefront site" });
      await row.waitFor();
      expect(await page.content()).not.toContain(key);
      await check("api-keys");
      await row.getByRole("button", { name: "Revoke Storefront site" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
      await row.getByText("Revoked").waitFor();
      expect((await me()).status).toBe(401);
    },
    SLOW,
  );

  test(
    "an address no page has says so plainly; sign out returns to the sign-in form",
    async () => {
      // Every section of the navigation has its page now; the fallback still answers unknown addresses.
      await page.goto(`${base}/dashboard/no-such-page`);
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      await page.getByText("There is no page at this address.").waitFor();
      await check("not-found");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(
        (
          await t.json("/api/auth/session", {
            headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
          })
        ).status,
      ).toBe(401);
    },
    SLOW,
  );
});
