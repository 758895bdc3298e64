import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { freePort } from "../../src/lib/ports.ts";
import { readLeases } from "../../src/nodes/directory.ts";
import { stopLeftoverLitestream } from "../../src/nodes/replication.ts";
import { startServer } from "../crash/server-process.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { makeShop, PT_ADDRESS } from "../helpers/shop.ts";
import { startHaproxy } from "./haproxy.ts";
import { type S3Server, startS3 } from "./s3.ts";

// Litestream streams a node's databases to a bucket (an S3 server from npm on this machine) while
// orders come in; the node is SIGKILLed; once its lease in the directory has run out (a restore is
// refused before), a new data directory is restored from the bucket alone and served by a second
// node, which the directory names and the proxy's map (written from the directory) sends the
// shop's requests to: every order acknowledged more than one replication interval before the kill
// is there, and the gap (what the last interval held) is measured and reported.

const INTERVAL_MS = 500;
const HOST = "replicated.example";
const TOKEN = "n".repeat(40);

let s3: S3Server;
let t: TestApp;
let adminKey: string;
let shopId: string;
let shippingMethodId: string;
let variantId: string;
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3();
  t = makeTestApp();
  const shop = await makeShop(t, "Replicated Shop", HOST);
  adminKey = shop.org.key;
  shopId = shop.org.id;
  shippingMethodId = shop.ptShipping.id;
  variantId = shop.shirt.variants[0].id;
  await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 100_000 });
  t.close();
});
afterAll(async () => {
  t.cleanup();
  await s3.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const LEASE_MS = 2000;
const directoryPorts = new Map<string, number>();

/** A node's name and address in the directory (its port chosen before it starts). */
const directoryEnv = (id: string) => {
  const port = directoryPorts.get(id) ?? freePort();
  directoryPorts.set(id, port);
  return {
    DIRECTORY_URL: `s3://${s3.bucket}/directory`,
    NODE_ID: id,
    NODE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    LEASE_MS: String(LEASE_MS),
  };
};

/** Waits until node `id`'s lease in the directory names the shop. */
async function waitForLease(id: string, shop: string): Promise<void> {
  const replica = loadConfig(replicaEnv("node-a")).replica!;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const leases = await readLeases(replica, `s3://${s3.bucket}/directory`);
    if (leases.some((lease) => lease.node === id && lease.shops.some((s) => s.orgId === shop))) return;
    if (Date.now() > deadline) throw new Error(`node ${id}'s lease never named ${shop}`);
    await Bun.sleep(100);
  }
}

const replicaEnv = (prefix: string) => ({
  REPLICA_URL: `s3://${s3.bucket}/${prefix}`,
  REPLICA_ENDPOINT: s3.endpoint,
  REPLICA_ACCESS_KEY_ID: "S3RVER",
  REPLICA_SECRET_ACCESS_KEY: "S3RVER",
  REPLICA_SYNC_INTERVAL_MS: String(INTERVAL_MS),
});

/** One shopper's checkout; the order's id and when its acknowledgement arrived. */
async function checkout(url: string, n: number): Promise<{ id: string; at: number }> {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data: { id: string } } };
  };
  const cart = await call("/v1/carts", {
    email: `buyer${n}@example.com`,
    items: [{ variantId, quantity: 1 }],
  });
  await call(`/v1/carts/${cart.body.data.id}/shipping-address`, PT_ADDRESS);
  await call(`/v1/carts/${cart.body.data.id}/shipping-method`, { shippingMethodId });
  const placed = await call(`/v1/carts/${cart.body.data.id}/place-order`, {});
  if (placed.status !== 201) throw new Error(`place-order: ${placed.status}`);
  return { id: placed.body.data.id, at: Date.now() };
}

