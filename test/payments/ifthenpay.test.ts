import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseEuroAmount } from "../../src/payments/ifthenpay.ts";
import { sweepPayments } from "../../src/payments/sweep.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  adminOrder,
  CHECKOUT_SECRET,
  IFTHENPAY,
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
  w = makeWorld({ IFTHENPAY_ANTIPHISHING_KEY: "environment-key-123" });
  shop = await providerShop(
    w.t,
    "Multibanco Shop",
    "mb-shop.example",
    { provider: "ifthenpay", fields: IFTHENPAY },
    100,
  );
});
afterAll(() => w.close());

/** The callback Ifthenpay sends, built from its template. */
function callback(params: Record<string, string | undefined>, org = shop.org.id) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, value);
  return w.t.json(`/api/webhooks/ifthenpay/${org}?${query}`);
}

const euros = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;

async function multibancoOrder(variantIndex = 0) {
  const res = await placeWith(shop, "ifthenpay_multibanco", { variantIndex });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  const order = res.body.data;
  const recorded = w.ifthenpay.calls.at(-1)!;
  const sent = JSON.parse(recorded.body) as { orderId: string; amount: string };
  const requestId = `mbreq${w.ifthenpay.next}`;
  const action = order.payment.action;
  return {
    order,
    orderRef: sent.orderId,
    requestId,
    action,
    /** The callback Ifthenpay sends once this reference is paid in full. */
    paidCallback: {
      key: IFTHENPAY.antiPhishingKey,
      orderId: sent.orderId,
      amount: euros(order.totals.total.amount),
      requestId,
      entity: action.entity as string,
      reference: action.reference as string,
    },
  };
}

