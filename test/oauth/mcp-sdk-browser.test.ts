import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth, type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Server } from "bun";
import type { Browser, Page } from "playwright-core";
import { artifactPath, launchChromium, skipBrowserTests } from "../helpers/browser.ts";
import { type OAuthWorld, oauthWorld, PASSWORD } from "./helpers.ts";

// The official MCP SDK's client-side OAuth against this service, with a merchant in a real headless
// Chromium: the SDK starts from the 401 of /mcp, discovers, registers, and hands over the
// authorization URL; the merchant signs in on the consent page and allows two reads and one write
// with a limit; the browser lands on the client's loopback redirect URI; the SDK exchanges the code,
// lists exactly the granted tools, calls them, refreshes, and after the merchant revokes the app in
// the dashboard's API the token is a 401. Screenshot: test/artifacts/oauth-consent.png (phone size).

const SKIP_BROWSER = skipBrowserTests("mcp-sdk-browser.test.ts");
const SLOW = 60_000;
const GRANTED = ["getProduct", "listProducts", "addCartItem"];

let w: OAuthWorld;
let callback: Server<unknown>;
let codes: { code: string | null; state: string | null; iss: string | null }[];
let browser: Browser;

/** An SDK client provider that keeps everything in memory, as a desktop client would on disk. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;

  constructor(readonly redirect: string) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "sdk-state-1";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  w = await oauthWorld("SDK Shop", "sdk-shop.example");
  codes = [];
  callback = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response(null, { status: 404 }); // the browser's favicon
      codes.push({
        code: url.searchParams.get("code"),
        state: url.searchParams.get("state"),
        iss: url.searchParams.get("iss"),
      });
      return new Response("<!doctype html><title>Done</title><p>You can close this window.</p>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  if (!SKIP_BROWSER) browser = await launchChromium();
}, SLOW);
afterAll(async () => {
  await browser?.close();
  await callback.stop(true);
  await w.close();
});

/** The merchant's part, in the browser: sign in, tick two reads and one write with a limit, allow. */
async function merchantAllows(page: Page, authorizationUrl: URL) {
  await page.goto(authorizationUrl.href);
  await expect(page.getByRole("heading", { name: "Sign in" }).count()).resolves.toBe(1);
  await page.getByLabel("Email").fill(w.ownerEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "SDK test client wants to use your shop" }).waitFor();
  // Reads come ticked: untick everything, then tick exactly what this merchant allows.
  for (const box of await page.locator('input[name="capability"]').all()) await box.uncheck();
  for (const name of GRANTED) await page.locator(`input[name="capability"][value="${name}"]`).check();
  await page.locator('input[name="max:addCartItem:quantity"]').fill("2");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
  await page.screenshot({ path: artifactPath("oauth-consent.png"), fullPage: false });
  const axe = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
  await page.evaluate(axe);
  const serious = (await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => v.id);
  })) as string[];
  expect(serious).toEqual([]);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.getByText("You can close this window.").waitFor();
}

const connect = async (provider: MemoryProvider) => {
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${w.base}/mcp`), { authProvider: provider }),
  );
  return client;
};

describe.skipIf(SKIP_BROWSER)("the MCP SDK's OAuth client, with a merchant in Chromium", () => {
  test(
    "discovers from the 401, registers, is approved, lists and calls exactly the granted tools, refreshes, and is refused once revoked",
    async () => {
      const provider = new MemoryProvider(`http://127.0.0.1:${callback.port}/callback`);
      // 1. Without a token, connecting fails with the SDK's UnauthorizedError once it has discovered
      //    and registered, leaving the authorization URL for the user.
      const transport = new StreamableHTTPClientTransport(new URL(`${w.base}/mcp`), {
        authProvider: provider,
      });
      const first = new Client({ name: "sdk-test", version: "1.0.0" });
      await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.info?.client_id).toStartWith("oc_");
      const url = provider.authorizationUrl!;
      expect(url.origin + url.pathname).toBe(`${w.base}/oauth/authorize`);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("resource")).toBe(`${w.base}/mcp`);

      // 2. The merchant, in the browser.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const foreign: string[] = [];
      page.on("request", (request) => {
        const host = new URL(request.url()).host;
        if (host !== new URL(w.base).host && host !== `127.0.0.1:${callback.port}`)
          foreign.push(request.url());
      });
      await merchantAllows(page, url);
      await context.close();
      expect(foreign).toEqual([]);
      expect(codes).toHaveLength(1);
      expect(codes[0]).toMatchObject({ state: "sdk-state-1", iss: w.base });

      // 3. The SDK exchanges the code (checking iss) and connects with the token.
      await transport.finishAuth(codes[0]!.code!);
      expect(provider.saved?.access_token).toStartWith("mcp_at_");
      const client = await connect(provider);
      const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(tools).toEqual([...GRANTED].sort());
      const listed = await client.callTool({ name: "listProducts", arguments: { limit: 5 } });
      expect(listed.isError).toBeUndefined();
      const products = (listed.structuredContent as { data: { id: string }[] }).data;
      expect(products.length).toBeGreaterThan(0);
      const product = await client.callTool({ name: "getProduct", arguments: { id: products[0]!.id } });
      expect(product.isError).toBeUndefined();
      // The write is granted with its limit: 3 items is refused before anything happens.
      const tooMany = await client.callTool({
        name: "addCartItem",
        arguments: { id: "cart_doesnotexist0000", quantity: 3 },
      });
      expect(tooMany.isError).toBe(true);
      expect(JSON.stringify(tooMany.structuredContent)).toContain("constraint_violated");
      const refused = await client.callTool({ name: "adminListOrders", arguments: {} });
      expect(refused.isError).toBe(true);
      await client.close();

      // 4. Refresh: the SDK's auth() with a refresh token rotates both tokens.
      const before = provider.saved!;
      expect(await auth(provider, { serverUrl: `${w.base}/mcp` })).toBe("AUTHORIZED");
      expect(provider.saved!.access_token).not.toBe(before.access_token);
      expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
      const again = await connect(provider);
      expect((await again.listTools()).tools).toHaveLength(GRANTED.length);
      await again.close();

      // 5. The merchant revokes the app from the dashboard's Agents list: the token is a 401.
      const agents = await w.t.json("/v1/admin/agents", { headers: { "x-api-key": w.shop.org.key } });
      const host = agents.body.data.find((h: { name: string }) => h.name === "SDK test client");
      expect(host).toBeDefined();
      const revoked = await w.t.request(`/v1/admin/agents/${host.agents[0].id}/revoke`, {
        method: "POST",
        headers: { "x-api-key": w.shop.org.key },
      });
      expect(revoked.status).toBe(200);
      const after = await fetch(`${w.base}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${provider.saved!.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(after.status).toBe(401);
      // The SDK's own retry (a refresh) is refused too: the app's access is gone until a new consent.
      await expect(connect(provider)).rejects.toThrow(/revoked/);
    },
    SLOW,
  );
});
