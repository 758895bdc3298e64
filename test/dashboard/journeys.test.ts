import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  DASHBOARD_PASSWORD,
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { placeBankTransferOrder } from "../helpers/shop.ts";

// A newcomer's first hour, through the UI only: sign up, create a store, follow the readiness
// checklist from every blocker to "ready"; and the same dashboard driven by the keyboard alone.
// PLATFORM_DOMAIN=localhost makes a store without a domain of its own a blocker, as on a laptop.

const SKIP_BROWSER = skipBrowserTests("journeys.test.ts");
const SLOW = 90_000;

let served: DashboardServer;

beforeAll(async () => {
  served = await startDashboardServer("Journey Shop", "journey-shop.example", {
    PLATFORM_DOMAIN: "localhost",
  });
}, SLOW);
afterAll(async () => {
  await served.close();
});

/** The readiness items Home lists now, as the link texts a merchant follows. */
const checklist = async (page: Page) => {
  await page.getByRole("heading", { name: /Before your first order|Your store is ready to sell/ }).waitFor();
  return page.getByRole("region", { name: "Before your first order" }).getByRole("link").allTextContents();
};

describe.skipIf(SKIP_BROWSER)("a new merchant, from sign-up to a store ready to sell", () => {
  let dashboard: DashboardBrowser;
  let page: Page;
  const email = "new-merchant@journey.example";

  beforeAll(async () => {
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
  });

  /** Home, once its checklist no longer shows the blocker just fixed (it may first show what it kept). */
  const goHome = async (fixed?: string) => {
    await dashboard.nav("Home").click();
    await page.getByRole("heading", { name: "Home" }).waitFor();
    if (fixed) await page.getByRole("link", { name: fixed }).waitFor({ state: "detached" });
  };

  test(
    "sign up, create an organization, then each checklist link leads to the page that removes its blocker until Home says the store is ready; the API agrees",
    async () => {
      await page.goto(`${served.base}/dashboard`);
      await page.getByRole("link", { name: "Create one" }).click();
      await page.getByRole("heading", { name: "Create your account" }).waitFor();
      await dashboard.check("sign-up");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await page.getByRole("heading", { name: "Create your first organization" }).waitFor();
      await dashboard.check("no-organization");

      await page.getByRole("button", { name: "Create organization" }).click();
      const create = page.getByRole("dialog", { name: "Create organization" });
      await create.getByLabel("Name").fill("Casa Nova");
      await create.getByRole("button", { name: "Create organization" }).click();
      await page.getByRole("heading", { name: "Home" }).waitFor();
      expect(await checklist(page)).toEqual([
        "Add a product",
        "Add a shipping method",
        "Choose a payment method",
        "Add a domain",
      ]);
      await dashboard.check("readiness-blockers");

      // Something to sell: one active product with a price and stock.
      await page.getByRole("link", { name: "Add a product" }).click();
      await page.getByRole("link", { name: "Create product" }).click();
      await page.getByRole("heading", { name: "Create product" }).waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Clay Mug");
      await page.getByLabel("Status").selectOption("active");
      await page.getByLabel("Price").fill("12.50");
      await page.getByLabel("Track stock").check();
      await page.getByLabel("Stock", { exact: true }).fill("8");
      await page.getByRole("button", { name: "Create product" }).click();
      await page.getByRole("heading", { name: "Edit product" }).waitFor();
      await goHome("Add a product");
      expect(await checklist(page)).toEqual([
        "Add a shipping method",
        "Choose a payment method",
        "Add a domain",
      ]);

      // The store's own details and a payment method, on one page; the store now sells from Spain.
      await page.getByRole("link", { name: "Choose a payment method" }).click();
      await page.getByRole("heading", { name: "Store settings" }).waitFor();
      await page.getByLabel("Contact email").fill("not an address");
      await page.getByRole("button", { name: "Save" }).click();
      await page.locator("[aria-invalid=true]").waitFor();
      expect(await page.getByLabel("Contact email").getAttribute("aria-invalid")).toBe("true");
      dashboard.expectRejected(400, "/v1/admin/store");
      await page.getByLabel("Contact email").fill("hello@casanova.example");
      await page.getByLabel("Store country").fill("es");
      await page.getByLabel("Accept bank transfers (marked as paid by hand)").check();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      await dashboard.check("settings-store-contact");
      await goHome("Choose a payment method");
      expect(await checklist(page)).toEqual(["Add a shipping method", "Add a domain"]);
      await page.getByText("serves the store's country (ES)").waitFor();

      await page.getByRole("link", { name: "Add a shipping method" }).click();
      await page.getByRole("heading", { name: "Shipping" }).waitFor();
      await page.getByRole("button", { name: "Create shipping method" }).click();
      const method = page.getByRole("dialog", { name: "Create shipping method" });
      await method.getByLabel("Name").fill("Correos");
      await method.getByLabel("Price").fill("4.90");
      await method.getByLabel("Countries").fill("ES");
      await method.getByRole("button", { name: "Create shipping method" }).click();
      await page.getByRole("button", { name: "Edit Correos" }).waitFor();
      await goHome("Add a shipping method");
      expect(await checklist(page)).toEqual(["Add a domain"]);

      await page.getByRole("link", { name: "Add a domain" }).click();
      await page.getByRole("heading", { name: "Domains" }).waitFor();
      await page.getByRole("button", { name: "Add domain" }).click();
      const domain = page.getByRole("dialog", { name: "Add domain" });
      await domain.getByLabel("Host").fill("casanova.example");
      await domain.getByRole("button", { name: "Add domain" }).click();
      await page.getByRole("cell", { name: "casanova.example", exact: true }).waitFor();
      await goHome();
      await page.getByRole("heading", { name: "Your store is ready to sell" }).waitFor();
      await dashboard.check("readiness-ready");

      // The same store read by the API as a storefront would: its host answers, and the admin agrees.
      const store = await served.t.json("/v1/store", { headers: { host: "casanova.example" } });
      expect(store.status).toBe(200);
      expect(store.body.data).toMatchObject({ name: "Casa Nova", country: "ES", currency: "EUR" });
      const products = await served.t.json("/v1/products", { headers: { host: "casanova.example" } });
      expect(products.body.data.map((p: any) => [p.name.en, p.priceRange.min.amount, p.inStock])).toEqual([
        ["Clay Mug", 1250, true],
      ]);

      const cookie = (await dashboard.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      const admin = (path: string) => served.t.json(path, { headers: { cookie } });
      expect((await admin("/v1/admin/readiness")).body.data).toMatchObject({ ready: true, blockers: [] });
      expect((await admin("/v1/admin/store")).body.data).toMatchObject({
        contactEmail: "hello@casanova.example",
        country: "ES",
        manualPaymentMethods: ["bank_transfer"],
      });

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Your store is ready to sell" }).waitFor();
      expect(dashboard.problems).toEqual([]);
    },
    SLOW,
  );
});

describe.skipIf(SKIP_BROWSER)("the keyboard alone runs the dashboard", () => {
  let dashboard: DashboardBrowser;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
  });

  const isFocused = (target: Locator) =>
    target.evaluate((element) => element === (globalThis as any).document.activeElement);
  /**
   * Whether `target` gets the focus within 2 s: a dialog gives it back to its trigger a frame after
   * it is gone from the page, which a busy machine may draw later than the test looks.
   */
  const focusedSoon = async (target: Locator) => {
    for (let waited = 0; waited < 2000; waited += 25) {
      if (await isFocused(target)) return true;
      await Bun.sleep(25);
    }
    return false;
  };
  /** Presses Tab until `target` has the focus (at most 80 times), and checks the focus is drawn. */
  const tabTo = async (target: Locator) => {
    for (let presses = 0; presses < 80; presses++) {
      if (await isFocused(target)) {
        expect(
          await target.evaluate((element) => (globalThis as any).getComputedStyle(element).outlineStyle),
        ).not.toBe("none");
        return;
      }
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${target}`);
  };
  const press = async (target: Locator, key = "Enter") => {
    await tabTo(target);
    await page.keyboard.press(key);
  };

  test(
    "sign in, move between pages, open an order, mark it paid and fulfil it with Tab, Enter and Escape; a dialog takes the focus and gives it back when closed",
    async () => {
      const order = await placeBankTransferOrder(served.shop);
      await page.goto(`${served.base}/dashboard`);
      await tabTo(page.getByLabel("Email"));
      await page.keyboard.type(served.owner);
      await page.keyboard.press("Tab");
      expect(await isFocused(page.getByLabel("Password"))).toBe(true);
      await page.keyboard.type(DASHBOARD_PASSWORD);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Home" }).waitFor();

      await press(dashboard.nav("Orders"));
      await page.getByRole("heading", { name: "Orders" }).waitFor();
      await press(page.getByRole("link", { name: `#${order.number}` }));
      await page.getByRole("heading", { name: `Order #${order.number}` }).waitFor();
      await press(page.getByRole("button", { name: "Mark as paid" }));
      const fulfilButton = page.getByRole("button", { name: "Fulfil" });
      await fulfilButton.waitFor();

      await press(fulfilButton);
      const fulfil = page.getByRole("dialog", { name: `Fulfil order #${order.number}` });
      await fulfil.waitFor();
      expect(
        await fulfil.evaluate((dialog: any) => dialog.contains((globalThis as any).document.activeElement)),
      ).toBe(true);
      await page.keyboard.press("Escape");
      await fulfil.waitFor({ state: "detached" });
      expect(await focusedSoon(fulfilButton)).toBe(true);

      await page.keyboard.press("Enter");
      await tabTo(fulfil.getByLabel("Carrier"));
      await page.keyboard.type("CTT");
      await tabTo(fulfil.getByLabel("Tracking number"));
      await page.keyboard.type("RR000000001PT");
      await page.keyboard.press("Enter");
      await fulfil.waitFor({ state: "detached" });
      await page.getByText("Fulfilled", { exact: false }).first().waitFor();
      await dashboard.check("keyboard-order-fulfilled");

      const after = (await served.shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data;
      expect(after).toMatchObject({ paymentStatus: "paid", fulfillmentStatus: "fulfilled" });
      expect(after.fulfillments).toMatchObject([{ carrier: "CTT", trackingNumber: "RR000000001PT" }]);
    },
    SLOW,
  );

  test(
    "a confirmation opens on its safe choice (Keep it): Escape, or Enter on it, leaves the product as it was",
    async () => {
      await press(dashboard.nav("Products"));
      await page.getByRole("heading", { name: "Products" }).waitFor();
      await press(page.getByRole("link", { name: served.shop.shirt.name.en }));
      await page.getByRole("heading", { name: "Edit product" }).waitFor();
      const remove = page.getByRole("button", { name: "Delete product" });
      await press(remove);
      const confirm = page.getByRole("alertdialog");
      await confirm.waitFor();
      expect(await focusedSoon(confirm.getByRole("button", { name: "Keep it" }))).toBe(true);
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
      expect(await focusedSoon(remove)).toBe(true);
      await page.keyboard.press("Enter");
      await confirm.waitFor();
      await page.keyboard.press("Enter");
      await confirm.waitFor({ state: "detached" });
      expect((await served.shop.admin.get(`/v1/admin/products/${served.shop.shirt.id}`)).status).toBe(200);
      expect(dashboard.problems).toEqual([]);
    },
    SLOW,
  );
});
