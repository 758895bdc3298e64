import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { launchChromium, skipBrowserTests } from "./helpers/browser.ts";
import { type SpawnedServer, spawnServer } from "./helpers/server-process.ts";

// The README, read top to bottom by a new user, run as written. Its first `sh` block (the start) runs
// in the background as the user's first terminal; every other `sh` block runs, in order and
// unchanged, in one bash session with `set -euo pipefail` as the second terminal, so variables
// (API, KEY, ORG, …) carry from block to block and any failing command, a refused curl included,
// fails the run. Both run in a fresh folder that holds the repository's files but not its data.

const ROOT = resolve(import.meta.dir, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const FENCE = "```";

/** `sh` blocks that cannot run here, by how they begin, and why; every other block runs. */
const NOT_RUN: Record<string, string> = {
  "bun install && bun run test": "it runs the suite, this test included",
  "bun run build": "a slow compile (a 110 MB binary), then a second server in the foreground on port 3000",
  "docker build": "needs a Docker engine and root (test/docker.test.ts checks these commands)",
  "sudo mkdir -p /srv/commerce": "needs root and a Docker engine",
};

interface Block {
  /** The `##` or `###` heading the block is under. */
  section: string;
  text: string;
}

/** The README's `sh` blocks in order, each with its section; other fences (text, json, ts) are not scripts. */
function shellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  let section = "";
  let language: string | undefined; // of the fence we are in
  let lines: string[] = [];
  for (const line of readme.split("\n")) {
    if (line.startsWith(FENCE)) {
      if (language === undefined) {
        language = line.slice(FENCE.length);
        lines = [];
      } else {
        if (language === "sh") blocks.push({ section, text: lines.join("\n") });
        language = undefined;
      }
    } else if (language !== undefined) {
      lines.push(line);
    } else {
      section = /^#{2,3} (.+)$/.exec(line)?.[1] ?? section;
    }
  }
  return blocks;
}

/**
 * One bash process fed block after block on stdin; `set -euo pipefail`, so a failing command ends
 * the session and the block's run reports it. Returns each block's stdout.
 */
class Terminal {
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private readonly chunks: AsyncIterator<Uint8Array>;
  private buffered = "";
  private readonly decoder = new TextDecoder();
  readonly stderr: Promise<string>;

