import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Server } from "bun";
import type { Browser } from "playwright-core";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { artifactPath, launchChromium, skipBrowserTests } from "../helpers/browser.ts";

// The API reference at /v1/docs, opened in a real headless Chromium (Debian's `chromium` through
// playwright-core) with every request to another origin refused: the viewer comes from the service
// itself and lists the operations. A screenshot is kept in test/artifacts/docs-page.png.

const SCREENSHOT = artifactPath("docs-page.png");

const SKIP_BROWSER = skipBrowserTests("docs-page.test.ts");

const SLOW = 60_000;

let t: TestApp;
let server: Server<unknown>;
let base: string;

beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base } });
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

/** The scripts the page loads, in order. */
async function pageScripts(): Promise<string[]> {
  const html = await (await fetch(`${base}/v1/docs`)).text();
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
}

describe("the API reference page over HTTP", () => {
  test("the page allows scripts of this origin only, no inline script, and says nosniff and no referrer", async () => {
    const response = await fetch(`${base}/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy")!;
    const directives = new Map(
      csp.split(";").map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("connect-src")).toEqual(["'self'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/https?:/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await response.text();
    // Every script element loads a file; none has a body to run.
    expect(html.match(/<script\b/g)?.length).toBe(2);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('<div id="app" data-url="/v1/openapi.json"></div>');
  });

  test("the viewer is served by the service from the pinned package, as an immutable script", async () => {
    const [viewerPath, startPath] = await pageScripts();
    expect(viewerPath).toMatch(/^\/v1\/docs\/scalar\.[a-z0-9]+\.js$/);
    const response = await fetch(`${base}${viewerPath}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const pinned = await Bun.file(
      join(import.meta.dir, "../../node_modules/@scalar/api-reference/dist/browser/standalone.js"),
    ).text();
    expect(await response.text()).toBe(pinned);

    const start = await (await fetch(`${base}${startPath}`)).text();
    expect(start).toContain("url: root.dataset.url");
    expect(start).toContain('"withDefaultFonts":false');
    expect(start).toContain('"agent":{"disabled":true}');
  });
});

describe.skipIf(SKIP_BROWSER)("the API reference page in headless Chromium, offline", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  });

  test(
    "lists the operations with no request beyond the service, no failed request and no CSP violation",
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const served: string[] = [];
      // Anything not addressed to the service is refused and recorded: the page must need none of it.
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(`${base}/`)) {
          served.push(new URL(url).pathname);
          return route.continue();
        }
        elsewhere.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      const violations: string[] = [];
      const errors: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      const failed: string[] = [];
      page.on("response", (answer) => {
        if (answer.status() >= 400) failed.push(`${answer.status()} ${answer.url()}`);
      });

      const response = await page.goto(`${base}/v1/docs`);
      expect(response?.status()).toBe(200);
      const visible = (text: string, timeout = 5_000) =>
        page.getByText(text, { exact: true }).first().waitFor({ state: "visible", timeout });
      // The first tag is open: its operations' summaries, as the viewer renders them from the document.
      await visible("Health check", 20_000);
      await visible("The resolved caller");
      // Other tags open from the sidebar.
      const sidebar = page.locator("aside, nav").first();
      for (const [tag, summaries] of [
        ["Catalog", ["List active products", "Get an active product by id or slug"]],
        ["Carts", ["Create a cart", "Add an item (the same variant merges)", "Place the order"]],
      ] as const) {
        await sidebar.getByText(tag, { exact: true }).first().click();
        for (const summary of summaries) await visible(summary);
      }

      await page.screenshot({ path: SCREENSHOT });
      await context.close();

      expect(elsewhere).toEqual([]);
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
      expect(failed).toEqual([]);
      const [viewerPath, startPath] = await pageScripts();
      expect(served).toEqual(expect.arrayContaining(["/v1/docs", viewerPath, startPath, "/v1/openapi.json"]));
      expect(existsSync(SCREENSHOT)).toBe(true);
    },
    SLOW,
  );
});
