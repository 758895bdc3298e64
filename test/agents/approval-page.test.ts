import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { addMember } from "../../src/auth/service.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { artifactPath, launchChromium, skipBrowserTests } from "../helpers/browser.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { relaxRegisterLimit, TestHost } from "./helpers.ts";

// The merchant approval page (AGENT_DEVICE_AUTH_PAGE), driven in a real headless Chromium (Debian's
// `chromium` through playwright-core): sign in, enter the code, approve some capabilities, deny, a
// forged CSRF token, framing. A phone-sized screenshot is kept in test/artifacts/approval-page.png.

const PAGE = "/device/capabilities";
const PASSWORD = "correct horse battery";
const OWNER = "owner@browser-shop.example";
const SCREENSHOT = artifactPath("approval-page.png");

const SKIP_BROWSER = skipBrowserTests("approval-page.test.ts");

// Password hashing (argon2id) and a browser make these slower than the 5 s default.
const SLOW = 30_000;

let t: TestApp;
let server: Server<unknown>;
let base: string;
let shop: Shop;
let ownerId: string;

/** Lifts the page's per-IP limits: every request of these tests comes from 127.0.0.1. */
function relaxPageLimits() {
  const limits = agentRuntime(t.app.ctx)!.limits;
  limits.pageGet = new RateLimiter(10_000, 60_000);
  limits.pageSignInIp = new RateLimiter(10_000, 60_000);
  limits.pageSignInEmail = new RateLimiter(10_000, 60_000);
  limits.pageDecision = new RateLimiter(10_000, 60_000);
}

beforeAll(async () => {
  // The app's BASE_URL is the address the browser uses: the Origin checks compare with it.
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base } });
  relaxRegisterLimit(t);
  relaxPageLimits();
  shop = await makeShop(t, "Browser Shop", "browser-shop.example");
  const cookie = await signUp(t, OWNER, PASSWORD);
  ownerId = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  addMember(t.app.ctx.platform, shop.org.id, ownerId, "owner");
}, SLOW);
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

const ALL = ["listProducts", "createCart", "addCartItem", "placeOrder", "adminGetOrder"];

/** A host (real Ed25519 keys) registers a delegated agent asking for `capabilities`: pending, with a code. */
async function pendingAgent(name = "Personal shopper", capabilities = ALL) {
  const host = await TestHost.create(t, `${base}/api/auth`);
  const registered = await host.register({
    name,
    host_name: "Ana's laptop",
    capabilities,
    binding_message: "Shopping for Ana",
    reason: "Buys what Ana asks for",
  });
  expect(registered.status).toBe(201);
  expect(registered.body.status).toBe("pending");
  const agent = registered.agent!;
  const status = async () => (await host.call("GET", `/agent/status?agent_id=${agent.id}`)).body;
  return { host, agent, approval: registered.body.approval, status };
}

const grantStatuses = (status: { agent_capability_grants: { capability: string; status: string }[] }) =>
  Object.fromEntries(status.agent_capability_grants.map((g) => [g.capability, g.status]));

