import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { ensureDemoTenant } from "../src/demo.ts";
import { makeTestApp, type TestApp } from "./helpers/app.ts";

// The typed-client examples run as separate processes against a live server holding the seeded demo
// store, as a developer runs them against `bun run start`; the committed types must be what the
// current OpenAPI document generates.

const ROOT = join(import.meta.dir, "..");
const SPAWN_TIMEOUT = 60_000;

let t: TestApp;
let server: Server<unknown>;
let base: string;
let demo: { apiKey: string; host: string };

beforeAll(async () => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base, DEMO_TENANT: "true" } });
  const seeded = await ensureDemoTenant(t.app.ctx);
  if (!seeded?.apiKey) throw new Error("the demo store was not seeded with an admin key");
  demo = { apiKey: seeded.apiKey, host: seeded.host };
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

/** Runs `bun <args>` from the repository root with only the given settings; its exit code and output. */
async function runBun(args: string[], env: Record<string, string>) {
  const child = Bun.spawn(["bun", ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}

const admin = (path: string) => t.json(path, { headers: { "x-api-key": demo.apiKey } });

describe("examples/storefront.ts and examples/admin.ts against a live server", () => {
  let orderId: string;

  test(
    "the storefront example buys with a coupon and reads its order back with the access token",
    async () => {
      const run = await runBun(["examples/storefront.ts", base], {
        COMMERCE_HOST: demo.host,
        BUYER_EMAIL: "rui@example.com",
      });
      expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(run.stdout).toContain("Coupon WELCOME10: discount");
      expect(run.stdout).toMatch(
        /Order \d+ read back: 1 line\(s\), status open, payment pending, coupon WELCOME10/,
      );
      orderId = /Order placed: (ord_\w+)/.exec(run.stdout)?.[1] ?? "";

      // The order is in the demo store: the buyer's, one line, the coupon, shipped to the address given.
      const order = await admin(`/v1/admin/orders/${orderId}`);
      expect(order.status).toBe(200);
      expect(order.body.data).toMatchObject({
        email: "rui@example.com",
        status: "open",
        paymentStatus: "pending",
        fulfillmentStatus: "unfulfilled",
        coupon: { code: "WELCOME10" },
        shippingAddress: { city: "Lisboa", country: "PT" },
      });
      expect(order.body.data.items).toHaveLength(1);
      expect(order.body.data.totals.discount.amount).toBeGreaterThan(0);
    },
    SPAWN_TIMEOUT,
  );

  test(
    "the admin example creates a stocked product, then fulfils and refunds the order",
    async () => {
      const run = await runBun(["examples/admin.ts", base], {
        COMMERCE_API_KEY: demo.apiKey,
        ORDER_ID: orderId,
      });
      expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(run.stdout).toContain("Marked paid: payment paid");

      const order = (await admin(`/v1/admin/orders/${orderId}`)).body.data;
      expect(order.fulfillmentStatus).toBe("fulfilled");
      expect(order.paymentStatus).toBe("refunded");
      expect(order.fulfillments).toHaveLength(1);
      expect(order.fulfillments[0].carrier).toBe("CTT");
      expect(order.refunds).toHaveLength(1);
      expect(order.refunds[0].amount).toEqual(order.totals.total);

      // The product it created is live with the stock it set.
      const productId = /Product created: .* \((prod_\w+)\)/.exec(run.stdout)?.[1];
      const product = await admin(`/v1/admin/products/${productId}`);
      expect(product.status).toBe(200);
      expect(product.body.data.status).toBe("active");
      expect(product.body.data.variants).toHaveLength(1);
      expect(product.body.data.variants[0].inventory).toMatchObject({ tracked: true, onHand: 25 });
    },
    SPAWN_TIMEOUT,
  );

  test(
    "an example exits non-zero with the API's error when a request is refused",
    async () => {
      const noShop = await runBun(["examples/storefront.ts", base], { COMMERCE_HOST: "nowhere.localhost" });
      expect(noShop.exitCode).toBe(1);
      expect(noShop.stderr).toMatch(/^list products: HTTP 4\d\d \{"error":/);

      const badKey = await runBun(["examples/admin.ts", base], { COMMERCE_API_KEY: "ck_not_a_key" });
      expect(badKey.exitCode).toBe(1);
      expect(badKey.stderr).toMatch(/^create product: HTTP 401 \{"error":.*"code":"UNAUTHORIZED"/);
    },
    SPAWN_TIMEOUT,
  );
});

describe("the typed client cannot drift from the OpenAPI document", () => {
  test(
    "regenerating the types from the served document gives the committed examples/api-types.ts",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "commerce-client-types-"));
      try {
        const out = join(dir, "api-types.ts");
        const run = await runBun(["scripts/client-gen.ts", out], {});
        expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
        const committed = readFileSync(join(ROOT, "examples/api-types.ts"), "utf8");
        // On a difference: run `bun run client:gen` and commit examples/api-types.ts.
        expect(readFileSync(out, "utf8")).toBe(committed);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT,
  );
});
