import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import {
  CHECKOUT_SECRET,
  ENCRYPTION_KEY,
  events,
  makeWorld,
  type PaymentsWorld,
  placeStripeOrder,
  providerShop,
  STRIPE,
  type StripeRefs,
  stripeHeader,
} from "../payments/helpers.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

// A payment notification is answered 200 only once its record is committed at synchronous=FULL,
// also when notifications arriving together share one commit (docs/payments.md): a SIGKILL in the
// middle of a stream of them loses none that was answered, and each one kept had its one effect.

const KILLS = 2;
const IN_FLIGHT = 32;
/** Acknowledged notifications to wait for in each life of the server before the kill. */
const PER_LIFE = 150;

let w: PaymentsWorld;
let orgId: string;
let refs: StripeRefs;

beforeAll(async () => {
  w = makeWorld();
  const shop = await providerShop(
    w.t,
    "Kill Shop",
    "kill-shop.example",
    { provider: "stripe", fields: STRIPE },
    10,
  );
  orgId = shop.org.id;
  refs = (await placeStripeOrder(shop)).refs;
  // The service owns the files from here on.
  w.t.close();
});
afterAll(() => w.close());

/** Distinct signed events, `IN_FLIGHT` at a time, until the server dies under them. */
async function streamUntilKilled(server: ServerProcess, acknowledged: string[]) {
  const target = acknowledged.length + PER_LIFE;
  const worker = async () => {
    while (!server.killed) {
      const event = events.piProcessing(refs);
      const body = JSON.stringify(event);
      const header = await stripeHeader(body, STRIPE.webhookSecret, Math.floor(Date.now() / 1000));
      let status: number;
      try {
        const response = await fetch(`${server.url}/api/webhooks/stripe/${orgId}`, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": header },
          body,
        });
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        if (server.killed) return; // killed in flight: this one may or may not have been committed
        throw error;
      }
      expect(status).toBe(200);
      acknowledged.push(event.id);
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  const deadline = Date.now() + 20_000;
  while (acknowledged.length < target && Date.now() < deadline) await Bun.sleep(2);
  await server.kill();
  await Promise.all(workers);
}

/** The store's file, read directly with the service down: every acknowledged event, each applied once. */
function checkFile(acknowledged: string[]) {
  const sqlite = new Database(join(w.t.dataDir, "tenants", `${orgId}.sqlite`));
  try {
    expect(sqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    const kept = new Set(
      (sqlite.query("SELECT event_id FROM payment_events").all() as { event_id: string }[]).map(
        (r) => r.event_id,
      ),
    );
    const missing = acknowledged.filter((id) => !kept.has(id));
    expect(missing).toEqual([]);
    // One history entry per applied event, none for an event the kill rolled back.
    const { applied } = sqlite
      .query("SELECT count(*) AS applied FROM payment_events WHERE outcome = 'applied'")
      .get() as { applied: number };
    const { entries } = sqlite
      .query("SELECT count(*) AS entries FROM order_events WHERE order_id = ? AND type = 'payment'")
      .get(refs.orderId) as { entries: number };
    expect(entries).toBe(applied);
    return kept.size;
  } finally {
    sqlite.close();
  }
}

test(`after ${KILLS} SIGKILLs during streams of payment notifications, every one answered 200 is in the store's file, applied once`, async () => {
  const acknowledged: string[] = [];
  for (let life = 0; life < KILLS; life++) {
    const server = await startServer(w.t.dataDir, {
      CHECKOUT_API_SECRET: CHECKOUT_SECRET,
      INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
      WEBHOOK_RATE_LIMIT_PER_MIN: "1000000",
    });
    await streamUntilKilled(server, acknowledged);
    expect(acknowledged.length).toBeGreaterThanOrEqual((life + 1) * PER_LIFE);
    // Committed but not yet answered when the kill came is allowed; answered but missing is not.
    expect(checkFile(acknowledged)).toBeGreaterThanOrEqual(acknowledged.length);
  }
}, 60_000);
