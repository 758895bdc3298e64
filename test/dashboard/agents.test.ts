import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
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

let served: DashboardServer;
let merchant: Merchant;
let dashboard: DashboardBrowser;
let page: Page;

/** A `/v1` call of the agent to the listening server, with a fresh token for the API's origin. */
async function agentCall(agent: TestAgent, path: string): Promise<number> {
  const token = await agent.jwt(served.base);
  return (await fetch(`${served.base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

beforeAll(async () => {
  served = await startDashboardServer("Agents Shop", "agents-shop.example");
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
});
