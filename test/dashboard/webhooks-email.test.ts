import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { setRetrySchedule } from "../../src/webhooks/deliveries.ts";
import { skipBrowserTests } from "../helpers/browser.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import {
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { until, verify } from "../webhooks/helpers.ts";
import { type Receiver, startReceiver } from "../webhooks/receivers.ts";

// Settings → Webhooks and Settings → Email (docs/dashboard.md), driven through the UI only in a real
// Chromium. Webhooks go to real HTTP receivers on local ports (a development server with
// WEBHOOKS_ALLOW_HTTP_LOCALHOST); the refusal of an internal address and the email page use a
// production-like server, which has no SMTP_URL.

const SKIP_BROWSER = skipBrowserTests("webhooks-email.test.ts");
const SLOW = 60_000;

/** Opens a Settings page from the main navigation and waits for its heading. */
async function openSettings(dashboard: DashboardBrowser, link: string, heading: string) {
  await dashboard.nav("Settings").click();
  await dashboard.page.getByRole("link", { name: link, exact: true }).click();
  await dashboard.page.getByRole("heading", { name: heading, exact: true }).waitFor();
}

describe.skipIf(SKIP_BROWSER)("Settings → Webhooks against real receivers", () => {
  let served: DashboardServer;
  let dashboard: DashboardBrowser;
  let page: Page;
  let good: Receiver;
  let flaky: Receiver;
  let flakyAnswers = 500;
  let secret = "";

  beforeAll(async () => {
    good = await startReceiver();
    flaky = await startReceiver({
      answer: (_request, response) => void response.writeHead(flakyAnswers).end(),
    });
    served = await startDashboardServer("Hooks Shop", "hooks-shop.example", {
      NODE_ENV: "development",
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true",
    });
    // A serving process drains its outbox; the next scheduled attempt is far away, so only the
    // page's Retry makes one.
    served.t.app.start();
    setRetrySchedule(served.t.app.ctx, () => 10 * 60_000);
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
    await dashboard.signIn();
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
    await served?.close();
    await good?.close();
    await flaky?.close();
  });

  const admin = () => adminClient(served.t, served.shop.org.key);
  const endpoints = async () => (await admin().get("/v1/admin/webhook-endpoints")).body.data as any[];

  test(
    "an endpoint added with chosen events shows its signing secret once, and Send test shows what the receiver answered",
    async () => {
      await openSettings(dashboard, "Webhooks", "Webhooks");
      await page.getByText("No endpoints yet").waitFor();
      await dashboard.check("webhooks-empty");

      const url = `http://127.0.0.1:${good.port}/hooks`;
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByLabel("URL").fill(url);
      await page.getByLabel("Only the events I choose").check();
      await page.getByLabel("A product is created (product.created)").check();
      await page.getByLabel("Description").fill("Warehouse system");
      await dashboard.check("webhooks-add");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByText("you will not see it again").waitFor();
      secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await dashboard.check("webhooks-secret");
      await page.getByRole("button", { name: "Done" }).click();

      expect(await endpoints()).toMatchObject([
        { url, events: ["product.created"], description: "Warehouse system", enabled: true },
      ]);
      await page.getByRole("link", { name: url }).click();
      await page.getByRole("heading", { name: "Webhook endpoint" }).waitFor();
      expect(await page.content()).not.toContain(secret);

      await page.getByRole("button", { name: "Send test" }).click();
      await page.getByText("Test sent: your system answered 204").waitFor();
      expect(good.requests).toHaveLength(1);
      expect(verify(good.requests[0]!, secret)).toMatchObject({ type: "ping" });
      await dashboard.check("webhook-endpoint-tested");
    },
    SLOW,
  );

  test(
    "a product created through the API is delivered to the endpoint, signed with its secret, and listed as delivered",
    async () => {
      const created = await admin().post("/v1/admin/products", simpleProduct("Linen towel", 1500));
      expect(created.status).toBe(201);
      await until(() => good.requests.length === 2, "the product.created delivery");
      expect(verify(good.requests[1]!, secret)).toMatchObject({ type: "product.created" });

      await page.getByRole("button", { name: "Refresh" }).click();
      const row = page.getByRole("row").filter({ hasText: "product.created" });
      await row.getByText("Delivered").waitFor();
      await row.getByText("HTTP 204").waitFor();
      expect(await row.getByRole("button", { name: /^Retry/ }).count()).toBe(0);
      await dashboard.check("webhook-deliveries");
    },
    SLOW,
  );

  test(
    "a delivery the receiver refused shows its status and next attempt, and Retry delivers it once the receiver answers",
    async () => {
      const url = `http://127.0.0.1:${flaky.port}/events`;
      await openSettings(dashboard, "Webhooks", "Webhooks");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByLabel("URL").fill(url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByText("you will not see it again").waitFor();
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("link", { name: url }).click();
      await page.getByRole("heading", { name: "Webhook endpoint" }).waitFor();
      await page.getByText("All events").waitFor();

      await admin().post("/v1/admin/products", simpleProduct("Linen sheet", 4500));
      await until(() => flaky.requests.length === 1, "the refused delivery");
      const [endpoint] = (await endpoints()).filter((e) => e.url === url);
      const latest = async () =>
        (await admin().get(`/v1/admin/webhook-endpoints/${endpoint.id}/deliveries`)).body.data[0];
      // The receiver has answered; the attempt is recorded right after.
      for (let i = 0; i < 200 && (await latest()).attempts === 0; i++) await Bun.sleep(10);

      await page.getByRole("button", { name: "Refresh" }).click();
      const row = page.getByRole("row").filter({ hasText: "product.created" });
      await row.getByText("Failed, will retry").waitFor();
      await row.getByText("HTTP 500").waitFor();
      await page
        .getByText(/Failing since/)
        .first()
        .waitFor();
      await dashboard.check("webhook-delivery-failed");

      flakyAnswers = 200;
      await row.getByRole("button", { name: /^Retry product\.created/ }).click();
      await row.getByText("Delivered").waitFor();
      expect(flaky.requests).toHaveLength(2);
      expect(flaky.requests[1]!.headers["webhook-id"]).toBe(flaky.requests[0]!.headers["webhook-id"]);
      expect(await latest()).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
      await dashboard.check("webhook-delivery-retried");
    },
    SLOW,
  );

  test(
    "edit saves the events, description and enabled state; a disabled endpoint says why",
    async () => {
      await openSettings(dashboard, "Webhooks", "Webhooks");
      await page.getByRole("link", { name: `http://127.0.0.1:${good.port}/hooks` }).click();
      await page.getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("An order is paid (order.paid)").check();
      await page.getByLabel("Description").fill("");
      await page.getByLabel("Enabled (send messages to it)").uncheck();
      await dashboard.check("webhook-edit");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Disabled: disabled by the merchant").waitFor();
      const [endpoint] = (await endpoints()).filter((e) => e.url.endsWith("/hooks"));
      expect(endpoint).toMatchObject({
        events: ["product.created", "order.paid"],
        description: null,
        enabled: false,
        disabledReason: "disabled by the merchant",
      });

      await page.getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("Enabled (send messages to it)").check();
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Enabled", { exact: true }).waitFor();
      expect((await endpoints()).find((e) => e.id === endpoint.id)).toMatchObject({
        enabled: true,
        disabledReason: null,
      });
      await dashboard.check("webhook-edited");
    },
    SLOW,
  );

  test(
    "rotate asks first, shows the new secret once, and both secrets sign until the old one ends; delete asks first and removes the endpoint",
    async () => {
      const url = `http://127.0.0.1:${good.port}/hooks`;
      const [before] = (await endpoints()).filter((e) => e.url === url);
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await page.getByRole("dialog", { name: "Rotate the signing secret?" }).waitFor();
      await dashboard.check("webhook-rotate-confirm");
      await page.getByRole("button", { name: "Keep it" }).click();
      expect((await endpoints()).find((e) => e.id === before.id).previousSecretExpiresAt).toBeNull();

      await page.getByRole("button", { name: "Rotate secret" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
      await page.getByText("The previous secret keeps working for 24 hours").waitFor();
      const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await dashboard.check("webhook-rotated");
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByText(/^Still works until/).waitFor();

      const sent = good.requests.length;
      await page.getByRole("button", { name: "Send test" }).click();
      await page.getByText("Test sent: your system answered 204").waitFor();
      const ping = good.requests[sent]!;
      expect(verify(ping, rotated)).toMatchObject({ type: "ping" });
      expect(verify(ping, secret)).toMatchObject({ type: "ping" });

      await page.getByRole("button", { name: "Delete this endpoint" }).click();
      await dashboard.check("webhook-delete-confirm");
      await page.getByRole("button", { name: "Keep it" }).click();
      expect((await endpoints()).map((e) => e.id)).toContain(before.id);
      await page.getByRole("button", { name: "Delete this endpoint" }).click();
      await page.getByRole("button", { name: "Delete endpoint" }).click();
      await page.getByRole("heading", { name: "Webhooks", exact: true }).waitFor();
      expect((await endpoints()).map((e) => e.id)).not.toContain(before.id);
      // The list read again without it; the other endpoint stays.
      await page.getByRole("link", { name: url }).waitFor({ state: "detached" });
      await page.getByRole("link", { name: `http://127.0.0.1:${flaky.port}/events` }).waitFor();
      await dashboard.check("webhooks-after-delete");
    },
    SLOW,
  );
});

describe.skipIf(SKIP_BROWSER)("a production-like server: internal addresses and email", () => {
  let served: DashboardServer;
  let dashboard: DashboardBrowser;
  let page: Page;

  beforeAll(async () => {
    served = await startDashboardServer("Linen Prod", "linen-prod.example");
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
    await dashboard.signIn();
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
    await served?.close();
  });

  const admin = () => adminClient(served.t, served.shop.org.key);

  test(
    "an endpoint at an internal address is refused with the API's message beside the URL field, and nothing is stored",
    async () => {
      await openSettings(dashboard, "Webhooks", "Webhooks");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByLabel("URL").fill("https://169.254.169.254/latest/meta-data");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByText("points to an internal address (169.254.169.254)").waitFor();
      dashboard.expectRejected(422, "/v1/admin/webhook-endpoints");
      expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
      await dashboard.check("webhooks-internal-refused");
      expect((await admin().get("/v1/admin/webhook-endpoints")).body.data).toEqual([]);
      await page.keyboard.press("Escape");
    },
    SLOW,
  );

  test(
    "Home warns that email is not configured and links to Settings → Email, which says the operator must set SMTP_URL and MAIL_FROM",
    async () => {
      await dashboard.nav("Home").click();
      await page.getByText("No email is sent").waitFor();
      await dashboard.check("home-email-warning");
      await page.getByRole("link", { name: "Email settings" }).click();
      await page.getByRole("heading", { name: "Email is not configured" }).waitFor();
      await page.getByText(/must set SMTP_URL .* and MAIL_FROM/).waitFor();
      await dashboard.check("email-not-configured");
    },
    SLOW,
  );

  test(
    "sender name, reply-to and order page URL are saved and read back through the API; a URL with a query is refused beside its field",
    async () => {
      await openSettings(dashboard, "Email", "Email");
      await page.getByLabel("Sender name").fill("Linen & Co.");
      await page.getByLabel("Reply-to address").fill("replies@linen.example");
      await page.getByLabel("Order page URL").fill("https://linen.example/order?from=email");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Enter an https:// address with no ? or # part").waitFor();
      dashboard.expectRejected(400, "/v1/admin/store");
      expect(await page.getByLabel("Order page URL").getAttribute("aria-invalid")).toBe("true");
      expect((await admin().get("/v1/admin/store")).body.data.emailSenderName).toBeNull();
      await dashboard.check("email-settings-refused");

      await page.getByLabel("Order page URL").fill("https://linen.example/order");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      expect((await admin().get("/v1/admin/store")).body.data).toMatchObject({
        emailSenderName: "Linen & Co.",
        emailReplyTo: "replies@linen.example",
        orderPageUrl: "https://linen.example/order",
      });
      await dashboard.check("email-settings-saved");
    },
    SLOW,
  );

  test(
    "an email is previewed in Portuguese: its subject, its plain text, and its HTML in a sandboxed frame the page's CSP allows",
    async () => {
      await openSettings(dashboard, "Email", "Email");
      await page.getByRole("button", { name: /^Order shipped/ }).click();
      await page.getByLabel("Language").selectOption("pt");
      await page.getByText(/^A encomenda n\.º \d+ foi enviada$/).waitFor();
      await page
        .getByRole("region", { name: "As plain text" })
        .getByText(/foi enviada/)
        .first()
        .waitFor();
      expect(await page.getByTitle("Order shipped, HTML").getAttribute("sandbox")).toBe("");
      await page
        .frameLocator('iframe[title="Order shipped, HTML"]')
        .getByText(/foi enviada/)
        .first()
        .waitFor();
      await dashboard.check("email-preview-pt");
    },
    SLOW,
  );
});
