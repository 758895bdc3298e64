import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sweepPayments } from "../../src/payments/sweep.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  CHECKOUT_SECRET,
  EASYPAY,
  makeWorld,
  type PaymentsWorld,
  paymentShop,
  placeWith,
  providerShop,
  putIntegration,
  stockOf,
} from "./helpers.ts";

let w: PaymentsWorld;
let shop: Shop;

beforeAll(async () => {
  w = makeWorld();
  shop = await providerShop(
    w.t,
    "Easypay Shop",
    "easypay-shop.example",
    { provider: "easypay", fields: EASYPAY },
    100,
  );
});
afterAll(() => w.close());

/** Easypay's generic notification, posted to the ingress. */
function notify(body: Record<string, unknown>, headers: Record<string, string> = {}, org = shop.org.id) {
  return w.t.json(`/api/webhooks/easypay/${org}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function easypayOrder(method = "easypay_multibanco", variantIndex = 0) {
  const res = await placeWith(shop, method, { variantIndex });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  const order = res.body.data;
  const payment = [...w.easypay.payments.values()].find((p) => p.key === order.payment.attemptId)!;
  return { order, payment };
}

const capture = (paymentId: string, key: string) => ({
  id: crypto.randomUUID(),
  key,
  type: "capture",
  status: "success",
  messages: ["Your request was successfully created"],
  date: "2026-11-20T10:00:00Z",
  paymentId,
});

describe("single payments", () => {
  test("place-order creates an Easypay single payment after the commit and shows its Multibanco reference", async () => {
    const { order, payment } = await easypayOrder();
    const recorded = w.easypay.calls.findLast((c) => c.path === "/2.0/single" && c.method === "POST")!;
    expect(recorded.headers.accountid).toBe(EASYPAY.accountId);
    expect(recorded.headers.apikey).toBe(EASYPAY.apiKey);
    const body = JSON.parse(recorded.body);
    expect(body).toMatchObject({
      type: "sale",
      key: order.payment.attemptId,
      value: order.totals.total.amount / 100,
      currency: "EUR",
      method: "mb",
      capture: { transaction_key: order.payment.attemptId },
    });
    expect(order.payment).toMatchObject({ provider: "easypay", method: "multibanco", status: "created" });
    expect(order.payment.action).toMatchObject({
      type: "reference",
      entity: "21098",
      reference: payment.method.reference,
    });
  });

  test("An Easypay notification whose re-fetch shows paid with matching key, value and currency marks the order paid; the fake server saw AccountId and ApiKey", async () => {
    const { order, payment } = await easypayOrder();
    payment.payment_status = "paid";
    const before = w.easypay.calls.length;
    const res = await notify(capture(payment.id, payment.key));
    expect(res).toMatchObject({ status: 200, body: { data: { received: true, outcome: "applied" } } });
    const fetch = w.easypay.calls.slice(before).find((c) => c.method === "GET")!;
    expect(fetch.path).toBe(`/2.0/single/${payment.id}`);
    expect(fetch.headers.accountid).toBe(EASYPAY.accountId);
    expect(fetch.headers.apikey).toBe(EASYPAY.apiKey);
    expect(await adminOrder(shop, order.id)).toMatchObject({ status: "open", paymentStatus: "paid" });
    // Another notice, found by its payment id alone: the attempt is already paid.
    const again = await notify({ ...capture(payment.id, payment.key), id: payment.id, key: undefined });
    expect(again.body.data.outcome).toBe("stale");
    expect(
      (await adminOrder(shop, order.id)).events.filter((e: { type: string }) => e.type === "payment"),
    ).toHaveLength(1);
  });

  test("A forged Easypay notification (status: success) whose re-fetch shows pending leaves the order unpaid (200 ignored); a re-fetch 404 → 401; a re-fetch timeout → 503", async () => {
    const { order, payment } = await easypayOrder();
    const note = capture(payment.id, payment.key);
    const forged = await notify(note);
    expect(forged).toMatchObject({ status: 200, body: { data: { outcome: "ignored" } } });
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
    // The forged notice used up nothing: the real one, later, is applied.
    payment.payment_status = "paid";
    w.easypay.singleStatus = 404;
    const missing = await notify(note);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    w.easypay.singleStatus = 500;
    const broken = await notify(note);
    expect(broken.status).toBe(503);
    expect(broken.body.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(broken.response.headers.get("retry-after")).not.toBeNull();
    w.easypay.singleStatus = null;
    w.easypay.mode = "hang";
    const started = Date.now();
    const slow = await notify(note);
    w.easypay.mode = "ok";
    expect(slow.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
    const real = await notify(note);
    expect(real.body.data.outcome).toBe("applied");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  }, 20_000);

  test("With an Easypay webhookSecret set, a notification without the matching Basic credentials → 401 before any re-fetch", async () => {
    const guarded = await paymentShop(w.t, "Guarded", "guarded-easypay.example");
    const secret = "basic-auth-secret-0123";
    await putIntegration(w.t, guarded.org.key, "easypay", { fields: { ...EASYPAY, webhookSecret: secret } });
    const res = await placeWith(guarded, "easypay_multibanco");
    const payment = [...w.easypay.payments.values()].find((p) => p.key === res.body.data.payment.attemptId)!;
    payment.payment_status = "paid";
    const before = w.easypay.calls.length;
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    for (const headers of [
      {} as Record<string, string>,
      { authorization: basic("easypay", "wrong-secret-000000") },
      { authorization: `Bearer ${secret}` },
    ]) {
      const denied = await notify(capture(payment.id, payment.key), headers, guarded.org.id);
      expect(denied.status).toBe(401);
    }
    expect(w.easypay.calls.length).toBe(before);
    const ok = await notify(
      capture(payment.id, payment.key),
      { authorization: basic("anyone", secret) },
      guarded.org.id,
    );
    expect(ok.body.data.outcome).toBe("applied");
  });

  test("a fetched value, currency or key that differs from the attempt is a mismatch", async () => {
    const { order, payment } = await easypayOrder();
    payment.payment_status = "paid";
    payment.value = 1;
    const res = await notify(capture(payment.id, payment.key));
    expect(res.body.data.outcome).toBe("flagged");
    expect(await adminOrder(shop, order.id)).toMatchObject({
      paymentStatus: "pending",
      paymentFlags: ["amount_mismatch"],
    });
  });

  test("fetched failed or deleted payments fail or expire the attempt; a chargeback is flagged", async () => {
    const failed = await easypayOrder();
    failed.payment.payment_status = "failed";
    await notify({ ...capture(failed.payment.id, failed.payment.key), status: "failed" });
    expect(await adminOrder(shop, failed.order.id)).toMatchObject({
      status: "cancelled",
      paymentStatus: "failed",
    });
    // The failure is an event of the order, and so is the cancel it caused (docs/events.md); newest first.
    const events = (
      await shop.admin.get("/v1/admin/events?type=order.payment_failed,order.cancelled&limit=100")
    ).body.data as { type: string; data: { object: { id: string } } }[];
    expect(events.filter((e) => e.data.object.id === failed.order.id).map((e) => e.type)).toEqual([
      "order.payment_failed",
      "order.cancelled",
    ]);

    const deleted = await easypayOrder();
    deleted.payment.payment_status = "deleted";
    await notify({ ...capture(deleted.payment.id, deleted.payment.key), type: "void" });
    expect(await adminOrder(shop, deleted.order.id)).toMatchObject({
      status: "cancelled",
      paymentStatus: "expired",
    });

    const paid = await easypayOrder();
    paid.payment.payment_status = "paid";
    await notify(capture(paid.payment.id, paid.payment.key));
    const chargeback = await notify({ ...capture(paid.payment.id, paid.payment.key), type: "chargeback" });
    expect(chargeback.body.data.outcome).toBe("flagged");
    expect((await adminOrder(shop, paid.order.id)).paymentFlags).toEqual(["chargeback"]);
    const other = await notify({ id: "x1", type: "subscription_create", status: "success" });
    expect(other.body.data.outcome).toBe("ignored");
  });

  test("MB WAY through Easypay when Ifthenpay offers none", async () => {
    const { order, payment } = await easypayOrder("easypay_mbway");
    const body = JSON.parse(w.easypay.calls.findLast((c) => c.path === "/2.0/single")!.body);
    expect(body).toMatchObject({ method: "mbw", customer: { phone: "912345678", phone_indicative: "+351" } });
    expect(order.payment.action).toMatchObject({ type: "push", phone: "912345678" });
    payment.payment_status = "paid";
    await notify(capture(payment.id, payment.key));
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("Easypay unreachable at place-order: the order exists and its payment waits for a retry", async () => {
    w.easypay.mode = "down";
    const res = await placeWith(shop, "easypay_multibanco");
    w.easypay.mode = "ok";
    expect(res.status).toBe(201);
    expect(res.body.data.payment.action).toBeUndefined();
  });
});

describe("refunds through Easypay", () => {
  test("the admin refund asks Easypay after the commit with our refund id; the refund notification, re-fetched, settles it once", async () => {
    const { order, payment } = await easypayOrder();
    payment.payment_status = "paid";
    await notify(capture(payment.id, payment.key));
    const res = await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 300 });
    expect(res.status).toBe(200);
    const refund = res.body.data.refunds[0];
    expect(refund.status).toBe("pending");
    const recorded = w.easypay.calls.findLast(
      (c) => c.method === "POST" && c.path.startsWith("/2.0/refund/"),
    )!;
    expect(recorded.path).toBe(`/2.0/refund/${payment.id}`);
    expect(JSON.parse(recorded.body)).toEqual({ transaction_key: refund.id, value: 3 });
    const easypayRefund = [...w.easypay.refunds.values()].at(-1)!;
    const note = { id: easypayRefund.id, type: "refund", status: "success" };
    const pending = await notify(note);
    expect(pending.body.data.outcome).toBe("applied");
    expect((await adminOrder(shop, order.id)).refunds[0].status).toBe("pending");
    easypayRefund.status = "success";
    await notify(note);
    await notify(note);
    const after = await adminOrder(shop, order.id);
    expect(after.refunds).toHaveLength(1);
    expect(after.refunds[0].status).toBe("succeeded");
    expect(after).toMatchObject({ paymentStatus: "partially_refunded" });
    expect(after.totals.refunded.amount).toBe(300);
    const unknown = await notify({ id: "not-ours", type: "refund", status: "success" });
    expect(unknown.body.data.outcome).toBe("ignored");
  });
});

describe("the sweep and Easypay", () => {
  test("An unpaid Multibanco attempt is expired by the sweep after expiry plus 15 min; an Easypay one is re-fetched first and applied as paid when Easypay says paid", async () => {
    const paid = await easypayOrder("easypay_multibanco", 3);
    const unpaid = await easypayOrder("easypay_multibanco", 3);
    paid.payment.payment_status = "paid";
    const stock = await stockOf(shop, 3);
    try {
      w.clock.offset = Date.parse(unpaid.order.payment.expiresAt) + 16 * 60_000 - Date.now();
      const before = w.easypay.calls.length;
      await sweepPayments(w.t.app.ctx);
      const fetched = w.easypay.calls.slice(before).map((c) => c.path);
      expect(fetched).toContain(`/2.0/single/${paid.payment.id}`);
      expect(fetched).toContain(`/2.0/single/${unpaid.payment.id}`);
    } finally {
      w.clock.offset = 0;
    }
    expect(await adminOrder(shop, paid.order.id)).toMatchObject({ status: "open", paymentStatus: "paid" });
    expect(await adminOrder(shop, unpaid.order.id)).toMatchObject({
      status: "cancelled",
      paymentStatus: "expired",
    });
    expect(await stockOf(shop, 3)).toBe(stock + 1);
  });

  test("when Easypay cannot be asked, the sweep leaves the attempt for the next round", async () => {
    const { order } = await easypayOrder("easypay_multibanco", 4);
    w.easypay.mode = "down";
    try {
      w.clock.offset = Date.parse(order.payment.expiresAt) + 16 * 60_000 - Date.now();
      const result = await sweepPayments(w.t.app.ctx);
      expect(result.skipped).toBeGreaterThanOrEqual(1);
      expect((await adminOrder(shop, order.id)).status).toBe("open");
      w.easypay.mode = "ok";
      await sweepPayments(w.t.app.ctx);
    } finally {
      w.clock.offset = 0;
      w.easypay.mode = "ok";
    }
    expect((await adminOrder(shop, order.id)).status).toBe("cancelled");
  });
});

describe("Easypay's expiry", () => {
  test("Easypay's returned expiration_time becomes the attempt's expiry: the order shows it, and the sweep waits for it rather than for the 3 days asked", async () => {
    const DAY = 24 * 3600_000;
    const granted = new Date(Math.floor((Date.now() + 10 * DAY) / 60_000) * 60_000).toISOString();
    w.easypay.expirationTime = granted.slice(0, 16).replace("T", " ");
    let placed: Awaited<ReturnType<typeof easypayOrder>>;
    try {
      placed = await easypayOrder("easypay_multibanco", 5);
    } finally {
      w.easypay.expirationTime = null;
    }
    const { order, payment } = placed;
    const asked = JSON.parse(w.easypay.calls.findLast((c) => c.path === "/2.0/single")!.body).expiration_time;
    expect(Date.parse(`${asked.replace(" ", "T")}:00Z`) - Date.now()).toBeLessThan(3 * DAY + 60_000);
    expect(order.payment.expiresAt).toBe(granted);
    expect(order.payment.action).toMatchObject({ type: "reference", expiresAt: granted });
    expect((await adminOrder(shop, order.id)).payment.expiresAt).toBe(granted);

    try {
      // Past what was asked (3 days and the grace), within what Easypay granted: still payable.
      w.clock.offset = 3 * DAY + 16 * 60_000;
      const before = w.easypay.calls.length;
      await sweepPayments(w.t.app.ctx);
      expect(w.easypay.calls.slice(before).map((c) => c.path)).not.toContain(`/2.0/single/${payment.id}`);
      expect(await adminOrder(shop, order.id)).toMatchObject({ status: "open", paymentStatus: "pending" });
      w.clock.offset = Date.parse(granted) + 16 * 60_000 - Date.now();
      await sweepPayments(w.t.app.ctx);
    } finally {
      w.clock.offset = 0;
    }
    expect(await adminOrder(shop, order.id)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
  });
});

describe("the API route", () => {
  test("Easypay is always re-fetched at the API, also for a request that came with the shared secret", async () => {
    const { order, payment } = await easypayOrder();
    const res = await w.t.json(`/v1/webhooks/payments/easypay?org=${shop.org.id}`, {
      method: "POST",
      headers: { "x-checkout-secret": CHECKOUT_SECRET, "content-type": "application/json" },
      body: JSON.stringify(capture(payment.id, payment.key)),
    });
    expect(res.body.data.outcome).toBe("ignored");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
  });
});
