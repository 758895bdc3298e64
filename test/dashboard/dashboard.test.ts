import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { addMember } from "../../src/auth/service.ts";
import { DASHBOARD_CSP } from "../../src/dashboard/serve.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { artifactPath, launchChromium, skipBrowserTests } from "../helpers/browser.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// The merchant dashboard served by the service (docs/dashboard.md), over HTTP and driven through its
// UI only in a real headless Chromium: one server and one browser for the file. Every page visited
// is screenshotted into test/artifacts/dashboard-*.png, checked with axe-core, and watched for
// console errors and requests to other origins.

const SKIP_BROWSER = skipBrowserTests("dashboard.test.ts");
const SLOW = 60_000;
const PASSWORD = "correct horse battery";
const OWNER = "owner@dashboard-shop.example";
const SHOP_HOST = "dashboard-shop.example";

let t: TestApp;
let server: Server<unknown>;
let base: string;
let host: string;
let shop: Shop;

beforeAll(async () => {
  // BASE_URL is the address the browser uses: the platform host and the Origin the API expects.
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  host = new URL(base).host;
  t = makeTestApp({
    env: {
      BASE_URL: base,
      NODE_ENV: "production",
      PLATFORM_DOMAIN: "shops.example",
      INTEGRATION_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      ALLOW_SIGNUP: "true",
    },
  });
  shop = await makeShop(t, "Dashboard Shop", SHOP_HOST);
  const cookie = await signUp(t, OWNER, PASSWORD);
  const userId = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  addMember(t.app.ctx.platform, shop.org.id, userId, "owner");
}, SLOW);
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

const EXPECTED_401 = new Set(["/api/auth/session", "/api/auth/sign-in/email"]);

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
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let axeSource: string;

  beforeAll(async () => {
    axeSource = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // Chromium logs every 4xx it loads; a 401 of the session probe (not signed in yet) or of a wrong
      // password is an answer the page handles, not a fault.
      const { pathname } = new URL(message.location().url || base);
      if (message.text().includes("status of 401") && EXPECTED_401.has(pathname)) return;
      problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.host !== host)
        problems.push(`request to another origin: ${request.url()}`);
    });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  });

  /** The page as it is now: no problem so far, no serious or critical axe violation, and a screenshot. */
  async function check(name: string) {
    await page.evaluate(axeSource);
    const violations = (await page.evaluate(async () => {
      const result = await (globalThis as any).axe.run((globalThis as any).document, {
        resultTypes: ["violations"],
      });
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n: any) => n.target.join(" ")),
      }));
    })) as { id: string; impact: string; nodes: string[] }[];
    await page.screenshot({ path: artifactPath(`dashboard-${name}.png`), fullPage: true });
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
    expect(problems).toEqual([]);
  }

  const nav = (name: string) =>
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
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
      await page.getByText("No cancelled orders.").waitFor();
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
    "the sections this version does not build say so plainly; sign out returns to the sign-in form",
    async () => {
      await nav("Products").click();
      await page.getByText("Products cannot be managed from the dashboard in this version").waitFor();
      await check("products-not-yet");
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
