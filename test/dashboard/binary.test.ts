import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skipBrowserTests } from "../helpers/browser.ts";
import { DASHBOARD_PASSWORD, openDashboard } from "../helpers/dashboard.ts";
import { type SpawnedServer, spawnServer } from "../helpers/server-process.ts";

// The compiled executable carries the dashboard: `bun run build`, the binary copied alone into an
// empty folder (no node_modules, no sources beside it), then its page and assets fetched over HTTP.

const ROOT = join(import.meta.dir, "..", "..");
const BUILD_TIMEOUT = 120_000;
const SKIP_BROWSER = skipBrowserTests("binary.test.ts");

let folder: string;
let server: SpawnedServer;

beforeAll(async () => {
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  folder = mkdtempSync(join(tmpdir(), "commerce-binary-"));
  copyFileSync(join(ROOT, "dist", "commerce"), join(folder, "commerce"));
  server = await spawnServer(
    {
      DATA_DIR: join(folder, "data"),
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      PATH: process.env.PATH,
    },
    "pipe",
    { command: [join(folder, "commerce")], cwd: folder },
  );
}, BUILD_TIMEOUT);
afterAll(() => {
  server?.child.kill();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test(
  "the compiled binary, alone in a folder, serves the dashboard's page and its script and styles from inside itself",
  async () => {
    expect(readdirSync(folder).sort()).toEqual(["commerce", "data"]);
    const page = await fetch(`${server.url}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((path) => path.split(".").at(-1)).sort()).toEqual(["css", "js"]);
    for (const path of assets) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const body = await response.text();
      // The dashboard's own code, with React's production build (the development one carries its warnings).
      if (path.endsWith(".js")) {
        expect(body).toContain("Sign in");
        expect(body).not.toContain("Warning: ");
      }
      expect(body.length).toBeGreaterThan(1000);
    }
  },
  BUILD_TIMEOUT,
);

test(
  "the compiled binary, alone in a folder, serves the API viewer and answers MCP, both loaded on their first request",
  async () => {
    const html = await (await fetch(`${server.url}/v1/docs`)).text();
    const viewerPath = /src="(\/v1\/docs\/scalar\.[a-z0-9]+\.js)"/.exec(html)?.[1];
    expect(viewerPath).toBeDefined();
    const viewer = await fetch(`${server.url}${viewerPath}`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const pinned = Bun.file(join(ROOT, "node_modules/@scalar/api-reference/dist/browser/standalone.js"));
    expect(await viewer.text()).toBe(await pinned.text());

    // The demo store (on by default) answers its Host; the first request loads the MCP SDK.
    const mcp = (id: number, method: string, params: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          host: "demo.localhost",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      });
    const initialize = await mcp(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "binary-test", version: "1.0.0" },
    });
    expect(initialize.status).toBe(200);
    expect(((await initialize.json()) as any).result.serverInfo.name).toBe("Commerce API");
    const list = await mcp(2, "tools/list", {});
    expect(list.status).toBe(200);
    const names = ((await list.json()) as any).result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain("listProducts");
  },
  BUILD_TIMEOUT,
);

test.skipIf(SKIP_BROWSER)(
  "in Chromium, the compiled binary's dashboard loads its page and every script it imports, and signs its owner in",
  async () => {
    // The address BASE_URL defaults to, so that the page's writes carry the Origin the API expects.
    const base = `http://localhost:${server.port}`;
    const owner = "owner@binary-shop.example";
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: owner, password: DASHBOARD_PASSWORD }),
    });
    expect(signUp.status).toBe(201);
    const cookie = signUp.headers.get("set-cookie")!.split(";")[0]!;
    const org = await fetch(`${base}/api/auth/organization/create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ name: "Binary Shop" }),
    });
    expect(org.status).toBe(201);
    const dashboard = await openDashboard({ base, host: `localhost:${server.port}`, owner });
    try {
      await dashboard.page.goto(`${base}/dashboard`);
      await dashboard.page.getByRole("heading", { name: "Sign in" }).waitFor();
      await dashboard.check("binary-sign-in");
      await dashboard.signIn();
      await dashboard.check("binary-home");
    } finally {
      await dashboard.close();
    }
  },
  BUILD_TIMEOUT,
);
