import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  deliverStripe,
  events,
  makeWorld,
  type PaymentsWorld,
  placeStripeOrder,
  providerShop,
  STRIPE,
  type StripeRefs,
  stockOf,
} from "./helpers.ts";

// Every card scenario of the reconciliation table, with its notifications delivered in every
// order and each delivered twice (the whole sequence again): the final order state, stock and
// refund totals must be the same whatever the order.

let w: PaymentsWorld;
let shop: Shop;

beforeAll(async () => {
  w = makeWorld();
  shop = await providerShop(
    w.t,
    "Scenario Shop",
    "scenarios.example",
    { provider: "stripe", fields: STRIPE },
    1000,
  );
});
afterAll(() => w.close());

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

interface Context {
  refs: StripeRefs;
  order: { id: string; accessToken: string };
  /** Extra references a scenario prepared (a second session, an admin refund). */
  extra: Record<string, any>;
}

type Step = { name: string; run: (c: Context) => Promise<unknown> };

const hook = (name: string, build: (c: Context) => unknown): Step => ({
  name,
  run: async (c) => {
    const res = await deliverStripe(w, shop.org.id, build(c));
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  },
});

interface Scenario {
  name: string;
  prepare?: (c: Context) => Promise<void>;
  steps: Step[];
  final: {
    status: string;
    paymentStatus: string;
    stock: "held" | "released";
    refunded?: (c: Context) => number;
    flags?: string[];
  };
}

const returnConfirmation: Step = {
  name: "return",
  run: async (c) => {
    w.stripe.sessionState.set(c.refs.sessionId, {
      status: "complete",
      payment_status: "paid",
      amount_total: c.refs.amount,
      currency: "eur",
      payment_intent: c.refs.paymentIntent,
    });
    const res = await shop.storefront(
      `/v1/orders/${c.order.id}/payment/confirm?token=${c.order.accessToken}`,
      {
        body: { sessionId: c.refs.sessionId },
      },
    );
    if (res.status !== 200) throw new Error(`return: ${res.status}`);
  },
};

