import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";

// `commerce seed` is documented as safe to run beside the server. Its transactions read before
// they write, so they must take the write lock up front (BEGIN IMMEDIATE): a deferred one fails
// with SQLITE_BUSY_SNAPSHOT as soon as the server commits to the same file in between.

const SEEDED = 3000; // twelve commits of 250, each racing the server's writes
const WRITE_WINDOW_MS = 20_000; // the server's write stream stops here even if the seed has not

let t: TestApp;
let server: Server<unknown>;
let origin: string;

beforeAll(() => {
  t = makeTestApp();
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

describe("commerce seed beside a running server", () => {
  test("the seed exits 0 while the server commits a stream of writes to the same tenant, and every write gets a 2xx", async () => {
    const org = await t.org("Busy shop", { host: "busy.example" });
    const headers = { "x-api-key": org.key, "content-type": "application/json" };
    const created = await fetch(`${origin}/v1/admin/products`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: { en: "Counter" }, variants: [{ price: 100, inventory: { onHand: 1 } }] }),
    });
    expect(created.status).toBe(201);
    const productId = ((await created.json()) as { data: { id: string } }).data.id;

    let seedDone = false;
    const seedRun = runCli(["seed", "--products", String(SEEDED), "--org", org.id, "--json"], {
      DATA_DIR: t.dataDir,
    }).finally(() => {
      seedDone = true;
    });

    // Alternating product edits and cart creations on the same tenant, one after another, until the
    // seed ends (bounded in time).
    const statuses: number[] = [];
    const until = Date.now() + WRITE_WINDOW_MS;
    for (let i = 0; !seedDone && Date.now() < until; i++) {
      const response =
        i % 2 === 0
          ? await fetch(`${origin}/v1/admin/products/${productId}`, {
              method: "PATCH",
              headers,
              body: JSON.stringify({ name: { en: `Counter ${i}` } }),
            })
          : await fetch(`${origin}/v1/carts`, {
              method: "POST",
              headers: { host: "busy.example", "content-type": "application/json" },
              body: JSON.stringify({ email: `shopper${i}@example.com` }),
            });
      await response.arrayBuffer();
      statuses.push(response.status);
    }

    const { code, stdout, stderr } = await seedRun;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({ orgId: org.id, created: SEEDED });
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status < 200 || status > 299)).toEqual([]);

    const list = await fetch(`${origin}/v1/admin/products?limit=1`, { headers });
    const body = (await list.json()) as { meta: { total: number } };
    expect(body.meta.total).toBe(SEEDED + 1);
    const carts = await t.app.ctx.tenants.with(org.id, (tenant) =>
      Number((tenant.sqlite.query("SELECT count(*) AS n FROM carts").get() as { n: number }).n),
    );
    expect(carts).toBe(statuses.filter((_, i) => i % 2 === 1).length);
  }, 60_000);
});
