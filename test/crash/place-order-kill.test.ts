import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop, PT_ADDRESS } from "../helpers/shop.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

// Place-order is committed at synchronous=FULL before it answers (docs/orders.md, docs/storage.md):
// a SIGKILL in the middle of a stream of orders must lose no acknowledged order, leave stock equal
// to what the held orders took, keep order numbers 1001, 1002… without gaps, and leave both files intact.

const KILLS = 3;
const WORKERS = 4;
/** Acknowledged orders to wait for in each life of the server before the kill. */
const ORDERS_PER_LIFE = 12;
const PLENTY = 100_000;
/** Runs out during the test, so refused orders (409 INSUFFICIENT_STOCK) are part of the stream too. */
const SCARCE = 12;

interface AcknowledgedOrder {
  id: string;
  number: number;
  lines: { variantId: string; quantity: number }[];
}

let t: TestApp;
let host: string;
let orgId: string;
let adminKey: string;
let shippingMethodId: string;
let plentyVariant: string;
let scarceVariant: string;

beforeAll(async () => {
  t = makeTestApp();
  host = "crash.example";
  const shop = await makeShop(t, "Crash Shop", host);
  orgId = shop.org.id;
  adminKey = shop.org.key;
  shippingMethodId = shop.ptShipping.id;
  const plenty = await shop.admin.post(
    "/v1/admin/products",
    simpleProduct("Plenty", 500, { status: "active" }),
  );
  const scarce = await shop.admin.post(
    "/v1/admin/products",
    simpleProduct("Scarce", 700, { status: "active" }),
  );
  plentyVariant = plenty.body.data.variants[0].id;
  scarceVariant = scarce.body.data.variants[0].id;
  await shop.admin.patch(`/v1/admin/inventory/${plentyVariant}`, { onHand: PLENTY, tracked: true });
  await shop.admin.patch(`/v1/admin/inventory/${scarceVariant}`, { onHand: SCARCE, tracked: true });
  // The service owns the files from here on.
  t.close();
});
afterAll(() => t.cleanup());

