import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { claimRoute } from "../../src/payments/attempts.ts";
import { setPaymentsClock } from "../../src/payments/state.ts";
import { sweepPayments } from "../../src/payments/sweep.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  CHECKOUT_SECRET,
  deliverStripe,
  ENCRYPTION_KEY,
  events,
  makeWorld,
  type PaymentsWorld,
  paymentShop,
  placeStripeOrder,
  STRIPE_ENV,
} from "./helpers.ts";

// The routes of `_` notifications and each tenant's next expiry deadline are control-plane records
// (`payment_routes`, `organizations.next_payment_deadline`): a new process on the same DATA_DIR uses
// them as they are, opening only the tenant a notification or the sweep is about.

let w: PaymentsWorld;
let envShop: Shop;
let other: Shop;
const fresh: TestApp[] = [];

beforeAll(async () => {
  w = makeWorld(STRIPE_ENV);
  envShop = await paymentShop(w.t, "Env Routes", "env-routes.example");
  other = await paymentShop(w.t, "Bystander", "bystander.example");
});
afterAll(() => {
  for (const t of fresh) t.close();
  w.close();
});

/** The platform file as another process sees it. */
function platformRows<T>(sql: string, ...params: string[]): T[] {
  const sqlite = new Database(join(w.t.dataDir, "platform.sqlite"), { readonly: true });
  try {
    return sqlite.query(sql).all(...params) as T[];
  } finally {
    sqlite.close();
  }
}

/** Closes the running app and starts a new one on the same DATA_DIR; records the tenants it opens. */
function restart(): { world: PaymentsWorld; opened: string[] } {
  w.t.close();
  const t = makeTestApp({
    dataDir: w.t.dataDir,
    env: {
      CHECKOUT_API_SECRET: CHECKOUT_SECRET,
      INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
      STRIPE_API_BASE: w.stripe.url,
      IFTHENPAY_BASE_URL: w.ifthenpay.url,
      EASYPAY_BASE_URL: w.easypay.url,
      ...STRIPE_ENV,
    },
  });
  fresh.push(t);
  setPaymentsClock(t.app.ctx, () => w.clock.now);
  const opened: string[] = [];
  const tenants = t.app.ctx.tenants;
  const acquire = tenants.acquire.bind(tenants);
  tenants.acquire = (orgId: string) => {
    opened.push(orgId);
    return acquire(orgId);
  };
  const world = { ...w, t };
  w = world;
  envShop = on(t, envShop);
  other = on(t, other);
  return { world, opened };
}

/** The same shop, reached through another app. */
function on(t: TestApp, shop: Shop): Shop {
  const storefront: Shop["storefront"] = (path, init = {}) =>
    t.json(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        host: shop.host,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  return { ...shop, admin: adminClient(t, shop.org.key), storefront };
}

describe("payment records in the control plane", () => {
  test("a `_` notification finds its tenant through payment_routes after a restart, opening no other tenant", async () => {
    const { order, refs } = await placeStripeOrder(envShop);
    const routes = platformRows<{ provider: string; ref: string; organization_id: string }>(
      "SELECT provider, ref, organization_id FROM payment_routes WHERE organization_id = ? ORDER BY ref",
      envShop.org.id,
    );
    expect(routes.map((r) => `${r.provider}:${r.ref}`).sort()).toEqual(
      [`stripe:${refs.attemptId}`, `stripe:${refs.sessionId}`].sort(),
    );
    expect(platformRows("SELECT 1 FROM payment_routes WHERE organization_id = ?", other.org.id)).toEqual([]);
    // A reference routed to one organization cannot be claimed by another (a collision).
    expect(claimRoute(w.t.app.ctx, other.org.id, "stripe", refs.sessionId)).toBe(false);
    expect(claimRoute(w.t.app.ctx, envShop.org.id, "stripe", refs.sessionId)).toBe(true);

    const { world, opened } = restart();
    const res = await deliverStripe(
      world,
      "_",
      events.completed({ ...refs, attemptId: "" }, "paid", { metadata: {} }),
      {
        secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
      },
    );
    expect(res.body.data.outcome).toBe("applied");
    expect(opened).toEqual([envShop.org.id]);
    expect((await adminOrder(envShop, order.id)).paymentStatus).toBe("paid");
    // The payment intent learnt from the notification routes too.
    const pi = platformRows<{ organization_id: string }>(
      "SELECT organization_id FROM payment_routes WHERE provider = 'stripe' AND ref = ?",
      refs.paymentIntent,
    );
    expect(pi).toEqual([{ organization_id: envShop.org.id }]);
  });

  test("the sweep finds a tenant through organizations.next_payment_deadline after a restart", async () => {
    const { order } = await placeStripeOrder(envShop);
    const expiresAt = Date.parse(order.payment.expiresAt);
    const [row] = platformRows<{ at: number | null }>(
      "SELECT next_payment_deadline AS at FROM organizations WHERE id = ?",
      envShop.org.id,
    );
    // Expiry + the card's 24 h grace (the earliest of the values the attempt had).
    expect(row!.at).toBeLessThanOrEqual(expiresAt + 24 * 3600_000);
    expect(row!.at).toBeGreaterThan(expiresAt + 24 * 3600_000 - 60_000);
    expect(
      platformRows("SELECT next_payment_deadline AS at FROM organizations WHERE id = ?", other.org.id),
    ).toEqual([{ at: null }]);

    const { world, opened } = restart();
    try {
      world.clock.offset = expiresAt + 24 * 3600_000 + 60_000 - Date.now();
      const result = await sweepPayments(world.t.app.ctx);
      expect(result.expired).toBe(1);
      expect(new Set(opened)).toEqual(new Set([envShop.org.id]));
      // Nothing unpaid is left: the deadline is cleared, and the next round opens nothing.
      expect(
        platformRows("SELECT next_payment_deadline AS at FROM organizations WHERE id = ?", envShop.org.id),
      ).toEqual([{ at: null }]);
      opened.length = 0;
      expect(await sweepPayments(world.t.app.ctx)).toEqual({ expired: 0, paid: 0, skipped: 0 });
      expect(opened).toEqual([]);
    } finally {
      world.clock.offset = 0;
    }
    expect(await adminOrder(envShop, order.id)).toMatchObject({
      status: "cancelled",
      paymentStatus: "expired",
    });
  });
});
