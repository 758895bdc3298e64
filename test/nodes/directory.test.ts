import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports.ts";
import { bucketClient } from "../../src/nodes/bucket.ts";
import { type Lease, readLeases } from "../../src/nodes/directory.ts";
import { stopLeftoverLitestream } from "../../src/nodes/replication.ts";
import { type ServerProcess, startServer } from "../crash/server-process.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { makeShop } from "../helpers/shop.ts";
import { type S3Server, startS3 } from "./s3.ts";

// The directory of nodes in a bucket they share (an S3 server from npm on this machine): each node
// keeps a lease naming the shops it holds; a request for a shop that reaches another node is
// answered by the holder; the proxy's map comes from the leases; a restore from the bucket is
// refused while the holder's lease runs; a node that took a shop later holds it, and the earlier
// one stops writing it; a node that cannot renew its lease stops writing.

const HOST = "directed.example";
const TOKEN = "n".repeat(40);
const LEASE_MS = 4000;

let s3: S3Server;
let s3Closed = false;
let t: TestApp;
let orgId: string;
let slug: string;
let adminKey: string;
const dirs: string[] = [];
const nodes: ServerProcess[] = [];

const replica = () => ({
  url: `s3://${s3.bucket}/node-a`,
  endpoint: s3.endpoint,
  region: "us-east-1",
  accessKeyId: "S3RVER",
  secretAccessKey: "S3RVER",
  syncIntervalMs: 500,
  binary: null,
});
const DIRECTORY = () => `s3://${s3.bucket}/directory`;

/**
 * A node's settings: its replica (its own path in the bucket; a node restored from another's
 * replaces it there) and its place in the directory.
 */
function nodeEnv(id: string, port: number, replicaOf = id): Record<string, string> {
  return {
    REPLICA_URL: `s3://${s3.bucket}/node-${replicaOf}`,
    REPLICA_ENDPOINT: s3.endpoint,
    REPLICA_ACCESS_KEY_ID: "S3RVER",
    REPLICA_SECRET_ACCESS_KEY: "S3RVER",
    REPLICA_SYNC_INTERVAL_MS: "500",
    DIRECTORY_URL: DIRECTORY(),
    NODE_ID: id,
    NODE_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    LEASE_MS: String(LEASE_MS),
    NODE_TOKEN: TOKEN,
    METRICS_TOKEN: TOKEN,
  };
}

async function startNode(id: string, dataDir: string, replicaOf = id): Promise<ServerProcess> {
  const node = await startServer(dataDir, nodeEnv(id, freePort(), replicaOf));
  nodes.push(node);
  return node;
}

const ready = async (node: ServerProcess) =>
  (await fetch(`${node.url}/ready`, { headers: { authorization: `Bearer ${TOKEN}` } })).json() as Promise<{
    ready: boolean;
    reasons: string[];
    directory: { holdsLease: boolean; shops: number; yielded: string[] };
  }>;