/** Cart, address, shipping, place-order: one shopper's checkout; returns the order once acknowledged. */
async function checkout(
  url: string,
  n: number,
  withScarce = n % 2 === 0,
): Promise<AcknowledgedOrder | "refused"> {
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { host, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const lines = [{ variantId: plentyVariant, quantity: 1 + (n % 3) }];
  if (withScarce) lines.push({ variantId: scarceVariant, quantity: 1 });
  const cart = await call("/v1/carts", { email: `buyer${n}@example.com`, items: lines });
  // Once the scarce variant ran out, the cart itself is refused.
  if (cart.status === 409 && cart.body.code === "INSUFFICIENT_STOCK") return "refused";
  if (cart.status !== 201) throw new Error(`cart: ${cart.status} ${JSON.stringify(cart.body)}`);
  const cartId = cart.body.data.id;
  await call(`/v1/carts/${cartId}/shipping-address`, PT_ADDRESS);
  await call(`/v1/carts/${cartId}/shipping-method`, { shippingMethodId });
  const placed = await call(`/v1/carts/${cartId}/place-order`, {}, { "idempotency-key": `order-${n}` });
  if (placed.status === 409 && placed.body.code === "INSUFFICIENT_STOCK") return "refused";
  if (placed.status !== 201) throw new Error(`place-order: ${placed.status} ${JSON.stringify(placed.body)}`);
  return { id: placed.body.data.id, number: placed.body.data.number, lines };
}

/**
 * Workers place orders until the server dies under them; the kill comes once this life has
 * acknowledged ORDERS_PER_LIFE orders, while the others' checkouts are still in flight.
 */
async function streamUntilKilled(
  server: ServerProcess,
  acknowledged: AcknowledgedOrder[],
  counter: { n: number },
) {
  const target = acknowledged.length + ORDERS_PER_LIFE;
  let refused = 0;
  const worker = async () => {
    for (;;) {
      let result: AcknowledgedOrder | "refused";
      try {
        result = await checkout(server.url, counter.n++);
      } catch (error) {
        if (server.killed) return; // killed mid-checkout: this order may or may not have been committed
        throw error;
      }
      if (result === "refused") refused++;
      else acknowledged.push(result);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  const deadline = Date.now() + 15_000;
  while (acknowledged.length < target && Date.now() < deadline) await Bun.sleep(5);
  await server.kill();
  await Promise.all(workers);
  return { refused };
}

/** Checks the files directly, with the service down. */
function checkFiles(dataDir: string, acknowledged: AcknowledgedOrder[]) {
  const platformSqlite = new Database(join(dataDir, "platform.sqlite"));
  const tenantSqlite = new Database(join(dataDir, "tenants", `${orgId}.sqlite`));
  try {
    expect(platformSqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(tenantSqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });

    // Every acknowledged order is there, with its number and lines.
    for (const order of acknowledged) {
      const row = tenantSqlite.query("SELECT number FROM orders WHERE id = ?").get(order.id) as {
        number: number;
      } | null;
      expect(row).toEqual({ number: order.number });
      const lines = tenantSqlite
        .query(
          "SELECT variant_id AS variantId, quantity FROM order_items WHERE order_id = ? ORDER BY position",
        )
        .all(order.id);
      expect(lines).toEqual(order.lines);
    }

    // Numbers: `max + 1` from 1001 inside the placing transaction, so 1001…1000+n with no gap or twin.
    const numbers = (
      tenantSqlite.query("SELECT number FROM orders ORDER BY number").all() as { number: number }[]
    ).map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => 1001 + i));

    // Stock: what is on hand plus what the held orders took is what there was, for each variant.
    for (const [variantId, initial] of [
      [plentyVariant, PLENTY],
      [scarceVariant, SCARCE],
    ] as const) {
      const { onHand } = tenantSqlite
        .query("SELECT on_hand AS onHand FROM variants WHERE id = ?")
        .get(variantId) as {
        onHand: number;
      };
      const { taken } = tenantSqlite
        .query(
          `SELECT coalesce(sum(i.stock_taken), 0) AS taken FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE i.variant_id = ? AND o.stock_held = 1`,
        )
        .get(variantId) as { taken: number };
      expect(onHand + taken).toBe(initial);
      expect(onHand).toBeGreaterThanOrEqual(0);
    }
    return numbers.length;
  } finally {
    platformSqlite.close();
    tenantSqlite.close();
  }
}

describe("SIGKILL during a stream of place-order requests", () => {
  test(`after ${KILLS} kills and restarts on the same files, every acknowledged order is kept, stock and numbers agree, files are intact`, async () => {
    const acknowledged: AcknowledgedOrder[] = [];
    const counter = { n: 0 };
    let refused = 0;
    let stored = 0;
    for (let life = 0; life < KILLS; life++) {
      const server = await startServer(t.dataDir);
      refused += (await streamUntilKilled(server, acknowledged, counter)).refused;
      expect(acknowledged.length).toBeGreaterThanOrEqual((life + 1) * ORDERS_PER_LIFE);
      stored = checkFiles(t.dataDir, acknowledged);
      // Committed but not yet answered when the kill came is allowed; acknowledged but missing is not.
      expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
    }
    // The scarce variant ran out along the way, so refusals were part of the stream.
    expect(refused).toBeGreaterThan(0);

    // A last start serves what the files hold: the same orders, and the next number follows on.
    const server = await startServer(t.dataDir);
    try {
      const listed = await fetch(`${server.url}/v1/admin/orders?limit=1`, {
        headers: { "x-api-key": adminKey },
      });
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { meta: { total: number } }).meta.total).toBe(stored);
      const next = await checkout(server.url, counter.n++, false);
      expect(next).not.toBe("refused");
      expect((next as AcknowledgedOrder).number).toBe(1001 + stored);
    } finally {
      await server.kill();
    }
  }, 60_000);
});