/** The value of one series in a scrape. */
const seriesValue = (scraped: string, series: string): number | undefined => {
  const line = scraped.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("continuous replication with Litestream", () => {
  test("a node killed mid-stream is restored from the bucket alone once its lease ran out, with every order older than one interval; the directory and the proxy then send the shop to the new node", async () => {
    const node = await startServer(t.dataDir, { ...replicaEnv("node-a"), ...directoryEnv("a") });
    // Litestream starts and takes its first snapshots; the node's lease names the shop.
    await Bun.sleep(3 * INTERVAL_MS + 1000);
    const acknowledged: { id: string; at: number }[] = [];
    let n = 0;
    const until = Date.now() + 3000;
    const worker = async () => {
      while (!node.killed) {
        try {
          acknowledged.push(await checkout(node.url, n++));
        } catch (error) {
          if (node.killed) return;
          throw error;
        }
        if (Date.now() > until) break;
      }
    };
    const workers = [worker(), worker()];
    await Bun.sleep(3000);
    const killedAt = Date.now();
    await node.kill();
    // The machine is lost with it: its Litestream stops too (left behind by a SIGKILL, it would ship on).
    expect(stopLeftoverLitestream(t.dataDir)).toBe(true);
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThan(10);

    const restoredDir = mkdtempSync(join(tmpdir(), "commerce-restored-"));
    dirs.push(restoredDir);
    // The second node takes the lost node's place in the bucket, under its own name in the directory.
    const nodeB = { ...replicaEnv("node-a"), ...directoryEnv("b") };
    const restoreB = () =>
      runCli(["restore", "--from-replica", "--json"], {
        DATA_DIR: restoredDir,
        LOG_LEVEL: "silent",
        ...nodeB,
      });
    // While the lost node's lease runs, nothing may take its shops; once it has run out, the restore goes.
    let restore = await restoreB();
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("node a");
    while (restore.code !== 0 && Date.now() < killedAt + 4 * LEASE_MS) {
      await Bun.sleep(100);
      restore = await restoreB();
    }
    expect(restore.stderr).toBe("");
    expect(JSON.parse(restore.stdout)).toMatchObject({ shops: 1, missing: [] });
    const restoredAfter = Date.now() - killedAt;
    expect(restoredAfter).toBeGreaterThanOrEqual(LEASE_MS - 2 * (LEASE_MS / 3));

    const restored = await startServer(restoredDir, { ...nodeB, NODE_TOKEN: TOKEN });
    try {
      const held = new Set<string>();
      for (let page = 1; ; page++) {
        const response = await fetch(`${restored.url}/v1/admin/orders?limit=100&page=${page}`, {
          headers: { "x-api-key": adminKey },
        });
        const body = (await response.json()) as { data: { id: string }[] };
        for (const order of body.data) held.add(order.id);
        if (body.data.length < 100) break;
      }
      // The directory names the new node; the proxy's map, written from it, sends the shop's requests there.
      await waitForLease("b", shopId);
      const map = join(restoredDir, "shops.map");
      const written = await runCli(["proxy-config", "--from-directory", "--out", map], {
        ...nodeB,
        DATA_DIR: restoredDir,
        LOG_LEVEL: "silent",
      });
      expect(written.code).toBe(0);
      const proxy = await startHaproxy(map, { b: restored.url }, "b");
      try {
        const first = acknowledged[0]!.id;
        const through = await fetch(`${proxy.url}/v1/admin/orders/${first}`, {
          headers: { host: HOST, "x-api-key": adminKey },
        });
        expect(through.status).toBe(200);
      } finally {
        await proxy.stop();
      }
      const old = acknowledged.filter((order) => order.at < killedAt - INTERVAL_MS);
      const missingOld = old.filter((order) => !held.has(order.id));
      if (missingOld.length > 0) {
        console.log(
          `lost an order acknowledged ${killedAt - Math.min(...missingOld.map((o) => o.at))} ms before the kill`,
        );
      }
      expect(missingOld).toEqual([]);
      const lost = acknowledged.filter((order) => !held.has(order.id));
      const newestKept = Math.max(...acknowledged.filter((o) => held.has(o.id)).map((o) => o.at));
      console.log(
        `replication: ${acknowledged.length} orders acknowledged, ${held.size} restored, ${lost.length} lost ` +
          `(all within the last ${killedAt - Math.min(...lost.map((o) => o.at), killedAt)} ms before the kill); ` +
          `the newest restored was acknowledged ${killedAt - newestKept} ms before it (interval ${INTERVAL_MS} ms); ` +
          `the restore was let through ${restoredAfter} ms after the kill (lease ${LEASE_MS} ms)`,
      );
    } finally {
      await restored.kill();
      stopLeftoverLitestream(restoredDir);
    }
  }, 60_000);

  test("a shop created while the node runs is replicated within seconds; one erased is dropped from what Litestream streams and from the bucket", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "commerce-replicating-"));
    dirs.push(dataDir);
    const token = "r".repeat(40);
    const node = await startServer(dataDir, { ...replicaEnv("node-b"), METRICS_TOKEN: token });
    const readiness = async () => {
      const response = await fetch(`${node.url}/ready`, { headers: { authorization: `Bearer ${token}` } });
      return {
        status: response.status,
        body: (await response.json()) as { replication: { current: boolean } },
      };
    };
    try {
      expect((await readiness()).status).toBe(200);
      const created = await runCli(["org", "create", "--name", "Late Shop", "--json"], {
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
      });
      const orgId = JSON.parse(created.stdout).id as string;
      const listed = async () =>
        await (await fetch(`${s3.endpoint}/${s3.bucket}?prefix=node-b/tenants/&delimiter=/`)).text();
      const deadline = Date.now() + 15_000;
      while (!(await listed()).includes(`node-b/tenants/${orgId}/`) && Date.now() < deadline)
        await Bun.sleep(200);
      expect(await listed()).toContain(`node-b/tenants/${orgId}/`);
      // Ready again: its replicas cover every shop the control plane holds.
      expect(await readiness()).toMatchObject({ status: 200, body: { replication: { current: true } } });
      // Each shop's replication position is a metric: nothing behind once it has synced, no errors.
      const scraped = await (
        await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
      ).text();
      expect(scraped).toMatch(new RegExp(`commerce_replication_behind_bytes\\{shop="${orgId}"\\} \\d+`));
      expect(scraped).toContain(`commerce_replication_sync_errors{shop="${orgId}"} 0`);
      expect(scraped).toContain('commerce_replication_behind_bytes{shop="platform"}');
      expect(scraped).toMatch(new RegExp(`commerce_replication_lag_seconds\\{shop="${orgId}"\\} [\\d.]+`));

      const erased = await runCli(["shop", "erase", "--org", orgId, "--yes", "--json"], {
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
        ...replicaEnv("node-b"),
      });
      expect(erased.code).toBe(0);
      expect(JSON.parse(erased.stdout).replicaObjects).toBeGreaterThan(0);
      // Nothing of the shop is left in the bucket either.
      expect(await listed()).not.toContain(`node-b/tenants/${orgId}/`);
      const config = () => Bun.file(join(dataDir, "litestream.yml")).text();
      const until = Date.now() + 15_000;
      while ((await config()).includes(orgId) && Date.now() < until) await Bun.sleep(200);
      expect(await config()).not.toContain(orgId);
      expect(await config()).toContain("platform.sqlite");
    } finally {
      await node.kill();
      stopLeftoverLitestream(dataDir);
    }
  }, 60_000);

  test("a shop whose writes cannot reach the bucket shows how long they have waited", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "commerce-unreachable-"));
    dirs.push(dataDir);
    const created = await runCli(["org", "create", "--name", "Cut Off", "--json"], {
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
    });
    const orgId = JSON.parse(created.stdout).id as string;
    const key = await runCli(["apikey", "create", "--org", orgId, "--json"], {
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
    });
    const token = "r".repeat(40);
    // Nothing listens on this port: every sync fails.
    const node = await startServer(dataDir, {
      ...replicaEnv("node-c"),
      REPLICA_ENDPOINT: `http://127.0.0.1:${freePort()}`,
      METRICS_TOKEN: token,
    });
    const scrape = async () =>
      (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    try {
      const made = await fetch(`${node.url}/v1/admin/products`, {
        method: "POST",
        headers: { "x-api-key": JSON.parse(key.stdout).key, "content-type": "application/json" },
        body: JSON.stringify({ name: { en: "Waiting" }, variants: [{ price: 100 }] }),
      });
      expect(made.status).toBe(201);
      let lag = 0;
      const deadline = Date.now() + 20_000;
      while (lag < 3 && Date.now() < deadline) {
        await Bun.sleep(500);
        lag = seriesValue(await scrape(), `commerce_replication_lag_seconds{shop="${orgId}"}`) ?? 0;
      }
      expect(lag).toBeGreaterThanOrEqual(3);
      const scraped = await scrape();
      expect(seriesValue(scraped, `commerce_replication_behind_bytes{shop="${orgId}"}`)).toBeGreaterThan(0);
    } finally {
      await node.kill();
      stopLeftoverLitestream(dataDir);
    }
  }, 60_000);
});
