import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

// The README's "Your own shop" section, run as written: a real server process on a temp DATA_DIR,
// and one bash session that runs the section's blocks in order, as a reader pastes them into one
// terminal (values such as ORG and KEY carry from one block to the next). The one change is the
// server's origin: the README's `http://localhost:3000` becomes this server's port.

const ROOT = resolve(import.meta.dir, "..");
const README_ORIGIN = "http://localhost:3000";
const FENCE = "```";

function section(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Your own shop\n");
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function shellBlocks(text: string): string[] {
  return [...text.matchAll(new RegExp(`${FENCE}sh\\n([\\s\\S]*?)\\n${FENCE}`, "g"))].map((m) => m[1]!);
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
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

  constructor(env: Record<string, string>) {
    this.proc = Bun.spawn(["bash"], { cwd: ROOT, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.chunks = this.proc.stdout[Symbol.asyncIterator]();
    this.stderr = new Response(this.proc.stderr).text();
    this.proc.stdin.write("set -euo pipefail\n");
  }

  async run(block: string, index: number): Promise<string> {
    const marker = `__block_${index}_done__`;
    this.proc.stdin.write(`${block}\necho ${marker}\n`);
    this.proc.stdin.flush();
    while (!this.buffered.includes(`${marker}\n`)) {
      const { done, value } = await this.chunks.next();
      if (done) {
        throw new Error(
          `block ${index + 1} failed (bash exited ${await this.proc.exited}):\n${block}\n--- stdout\n${this.buffered}\n--- stderr\n${await this.stderr}`,
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

let dataDir: string;
let server: Subprocess;
let origin: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "commerce-readme-shop-"));
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DEMO_TENANT: "false", LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "pipe",
  });
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(`${origin}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (attempt > 100) throw new Error("the server did not start");
    await Bun.sleep(100);
  }
});
afterAll(async () => {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe("README: Your own shop", () => {
  test("run as written, it takes a new organization from blockers to ready to a placed order", async () => {
    const text = section();
    expect(text.split(README_ORIGIN)).toHaveLength(2); // the one origin to point at this server
    const blocks = shellBlocks(text).map((block) => block.replace(README_ORIGIN, origin));
    expect(blocks.length).toBe(8);

    const terminal = new Terminal({
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
    });
    const outputs: string[] = [];
    let captured: string;
    try {
      for (const [index, block] of blocks.entries()) outputs.push(await terminal.run(block, index));
      captured = await terminal.run('echo "$ORG $KEY $ORDER"', blocks.length);
    } finally {
      await terminal.close();
    }
    const [org, key, order] = captured.trim().split(" ") as [string, string, string];

    // 1–2: an organization and its key, captured as the README tells; readiness lists the blockers.
    expect(org).toMatch(/^org_/);
    expect(key).toMatch(/^ck_/);
    expect(outputs[1]!.trim().split("\n")).toEqual(["NO_PRODUCT", "NO_SHIPPING_METHOD", "NO_PAYMENT_METHOD"]);

    // 7: the CLI says ready (the session would have stopped on its exit 1), and so does the endpoint.
    expect(outputs[6]).toContain("My Shop (my-shop) is ready to sell");
    expect(outputs[6]).toContain('{"ready":true,"blockers":[]}');
    const readiness = await fetch(`${origin}/v1/admin/readiness`, { headers: { "x-api-key": key } });
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toEqual({ data: { ready: true, blockers: [] } });

    // 8: the order exists, for the product, shipped to Portugal, awaiting the bank transfer.
    expect(order).toMatch(/^ord_/);
    const response = await fetch(`${origin}/v1/admin/orders/${order}`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, any> };
    expect(data.paymentStatus).toBe("pending");
    expect(data.items.map((item: { sku: string; quantity: number }) => [item.sku, item.quantity])).toEqual([
      ["SHIRT-1", 1],
    ]);
    expect(data.shippingAddress.country).toBe("PT");
    expect(data.totals.total.amount).toBe(4900 + 490);
    expect(outputs[7]).toContain(`"number": ${JSON.stringify(data.number)}`);
  }, 60_000);
});
