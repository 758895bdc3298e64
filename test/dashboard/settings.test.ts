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
import { placeBankTransferOrder, type Shop } from "../helpers/shop.ts";
import { type FakeStripe, fakeStripe, STRIPE } from "../payments/helpers.ts";

// Settings → Store and Settings → Payments (docs/dashboard.md), driven through the UI only in a real
// Chromium and read back through the API. Stripe is a fake on a local port (STRIPE_API_BASE), so a
// refused key is Stripe's real answer shape.

const SKIP_BROWSER = skipBrowserTests("settings.test.ts");
const SLOW = 60_000;

let served: DashboardServer;
let t: TestApp;
let shop: Shop;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = fakeStripe();
  served = await startDashboardServer("Settings Shop", "settings-shop.example", {
    STRIPE_API_BASE: stripe.url,
  });
  ({ t, shop } = served);
}, SLOW);
afterAll(async () => {
  await served.close();
  stripe.stop();
});

describe.skipIf(SKIP_BROWSER)("settings in a browser", () => {
  let dashboard: DashboardBrowser;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
    await dashboard.signIn();
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
  });

  const check = (name: string) => dashboard.check(name);
  const adminGet = async (path: string) =>
    (await t.json(path, { headers: { "x-api-key": shop.org.key } })).body.data;
  const openSettings = async (link: string, heading: string) => {
    await dashboard.nav("Settings").click();
    await page.getByRole("link", { name: link, exact: true }).click();
    await page.getByRole("heading", { name: heading }).waitFor();
  };

  test(
    "store: the currency can change until the first order; then the API's refusal shows beside it, and the field is shown locked with the reason",
    async () => {
      await openSettings("Store", "Store settings");
      await page.getByLabel("Currency").fill("USD");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect((await adminGet("/v1/admin/store")).currency).toBe("USD");
      await page.getByLabel("Currency").fill("EUR");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();

      // The page was loaded before the order: the API's 409 is what stops the change.
      await placeBankTransferOrder(shop);
      await page.getByLabel("Currency").fill("GBP");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("fixed at EUR once an order exists").waitFor();
      dashboard.expectRejected(409, "/v1/admin/store");
      expect((await adminGet("/v1/admin/store")).currency).toBe("EUR");
      await check("settings-store-currency-refused");

      await page.reload();
      await page.getByRole("heading", { name: "Store settings" }).waitFor();
      await page.getByText("Fixed at EUR: orders already exist").waitFor();
      expect(await page.getByLabel("Currency").getAttribute("readonly")).not.toBeNull();
    },
    SLOW,
  );

  test(
    "store: VAT rates typed as percentages are saved as basis points, allowed origins added and removed, languages and prices-include-VAT read back through the API; a malformed origin shows the API's message beside it and saves nothing",
    async () => {
      await openSettings("Store", "Store settings");
      expect(await page.getByLabel("VAT rate 1 (%)").inputValue()).toBe("23");
      await check("settings-store-fields");

      await page.getByLabel("VAT rate 2 (%)").fill("6.5");
      await page.getByRole("button", { name: "Add VAT rate" }).click();
      await page.getByLabel("Country 3").fill("fr");
      await page.getByLabel("VAT rate 3 (%)").fill("20");
      await page.getByRole("button", { name: "Remove VAT rate 1" }).click();
      await page.getByRole("button", { name: "Add origin" }).click();
      await page.getByLabel("Origin 1").fill("https://shop.example");
      await page.getByRole("button", { name: "Add origin" }).click();
      await page.getByLabel("Origin 2").fill("http://localhost:3000");
      await page.getByLabel("Languages").fill("en, pt, es");
      await page.getByLabel("Default language").selectOption("pt");
      await page.getByLabel("Prices include VAT").uncheck();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect(await adminGet("/v1/admin/store")).toMatchObject({
        taxRates: [
          { country: "ES", rate: 650 },
          { country: "FR", rate: 2000 },
        ],
        allowedOrigins: ["https://shop.example", "http://localhost:3000"],
        locales: ["en", "pt", "es"],
        defaultLocale: "pt",
        pricesIncludeTax: false,
      });

      await page.getByRole("button", { name: "Remove origin 2" }).click();
      await page.getByLabel("Origin 1").fill("https://shop.example:443");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText('write it as "https://shop.example"').waitFor();
      dashboard.expectRejected(400, "/v1/admin/store");
      expect(await page.getByLabel("Origin 1").getAttribute("aria-invalid")).toBe("true");
      await check("settings-store-origin-error");
      expect((await adminGet("/v1/admin/store")).allowedOrigins).toEqual([
        "https://shop.example",
        "http://localhost:3000",
      ]);

      await page.getByLabel("Origin 1").fill("https://shop.example");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect((await adminGet("/v1/admin/store")).allowedOrigins).toEqual(["https://shop.example"]);
    },
    SLOW,
  );

  test(
    "store: policy pages typed in their fields are saved with the rest and read back through the API; an http:// page shows the refusal beside its field and saves nothing",
    async () => {
      await openSettings("Store", "Store settings");
      const policies = page.getByRole("group", { name: "Policy pages" });
      await policies.getByText("AI shopping assistants show these pages").waitFor();
      await page.getByLabel("Terms and conditions page").fill("https://settings-shop.example/terms");
      await page.getByLabel("Returns and refunds page").fill("https://settings-shop.example/returns");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect((await adminGet("/v1/admin/store")).policyLinks).toEqual({
        terms: "https://settings-shop.example/terms",
        privacy: null,
        returns: "https://settings-shop.example/returns",
        shipping: null,
        faq: null,
        contact: null,
      });
      await check("settings-store-policy-pages");

      const saved = await adminGet("/v1/admin/store");
      await page.getByLabel("Privacy policy page").fill("http://settings-shop.example/privacy");
      await page.getByLabel("Returns and refunds page").fill("");
      await page.getByRole("button", { name: "Save" }).click();
      const privacy = page.getByLabel("Privacy policy page");
      await page.getByText("Enter the page's full https:// address").waitFor();
      dashboard.expectRejected(400, "/v1/admin/store");
      expect(await privacy.getAttribute("aria-invalid")).toBe("true");
      expect(await privacy.getAttribute("aria-describedby")).toContain("-error");
      await check("settings-store-policy-page-refused");
      expect(await adminGet("/v1/admin/store")).toEqual(saved);
    },
    SLOW,
  );

  test(
    "payments: Ifthenpay keys are saved without showing them (no provider call), its methods go live, and removing after a confirmation clears them",
    async () => {
      await openSettings("Payments", "Payments");
      const ifthenpay = page.getByRole("region", { name: "Ifthenpay" });
      expect(await ifthenpay.getByLabel("Ifthenpay webhook URL").inputValue()).toContain(
        `/api/webhooks/ifthenpay/${shop.org.id}`,
      );
      await check("settings-payments");

      const callsBefore = stripe.calls.length;
      await ifthenpay.getByLabel("Ifthenpay anti-phishing key").fill("phish-secret-1");
      await ifthenpay.getByLabel("Ifthenpay Multibanco key").fill("MBK-1234");
      await ifthenpay.getByLabel("Ifthenpay MB WAY key").fill("MBW-5678");
      await ifthenpay.getByRole("button", { name: "Save Ifthenpay" }).click();
      await ifthenpay.getByRole("status").filter({ hasText: "Ifthenpay settings saved." }).waitFor();
      await ifthenpay.getByText("MB WAY and Multibanco (euro carts)").waitFor();
      expect(await ifthenpay.getByText("Saved. Leave empty to keep it.").count()).toBe(3);
      expect(await ifthenpay.getByLabel("Ifthenpay Multibanco key").inputValue()).toBe("");
      expect(await page.content()).not.toContain("MBK-1234");
      expect(stripe.calls.length).toBe(callsBefore);
      const saved = await adminGet("/v1/admin/integrations/ifthenpay");
      expect(saved).toMatchObject({ source: "tenant", enabled: true, settings: { multibancoExpiryDays: 3 } });
      expect(saved.secrets.mbKey).toEqual({ set: true, last4: "1234" });
      await check("settings-payments-ifthenpay-saved");

      await ifthenpay.getByRole("button", { name: "Remove Ifthenpay settings" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
      await ifthenpay.getByText("Not set up").waitFor();
      expect((await adminGet("/v1/admin/integrations/ifthenpay")).source).toBe("none");
    },
    SLOW,
  );

  test(
    "payments: a Stripe key Stripe refuses shows the API's message beside the field and saves nothing",
    async () => {
      const refused = "sk_test_revokedKey999";
      stripe.refusedKeys.add(refused);
      const section = page.getByRole("region", { name: "Stripe" });
      await section.getByLabel("Stripe secret key").fill(refused);
      await section.getByLabel("Stripe publishable key").fill(STRIPE.publishableKey);
      await section.getByRole("button", { name: "Save Stripe" }).click();
      await section.getByText("refused by Stripe").waitFor();
      dashboard.expectRejected(422, "/v1/admin/integrations/stripe");
      expect(await section.getByLabel("Stripe secret key").getAttribute("aria-invalid")).toBe("true");
      await section.getByRole("alert").filter({ hasText: "Stripe refused" }).waitFor();
      await check("settings-payments-stripe-refused");
      expect((await adminGet("/v1/admin/integrations/stripe")).source).toBe("none");
    },
    SLOW,
  );
});
