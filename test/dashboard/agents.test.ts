import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { acpClient } from "../acp/helpers.ts";
import { activeAgent, type Merchant, type TestAgent, TestHost } from "../agents/helpers.ts";
import { cookieFrom, jsonBody } from "../helpers/app.ts";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  DASHBOARD_PASSWORD,
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { connectedClient, mcpCall, type OAuthWorld } from "../oauth/helpers.ts";

// Settings → Agents, driven through the dashboard's UI only (docs/dashboard.md). The agent is
// registered and approved through the real Agent Auth flow, and calls the listening server with its
// own signed tokens, before and after it is revoked from the page.

const SKIP_BROWSER = skipBrowserTests("agents.test.ts");
const SLOW = 60_000;
const SHOP_HOST = "agents-shop.example";

let served: DashboardServer;
let merchant: Merchant;
let dashboard: DashboardBrowser;
let page: Page;

/** A `/v1` call of the agent to the listening server, with a fresh token for the API's origin. */
async function agentCall(agent: TestAgent, path: string): Promise<number> {
  const token = await agent.jwt(served.base);
  return (await fetch(`${served.base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

/** What the shop's ACP endpoint answers a platform with `token`: 404 `not_found` for an unknown session once let in. */
async function acpRead(token: string): Promise<[number, string]> {
  const answer = await acpClient(served.t, SHOP_HOST, token)("GET", "/acp/checkout_sessions/chk_x");
  return [answer.status, answer.body?.code];
}

const LET_IN: [number, string] = [404, "not_found"];

beforeAll(async () => {
  served = await startDashboardServer("Agents Shop", SHOP_HOST);
  const { t, shop } = served;
  // The approval needs a password checked within five minutes: the owner signs in through the API.
  const signedIn = await t.request(
    "/api/auth/sign-in/email",
    jsonBody({ email: served.owner, password: DASHBOARD_PASSWORD }),
  );
  expect(signedIn.status).toBe(200);
  const cookie = cookieFrom(signedIn);
  const userId = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  merchant = { cookie, userId, orgId: shop.org.id, apiKey: shop.org.key };
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

describe.skipIf(SKIP_BROWSER)("dashboard Settings → Agents", () => {
  test(
    "with no agent registered, the page says so and how agents ask for access",
    async () => {
      await dashboard.nav("Settings").click();
      await page.getByRole("link", { name: "Agents", exact: true }).click();
      await page.getByRole("heading", { name: "Agents" }).waitFor();
      await page.getByText("No agent is registered for this store.").waitFor();
      await dashboard.check("agents-empty");
    },
    SLOW,
  );

  test(
    "an approved agent is listed under its host with its grants; Revoke asks first, and the agent's next call is refused",
    async () => {
      const { t } = served;
      const host = await TestHost.create(t, `${served.base}/api/auth`);
      const agent = await activeAgent(
        t,
        merchant,
        { name: "Stock checker", host_name: "Warehouse laptop" },
        host,
      );
      expect(await agentCall(agent, "/v1/products")).toBe(200);

      await page.reload();
      await page.getByRole("heading", { name: /Warehouse laptop/ }).waitFor();
      const row = page.getByRole("row", { name: /Stock checker/ });
      await expect(row.getByRole("cell", { name: "active", exact: true }).count()).resolves.toBe(1);
      await row.getByText("List active products (active)").waitFor();
      await dashboard.check("agents");

      await row.getByRole("button", { name: "Revoke Stock checker" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Revoke Stock checker?" });
      await confirm.getByRole("button", { name: "Keep it" }).click();
      expect(await agentCall(agent, "/v1/products")).toBe(200);

      await row.getByRole("button", { name: "Revoke Stock checker" }).click();
      await confirm.getByRole("button", { name: "Revoke" }).click();
      await row.getByRole("cell", { name: "revoked", exact: true }).waitFor();
      expect(await row.getByRole("button", { name: "Revoke Stock checker" }).count()).toBe(0);
      await row.getByText("List active products (revoked)").waitFor();
      await dashboard.check("agents-revoked");

      expect(await agentCall(agent, "/v1/products")).toBe(401);
    },
    SLOW,
  );

  test(
    "an app connected with OAuth is listed as one, with the grants ticked on its consent; Revoke ends its token",
    async () => {
      // The listening dashboard server is the authorization server too (BASE_URL is its address).
      const world = {
        t: served.t,
        base: served.base,
        shop: served.shop,
        ownerEmail: served.owner,
      } as OAuthWorld;
      const { tokens } = await connectedClient(world, ["listProducts"]);
      expect((await mcpCall(world, tokens.access_token, "tools/list")).status).toBe(200);

      await page.reload();
      await page.getByRole("heading", { name: /Test client.*app connected with OAuth/ }).waitFor();
      const row = page.getByRole("row", { name: /Test client/ });
      await row.getByText("List active products (active)").waitFor();
      await dashboard.check("agents-oauth");

      await row.getByRole("button", { name: "Revoke Test client" }).click();
      await page
        .getByRole("alertdialog", { name: "Revoke Test client?" })
        .getByRole("button", { name: "Revoke" })
        .click();
      await row.getByRole("cell", { name: "revoked", exact: true }).waitFor();
      expect((await mcpCall(world, tokens.access_token, "tools/list")).status).toBe(401);
    },
    SLOW,
  );

  test(
    "an ACP platform added on the page gets a token and signing secret shown once; the token checks out until replaced, and the platform's next call after removal is refused",
    async () => {
      const platforms = async () =>
        (await served.shop.admin.get("/v1/admin/acp-platforms")).body.data as any[];
      await page.reload();
      const section = page.getByRole("region", { name: "Agent platforms (ACP)" });
      await section.getByText("No agent platform can check out in your store yet.").waitFor();
      await dashboard.check("agents-acp-empty");

      // The server runs as in production: http is refused beside the field, and nothing is added.
      await section.getByRole("button", { name: "Add platform" }).click();
      const add = page.getByRole("dialog", { name: "Add platform" });
      await add.getByLabel("Name").fill("ChatGPT");
      await add.getByLabel("Order webhook URL").fill("http://localhost:9/acp");
      await add.getByRole("button", { name: "Add platform" }).click();
      await add.getByText("must use https").waitFor();
      expect(await add.getByLabel("Order webhook URL").getAttribute("aria-invalid")).toBe("true");
      dashboard.expectRejected(422, "/v1/admin/acp-platforms");
      await dashboard.check("agents-acp-refused");
      expect(await platforms()).toEqual([]);

      // A public address literal: nothing is sent to it, as no order is placed.
      const webhookUrl = "https://93.184.215.14/acp/order_events";
      await add.getByLabel("Order webhook URL").fill(webhookUrl);
      await add.getByRole("button", { name: "Add platform" }).click();
      const added = page.getByRole("dialog", { name: "Platform added" });
      await added.getByText("they will not be shown again").waitFor();
      const token = await added.getByRole("textbox", { name: "Bearer token" }).inputValue();
      const secret = await added.getByRole("textbox", { name: "Signing secret" }).inputValue();
      expect(token).toMatch(/^acp_[A-Za-z0-9]{40}$/);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await added.getByRole("button", { name: "Copy bearer token" }).waitFor();
      await added.getByRole("button", { name: "Copy signing secret" }).waitFor();
      await dashboard.check("agents-acp-added");
      await added.getByRole("button", { name: "Done" }).click();

      const row = section.getByRole("row", { name: /ChatGPT/ });
      await row.getByText(`…${token.slice(-4)}`).waitFor();
      await row.getByText(webhookUrl).waitFor();
      expect(await page.content()).not.toContain(token);
      expect(await page.content()).not.toContain(secret);
      expect(await acpRead(token)).toEqual(LET_IN);

      await row.getByRole("button", { name: "Edit ChatGPT" }).click();
      const edit = page.getByRole("dialog", { name: "Edit ChatGPT" });
      await edit.getByLabel("Name").fill("ChatGPT (live)");
      const moved = "https://93.184.215.14/acp/v2/order_events";
      await edit.getByLabel("Order webhook URL").fill(moved);
      await edit.getByRole("button", { name: "Save" }).click();
      await row.getByText(moved).waitFor();
      await row.getByText("ChatGPT (live)").waitFor();
      expect(await platforms()).toMatchObject([{ name: "ChatGPT (live)", webhookUrl: moved }]);
      await dashboard.check("agents-acp");

      await row.getByRole("button", { name: "Edit ChatGPT (live)" }).click();
      await page
        .getByRole("dialog", { name: "Edit ChatGPT (live)" })
        .getByLabel("Order webhook URL")
        .fill("");
      await page.getByRole("button", { name: "Save" }).click();
      await row.getByText("No order webhooks").waitFor();
      expect(await platforms()).toMatchObject([{ name: "ChatGPT (live)", webhookUrl: null }]);

      await row.getByRole("button", { name: "Replace token of ChatGPT (live)" }).click();
      const replace = page.getByRole("dialog", { name: "Replace the token of ChatGPT (live)?" });
      await replace.getByText("The current one is refused at once").waitFor();
      await dashboard.check("agents-acp-replace-confirm");
      await replace.getByRole("button", { name: "Keep it" }).click();
      expect(await acpRead(token)).toEqual(LET_IN);

      await row.getByRole("button", { name: "Replace token of ChatGPT (live)" }).click();
      await replace.getByRole("button", { name: "Replace token" }).click();
      const replaced = page.getByRole("dialog", { name: "New token for ChatGPT (live)" });
      await replaced.getByText("it will not be shown again").waitFor();
      const newToken = await replaced.getByRole("textbox", { name: "Bearer token" }).inputValue();
      expect(newToken).toMatch(/^acp_[A-Za-z0-9]{40}$/);
      expect(newToken).not.toBe(token);
      await dashboard.check("agents-acp-replaced");
      await replaced.getByRole("button", { name: "Done" }).click();
      await row.getByText(`…${newToken.slice(-4)}`).waitFor();
      expect((await acpRead(token))[0]).toBe(401);
      expect(await acpRead(newToken)).toEqual(LET_IN);

      await row.getByRole("button", { name: "Delete ChatGPT (live)" }).click();
      const remove = page.getByRole("alertdialog", { name: "Delete ChatGPT (live)?" });
      await remove.getByText("Its next call to your store is refused").waitFor();
      await remove.getByRole("button", { name: "Keep it" }).click();
      expect(await acpRead(newToken)).toEqual(LET_IN);
      await row.getByRole("button", { name: "Delete ChatGPT (live)" }).click();
      await remove.getByRole("button", { name: "Delete platform" }).click();
      await section.getByText("No agent platform can check out in your store yet.").waitFor();
      expect(await platforms()).toEqual([]);
      expect((await acpRead(newToken))[0]).toBe(401);
    },
    SLOW,
  );
});