describe("the approval page over HTTP (no browser needed)", () => {
  test(
    "no session: the sign-in form, with the no-framing and no-caching headers and a strict CSP",
    async () => {
      const response = await fetch(`${base}${PAGE}?code=ABCD-EFGH`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toContain("script-src");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]{20,}'/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await response.text();
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toContain('name="password"');
      expect(html).toContain('value="ABCD-EFGH"');
      expect(html).not.toContain("<script");
      // The style element carries the nonce of this response's CSP.
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      expect(html).toContain(`<style nonce="${nonce}">`);
    },
    SLOW,
  );

  test(
    "a sign-in or a decision from another origin, or with no Origin, is a 403 and changes nothing",
    async () => {
      const { approval, status } = await pendingAgent("Cross-site target");
      const cookie = await signUp(t, "cross-site@browser-shop.example", PASSWORD);
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      for (const origin of ["https://evil.example", undefined]) {
        const headers: Record<string, string> = {
          "content-type": "application/x-www-form-urlencoded",
          cookie,
          ...(origin ? { origin } : {}),
        };
        const signIn = await fetch(`${base}${PAGE}/sign-in`, {
          method: "POST",
          headers,
          body: form({ email: OWNER, password: PASSWORD }),
          redirect: "manual",
        });
        expect(signIn.status).toBe(403);
        expect(signIn.headers.get("set-cookie")).toBeNull();
        const decision = await fetch(`${base}${PAGE}/decision`, {
          method: "POST",
          headers,
          body: form({ approval_id: approval.approval_id, code: approval.user_code, action: "approve_all" }),
        });
        expect(decision.status).toBe(403);
      }
      expect((await status()).status).toBe("pending");
    },
    SLOW,
  );

  test(
    "a member without the owner or admin role gets a 403 page",
    async () => {
      const cookie = await signUp(t, "member@browser-shop.example", PASSWORD);
      const userId = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
      addMember(t.app.ctx.platform, shop.org.id, userId, "member");
      const { approval, status } = await pendingAgent("Members may not approve");
      const response = await fetch(`${base}${PAGE}?code=${approval.user_code}`, { headers: { cookie } });
      expect(response.status).toBe(403);
      expect(await response.text()).not.toContain(approval.approval_id);
      expect((await status()).status).toBe("pending");
    },
    SLOW,
  );

  test(
    "AGENT_DEVICE_AUTH_PAGE moves the page",
    async () => {
      const other = makeTestApp({ env: { AGENT_DEVICE_AUTH_PAGE: "/approve/agents" } });
      try {
        const moved = await other.request("/approve/agents");
        expect(moved.status).toBe(200);
        expect(await moved.text()).toContain('action="/approve/agents/sign-in"');
        expect((await other.request(PAGE)).status).toBe(404);
      } finally {
        other.cleanup();
      }
    },
    SLOW,
  );

  test(
    "the page's own GET limit answers 429 with Retry-After one request past 30 per minute",
    async () => {
      const other = makeTestApp();
      try {
        for (let i = 0; i < 30; i++) expect((await other.request(PAGE)).status).toBe(200);
        const refused = await other.request(PAGE);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(refused.headers.get("x-frame-options")).toBe("DENY");
      } finally {
        other.cleanup();
      }
    },
    SLOW,
  );
});