  constructor(cwd: string, env: Record<string, string>) {
    this.proc = Bun.spawn(["bash"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.chunks = this.proc.stdout[Symbol.asyncIterator]();
    this.stderr = new Response(this.proc.stderr).text();
    this.proc.stdin.write("set -euo pipefail\n");
  }

  async run(block: string, label: string): Promise<string> {
    const marker = `__block_done_${crypto.randomUUID()}__`;
    this.proc.stdin.write(`${block}\necho ${marker}\n`);
    this.proc.stdin.flush();
    while (!this.buffered.includes(`${marker}\n`)) {
      const { done, value } = await this.chunks.next();
      if (done) {
        throw new Error(
          `${label} failed (bash exited ${await this.proc.exited}):\n${block}\n--- stdout\n${this.buffered}\n--- stderr\n${await this.stderr}`,
        );
      }
      this.buffered += this.decoder.decode(value, { stream: true });
    }
    const end = this.buffered.indexOf(`${marker}\n`);
    const output = this.buffered.slice(0, end);
    this.buffered = this.buffered.slice(end + marker.length + 1);
    return output;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}

const blocks = shellBlocks(README);
const runsHere = (block: Block) => !Object.keys(NOT_RUN).some((start) => block.text.startsWith(start));

let work: string;
let server: SpawnedServer;
let terminal: Terminal;
/** What the start printed: the demo organization's id and its admin key. */
let demo: { orgId: string; key: string };
/** Each run block's stdout, by section. */
const outputs = new Map<string, string[]>();
const output = (section: string, index = 0) => outputs.get(section)?.[index] ?? "";
/** Variables of the session that the checks read, as they stood after each section's last block. */
const VARIABLES = ["KEY", "ORG", "ORDER", "DEMO"] as const;
type Variables = Record<(typeof VARIABLES)[number], string>;
const vars = new Map<string, Variables>();
const varsAfter = (section: string) => vars.get(section) ?? { KEY: "", ORG: "", ORDER: "", DEMO: "" };

beforeAll(async () => {
  // A checkout without data/: the start creates it, as on a user's first run.
  work = mkdtempSync(join(tmpdir(), "commerce-readme-"));
  for (const entry of readdirSync(ROOT)) {
    if (entry !== "data" && entry !== ".git") symlinkSync(join(ROOT, entry), join(work, entry));
  }
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: join(work, "data") };
  const [start] = blocks;
  expect(start?.section).toBe("Start");
  // Its own session (setsid), so that the whole pipeline (bun run, the server, tee) stops together.
  server = await spawnServer({ ...env, PORT: "0" }, "pipe", {
    command: ["setsid", "bash", "-euo", "pipefail", "-c", start!.text],
    cwd: work,
  });
  // The server is listening; `tee` may not have written the rest of the banner to start.log yet.
  // A reader sees the whole banner before going on: wait for its last line too.
  const log = join(work, "start.log");
  for (let waited = 0; !readFileSync(log, "utf8").includes("Dashboard sign-in:"); waited += 50) {
    if (waited > 10_000) throw new Error(`start.log has no demo sign-in line:\n${readFileSync(log, "utf8")}`);
    await Bun.sleep(50);
  }
  terminal = new Terminal(work, { ...env, PORT: server.port });
});
afterAll(async () => {
  await terminal?.close();
  if (server) {
    process.kill(-server.child.pid, "SIGTERM");
    await server.child.exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("README, run top to bottom as written", () => {
  test("every sh block but the start and a short list of reasoned exceptions runs in order in one bash session with set -euo pipefail", async () => {
    for (const start of Object.keys(NOT_RUN)) {
      expect({ start, blocks: blocks.filter((block) => block.text.startsWith(start)).length }).toEqual({
        start,
        blocks: 1,
      });
    }
    const runs = blocks.slice(1).filter(runsHere);
    expect(runs.length).toBeGreaterThan(10);
    // A refused request must stop the session, not hand an error body (or nothing) to jq.
    const curls = runs.flatMap((block) => block.text.match(/\bcurl (?:-\S+ )*/g) ?? []);
    expect(curls.length).toBeGreaterThan(30);
    expect(curls.filter((curl) => !/ -[a-zA-Z]*f[a-zA-Z]* /.test(curl))).toEqual([]);

    for (const [index, block] of runs.entries()) {
      const out = await terminal.run(block.text, `block ${index + 1} (under "${block.section}")`);
      outputs.set(block.section, [...(outputs.get(block.section) ?? []), out]);
      const values = await terminal.run(VARIABLES.map((name) => `echo "\${${name}-}"`).join("\n"), "reading");
      const split = values.split("\n");
      vars.set(block.section, Object.fromEntries(VARIABLES.map((name, i) => [name, split[i]!])) as Variables);
    }

    const printed = readFileSync(join(work, "start.log"), "utf8");
    const orgId = /Demo store "Demo Store" \((org_\w+)\)/.exec(printed)?.[1] ?? "";
    const key = /Demo admin API key \(shown only now, keep it\): (ck_\w+)/.exec(printed)?.[1] ?? "";
    expect(orgId).toMatch(/^org_/);
    expect(key).toMatch(/^ck_/);
    demo = { orgId, key };
    // The MCP Inspector block fetches Node 22 and the Inspector on a machine that has not run it yet.
  }, 120_000);

  test("Start and Calling the API: the key picked out of the start's output is the demo's admin key, and each kind of caller resolves to its organization and scopes", () => {
    const me = output("Calling the API")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(varsAfter("Calling it from a second terminal").KEY).toBe(demo.key);
    expect(me).toHaveLength(6);
    const [host, apiKey, user, org, session, storefrontKey] = me;
    expect(host).toEqual({ orgId: demo.orgId, scopes: ["storefront"], type: "host" });
    expect(apiKey).toEqual({ orgId: demo.orgId, scopes: ["admin", "storefront"], type: "api-key" });
    expect(user.email).toBe("me@example.com");
    // The dashboard's organization leaves the slug my-shop free for "Your own shop".
    expect(org.slug).toBe("corner-shop");
    expect(session).toEqual({
      orgId: org.id,
      scopes: ["admin", "storefront"],
      type: "session",
      userId: user.id,
    });
    expect(storefrontKey).toEqual({ orgId: org.id, scopes: ["storefront"], type: "api-key" });
  });

  test.skipIf(skipBrowserTests("test/readme.test.ts"))(
    "Dashboard: the README's address, with the sign-in the start printed, opens the demo store's Home",
    async () => {
      const address = /Open `(http:\/\/localhost:3000\/dashboard)`/.exec(README)?.[1] ?? "";
      expect(address).not.toBe("");
      const printed = readFileSync(join(work, "start.log"), "utf8");
      const [, email, password] = /Dashboard sign-in: (\S+) \/ (\S+)/.exec(printed) ?? [];
      expect(email).toBe("demo@example.com");
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(address.replace(":3000", `:${server.port}`));
        await page.getByLabel("Email").fill(email!);
        await page.getByLabel("Password").fill(password!);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("heading", { name: "Home" }).waitFor();
        expect(await page.getByLabel("Organization").locator("option:checked").textContent()).toBe(
          "Demo Store",
        );
      } finally {
        await browser.close();
      }
    },
  );

  test("Catalog: a linen search sorted by price, the new product readable by slug, and its stock adjusted by one", () => {
    const lines = output("Catalog").trim().split("\n");
    const found = lines.slice(0, 5).map((line) => JSON.parse(line));
    expect(found.every((product) => product.slug.includes("linen"))).toBe(true);
    const prices = found.map((product) => product.price.amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(Number(lines[5])).toBeGreaterThan(0); // products under Clothing and its subcategories
    expect(JSON.parse(lines[6]!)).toMatchObject({ name: "Demo Store", currency: "EUR" });
    expect(lines.at(-1)).toBe("9"); // onHand 10, adjusted by -1
  });

  test("A whole purchase: the demo order placed with the coupon is paid and fulfilled", async () => {
    const orderId = varsAfter("A whole purchase").ORDER;
    expect(orderId).toMatch(/^ord_/);
    expect(output("A whole purchase").trim().split("\n").slice(-3)).toEqual([
      '"pending"',
      '"paid"',
      '"completed"',
    ]);
    const response = await fetch(`${server.url}/v1/admin/orders/${orderId}`, {
      // the key the start printed is revoked by the end of the README: read with its replacement
      headers: { "x-api-key": varsAfter("Lost the admin key?").KEY },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, any> };
    expect(data).toMatchObject({
      email: "me@example.com",
      paymentStatus: "paid",
      fulfillmentStatus: "fulfilled",
      coupon: { code: "WELCOME10" },
      shippingAddress: { city: "Lisboa", country: "PT" },
    });
    expect(data.items.map((item: { quantity: number }) => item.quantity)).toEqual([2]);
  });

  test("Your own shop: a new organization goes from its blockers to ready to a placed order", async () => {
    const own = outputs.get("Your own shop") ?? [];
    expect(own).toHaveLength(8);
    const { ORG: org, KEY: key, ORDER: order } = varsAfter("Your own shop");
    // 1–2: an organization and its key, captured as the README tells; readiness lists the blockers.
    expect(org).toMatch(/^org_/);
    expect(key).toMatch(/^ck_/);
    expect(own[1]!.trim().split("\n")).toEqual(["NO_PRODUCT", "NO_SHIPPING_METHOD", "NO_PAYMENT_METHOD"]);

    // 7: the CLI says ready (the session would have stopped on its exit 1), and so does the endpoint.
    expect(own[6]).toContain("My Shop (my-shop) is ready to sell");
    expect(own[6]).toContain('{"ready":true,"blockers":[]}');
    const readiness = await fetch(`${server.url}/v1/admin/readiness`, { headers: { "x-api-key": key } });
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toMatchObject({ data: { ready: true, blockers: [] } });

    // 8: the order exists, for the product, shipped to Portugal, awaiting the bank transfer.
    expect(order).toMatch(/^ord_/);
    const response = await fetch(`${server.url}/v1/admin/orders/${order}`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, any> };
    expect(data.paymentStatus).toBe("pending");
    expect(data.items.map((item: { sku: string; quantity: number }) => [item.sku, item.quantity])).toEqual([
      ["SHIRT-1", 1],
    ]);
    expect(data.shippingAddress.country).toBe("PT");
    expect(data.totals.total.amount).toBe(4900 + 490);
    expect(own[7]).toContain(`"number": ${JSON.stringify(data.number)}`);
  });

  test("Lost the admin key?: the new key works for the demo store and the key the start printed is revoked", async () => {
    const { DEMO: demoId, KEY: key } = varsAfter("Lost the admin key?");
    expect(demoId).toBe(demo.orgId);
    const me = (apiKey: string) => fetch(`${server.url}/v1/me`, { headers: { "x-api-key": apiKey } });
    const fresh = await me(key);
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as { data: { orgId: string } }).data.orgId).toBe(demo.orgId);
    const lost = await me(demo.key);
    expect(lost.status).toBe(401);
  });
});