const SCENARIOS: Scenario[] = [
  {
    name: "Card, shopper returns",
    steps: [
      returnConfirmation,
      hook("#1 paid", (c) => c.extra.completed),
      hook("#5", (c) => c.extra.piSucceeded),
    ],
    final: { status: "open", paymentStatus: "paid", stock: "held" },
  },
  {
    name: "3-D Secure, browser closed",
    steps: [hook("#1 paid", (c) => c.extra.completed)],
    final: { status: "open", paymentStatus: "paid", stock: "held" },
  },
  {
    name: "3-D Secure fails, retry in session succeeds",
    steps: [
      hook("#6", (c) => c.extra.piFailed),
      hook("#5", (c) => c.extra.piSucceeded),
      hook("#1 paid", (c) => c.extra.completed),
    ],
    final: { status: "open", paymentStatus: "paid", stock: "held" },
  },
  {
    name: "Async bank transfer",
    steps: [hook("#1 unpaid", (c) => c.extra.completedUnpaid), hook("#2", (c) => c.extra.asyncSucceeded)],
    final: { status: "open", paymentStatus: "paid", stock: "held" },
  },
  {
    name: "Async transfer fails",
    steps: [hook("#1 unpaid", (c) => c.extra.completedUnpaid), hook("#3", (c) => c.extra.asyncFailed)],
    final: { status: "cancelled", paymentStatus: "failed", stock: "released" },
  },
  {
    name: "Abandoned session",
    steps: [hook("#4", (c) => c.extra.expired), hook("#7", (c) => c.extra.piCanceled)],
    final: { status: "cancelled", paymentStatus: "expired", stock: "released" },
  },
  {
    name: "Session A abandoned, session B paid, A expires late",
    prepare: async (c) => {
      const retried = await shop.storefront(`/v1/orders/${c.order.id}/payment?token=${c.order.accessToken}`, {
        body: {},
      });
      const b = retried.body.data.payment;
      const refsB: StripeRefs = {
        ...c.refs,
        attemptId: b.attemptId,
        sessionId: b.action.url.split("/").at(-1),
        paymentIntent: `pi_b_${b.attemptId.slice(4)}`,
      };
      c.extra.completedB = events.completed(refsB);
    },
    steps: [hook("#1 paid for B", (c) => c.extra.completedB), hook("#4 for A", (c) => c.extra.expired)],
    final: { status: "open", paymentStatus: "paid", stock: "held" },
  },
  {
    name: "Amount tampered or wrong currency",
    steps: [
      hook("#1 tampered", (c) => c.extra.tampered),
      hook("#5 wrong currency", (c) => c.extra.wrongCurrency),
    ],
    final: { status: "open", paymentStatus: "pending", stock: "held", flags: ["amount_mismatch"] },
  },
  {
    name: "Partial refund in Stripe",
    prepare: async (c) => {
      await deliverStripe(w, shop.org.id, c.extra.completed);
      c.extra.part = Math.floor(c.refs.amount / 4);
      c.extra.refundCreated = events.refundCreated(c.refs, {
        id: `re_p_${c.refs.attemptId}`,
        amount: c.extra.part,
      });
      c.extra.chargeRefunded = events.chargeRefunded(c.refs, c.extra.part, [
        { id: `re_p_${c.refs.attemptId}`, amount: c.extra.part },
      ]);
    },
    steps: [hook("#11", (c) => c.extra.refundCreated), hook("#10", (c) => c.extra.chargeRefunded)],
    final: {
      status: "open",
      paymentStatus: "partially_refunded",
      stock: "held",
      refunded: (c) => c.extra.part,
    },
  },
  {
    name: "Admin refund through the API",
    prepare: async (c) => {
      await deliverStripe(w, shop.org.id, c.extra.completed);
      const refund = await shop.admin.post(`/v1/admin/orders/${c.order.id}/refund`, { amount: 700 });
      const refundId = refund.body.data.refunds[0].id as string;
      const row = (await w.t.app.ctx.tenants.with(shop.org.id, (tenant) =>
        tenant.sqlite.query("SELECT provider_refund_id FROM payment_refunds WHERE id = ?").get(refundId),
      )) as { provider_refund_id: string };
      const re = row.provider_refund_id;
      c.extra.refundCreated = events.refundCreated(c.refs, { id: re, amount: 700, refundId });
      c.extra.chargeRefunded = events.chargeRefunded(c.refs, 700, [{ id: re, amount: 700, refundId }]);
    },
    steps: [hook("#11", (c) => c.extra.refundCreated), hook("#10", (c) => c.extra.chargeRefunded)],
    final: { status: "open", paymentStatus: "partially_refunded", stock: "held", refunded: () => 700 },
  },
];

describe("Every permutation of each card reconciliation scenario ends in the same order state, stock and refund totals", () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, async () => {
      const results: string[] = [];
      for (const order of permutations(scenario.steps)) {
        const start = await stockOf(shop);
        const placed = await placeStripeOrder(shop);
        const c: Context = { refs: placed.refs, order: placed.order, extra: {} };
        const r = c.refs;
        Object.assign(c.extra, {
          completed: events.completed(r),
          completedUnpaid: events.completed(r, "unpaid"),
          asyncSucceeded: events.asyncSucceeded(r),
          asyncFailed: events.asyncFailed(r),
          expired: events.expired(r),
          piSucceeded: events.piSucceeded(r),
          piFailed: events.piFailed(r),
          piCanceled: events.piCanceled(r),
          tampered: events.completed(r, "paid", { amount_total: r.amount - 1 }),
          wrongCurrency: events.piSucceeded(r, { currency: "usd" }),
        });
        await scenario.prepare?.(c);
        // Every notification in this order, then all of them again.
        for (const step of [...order, ...order]) await step.run(c);
        const after = await adminOrder(shop, c.order.id);
        const stock = (await stockOf(shop)) === start ? "released" : "held";
        expect({
          order: order.map((s) => s.name).join(" → "),
          status: after.status,
          paymentStatus: after.paymentStatus,
          stock,
          refunded: after.totals.refunded.amount,
          flags: after.paymentFlags,
        }).toEqual({
          order: order.map((s) => s.name).join(" → "),
          status: scenario.final.status,
          paymentStatus: scenario.final.paymentStatus,
          stock: scenario.final.stock,
          refunded: scenario.final.refunded?.(c) ?? 0,
          flags: scenario.final.flags ?? [],
        });
        results.push(`${after.status}/${after.paymentStatus}/${stock}`);
      }
      expect(new Set(results).size).toBe(1);
    });
  }
});
