import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { yieldShop } from "../../src/nodes/moves.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// A node's `/ops/shops/:org/export` and `/ops/shops/import` (what `shop move` drives), in process:
// the archive is sent from an open file a chunk at a time, never read whole into the server's
// memory, and taken by the other node as it arrives.

const TOKEN = "o".repeat(40);
const HOST = "exported.example";
const auth = { authorization: `Bearer ${TOKEN}` };

let source: TestApp;
let target: TestApp;
let shop: Shop;

beforeAll(async () => {
  source = makeTestApp({ env: { NODE_TOKEN: TOKEN } });
  target = makeTestApp({ env: { NODE_TOKEN: TOKEN } });
  shop = await makeShop(source, "Exported Shop", HOST);
});
afterAll(() => {
  source.cleanup();
  target.cleanup();
});

/** The export's scratch directories in the temp folder now. */
const scratchDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith("commerce-move-"));
/** Descriptors this process holds open now. */
const openDescriptors = () => readdirSync("/proc/self/fd").length;

describe("a shop's archive between nodes", () => {
  test("the export is a stream of the file, its scratch gone before the body is read; the other node's import takes the stream and serves the shop", async () => {
    const before = scratchDirs();
    const exported = await source.request(`/ops/shops/${shop.org.id}/export`, { headers: auth });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/vnd.sqlite3");
    expect(exported.body).toBeInstanceOf(ReadableStream);
    // Only the open file is left: its directory was removed as soon as the file was opened.
    expect(scratchDirs()).toEqual(before);

    const imported = await target.request("/ops/shops/import", {
      method: "POST",
      headers: { ...auth, "content-type": "application/vnd.sqlite3" },
      body: exported.body,
    });
    expect(imported.status).toBe(201);
    expect(await imported.json()).toMatchObject({ orgId: shop.org.id });
    const product = await target.request(`/v1/products/${shop.shirt.slug}`, { headers: { host: HOST } });
    expect(product.status).toBe(200);
    expect(((await product.json()) as { data: { id: string } }).data.id).toBe(shop.shirt.id);
  });

  test("the file stays open while its body is unread (it is read as it is sent), and a download given up before its end closes it", async () => {
    const open = openDescriptors();
    const exported = await source.request(`/ops/shops/${shop.org.id}/export`, { headers: auth });
    expect(exported.status).toBe(200);
    expect(openDescriptors()).toBe(open + 1);
    const reader = exported.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(new TextDecoder().decode(first.value!.subarray(0, 15))).toBe("SQLite format 3");
    await reader.cancel();
    expect(openDescriptors()).toBe(open);
  });

  test("an import whose body is cut short (its sender gone) or whose archive is truncated is a 400, and nothing is imported", async () => {
    const fresh = makeTestApp({ env: { NODE_TOKEN: TOKEN } });
    const before = scratchDirs();
    try {
      const archive = new Uint8Array(
        await (await source.request(`/ops/shops/${shop.org.id}/export`, { headers: auth })).arrayBuffer(),
      );
      const importing = (body: ReadableStream<Uint8Array>) =>
        fresh.request("/ops/shops/import", {
          method: "POST",
          headers: { ...auth, "content-type": "application/vnd.sqlite3" },
          body,
        });
      const half = archive.subarray(0, archive.length >> 1);
      const cut = await importing(
        new ReadableStream({
          start(controller) {
            controller.enqueue(half);
            controller.error(new Error("connection reset"));
          },
        }),
      );
      expect(cut.status).toBe(400);
      expect(await cut.json()).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "/body" }] });
      const truncated = await importing(
        new ReadableStream({
          start(controller) {
            controller.enqueue(archive.slice(0, archive.length - 4096));
            controller.close();
          },
        }),
      );
      expect(truncated.status).toBe(400);
      const refusal = (await truncated.json()) as { code: string; error: string };
      expect(refusal.code).toBe("VALIDATION_ERROR");
      expect(refusal.error).toStartWith("the archive sent is not a shop export");
      const organizations = fresh.app.ctx.platform.sqlite
        .query("SELECT count(*) AS n FROM organizations WHERE id = ?")
        .get(shop.org.id);
      expect(organizations).toEqual({ n: 0 });
      expect(existsSync(fresh.app.ctx.tenants.fileOf(shop.org.id))).toBe(false);
      expect(scratchDirs()).toEqual(before);
    } finally {
      fresh.cleanup();
    }
  });

  test("without NODE_TOKEN's bearer the export is a 401 and nothing is written; an unknown shop is a 404", async () => {
    const before = scratchDirs();
    for (const headers of [{}, { authorization: `Bearer ${"x".repeat(40)}` }] as Record<string, string>[]) {
      const refused = await source.request(`/ops/shops/${shop.org.id}/export`, { headers });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    }
    const unknown = await source.request("/ops/shops/org_unknown/export", { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(scratchDirs()).toEqual(before);
  });
});

describe("/ops/hosts", () => {
  test("lists the shops this node serves, not one whose file stays here while another node serves it (yielded)", async () => {
    const node = makeTestApp({ env: { NODE_TOKEN: TOKEN } });
    try {
      const kept = await makeShop(node, "Kept Shop", "kept.example");
      const gone = await makeShop(node, "Gone Shop", "gone.example");
      const listed = async () =>
        new Set(
          (
            (await (await node.request("/ops/hosts", { headers: auth })).json()) as {
              hosts: { orgId: string }[];
            }
          ).hosts.map((host) => host.orgId),
        );
      expect(await listed()).toEqual(new Set([kept.org.id, gone.org.id]));
      yieldShop(node.app.ctx, gone.org.id, "http://127.0.0.1:9");
      expect(await listed()).toEqual(new Set([kept.org.id]));
    } finally {
      node.cleanup();
    }
  });
});
