import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storageFault } from "../../src/core/storage.ts";
import { jsonBody, makeTestApp, signUp } from "../helpers/app.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import { type SpawnedServer, spawnServer } from "../helpers/server-process.ts";
import { makeShop, PT_ADDRESS, stockedVariant } from "../helpers/shop.ts";
import { mountSmallDisk } from "../helpers/tmpfs.ts";

// A service whose data directory is on a small tmpfs, filled up while shoppers check out
// (docs/operations.md, "Storage failures and free space"). Failing storage is not a bug: every write answers
// 2xx or 503 UNAVAILABLE with Retry-After, health says why the node is degraded, nothing
// acknowledged is lost, and freeing space brings everything back without a restart.

const MiB = 1_048_576;
const disk = mountSmallDisk(import.meta.file, 24 * MiB);
const HOST = "full.example";
/**
 * What the filler file leaves free: enough for a few checkouts to be acknowledged first (the WAL and
 * its index take room at their first commits; 160 KiB was sometimes gone before the first order),
 * little enough that the disk fills well within the loop's bound.
 */
const LEFT_FREE = 512 * 1024;
/** 503 answers to collect before the disk counts as full for good. */
const FAILURES = 12;

interface Answer {
  path: string;
  status: number;
  body: any;
  retryAfter: string | null;
}

let dataDir: string;
let orgId: string;
let adminKey: string;
let variantId: string;
let shippingMethodId: string;
/** A dashboard user owning a second organization (control-plane writes while the disk is full). */
let userCookie: string;
let spareOrgId: string;
let server: SpawnedServer;
/** The first life's log lines, read once it stopped. */
let firstLife: { stdout: string; stderr: string };

const answers: Answer[] = [];
const acknowledged = { carts: [] as string[], orders: [] as { id: string; number: number }[] };
const filler = () => join(disk!.dir, "filler");
/** Fills what the disk has left, in a second filler file. */
function takeTheRest(): void {
  const { bavail, bsize } = statfsSync(disk!.dir);
  if (bavail > 0) writeFileSync(`${filler()}-rest`, Buffer.alloc(bavail * bsize));
}

function startServer(): Promise<SpawnedServer> {
  return spawnServer({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    DEMO_TENANT: "false",
    MIN_FREE_DISK_MB: "1",
    // Set only so the start-up does not warn that payment webhooks are off.
    CHECKOUT_API_SECRET: "storage-test-checkout-secret-0123456789",
  });
}

async function stopServer(): Promise<{ stdout: string; stderr: string }> {
  server.child.kill("SIGTERM");
  await server.child.exited;
  return { stdout: await server.stdout, stderr: await server.stderr };
}