describe("Multibanco references", () => {
  test("place-order asks Ifthenpay for a reference after the commit and shows entity, reference, amount and expiry", async () => {
    const { order, orderRef } = await multibancoOrder();
    const recorded = w.ifthenpay.calls.at(-1)!;
    expect(recorded.path).toBe("/multibanco/reference/init");
    expect(JSON.parse(recorded.body)).toEqual({
      mbKey: IFTHENPAY.mbKey,
      orderId: orderRef,
      amount: euros(order.totals.total.amount),
      description: `Order #${order.number}`,
      expiryDays: 3,
    });
    expect(orderRef).toMatch(/^\d{12}$/);
    expect(order.payment).toMatchObject({ provider: "ifthenpay", method: "multibanco", status: "created" });
    expect(order.payment.action).toMatchObject({
      type: "reference",
      entity: "12345",
      reference: expect.stringMatching(/^9\d{8}$/),
      amount: order.totals.total.amount,
    });
    const days = (Date.parse(order.payment.action.expiresAt) - w.clock.now) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThan(3.01);
  });

  test("An Ifthenpay GET callback with the right key, amount and references marks the order paid; with a wrong key → 401 and no change", async () => {
    const { order, orderRef, requestId, action } = await multibancoOrder();
    const params = {
      orderId: orderRef,
      amount: euros(order.totals.total.amount),
      requestId,
      entity: action.entity,
      reference: action.reference,
      payment_datetime: "2026-11-20 10:11:12",
    };
    const wrong = await callback({ key: "not-the-key", ...params });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    // The environment's key does not verify a tenant that has its own.
    expect((await callback({ key: "environment-key-123", ...params })).status).toBe(401);
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");

    const res = await callback({ key: IFTHENPAY.antiPhishingKey, ...params });
    expect(res).toMatchObject({ status: 200, body: { data: { received: true, outcome: "applied" } } });
    expect(await adminOrder(shop, order.id)).toMatchObject({ status: "open", paymentStatus: "paid" });
    const again = await callback({ key: IFTHENPAY.antiPhishingKey, ...params });
    expect(again.body.data.outcome).toBe("duplicate");
  });

  test("amounts are read as decimal text: 12.3, 12,30, 0.01; anything else is refused", async () => {
    expect(parseEuroAmount("12.3")).toBe(1230);
    expect(parseEuroAmount("12,30")).toBe(1230);
    expect(parseEuroAmount("0.01")).toBe(1);
    expect(parseEuroAmount("24")).toBe(2400);
    for (const bad of ["1.234", "-1", "1e3", "", " 1", "0x10", "12.3.4"])
      expect(parseEuroAmount(bad)).toBeNull();
    const { order, orderRef, requestId, action } = await multibancoOrder();
    const total = order.totals.total.amount;
    const comma = `${Math.floor(total / 100)},${String(total % 100).padStart(2, "0")}`;
    const res = await callback({
      key: IFTHENPAY.antiPhishingKey,
      orderId: orderRef,
      amount: comma,
      requestId,
      entity: action.entity,
      reference: action.reference,
    });
    expect(res.body.data.outcome).toBe("applied");
    const malformed = await callback({ key: IFTHENPAY.antiPhishingKey, orderId: orderRef, amount: "12.345" });
    expect(malformed.status).toBe(400);
    const missing = await callback({ key: IFTHENPAY.antiPhishingKey, amount: "1.00" });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
  });

  test("a callback whose amount, method or references differ is a mismatch: flagged, never paid", async () => {
    const { order, orderRef, requestId, action } = await multibancoOrder();
    const res = await callback({
      key: IFTHENPAY.antiPhishingKey,
      orderId: orderRef,
      amount: "0.01",
      requestId,
      entity: action.entity,
      reference: action.reference,
    });
    expect(res.body.data.outcome).toBe("flagged");
    expect(await adminOrder(shop, order.id)).toMatchObject({
      paymentStatus: "pending",
      paymentFlags: ["amount_mismatch"],
    });

    const second = await multibancoOrder();
    // Right amount, but an MB WAY callback (no entity/reference) for a Multibanco reference.
    const mbway = await callback({
      key: IFTHENPAY.antiPhishingKey,
      orderId: second.orderRef,
      amount: euros(second.order.totals.total.amount),
      requestId: second.requestId,
    });
    expect(mbway.body.data.outcome).toBe("flagged");
    expect((await adminOrder(shop, second.order.id)).paymentStatus).toBe("pending");
  });

  test("An Ifthenpay callback containing org=<other org> is applied to the org in the path only", async () => {
    const other = await paymentShop(w.t, "Other MB shop", "other-mb.example");
    await putIntegration(w.t, other.org.key, "ifthenpay", { fields: IFTHENPAY });
    const { order, paidCallback } = await multibancoOrder();
    const query = new URLSearchParams({ org: other.org.id, ...paidCallback });
    // Sent to the other org's URL, naming this org: applied to the other org only, where it is unknown.
    const elsewhere = await w.t.json(
      `/api/webhooks/ifthenpay/${other.org.id}?${new URLSearchParams({ ...Object.fromEntries(query), org: shop.org.id })}`,
    );
    expect(elsewhere.body.data.outcome).toBe("ignored");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("pending");
    // Sent to this org's URL, naming the other org: applied here.
    const res = await w.t.json(`/api/webhooks/ifthenpay/${shop.org.id}?${query}`);
    expect(res.body.data.outcome).toBe("applied");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("the ingress also takes the callback as a form POST; the API route needs x-checkout-secret and the key", async () => {
    const { paidCallback } = await multibancoOrder();
    const form = new URLSearchParams(paidCallback);
    const direct = await w.t.json(`/v1/webhooks/payments/ifthenpay?org=${shop.org.id}&${form}`);
    expect(direct.status).toBe(401);
    expect(direct.body.code).toBe("UNAUTHORIZED");
    const res = await w.t.json(`/api/webhooks/ifthenpay/${shop.org.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.body.data.outcome).toBe("applied");
    const viaApi = await w.t.json(`/v1/webhooks/payments/ifthenpay?org=${shop.org.id}&${form}`, {
      headers: { "x-checkout-secret": CHECKOUT_SECRET },
    });
    expect(viaApi.body.data.outcome).toBe("duplicate");
  });

  test("Ifthenpay down: the order exists, its payment waits for a retry", async () => {
    w.ifthenpay.mode = "down";
    const res = await placeWith(shop, "ifthenpay_multibanco");
    w.ifthenpay.mode = "ok";
    expect(res.status).toBe(201);
    expect(res.body.data.payment).toMatchObject({ status: "created" });
    expect(res.body.data.payment.action).toBeUndefined();
    const order = res.body.data;
    const retried = await shop.storefront(`/v1/orders/${order.id}/payment?token=${order.accessToken}`, {
      body: {},
    });
    expect(retried.body.data.payment.action.type).toBe("reference");
  });

  test("refunds of Ifthenpay payments are recorded as manual refunds, done at once, without a provider call", async () => {
    const { order, paidCallback } = await multibancoOrder();
    await callback(paidCallback);
    const calls = w.ifthenpay.calls.length;
    const res = await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 100 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ paymentStatus: "partially_refunded" });
    expect(res.body.data.refunds[0].status).toBe("succeeded");
    expect(w.ifthenpay.calls.length).toBe(calls);
    const source = await w.t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      tenant.sqlite.query("SELECT source FROM payment_refunds WHERE order_id = ?").get(order.id),
    );
    expect(source).toEqual({ source: "manual" });
  });
});

describe("MB WAY", () => {
  test("place-order sends the shopper's phone; the order says to approve in the MB WAY app; the callback marks it paid", async () => {
    const res = await placeWith(shop, "ifthenpay_mbway");
    expect(res.status).toBe(201);
    const order = res.body.data;
    const sent = JSON.parse(w.ifthenpay.calls.at(-1)!.body);
    expect(w.ifthenpay.calls.at(-1)!.path).toBe("/spg/payment/mbway");
    expect(sent).toMatchObject({
      mbWayKey: IFTHENPAY.mbWayKey,
      mobileNumber: "351#912345678",
      email: "buyer@example.com",
    });
    expect(order.payment.action).toMatchObject({ type: "push", phone: "912345678" });
    const minutes = (Date.parse(order.payment.action.expiresAt) - w.clock.now) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThan(5.1);
    const done = await callback({
      key: IFTHENPAY.antiPhishingKey,
      orderId: sent.orderId,
      amount: sent.amount,
      requestId: `mbwreq${w.ifthenpay.next}`,
      payment_datetime: "20-11-2026 10:00:00",
    });
    expect(done.body.data.outcome).toBe("applied");
    expect((await adminOrder(shop, order.id)).paymentStatus).toBe("paid");
  });

  test("MB WAY needs a Portuguese mobile number: none, or a landline, is a 422 and nothing is placed", async () => {
    const stock = await stockOf(shop, 2);
    const res = await placeWith(shop, "ifthenpay_mbway", {
      variantIndex: 2,
      body: { phone: "+351 212 345 678" },
    });
    expect(res.status).toBe(422);
    expect(await stockOf(shop, 2)).toBe(stock);
  });
});

describe("expiry", () => {
  test("An unpaid Multibanco attempt is expired by the sweep after expiry plus 15 min", async () => {
    const { order } = await multibancoOrder(3);
    const stock = await stockOf(shop, 3);
    const expiresAt = Date.parse(order.payment.expiresAt);
    try {
      w.clock.offset = expiresAt + 14 * 60_000 - Date.now();
      await sweepPayments(w.t.app.ctx);
      expect((await adminOrder(shop, order.id)).status).toBe("open");
      w.clock.offset = expiresAt + 16 * 60_000 - Date.now();
      const result = await sweepPayments(w.t.app.ctx);
      expect(result.expired).toBeGreaterThanOrEqual(1);
    } finally {
      w.clock.offset = 0;
    }
    expect(await adminOrder(shop, order.id)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(await stockOf(shop, 3)).toBe(stock + 1);
  });

  test("Multibanco paid after expiry: sweep, then callback → re-opened and paid (stock re-reserved), or cancelled/paid + refund_required", async () => {
    for (const stockLeft of [100, 0]) {
      const { order, paidCallback } = await multibancoOrder(4);
      try {
        w.clock.offset = Date.parse(order.payment.expiresAt) + 16 * 60_000 - Date.now();
        await sweepPayments(w.t.app.ctx);
      } finally {
        w.clock.offset = 0;
      }
      expect((await adminOrder(shop, order.id)).status).toBe("cancelled");
      await shop.admin.patch(`/v1/admin/inventory/${shop.shirt.variants[4].id}`, { onHand: stockLeft });
      const res = await callback(paidCallback);
      expect(res.body.data.outcome).toBe("flagged");
      const after = await adminOrder(shop, order.id);
      if (stockLeft > 0) {
        expect(after).toMatchObject({ status: "open", paymentStatus: "paid" });
        expect(await stockOf(shop, 4)).toBe(stockLeft - 1);
      } else {
        expect(after).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
        expect(after.paymentFlags).toContain("refund_required");
        expect(await stockOf(shop, 4)).toBe(0);
      }
    }
  });

  test("the sweep releases the coupon use of an expired order", async () => {
    await shop.admin.post("/v1/admin/coupons", { code: "SWEEP5", type: "fixed", value: 100 });
    const { readyCart } = await import("./helpers.ts");
    const cartId = await readyCart(shop, 1, 5);
    await shop.storefront(`/v1/carts/${cartId}/coupon`, { body: { code: "SWEEP5" } });
    const placed = await shop.storefront(`/v1/carts/${cartId}/place-order`, {
      body: { paymentMethodId: "ifthenpay_multibanco" },
    });
    const usage = async () =>
      ((await shop.admin.get("/v1/admin/coupons")).body.data as { code: string; usageCount: number }[]).find(
        (c) => c.code === "SWEEP5",
      )!.usageCount;
    expect(await usage()).toBe(1);
    try {
      w.clock.offset = Date.parse(placed.body.data.payment.expiresAt) + 16 * 60_000 - Date.now();
      await sweepPayments(w.t.app.ctx);
    } finally {
      w.clock.offset = 0;
    }
    expect(await usage()).toBe(0);
  });
});
