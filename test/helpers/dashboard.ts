import { expect } from "bun:test";
import type { Server } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TestApp } from "./app.ts";
import { artifactPath, launchChromium } from "./browser.ts";
import { listeningShop, type Shop } from "./shop.ts";

// The dashboard as a merchant meets it: a listening server on the platform host (BASE_URL is the
// address the browser uses, so same-origin writes carry the Origin the API expects), a shop whose
// owner signs in, and one Chromium page watched for console errors and requests to other origins.

export const DASHBOARD_PASSWORD = "correct horse battery";
/** Chromium logs every 4xx it loads; these 401s (the session probe before sign-in, a wrong password) are answers the page handles. */
const EXPECTED_401 = new Set(["/api/auth/session", "/api/auth/sign-in/email"]);

export interface DashboardServer {
  t: TestApp;
  server: Server<unknown>;
  /** The platform origin the browser uses. */
  base: string;
  host: string;
  shop: Shop;
  owner: string;
  close(): Promise<void>;
}

/** A server with one shop (`makeShop`) whose owner has a dashboard account; `env` adds settings (e.g. a fake provider's base URL). */
export async function startDashboardServer(
  name: string,
  shopHost: string,
  env: Record<string, string> = {},
): Promise<DashboardServer> {
  const served = await listeningShop(name, shopHost, {
    password: DASHBOARD_PASSWORD,
    env: {
      NODE_ENV: "production",
      PLATFORM_DOMAIN: "shops.example",
      INTEGRATION_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      ALLOW_SIGNUP: "true",
      ...env,
    },
  });
  return { ...served, host: new URL(served.base).host };
}

export interface DashboardBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and requests to other origins seen so far. */
  problems: string[];
  /** The page as it is now: no problem so far, no serious or critical axe violation, and a screenshot `dashboard-<name>.png`. */
  check(name: string): Promise<void>;
  /** Chromium logs every 4xx it loads as a console error: takes the one a test provoked (status, path) off the problems. */
  expectRejected(status: number, path: string): void;
  /** A link of the main navigation. */
  nav(name: string): ReturnType<Page["getByRole"]>;
  /** Signs in as the shop's owner and waits for Home. */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

/** `served`: where the dashboard is (a `startDashboardServer`, or a spawned binary) and its owner's email. */
export async function openDashboard(
  served: Pick<DashboardServer, "base" | "host" | "owner">,
): Promise<DashboardBrowser> {
  const axeSource = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const { pathname } = new URL(message.location().url || served.base);
    if (message.text().includes("status of 401") && EXPECTED_401.has(pathname)) return;
    problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.protocol !== "blob:" && url.host !== served.host)
      problems.push(`request to another origin: ${request.url()}`);
  });
  return {
    browser,
    context,
    page,
    problems,
    async check(name) {
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
    },
    expectRejected(status, path) {
      const index = problems.findIndex(
        (problem) => problem.includes(`status of ${status}`) && problem.endsWith(`${path})`),
      );
      expect(index).toBeGreaterThanOrEqual(0);
      problems.splice(index, 1);
    },
    nav: (name) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }),
    async signIn() {
      await page.goto(`${served.base}/dashboard`);
      await page.getByLabel("Email").fill(served.owner);
      await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Home" }).waitFor();
    },
    async close() {
      await browser.close();
    },
  };
}
