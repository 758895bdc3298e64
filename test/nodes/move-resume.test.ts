import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { makeShop } from "../helpers/shop.ts";
import { startTwoNodes, type TwoNodes } from "./two-nodes.ts";

// `shop move` run again after it stopped midway, once the target had taken the shop but before the
// source was told: it finishes the move (the source forwards, its copy erased) instead of sending
// the shop again, being refused, and letting the source write the shop beside the target.

const HOST = "resumed.example";
const TOKEN = "r".repeat(40);
const auth = { authorization: `Bearer ${TOKEN}` };

let nodes: TwoNodes;
let orgId: string;
let adminKey: string;

beforeAll(async () => {
  nodes = await startTwoNodes(TOKEN, async (t) => {
    const shop = await makeShop(t, "Resumed Shop", HOST);
    orgId = shop.org.id;
    adminKey = shop.org.key;
  });
});
afterAll(() => nodes.stop());

describe("shop move, run again after stopping midway", () => {
  test("the target already holds the shop: the move ends on the source, which forwards and keeps no copy", async () => {
    const { nodeA, nodeB } = nodes;
    // What a move that stopped after the import left: the source frozen, the target holding the shop.
    expect(
      (await fetch(`${nodeA.url}/ops/shops/${orgId}/freeze`, { method: "POST", headers: auth })).status,
    ).toBe(200);
    const archive = await fetch(`${nodeA.url}/ops/shops/${orgId}/export`, { headers: auth });
    const imported = await fetch(`${nodeB.url}/ops/shops/import`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/vnd.sqlite3" },
      body: archive.body,
      duplex: "half",
    } as RequestInit);
    expect(imported.status).toBe(201);

    const moved = await runCli(
      ["shop", "move", "--org", orgId, "--from", nodeA.url, "--to", nodeB.url, "--json"],
      { NODE_TOKEN: TOKEN, DATA_DIR: nodes.tempDir("operator"), LOG_LEVEL: "silent" },
    );
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ orgId, to: nodeB.url });

    // The source let the shop go to the target: no file of it left, its requests forwarded there.
    expect(existsSync(join(nodes.t.dataDir, "tenants", `${orgId}.sqlite`))).toBe(false);
    const viaA = await fetch(`${nodeA.url}/v1/admin/orders?limit=1`, { headers: { "x-api-key": adminKey } });
    expect(viaA.status).toBe(200);
    const write = await fetch(`${nodeA.url}/v1/carts`, {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(write.status).toBe(201);
    const onB = await fetch(
      `${nodeB.url}/v1/carts/${((await write.json()) as { data: { id: string } }).data.id}`,
      {
        headers: { host: HOST },
      },
    );
    expect(onB.status).toBe(200);
  }, 30_000);
});
