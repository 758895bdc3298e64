// Verified Stripe notifications into one tenant, through the whole service (the ingress
// `/api/webhooks/stripe/{org}`, verified and reconciled by the ingress operation), against a
// floor: one bare Bun.serve checking the same signature and inserting the event id
// (bench/webhook-floor-server.ts). Two loads: distinct events (each applied: `payment_intent.processing`
// with a new id, so every one is a write with its history entry) and one event replayed (each a
// duplicate). Reports events/s, the p99 from sending to the answer (the order is updated when the
// ingress answers), and the ratios. Usage: bun bench/webhooks.ts
// Settings: BENCH_EVENTS (per run, default 4000), BENCH_CONCURRENCY (default 32), BENCH_ROUNDS (default 3).
import { createHmac } from "node:crypto";
import {
  type Child,
  createOrgAndKey,
  envInt,
  fmt,
  LOOPBACK,
  median,
  percentile,
  printTable,
  saveResults,
  spawnServer,
  startService,
} from "./lib.ts";

const EVENTS = envInt("BENCH_EVENTS", 4000);
const CONCURRENCY = envInt("BENCH_CONCURRENCY", 32);
const ROUNDS = envInt("BENCH_ROUNDS", 3);
const SECRET = "whsec_benchSigningSecret0123456789";

const sign = (payload: string) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac("sha256", SECRET).update(`${t}.${payload}`).digest("hex")}`;
};

// A Stripe stand-in that opens Checkout Sessions (the service needs one to create the payment).
let sessions = 0;
const fakeStripe = Bun.serve({
  hostname: LOOPBACK,
  port: 0,
  fetch: () => {
    const id = `cs_bench_${++sessions}`;
    return Response.json({ id, url: `https://checkout.stripe.test/${id}`, payment_intent: null });
  },
});

async function load(
  url: string,
  bodies: string[],
): Promise<{ perSecond: number; p99: number; failures: number }> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= bodies.length) return;
        const body = bodies[i]!;
        const sent = performance.now();
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": sign(body) },
          body,
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (response.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: bodies.length / seconds, p99: percentile(latencies, 99), failures };
}

const children: Child[] = [];
try {
  const service = await startService({
    env: {
      CHECKOUT_API_SECRET: "b".repeat(40),
      INTEGRATION_ENCRYPTION_KEY: "33".repeat(32),
      STRIPE_API_BASE: `http://${LOOPBACK}:${fakeStripe.port}`,
      STRIPE_SECRET_KEY: "sk_test_bench",
      STRIPE_PUBLISHABLE_KEY: "pk_test_bench",
      STRIPE_WEBHOOK_SECRET: SECRET,
      WEBHOOK_RATE_LIMIT_PER_MIN: "1000000",
    },
  });
  children.push(service);
  const floor = await spawnServer({
    command: [process.execPath, "bench/webhook-floor-server.ts"],
    env: { STRIPE_WEBHOOK_SECRET: SECRET },
    label: "webhook-floor",
  });
  children.push(floor);

  // One order paid by card: the events below are about its payment.
  const { org, apiKey } = await createOrgAndKey(service.dataDir);
  const admin = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, {
      method: "POST",
      headers: { "x-api-key": apiKey.key, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data: any }>);
  const product = (await admin("/v1/admin/products", { name: { en: "Bench" }, variants: [{ price: 1000 }] }))
    .data;
  const shipping = (
    await admin("/v1/admin/shipping-methods", { name: { en: "PT" }, price: 100, countries: ["PT"] })
  ).data;
  const cart = (
    await admin("/v1/carts", {
      email: "b@example.com",
      items: [{ variantId: product.variants[0].id, quantity: 1 }],
    })
  ).data;
  await admin(`/v1/carts/${cart.id}/shipping-address`, {
    firstName: "A",
    lastName: "B",
    line1: "Rua 1",
    city: "Lisboa",
    postalCode: "1100-053",
    country: "PT",
  });
  await admin(`/v1/carts/${cart.id}/shipping-method`, { shippingMethodId: shipping.id });
  const order = (await admin(`/v1/carts/${cart.id}/place-order`, { paymentMethodId: "stripe_card" })).data;
  const attemptId = order.payment.attemptId as string;
  const metadata = { orgId: org.id, orderId: order.id, attemptId };
  const event = (id: string) =>
    JSON.stringify({
      id,
      object: "event",
      type: "payment_intent.processing",
      data: { object: { id: "pi_bench", object: "payment_intent", metadata } },
    });

  const ingress = `${service.url}/api/webhooks/stripe/${org.id}`;
  const floorUrl = `${floor.url}/`;
  const rows: Record<
    string,
    { service: number[]; floor: number[]; serviceP99: number[]; floorP99: number[] }
  > = {
    distinct: { service: [], floor: [], serviceP99: [], floorP99: [] },
    replayed: { service: [], floor: [], serviceP99: [], floorP99: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    const distinct = Array.from({ length: EVENTS }, (_, i) => event(`evt_bench_${round}_${i}`));
    const same = event(`evt_bench_replayed_${round}`);
    const replayed = Array.from({ length: EVENTS }, () => same);
    for (const [name, bodies] of [
      ["distinct", distinct],
      ["replayed", replayed],
    ] as const) {
      // The floor's ids are its own (distinct stay distinct, the replayed one stays one).
      const floorBodies = bodies.map((b) => b.replace("evt_bench_", "evt_floor_"));
      const s = await load(ingress, bodies);
      const f = await load(floorUrl, floorBodies);
      if (s.failures || f.failures)
        throw new Error(`${name}: ${s.failures} service and ${f.failures} floor failures`);
      rows[name]!.service.push(s.perSecond);
      rows[name]!.floor.push(f.perSecond);
      rows[name]!.serviceP99.push(s.p99);
      rows[name]!.floorP99.push(f.p99);
    }
  }
  const table = Object.entries(rows).map(([name, r]) => {
    const service = median(r.service);
    const floorRate = median(r.floor);
    return [
      name,
      fmt(service, 0),
      fmt(floorRate, 0),
      fmt(service / floorRate),
      fmt(median(r.serviceP99)),
      fmt(median(r.floorP99)),
    ];
  });
  console.log(`${EVENTS} events per run, ${CONCURRENCY} concurrent, ${ROUNDS} rounds (medians)`);
  printTable(["load", "service ev/s", "floor ev/s", "ratio", "service p99 ms", "floor p99 ms"], table);
  saveResults("webhooks", { events: EVENTS, concurrency: CONCURRENCY, rounds: ROUNDS, rows });
} finally {
  for (const child of children) await child.stop();
  fakeStripe.stop(true);
}