/** A write through the running server; every answer is kept for the rule that none is a 500. */
async function write(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { host: HOST, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const answer = {
    path,
    status: response.status,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
  };
  answers.push(answer);
  return answer;
}

/** Cart, address, shipping, place-order, stopping at the first refusal; what was acknowledged is noted. */
async function checkout(n: number): Promise<boolean> {
  const cart = await write("/v1/carts", {
    email: `buyer${n}@example.com`,
    items: [{ variantId, quantity: 1 }],
  });
  if (cart.status !== 201) return false;
  const cartId = cart.body.data.id;
  acknowledged.carts.push(cartId);
  if ((await write(`/v1/carts/${cartId}/shipping-address`, PT_ADDRESS)).status !== 200) return false;
  if ((await write(`/v1/carts/${cartId}/shipping-method`, { shippingMethodId })).status !== 200) return false;
  const placed = await write(`/v1/carts/${cartId}/place-order`, {}, { "idempotency-key": `order-${n}` });
  if (placed.status !== 201) return false;
  acknowledged.orders.push({ id: placed.body.data.id, number: placed.body.data.number });
  return true;
}

async function health(): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/v1/health`);
  return { status: response.status, body: await response.json() };
}

/** Asks for health until `done` holds (the free space is read at most every 2 s). */
async function healthUntil(done: (data: any) => boolean): Promise<{ status: number; body: any }> {
  const deadline = Date.now() + 8000;
  for (;;) {
    const answer = await health();
    if (done(answer.body.data) || Date.now() > deadline) return answer;
    await Bun.sleep(250);
  }
}

const expectUnavailable = (answer: { status: number; body: any; retryAfter: string | null }) => {
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ error: expect.any(String), code: "UNAVAILABLE", status: 503 });
  const seconds = Number(answer.retryAfter);
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 30).toBe(true);
};

const logLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string; [field: string]: unknown });

beforeAll(async () => {
  if (!disk) return;
  dataDir = join(disk.dir, "data");
  // Set up in process, then closed and left to the collector before the disk is unmounted.
  const t = makeTestApp({ dataDir });
  const shop = await makeShop(t, "Full Disk Shop", HOST);
  orgId = shop.org.id;
  adminKey = shop.org.key;
  shippingMethodId = shop.ptShipping.id;
  variantId = await stockedVariant(shop, "Plenty", 500, 100_000);
  userCookie = await signUp(t, "owner@example.com");
  const spare = await t.json(
    "/api/auth/organization/create",
    jsonBody({ name: "Spare Shop" }, { cookie: userCookie }),
  );
  spareOrgId = spare.body.data.id;
  // The server owns the files from here on.
  t.close();
  server = await startServer();
});

afterAll(async () => {
  if (!disk) return;
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGKILL");
    await server.child.exited;
  }
  disk.unmount();
});

describe.skipIf(!disk)("storage failures on a data directory that fills up", () => {
  test("while the disk is full, every write answers 2xx or 503 UNAVAILABLE with Retry-After and the error body, never 500", async () => {
    expect(await health()).toEqual({ status: 200, body: { data: { status: "ok" } } });
    const { bavail, bsize } = statfsSync(disk!.dir);
    writeFileSync(filler(), Buffer.alloc(bavail * bsize - LEFT_FREE));

    let failures = 0;
    for (let n = 0; failures < FAILURES && n < 400; n++) {
      if (await checkout(n)) continue;
      // Once a write failed, take what is left too: a checkpoint or a smaller write could otherwise
      // fit again and end the episode early (each recovery is an episode of its own).
      if (failures++ === 0) takeTheRest();
    }
    expect(failures).toBe(FAILURES);
    expect(acknowledged.orders.length).toBeGreaterThan(0);
    for (const answer of answers) {
      if (answer.status >= 200 && answer.status < 300) continue;
      expectUnavailable(answer);
    }
  }, 60_000);

  test("while writes fail and space is low, health answers 200 with status degraded and both reasons, and reads still answer", async () => {
    const { status, body } = await healthUntil((data) => data.reasons?.length === 2);
    expect(status).toBe(200);
    expect(body.data.status).toBe("degraded");
    const reasons = Object.fromEntries(body.data.reasons.map((reason: any) => [reason.code, reason]));
    expect(Object.keys(reasons).sort()).toEqual(["LOW_DISK_SPACE", "STORAGE_FAILING"]);
    expect(reasons.LOW_DISK_SPACE.message).toContain("below MIN_FREE_DISK_MB (1)");
    expect(reasons.STORAGE_FAILING.message).toMatch(/SQLITE_(FULL|IOERR)/);
    for (const reason of body.data.reasons) expect(Number.isNaN(Date.parse(reason.since))).toBe(false);
    const order = acknowledged.orders[0]!;
    const read = await fetch(`${server.url}/v1/admin/orders/${order.id}`, {
      headers: { "x-api-key": adminKey },
    });
    expect(read.status).toBe(200);
  });

  test("control-plane writes, MCP tool calls and a new organization's file answer 503 too, and no half-made tenant file is left", async () => {
    // The control plane: API keys until its write-ahead log has no room left either.
    let keyAnswer: Answer | undefined;
    for (let n = 0; n < 300; n++) {
      keyAnswer = await write(
        "/api/auth/api-key/create",
        { name: `key ${n}`, organizationId: spareOrgId },
        { cookie: userCookie },
      );
      if (keyAnswer.status !== 201) break;
    }
    expectUnavailable(keyAnswer!);

    // MCP: a tool's refusal carries the same error body.
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "x-api-key": adminKey,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "createCart",
          arguments: { email: "agent@example.com", items: [{ variantId, quantity: 1 }] },
        },
      }),
    });
    expect(response.status).toBe(200);
    const result = ((await response.json()) as any).result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: expect.any(String), code: "UNAVAILABLE", status: 503 });

    // A new organization: its file cannot be written, and is not left behind half-made.
    const tenantFiles = () => readdirSync(join(dataDir, "tenants")).sort();
    const before = tenantFiles();
    const created = await write(
      "/api/auth/organization/create",
      { name: "Too Late" },
      { cookie: userCookie },
    );
    expectUnavailable(created);
    expect(tenantFiles()).toEqual(before);
  }, 60_000);

  test("once space is freed, writes succeed again and health returns to ok, without a restart", async () => {
    rmSync(filler());
    rmSync(`${filler()}-rest`, { force: true });
    expect(await checkout(10_000)).toBe(true);
    expect(await healthUntil((data) => data.status === "ok")).toEqual({
      status: 200,
      body: { data: { status: "ok" } },
    });
    firstLife = await stopServer();
  }, 30_000);

  test("every acknowledged write is in the files when they are reopened, and served after a restart", async () => {
    const platformSqlite = new Database(join(dataDir, "platform.sqlite"));
    const tenantSqlite = new Database(join(dataDir, "tenants", `${orgId}.sqlite`));
    try {
      expect(platformSqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(tenantSqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      for (const id of acknowledged.carts)
        expect(tenantSqlite.query("SELECT id FROM carts WHERE id = ?").get(id)).toEqual({ id });
      for (const order of acknowledged.orders) {
        expect(tenantSqlite.query("SELECT number FROM orders WHERE id = ?").get(order.id)).toEqual({
          number: order.number,
        });
      }
    } finally {
      platformSqlite.close();
      tenantSqlite.close();
    }

    server = await startServer();
    for (const order of acknowledged.orders) {
      const response = await fetch(`${server.url}/v1/admin/orders/${order.id}`, {
        headers: { "x-api-key": adminKey },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as any).data.number).toBe(order.number);
    }
    await stopServer();
  }, 30_000);

  test("a storage episode is logged once: one warn line with the reason when writes start failing, one info line when one succeeds again, no error", () => {
    // On a full disk a write can still fit (a page freed by a checkpoint, a WAL reused from its
    // start), so the answers may hold several episodes: each runs from a refusal to the next
    // committed shop write. Counted from the answers, in the order they were given.
    let episodes = 0;
    let failing = false;
    for (const answer of answers) {
      if (answer.status === 503 && !failing) [episodes, failing] = [episodes + 1, true];
      else if (answer.status < 300 && failing && answer.path.startsWith("/v1/")) failing = false;
    }
    expect(episodes).toBeGreaterThanOrEqual(1);
    expect(failing).toBe(false);
    // Each stream is in the order it was written; across the two, times tie within a millisecond,
    // so the n-th warn line (stderr) is paired with the n-th info line (stdout) and their times
    // must interleave: start ≤ its recovery ≤ the next start.
    const errLines = logLines(firstLife.stderr);
    const outLines = logLines(firstLife.stdout);
    const started = errLines.filter((line) => line.msg.startsWith("storage "));
    const recovered = outLines.filter((line) => line.msg.startsWith("storage "));
    const refused = answers.filter((answer) => answer.status === 503).length;
    expect(refused).toBeGreaterThanOrEqual(FAILURES);
    expect([...errLines, ...outLines].filter((line) => line.level === "error")).toEqual([]);
    expect(started.map((line) => [line.level, line.msg])).toEqual(
      Array.from({ length: episodes }, () => [
        "warn",
        "storage failing: writes answer 503 until one succeeds",
      ]),
    );
    expect(recovered.map((line) => [line.level, line.msg])).toEqual(
      Array.from({ length: episodes }, () => ["info", "storage writes succeed again"]),
    );
    for (let i = 0; i < episodes; i++) {
      const [start, end, next] = [started[i]!, recovered[i]!, started[i + 1]];
      expect(String(start.reason)).toMatch(/^SQLITE_(FULL|IOERR)/);
      expect(start.error).toEqual(expect.any(String));
      expect(start.stack).toBeUndefined();
      expect(end.reason).toBe(start.reason);
      expect(String(start.time) <= String(end.time)).toBe(true);
      if (next) expect(String(end.time) <= String(next.time)).toBe(true);
    }
    // Every refusal of the episodes counted, also those of MCP, which the answers above leave out.
    const counted = recovered.map((line) => Number(line.failures));
    expect(counted.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(refused);
  });
});

describe("a database locked by another process past busy_timeout", () => {
  test("a write waiting for the lock answers 503 UNAVAILABLE with Retry-After after busy_timeout, and health says STORAGE_FAILING until the next write commits", async () => {
    const t = makeTestApp({ env: { MIN_FREE_DISK_MB: "0" } });
    try {
      const org = await t.org("Busy Shop");
      const admin = adminClient(t, org.key);
      // Another process (a long `commerce` command) holding the tenant file's write lock.
      const holder = new Database(join(t.dataDir, "tenants", `${org.id}.sqlite`));
      holder.run("BEGIN IMMEDIATE");
      const started = Date.now();
      const refused = await t.request(
        "/v1/admin/products",
        jsonBody(simpleProduct("Waited", 900), { "x-api-key": org.key }),
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expectUnavailable({
        status: refused.status,
        body: await refused.json(),
        retryAfter: refused.headers.get("retry-after"),
      });
      const degraded = await t.json("/v1/health");
      expect(degraded.status).toBe(200);
      expect(degraded.body.data.status).toBe("degraded");
      expect(degraded.body.data.reasons).toEqual([
        {
          code: "STORAGE_FAILING",
          message: expect.stringContaining("SQLITE_BUSY"),
          since: expect.any(String),
        },
      ]);
      holder.run("ROLLBACK");
      holder.close();

      expect((await admin.post("/v1/admin/products", simpleProduct("Later", 900))).status).toBe(201);
      expect(await t.json("/v1/health")).toMatchObject({ status: 200, body: { data: { status: "ok" } } });
      expect((await admin.get("/v1/admin/products")).body.data.map((p: any) => p.name.en)).toEqual(["Later"]);
    } finally {
      t.cleanup();
    }
  }, 20_000);
});

describe("what counts as failing storage", () => {
  test("a read-only or unopenable database file is failing storage (as full, I/O and busy are, above); a constraint violation or a bug is not", () => {
    const dir = mkdtempSync(join(tmpdir(), "commerce-storage-"));
    const caught = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      throw new Error("expected a throw");
    };
    try {
      const path = join(dir, "a.sqlite");
      const sqlite = new Database(path, { create: true, strict: true });
      sqlite.run("CREATE TABLE t (id TEXT PRIMARY KEY)");
      sqlite.run("INSERT INTO t VALUES ('x')");
      const readOnly = new Database(path, { readonly: true });
      expect(storageFault(caught(() => readOnly.run("INSERT INTO t VALUES ('y')")))).toBe("SQLITE_READONLY");
      const missing = join(dir, "missing.sqlite");
      expect(storageFault(caught(() => new Database(missing, { readwrite: true, create: false })))).toBe(
        "SQLITE_CANTOPEN",
      );
      expect(storageFault(caught(() => sqlite.run("INSERT INTO t VALUES ('x')")))).toBeUndefined();
      expect(storageFault(caught(() => sqlite.run("SELECT nope FROM t")))).toBeUndefined();
      expect(storageFault(new TypeError("x is undefined"))).toBeUndefined();
      readOnly.close();
      sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