describe.skipIf(SKIP_BROWSER)("the approval page in headless Chromium", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    // A phone: 390 × 844 CSS pixels, touch, device pixel ratio 2.
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    page = await context.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  });

  /** Submits the page's form with one of its buttons; the answer of the navigation. */
  async function submit(p: Page, button: string) {
    const [response] = await Promise.all([
      p.waitForNavigation(),
      p.getByRole("button", { name: button }).click(),
    ]);
    return response!;
  }

  test(
    "sign in, enter the code, approve some capabilities: exactly those grants become active",
    async () => {
      const { agent, approval, status, host } = await pendingAgent();

      const first = await page.goto(`${base}${PAGE}`);
      expect(first!.status()).toBe(200);
      expect(await page.locator("h1").textContent()).toBe("Sign in");
      await page.getByLabel("Email").fill(OWNER);
      await page.getByLabel("Password").fill(PASSWORD);
      await submit(page, "Sign in");

      // Signed in: the code form. The code is typed as a person would: lower case, no dash.
      expect(await page.locator("h1").textContent()).toBe("Enter the agent's code");
      await page.getByLabel("Code").fill(approval.user_code.replace("-", "").toLowerCase());
      const view = await submit(page, "Continue");
      expect(view.status()).toBe(200);

      expect(await page.locator("h1").textContent()).toBe("Personal shopper asks for access");
      const text = (await page.locator("main").textContent()) ?? "";
      for (const expected of [
        approval.user_code,
        "Ana's laptop",
        "Shopping for Ana",
        "Buys what Ana asks for",
        agent.id,
      ]) {
        expect(text).toContain(expected);
      }
      for (const name of ALL)
        expect(await page.locator(`input[name=capability][value=${name}]`).count()).toBe(1);
      expect(await page.locator("li.cap.admin").count()).toBe(1); // adminGetOrder is highlighted
      expect(text).toContain("Admin · read");
      expect(await page.locator("select[name=organization_id] option").allTextContents()).toEqual([
        `Browser Shop (${shop.org.slug})`,
      ]);

      // Usable on a phone: nothing wider than the screen, text at 16 px, touch-sized buttons, the
      // stylesheet applied (its nonce matched the CSP).
      // (A string expression: the tests are type-checked without the DOM library.)
      const layout = await page.evaluate<{
        scrollWidth: number;
        innerWidth: number;
        fontSize: string;
        buttonHeight: number;
        buttonColor: string;
      }>(`({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      fontSize: getComputedStyle(document.body).fontSize,
      buttonHeight: document.querySelector("button").getBoundingClientRect().height,
      buttonColor: getComputedStyle(document.querySelector("button.primary")).backgroundColor,
    })`);
      expect(layout.innerWidth).toBe(390);
      expect(layout.scrollWidth).toBeLessThanOrEqual(390);
      expect(layout.fontSize).toBe("16px");
      expect(layout.buttonHeight).toBeGreaterThanOrEqual(44);
      expect(layout.buttonColor).toBe("rgb(29, 91, 208)");
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      // The same request open in a second tab, decided in the first one meanwhile.
      const secondTab = await context.newPage();
      await secondTab.goto(page.url());

      await page.locator("input[name=capability][value=listProducts]").check();
      await page.locator("input[name=capability][value=addCartItem]").check();
      const decided = await submit(page, "Approve selected");
      expect(decided.status()).toBe(200);
      expect(await page.locator("h1").textContent()).toBe("Approved");
      expect((await page.locator("main").textContent()) ?? "").toContain(
        "Approved 2 capabilities for Personal shopper",
      );

      const after = await status();
      expect(after.status).toBe("active");
      expect(after.organization_id).toBe(shop.org.id);
      expect(after.user_id).toBe(ownerId);
      expect(grantStatuses(after)).toEqual({
        listProducts: "active",
        addCartItem: "active",
        createCart: "denied",
        placeOrder: "denied",
        adminGetOrder: "denied",
      });
      const listProducts = after.agent_capability_grants.find((g: any) => g.capability === "listProducts");
      expect(listProducts.granted_by).toBe(ownerId);
      // 30 days, the default duration.
      expect(Date.parse(listProducts.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
      expect((await host.poll(approval.approval_id)).status).toBe(200);

      // The agent now works in the shop, for what was approved only.
      const call = async (path: string, init: RequestInit = {}) =>
        fetch(`${base}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${await agent.jwt(base)}`, "content-type": "application/json" },
        });
      expect((await call("/v1/products")).status).toBe(200);
      expect((await call("/v1/carts", { method: "POST", body: "{}" })).status).toBe(403);

      // The second tab's decision comes too late: 409, nothing changes.
      const again = await submit(secondTab, "Approve all 5");
      expect(again.status()).toBe(409);
      expect(await secondTab.locator("h1").textContent()).toBe("Already decided");
      await secondTab.close();
      expect(grantStatuses(await status()).createCart).toBe("denied");
      expect(cspViolations).toEqual([]);
    },
    SLOW,
  );

  test(
    "the code link with ?user_code= prefilled, then deny: the pending agent is rejected",
    async () => {
      const { approval, status, host } = await pendingAgent("Declined shopper");
      await page.goto(`${base}${PAGE}?user_code=${approval.user_code}`);
      expect(await page.locator("h1").textContent()).toBe("Declined shopper asks for access");
      await page.getByLabel("Note on what you deny").fill("Not now");
      const denied = await submit(page, "Deny");
      expect(denied.status()).toBe(200);
      expect(await page.locator("h1").textContent()).toBe("Denied");
      const after = await status();
      expect(after.status).toBe("rejected");
      expect(new Set(Object.values(grantStatuses(after)))).toEqual(new Set(["denied"]));
      expect(after.agent_capability_grants[0].reason).toBe("Not now");
      expect((await host.poll(approval.approval_id)).body.error).toBe("access_denied");
    },
    SLOW,
  );

  test(
    "a wrong CSRF token is a 403 and changes nothing",
    async () => {
      const { approval, status } = await pendingAgent("Forged form");
      await page.goto(`${base}${PAGE}?code=${approval.user_code}`);
      await page.locator("input[name=csrf]").evaluate((input: { value: string }) => {
        input.value = "0".repeat(64);
      });
      const refused = await submit(page, "Approve all 5");
      expect(refused.status()).toBe(403);
      expect(await page.locator("h1").textContent()).toBe("Not allowed");
      expect((await status()).status).toBe("pending");
      expect(new Set(Object.values(grantStatuses(await status())))).toEqual(new Set(["pending"]));

      // The token of another request (same session) does not fit either.
      const other = await pendingAgent("Other request");
      await page.goto(`${base}${PAGE}?code=${other.approval.user_code}`);
      const foreignToken = await page.locator("input[name=csrf]").inputValue();
      await page.goto(`${base}${PAGE}?code=${approval.user_code}`);
      await page.locator("input[name=csrf]").evaluate((input: { value: string }, token: string) => {
        input.value = token;
      }, foreignToken);
      expect((await submit(page, "Approve all 5")).status()).toBe(403);
      expect((await status()).status).toBe("pending");
    },
    SLOW,
  );

  test(
    "the page cannot be framed by another site",
    async () => {
      const { approval } = await pendingAgent("Framed");
      const framing = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch: () =>
          new Response(
            `<!doctype html><iframe id="f" src="${base}${PAGE}?code=${approval.user_code}"></iframe>`,
            {
              headers: { "content-type": "text/html" },
            },
          ),
      });
      try {
        const attacker = await context.newPage();
        const framed = attacker.waitForResponse((r) => r.url().startsWith(`${base}${PAGE}`));
        await attacker.goto(`http://127.0.0.1:${framing.port}/`);
        const response = await framed;
        expect(response.headers()["x-frame-options"]).toBe("DENY");
        expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
        await attacker.waitForTimeout(300);
        const frame = attacker.frames().find((f) => f !== attacker.mainFrame());
        // Chromium blocked the page: the frame holds an error document, not the request view.
        const inFrame = frame
          ? await frame
              .locator("input[name=csrf]")
              .count()
              .catch(() => 0)
          : 0;
        expect(inFrame).toBe(0);
        await attacker.close();
      } finally {
        await framing.stop(true);
      }
    },
    SLOW,
  );

  test(
    "a sign-in older than 5 minutes asks for the password again before any decision",
    async () => {
      const { approval, status } = await pendingAgent("Needs a fresh sign-in");
      await page.goto(`${base}${PAGE}?code=${approval.user_code}`);
      expect(await page.locator("h1").textContent()).toBe("Needs a fresh sign-in asks for access");
      // The password was checked 6 minutes ago.
      const stale = Date.now() - 360_000;
      t.app.ctx.platform.sqlite
        .query("UPDATE sessions SET authenticated_at = ? WHERE user_id = ?")
        .run(stale, ownerId);

      const refused = await submit(page, "Approve all 5");
      expect(refused.status()).toBe(401);
      expect(await page.locator("h1").textContent()).toBe("Confirm your password");
      expect(await page.getByLabel("Email").inputValue()).toBe(OWNER);
      expect((await status()).status).toBe("pending");

      await page.getByLabel("Password").fill("wrong password");
      expect((await submit(page, "Confirm password")).status()).toBe(401);
      await page.getByLabel("Password").fill(PASSWORD);
      await submit(page, "Confirm password");
      expect(await page.locator("h1").textContent()).toBe("Needs a fresh sign-in asks for access");
      const refreshed = t.app.ctx.platform.sqlite
        .query("SELECT MIN(authenticated_at) AS at FROM sessions WHERE user_id = ? AND authenticated_at > ?")
        .get(ownerId, stale) as { at: number };
      expect(Date.now() - refreshed.at).toBeLessThan(60_000);

      await submit(page, "Approve all 5");
      expect(await page.locator("h1").textContent()).toBe("Approved");
      expect((await status()).status).toBe("active");
    },
    SLOW,
  );

  test(
    "agent-supplied text is escaped; an unknown code gets one neutral message",
    async () => {
      const { approval } = await pendingAgent('<script>alert("x")</script><b>bold</b>');
      await page.goto(`${base}${PAGE}?code=${approval.user_code}`);
      expect(await page.locator("h1").textContent()).toBe(
        '<script>alert("x")</script><b>bold</b> asks for access',
      );
      expect(await page.locator("script").count()).toBe(0);
      expect(await page.locator("main b").count()).toBe(0);

      const miss = await page.goto(`${base}${PAGE}?code=ZZZZ-ZZZZ`);
      expect(miss!.status()).toBe(404);
      expect((await page.locator("main").textContent()) ?? "").toContain(
        "No pending request matches this code",
      );
    },
    SLOW,
  );
});