/** Polls until `check` holds (or fails the test after 15 s). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

const leaseOf = async (node: string): Promise<Lease | undefined> =>
  (await readLeases(replica(), DIRECTORY())).find((lease) => lease.node === node);

const createProduct = (url: string, name: string) =>
  fetch(`${url}/v1/admin/products`, {
    method: "POST",
    headers: { "x-api-key": adminKey, "content-type": "application/json" },
    body: JSON.stringify({ name: { en: name }, variants: [{ price: 1000 }] }),
  });

let nodeA: ServerProcess;
let nodeB: ServerProcess;

beforeAll(async () => {
  s3 = await startS3();
  t = makeTestApp();
  const shop = await makeShop(t, "Directed Shop", HOST);
  orgId = shop.org.id;
  slug = shop.org.slug;
  adminKey = shop.org.key;
  t.close();
  const emptyDir = mkdtempSync(join(tmpdir(), "commerce-node-b-"));
  dirs.push(emptyDir);
  nodeA = await startNode("a", t.dataDir);
  nodeB = await startNode("b", emptyDir);
  // A holds its lease, and Litestream has the control plane and the shop in the bucket.
  await until("node a ready", async () => (await ready(nodeA)).ready);
  const { client } = bucketClient(replica(), replica().url);
  for (const database of ["platform", `tenants/${orgId}`]) {
    await until(`a snapshot of node-a/${database}`, async () =>
      ((await client.list({ prefix: `node-a/${database}/` })).contents ?? []).some((o) =>
        o.key.includes("/snapshots/"),
      ),
    );
  }
  await until("node b's lease", async () => (await ready(nodeB)).directory.holdsLease);
}, 30_000);
afterAll(async () => {
  for (const node of nodes) if (!node.killed) await node.kill();
  for (const dir of [t.dataDir, ...dirs]) stopLeftoverLitestream(dir);
  t.cleanup();
  if (!s3Closed) await s3.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the directory of nodes", () => {
  test("each node's lease names the shops it holds; a request that reaches the other node is answered by the holder; the proxy's map comes from the leases", async () => {
    const leaseA = await leaseOf("a");
    expect(leaseA).toMatchObject({ node: "a", url: nodeA.url, leaseMs: LEASE_MS });
    const shop = leaseA!.shops.find((s) => s.orgId === orgId)!;
    expect(shop.hosts.sort()).toEqual([HOST, `${slug}.localhost`].sort());
    expect(shop.keyHashes).toContain(new Bun.CryptoHasher("sha256").update(adminKey).digest("hex"));
    expect((await leaseOf("b"))!.shops).toEqual([]);

    // B never held the shop: by its host, and by its API key, B answers with A's answer.
    const direct = await (await fetch(`${nodeA.url}/v1/products`, { headers: { host: HOST } })).text();
    const viaB = await fetch(`${nodeB.url}/v1/products`, { headers: { host: HOST } });
    expect(viaB.status).toBe(200);
    expect(await viaB.text()).toBe(direct);
    const created = await createProduct(nodeB.url, "Made through B");
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const onA = await fetch(`${nodeA.url}/v1/admin/products/${id}`, { headers: { "x-api-key": adminKey } });
    expect(onA.status).toBe(200);

    const map = join(dirs[0]!, "shops.map");
    const written = await runCli(["proxy-config", "--from-directory", "--out", map], {
      ...nodeEnv("b", 1),
      DATA_DIR: dirs[0]!,
      LOG_LEVEL: "silent",
    });
    expect(written.code).toBe(0);
    expect(readFileSync(map, "utf8")).toBe(`${[`${HOST} a`, `${slug}.localhost a`].sort().join("\n")}\n`);
  }, 30_000);

  test("a restore from the bucket is refused while the holder's lease runs; forced, the new node takes the shop and the old one stops writing it and sends its requests there", async () => {
    const restoredDir = mkdtempSync(join(tmpdir(), "commerce-node-c-"));
    dirs.push(restoredDir);
    const env = { ...nodeEnv("c", 1, "a"), DATA_DIR: restoredDir, LOG_LEVEL: "silent" };
    const refused = await runCli(["restore", "--from-replica"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`node a (${nodeA.url}) still holds 1 of these shops`);
    expect(readdirSync(restoredDir)).toEqual([]);

    const forced = await runCli(["restore", "--from-replica", "--force", "--json"], env);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ shops: 1, missing: [] });
    const nodeC = await startNode("c", restoredDir, "a");
    await until("node a yields the shop", async () => (await ready(nodeA)).directory.yielded.includes(orgId));
    expect((await leaseOf("a"))!.shops.map((s) => s.orgId)).not.toContain(orgId);
    await until("node c's lease names the shop", async () =>
      Boolean((await leaseOf("c"))?.shops.some((s) => s.orgId === orgId)),
    );

    // A write sent to A is C's now; A's own file is not written.
    const created = await createProduct(nodeA.url, "Made after the handover");
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const onC = await fetch(`${nodeC.url}/v1/admin/products/${id}`, { headers: { "x-api-key": adminKey } });
    expect(onC.status).toBe(200);
    const aFile = new Database(join(t.dataDir, "tenants", `${orgId}.sqlite`), { readonly: true });
    try {
      expect(aFile.query("SELECT 1 FROM products WHERE id = ?").get(id)).toBeNull();
    } finally {
      aFile.close();
    }
  }, 60_000);

  test("a shop moved between nodes of the directory: the leases switch at once, and every other node sends its requests to the new holder", async () => {
    const nodeC = nodes.at(-1)!;
    const moved = await runCli(
      ["shop", "move", "--org", orgId, "--from", nodeC.url, "--to", nodeB.url, "--json"],
      {
        ...nodeEnv("b", 1),
        DATA_DIR: dirs[0]!,
        LOG_LEVEL: "silent",
      },
    );
    expect(moved.code).toBe(0);
    // Both leases were renewed by the move itself: no wait for the next renewal.
    expect((await leaseOf("b"))!.shops.map((s) => s.orgId)).toEqual([orgId]);
    expect((await leaseOf("c"))!.shops.map((s) => s.orgId)).not.toContain(orgId);
    await until("node a routes the shop to b", async () => {
      const answer = await createProduct(nodeA.url, "Routed to the new holder");
      if (answer.status !== 201) return false;
      const id = ((await answer.json()) as { data: { id: string } }).data.id;
      return (
        (await fetch(`${nodeB.url}/v1/admin/products/${id}`, { headers: { "x-api-key": adminKey } }))
          .status === 200
      );
    });
    const viaC = await createProduct(nodeC.url, "Sent on by the old holder");
    expect(viaC.status).toBe(201);
  }, 60_000);

  test("a node restarted after yielding a shop keeps it yielded while no lease names it; a request it cannot pass on is a 503", async () => {
    const productsInA = () => {
      const file = new Database(join(t.dataDir, "tenants", `${orgId}.sqlite`), { readonly: true });
      try {
        return (file.query("SELECT count(*) AS n FROM products").get() as { n: number }).n;
      } finally {
        file.close();
      }
    };
    await nodeA.kill();
    await nodeB.kill();
    stopLeftoverLitestream(t.dataDir);
    stopLeftoverLitestream(dirs[0]!);
    await until(
      "node b's lease to run out",
      async () => (await leaseOf("b"))!.renewedAt + LEASE_MS < Date.now(),
    );
    const before = productsInA();
    nodeA = await startNode("a", t.dataDir);
    await until("node a's lease", async () => (await ready(nodeA)).directory.holdsLease);
    expect((await ready(nodeA)).directory.yielded).toEqual([orgId]);
    expect((await leaseOf("a"))!.shops.map((s) => s.orgId)).not.toContain(orgId);
    const refused = await createProduct(nodeA.url, "Nowhere to go");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(productsInA()).toBe(before);
    // The holder comes back and holds the shop again.
    nodeB = await startNode("b", dirs[0]!);
    await until("node b's lease names the shop", async () =>
      Boolean((await leaseOf("b"))?.shops.some((s) => s.orgId === orgId)),
    );
  }, 60_000);

  test("a node that cannot renew its lease stops writing its shops (503 with Retry-After) and says so on /ready", async () => {
    const holder = nodeB;
    await s3.close();
    s3Closed = true;
    await Bun.sleep(LEASE_MS + 200);
    const refused = await createProduct(holder.url, "Not while the lease lapsed");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    const body = await ready(holder);
    expect(body.ready).toBe(false);
    expect(body.reasons).toContain("LEASE_NOT_HELD");
    // Reads go on.
    const read = await fetch(`${holder.url}/v1/products`, { headers: { host: HOST } });
    expect(read.status).toBe(200);
  }, 30_000);
});
