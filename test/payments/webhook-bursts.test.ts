import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../helpers/app.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  CHECKOUT_SECRET,
  deliverStripe,
  ENCRYPTION_KEY,
  events,
  makeWorld,
  type PaymentsWorld,
  placeStripeOrder,
  providerShop,
  STRIPE,
  type StripeRefs,
  stockOf,
  stripeHeader,
} from "./helpers.ts";

// Notifications to one store that arrive together share one durable commit (docs/payments.md,
// "Bursts of notifications"). Each is still answered only after its own record is committed, a
// replay still has no effect, and a bad signature is still refused, whatever else the burst holds.

type Event = { id: string };

/** Signs every event first, then sends them all at once, so that they reach the store together. */
async function burst(w: PaymentsWorld, org: string, list: Event[], secret = STRIPE.webhookSecret) {
  const t = Math.floor(w.clock.now / 1000);
  const signed = await Promise.all(
    list.map(async (event) => {
      const payload = JSON.stringify(event);
      return { payload, header: await stripeHeader(payload, secret, t) };
    }),
  );
  return Promise.all(signed.map((delivery) => deliverStripe(w, org, null, delivery)));
}

const paymentHistory = (order: { events: { type: string }[] }) =>
  order.events.filter((e) => e.type === "payment").length;

function eventIds(w: PaymentsWorld, orgId: string): Promise<string[]> {
  return w.t.app.ctx.tenants.with(orgId, (tenant) =>
    (tenant.sqlite.query("SELECT event_id FROM payment_events").all() as { event_id: string }[]).map(
      (r) => r.event_id,
    ),
  );
}

/** `n` distinct `payment_intent.processing` events about one payment: each is applied. */
const processingEvents = (refs: StripeRefs, n: number) =>
  Array.from({ length: n }, () => events.piProcessing(refs));

describe("a burst of notifications to one store", () => {
  let w: PaymentsWorld;
  let shop: Shop;
  beforeAll(async () => {
    w = makeWorld();
    shop = await providerShop(
      w.t,
      "Burst Shop",
      "burst-shop.example",
      { provider: "stripe", fields: STRIPE },
      100,
    );
  });
  afterAll(() => w.close());

  test("60 distinct events delivered together are each answered 200 applied and recorded exactly once, each with its history entry", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const list = processingEvents(refs, 60);
    const answers = await burst(w, shop.org.id, list);
    expect(answers.map((a) => [a.status, a.body.data.outcome])).toEqual(Array(60).fill([200, "applied"]));
    const recorded = await eventIds(w, shop.org.id);
    for (const event of list) expect(recorded.filter((id) => id === event.id)).toHaveLength(1);
    const after = await adminOrder(shop, order.id);
    expect(after.paymentStatus).toBe("processing");
    expect(paymentHistory(after)).toBe(60);
  });

  test("50 concurrent deliveries of the same event have one effect: one applied, 49 duplicates, one record, one history entry", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const stock = await stockOf(shop);
    const event = events.expired(refs);
    const answers = await burst(w, shop.org.id, Array(50).fill(event));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const outcomes = answers.map((a) => a.body.data.outcome);
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(49);
    expect((await eventIds(w, shop.org.id)).filter((id) => id === event.id)).toHaveLength(1);
    const after = await adminOrder(shop, order.id);
    expect(after).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(paymentHistory(after)).toBe(1);
    expect(await stockOf(shop)).toBe(stock + 1);
  });

  test("a wrongly signed event sent with a burst is refused 401 and recorded nowhere; the rest of the burst is applied", async () => {
    const { refs } = await placeStripeOrder(shop);
    const good = processingEvents(refs, 10);
    const [forged] = processingEvents(refs, 1);
    const [answers, refused] = await Promise.all([
      burst(w, shop.org.id, good),
      burst(w, shop.org.id, [forged!], "whsec_notTheStoresSecret0000000000"),
    ]);
    expect(answers.map((a) => a.body.data.outcome)).toEqual(Array(10).fill("applied"));
    expect(refused[0]).toMatchObject({
      status: 401,
      body: { code: "WEBHOOK_SIGNATURE_INVALID", status: 401 },
    });
    expect(await eventIds(w, shop.org.id)).not.toContain(forged!.id);
  });
});

test("every event answered 200 in a burst is in the store's file after the app is closed and reopened", async () => {
  const w = makeWorld();
  try {
    const shop = await providerShop(
      w.t,
      "Reopen Shop",
      "reopen-shop.example",
      { provider: "stripe", fields: STRIPE },
      10,
    );
    const { order, refs } = await placeStripeOrder(shop);
    const list = processingEvents(refs, 40);
    const answers = await burst(w, shop.org.id, list);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    w.t.close();

    const reopened = makeTestApp({
      dataDir: w.t.dataDir,
      env: { CHECKOUT_API_SECRET: CHECKOUT_SECRET, INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY },
    });
    try {
      const recorded = await reopened.app.ctx.tenants.with(shop.org.id, (tenant) =>
        tenant.sqlite.query("SELECT event_id, outcome FROM payment_events").all(),
      );
      for (const event of list) expect(recorded).toContainEqual({ event_id: event.id, outcome: "applied" });
      const read = await reopened.json(`/v1/admin/orders/${order.id}`, {
        headers: { "x-api-key": shop.org.key },
      });
      expect(paymentHistory(read.body.data)).toBe(40);
    } finally {
      reopened.close();
    }
  } finally {
    w.close();
  }
});
