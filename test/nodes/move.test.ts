import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { makeShop, PT_ADDRESS } from "../helpers/shop.ts";
import { startHaproxy } from "./haproxy.ts";
import { startTwoNodes, type TwoNodes } from "./two-nodes.ts";

// Two nodes on this machine, each a server with its own data directory; a shop moves from one to
// the other while shoppers keep placing orders on the first: no acknowledged order is lost, every
// write refused meanwhile is a 503 with Retry-After, the time writes were refused is measured, and
// requests still sent to the first node are answered by the second.

const HOST = "moving.example";
const TOKEN = "n".repeat(40);

let nodes: TwoNodes;
let orgId: string;
let adminKey: string;
let shippingMethodId: string;
let variantId: string;

beforeAll(async () => {
  nodes = await startTwoNodes(TOKEN, async (t) => {
    const shop = await makeShop(t, "Moving Shop", HOST);
    orgId = shop.org.id;
    adminKey = shop.org.key;
    shippingMethodId = shop.ptShipping.id;
    variantId = shop.shirt.variants[0].id;
    await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 100_000 });
  });
});
afterAll(() => nodes.stop());

interface Refusal {
  status: number;
  retryAfter: string | null;
}

/** One checkout on `url`; a write refused with 503 is recorded and the checkout given up (a shopper tries again). */
async function checkout(url: string, n: number, refusals: Refusal[]): Promise<string | null> {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status === 503)
      refusals.push({ status: 503, retryAfter: response.headers.get("retry-after") });
    return { status: response.status, body: (await response.json()) as { data: { id: string } } };
  };
  const cart = await call("/v1/carts", {
    email: `mover${n}@example.com`,
    items: [{ variantId, quantity: 1 }],
  });
  if (cart.status !== 201) return null;
  for (const [path, body] of [
    [`/v1/carts/${cart.body.data.id}/shipping-address`, PT_ADDRESS],
    [`/v1/carts/${cart.body.data.id}/shipping-method`, { shippingMethodId }],
  ] as const) {
    if ((await call(path, body)).status !== 200) return null;
  }
  const placed = await call(`/v1/carts/${cart.body.data.id}/place-order`, {});
  if (placed.status === 201) return placed.body.data.id;
  if (placed.status === 503) return null;
  throw new Error(`place-order: ${placed.status}`);
}

describe("shop move", () => {
  test("under a stream of orders: none acknowledged is lost, refused writes are 503 with Retry-After, the first node forwards, the proxy's map sends the shop to the second", async () => {
    const acknowledged: string[] = [];
    const refusals: Refusal[] = [];
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const id = await checkout(nodes.nodeA.url, n++, refusals);
        if (id) acknowledged.push(id);
        else await Bun.sleep(20);
      }
    };
    const workers = [worker(), worker(), worker()];
    await Bun.sleep(800);
    const before = acknowledged.length;
    const moved = await runCli(
      ["shop", "move", "--org", orgId, "--from", nodes.nodeA.url, "--to", nodes.nodeB.url, "--json"],
      {
        NODE_TOKEN: TOKEN,
        DATA_DIR: nodes.tempDir("operator"),
        LOG_LEVEL: "silent",
      },
    );
    expect(moved.stderr).toBe("");
    const result = JSON.parse(moved.stdout) as { writesRefusedMs: number };
    await Bun.sleep(800);
    stop = true;
    await Promise.all(workers);
    expect(before).toBeGreaterThan(5);
    expect(acknowledged.length).toBeGreaterThan(before);

    // Every acknowledged order is on the second node; the first holds no file of the shop any more.
    const held = new Set<string>();
    for (let page = 1; ; page++) {
      const response = await fetch(`${nodes.nodeB.url}/v1/admin/orders?limit=100&page=${page}`, {
        headers: { "x-api-key": adminKey, host: HOST },
      });
      const body = (await response.json()) as { data: { id: string }[] };
      for (const order of body.data) held.add(order.id);
      if (body.data.length < 100) break;
    }
    expect(acknowledged.filter((id) => !held.has(id))).toEqual([]);
    expect(existsSync(join(nodes.t.dataDir, "tenants", `${orgId}.sqlite`))).toBe(false);
    // Every refused write said when to try again.
    for (const refusal of refusals) expect(refusal).toEqual({ status: 503, retryAfter: "2" });
    // The first node answers for the shop by forwarding: by host, and by its API key.
    const viaA = await fetch(`${nodes.nodeA.url}/v1/admin/orders?limit=1`, {
      headers: { "x-api-key": adminKey },
    });
    expect(viaA.status).toBe(200);
    expect(((await viaA.json()) as { meta: { total: number } }).meta.total).toBe(held.size);

    // The proxy's map, written from what each node holds now, sends the shop's host to the second node.
    const map = join(nodes.tempDir("proxy"), "shops.map");
    const written = await runCli(
      [
        "proxy-config",
        "--node",
        `a=${nodes.nodeA.url}`,
        "--node",
        `b=${nodes.nodeB.url}`,
        "--out",
        map,
        "--json",
      ],
      { NODE_TOKEN: TOKEN, DATA_DIR: nodes.tempDir("operator"), LOG_LEVEL: "silent" },
    );
    expect(written.stderr).toBe("");
    expect(await Bun.file(map).text()).toContain(`${HOST} b\n`);
    const proxy = await startHaproxy(map, { a: nodes.nodeA.url, b: nodes.nodeB.url }, "a");
    try {
      // With the first node gone, the shop is still answered through the proxy.
      await nodes.nodeA.kill();
      const through = await fetch(`${proxy.url}/v1/products`, { headers: { host: HOST } });
      expect(through.status).toBe(200);
    } finally {
      await proxy.stop();
    }
    console.log(
      `shop move: ${acknowledged.length} orders acknowledged (${before} before the move), all on the new node; ` +
        `writes refused for ${result.writesRefusedMs} ms (${refusals.length} requests answered 503 with Retry-After)`,
    );
  }, 60_000);
});
