import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Server } from "bun";
import { isAgentOperation } from "../../src/core/registry.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// The README's "Connect an MCP client" section, run as written: its JSON configuration drives an SDK
// Client, and its TypeScript block runs as a program against a listening server with a real API key.

const ROOT = join(import.meta.dir, "../..");
const README_URL = "http://localhost:3000";
const FENCE = "```";

function section(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Connect an MCP client\n");
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function codeBlock(text: string, language: string): string {
  const match = text.match(new RegExp(`${FENCE}${language}\\n([\\s\\S]*?)\\n${FENCE}`));
  if (!match) throw new Error(`no ${language} block in the README section`);
  return match[1]!;
}

let t: TestApp;
let shop: Shop;
let server: Server<unknown>;
let origin: string;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "README Shop", "readme-shop.example");
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

describe("README: Connect an MCP client", () => {
  test("the JSON configuration (Streamable HTTP, x-api-key header) connects an SDK Client that lists every tool", async () => {
    const config = JSON.parse(codeBlock(section(), "json"));
    const entry = config.mcpServers["my-store"];
    expect(entry.type).toBe("http");
    expect(entry.url).toBe(`${README_URL}/mcp`);
    expect(Object.keys(entry.headers)).toEqual(["x-api-key"]);

    const transport = new StreamableHTTPClientTransport(new URL(entry.url.replace(README_URL, origin)), {
      requestInit: { headers: { ...entry.headers, "x-api-key": shop.org.key } },
    });
    const client = new Client({ name: "readme-config", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      t.app.operations.filter(isAgentOperation).map((op) => op.operationId),
    );
    await client.close();
  });

  test("the TypeScript example runs as written with an API key: it lists the tools and calls listProducts", async () => {
    const code = codeBlock(section(), "ts");
    expect(code.split(README_URL)).toHaveLength(2); // the one URL to point at this server
    const child = Bun.spawn([process.execPath, "-e", code.replace(README_URL, origin)], {
      cwd: ROOT,
      env: { ...process.env, COMMERCE_API_KEY: shop.org.key },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);

    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]!.startsWith("tools: ")).toBe(true);
    const names = lines[0]!.slice("tools: ".length).split(", ");
    expect(names).toEqual(t.app.operations.filter(isAgentOperation).map((op) => op.operationId));

    expect(lines[1]!.startsWith("products: ")).toBe(true);
    const products = JSON.parse(lines[1]!.slice("products: ".length));
    const rest = await t.json("/v1/products?limit=5", { headers: { "x-api-key": shop.org.key } });
    expect(products).toEqual(rest.body);
    expect(products.data[0].id).toBe(shop.shirt.id);
  });
});
