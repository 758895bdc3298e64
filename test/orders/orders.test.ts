import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, simpleProduct } from "../helpers/catalog.ts";
import {
  CASH_ON_DELIVERY,
  couponUsage,
  createCustomerSession,
  type InsertOrderOptions,
  insertCoupon,
  insertOrder,
  onHand,
  orderRow,
  STRIPE_CARD,
} from "../helpers/orders.ts";

let t: TestApp;
let shop: { id: string; key: string };
let admin: AdminClient;
let otherShop: { id: string; key: string };
let otherAdmin: AdminClient;
const HOST = "orders.example";
const OTHER_HOST = "other-orders.example";

/** Tracked mug (price 1200, 1000 on hand), untracked poster (800), backorderable lamp (2 on hand). */
let mug: string;
let poster: string;
let lamp: string;

const storefront = (path: string, headers: Record<string, string> = {}) =>
  t.json(path, { headers: { host: HOST, ...headers } });

async function createVariant(client: AdminClient, body: unknown): Promise<string> {
  const res = await client.post("/v1/admin/products", body);
  if (res.status !== 201) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.variants[0].id;
}

const place = (options: Partial<InsertOrderOptions> = {}) =>
  insertOrder(t, shop.id, { lines: [{ variantId: mug, quantity: 1 }], ...options });

const get = async (id: string) => (await admin.get(`/v1/admin/orders/${id}`)).body.data;
const eventTypes = (order: any) => order.events.map((e: any) => e.type);
const move = (id: string, action: string, body: unknown = {}) =>
  admin.post(`/v1/admin/orders/${id}/${action}`, body);

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Order Shop", { host: HOST });
  admin = adminClient(t, shop.key);
  otherShop = await t.org("Other Shop", { host: OTHER_HOST });
  otherAdmin = adminClient(t, otherShop.key);
  mug = await createVariant(
    admin,
    simpleProduct("Mug", 1200, { variants: [{ price: 1200, inventory: { onHand: 1000 } }] }),
  );
  poster = await createVariant(admin, simpleProduct("Poster", 800));
  lamp = await createVariant(
    admin,
    simpleProduct("Lamp", 3000, {
      variants: [{ price: 3000, inventory: { onHand: 2, allowBackorder: true } }],
    }),
  );
});
afterAll(() => t.cleanup());

describe("test helper", () => {
  test("an inserted order reads back as place-order leaves it, with stock taken", async () => {
    const before = await onHand(t, shop.id, mug);
    const placed = await place({
      lines: [
        { variantId: mug, quantity: 2 },
        { variantId: poster, quantity: 1 },
      ],
    });
    expect(await onHand(t, shop.id, mug)).toBe(before - 2);
    const order = await get(placed.id);
    expect(order).toMatchObject({
      id: placed.id,
      number: placed.number,
      status: "open",
      paymentStatus: "pending",
      fulfillmentStatus: "unfulfilled",
      paymentMethod: { id: "manual_bank_transfer", provider: "manual", type: "bank_transfer" },
      totals: { total: { amount: 2 * 1200 + 800 + 500, currency: "EUR" }, refunded: { amount: 0 } },
    });
    expect(order.items).toHaveLength(2);
    expect(eventTypes(order)).toEqual(["placed"]);
  });
});

// ---------------------------------------------------------------- fulfill

describe("fulfill", () => {
  test("a paid order is fulfilled and completed, with the fulfillment and an event", async () => {
    const placed = await place({ paymentStatus: "paid", paymentMethod: STRIPE_CARD });
    const res = await move(placed.id, "fulfill", {
      carrier: "CTT",
      trackingNumber: "RR123456789PT",
      trackingUrl: "https://www.ctt.pt/track?n=RR123456789PT",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "completed",
      paymentStatus: "paid",
      fulfillmentStatus: "fulfilled",
    });
    expect(res.body.data.fulfillments).toEqual([
      {
        id: expect.stringMatching(/^ful_/),
        carrier: "CTT",
        trackingNumber: "RR123456789PT",
        trackingUrl: "https://www.ctt.pt/track?n=RR123456789PT",
        createdAt: expect.any(String),
      },
    ]);
    expect(eventTypes(res.body.data)).toEqual(["placed", "fulfilled"]);
    expect(res.body.data.events[1].message).toContain("CTT");
    expect(await get(placed.id)).toEqual(res.body.data);
  });

  test("fulfilling twice is a 409 naming the state", async () => {
    const placed = await place({ paymentStatus: "paid" });
    expect((await move(placed.id, "fulfill")).status).toBe(200);
    const again = await move(placed.id, "fulfill", { carrier: "DHL" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
    expect(again.body.error).toContain("Cannot fulfill: the order is completed / paid / fulfilled");
    expect((await get(placed.id)).fulfillments).toHaveLength(1);
  });

  test("a manual order is fulfilled before payment and stays open; mark paid then completes it", async () => {
    const placed = await place({ paymentMethod: CASH_ON_DELIVERY });
    const fulfilled = await move(placed.id, "fulfill", { carrier: "Courier" });
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body.data).toMatchObject({
      status: "open",
      paymentStatus: "pending",
      fulfillmentStatus: "fulfilled",
      paidAt: null,
    });
    const paid = await move(placed.id, "mark-paid");
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({
      status: "completed",
      paymentStatus: "paid",
      fulfillmentStatus: "fulfilled",
    });
    expect(paid.body.data.paidAt).toEqual(expect.any(String));
    expect(eventTypes(paid.body.data)).toEqual(["placed", "fulfilled", "paid"]);
  });

  test("an unpaid provider order cannot be fulfilled", async () => {
    const placed = await place({ paymentMethod: STRIPE_CARD });
    const res = await move(placed.id, "fulfill");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("open / pending / unfulfilled");
    expect(await get(placed.id)).toMatchObject({ fulfillmentStatus: "unfulfilled", fulfillments: [] });
  });

  test("a cancelled order cannot be fulfilled", async () => {
    const placed = await place();
    expect((await move(placed.id, "cancel")).status).toBe(200);
    const res = await move(placed.id, "fulfill");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("cancelled / pending / unfulfilled");
  });

  test("a partially refunded order can still be fulfilled, and completes", async () => {
    const placed = await place({ paymentStatus: "paid" });
    expect((await move(placed.id, "refund", { amount: 100 })).status).toBe(200);
    const res = await move(placed.id, "fulfill");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "completed", paymentStatus: "partially_refunded" });
  });

  test("bad input is a 400 and changes nothing", async () => {
    const placed = await place({ paymentStatus: "paid" });
    for (const body of [
      { trackingUrl: "ftp://example.com/x" },
      { trackingUrl: "javascript:alert(1)" },
      { trackingUrl: "not a url" },
      { trackingUrl: "https://" },
      { carrier: "" },
      { carrier: 5 },
      { trackingNumber: "x".repeat(101) },
      { shipped: true },
    ]) {
      const res = await move(placed.id, "fulfill", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect(await get(placed.id)).toMatchObject({
      status: "open",
      fulfillmentStatus: "unfulfilled",
      fulfillments: [],
    });
  });
});

// ---------------------------------------------------------------- mark paid

describe("mark paid", () => {
  test("a pending manual order becomes paid and stays open until fulfilled", async () => {
    const placed = await place();
    const res = await move(placed.id, "mark-paid");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "open",
      paymentStatus: "paid",
      fulfillmentStatus: "unfulfilled",
    });
    expect(Date.parse(res.body.data.paidAt)).toBeGreaterThan(0);
    expect(res.body.data.events.at(-1)).toMatchObject({
      type: "paid",
      message: expect.stringContaining("bank transfer"),
    });
  });

  test("an already-paid order is a 409", async () => {
    const placed = await place();
    await move(placed.id, "mark-paid");
    const res = await move(placed.id, "mark-paid");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("Cannot mark paid: the order is open / paid / unfulfilled");
    expect(eventTypes(await get(placed.id))).toEqual(["placed", "paid"]);
  });

  test("an order paid through a provider cannot be marked paid", async () => {
    const placed = await place({ paymentMethod: STRIPE_CARD });
    const res = await move(placed.id, "mark-paid");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("open / pending / unfulfilled");
    expect(await get(placed.id)).toMatchObject({ paymentStatus: "pending", paidAt: null });
  });

  test("a cancelled order cannot be marked paid", async () => {
    const placed = await place();
    await move(placed.id, "cancel");
    const res = await move(placed.id, "mark-paid");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("cancelled / pending / unfulfilled");
  });
});

// ---------------------------------------------------------------- refund

describe("refund", () => {
  test("an unpaid order cannot be refunded", async () => {
    const placed = await place();
    const res = await move(placed.id, "refund", { amount: 100 });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("Cannot refund: the order is open / pending / unfulfilled");
  });

  test("two partial refunds summing to the total make it refunded; then nothing is left", async () => {
    const placed = await place({ paymentStatus: "paid" });
    const total = placed.total;
    const first = await move(placed.id, "refund", { amount: 700, reason: "Chipped handle" });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: "open",
      paymentStatus: "partially_refunded",
      totals: { refunded: { amount: 700, currency: "EUR" } },
    });
    expect(first.body.data.refunds).toEqual([
      {
        id: expect.stringMatching(/^ref_/),
        amount: { amount: 700, currency: "EUR" },
        reason: "Chipped handle",
        status: "succeeded",
        createdAt: expect.any(String),
      },
    ]);
    expect(first.body.data.events.at(-1)).toMatchObject({
      type: "refunded",
      message: "Refunded 7.00 EUR: Chipped handle",
    });

    const second = await move(placed.id, "refund", { amount: total - 700 });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      paymentStatus: "refunded",
      totals: { refunded: { amount: total }, total: { amount: total } },
    });
    expect(second.body.data.refunds.map((r: any) => r.amount.amount)).toEqual([700, total - 700]);
    expect(eventTypes(second.body.data)).toEqual(["placed", "refunded", "refunded"]);

    const third = await move(placed.id, "refund", {});
    expect(third.status).toBe(409);
    expect(third.body.error).toContain("open / refunded / unfulfilled");
  });

  test("the amount defaults to what is left", async () => {
    const placed = await place({ paymentStatus: "paid" });
    await move(placed.id, "refund", { amount: 200 });
    const res = await move(placed.id, "refund", {});
    expect(res.status).toBe(200);
    expect(res.body.data.paymentStatus).toBe("refunded");
    expect(res.body.data.refunds.at(-1).amount.amount).toBe(placed.total - 200);
  });

  test("above what is left is a 422 and changes nothing", async () => {
    const placed = await place({ paymentStatus: "paid" });
    await move(placed.id, "refund", { amount: 500 });
    const before = await get(placed.id);
    const res = await move(placed.id, "refund", { amount: placed.total - 500 + 1 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("UNPROCESSABLE");
    expect(res.body.error).toContain(String(placed.total - 500));
    expect(await get(placed.id)).toEqual(before);
  });

  test("a completed order is refunded without changing its status", async () => {
    const placed = await place({ paymentStatus: "paid" });
    await move(placed.id, "fulfill");
    const res = await move(placed.id, "refund", {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "completed",
      paymentStatus: "refunded",
      fulfillmentStatus: "fulfilled",
    });
  });

  test("restock returns the order's stock exactly once", async () => {
    const start = await onHand(t, shop.id, mug);
    const placed = await place({
      paymentStatus: "paid",
      lines: [
        { variantId: mug, quantity: 3 },
        { variantId: poster, quantity: 2 },
      ],
    });
    expect(await onHand(t, shop.id, mug)).toBe(start - 3);
    const first = await move(placed.id, "refund", { amount: 100, restock: true });
    expect(first.status).toBe(200);
    expect(await onHand(t, shop.id, mug)).toBe(start);
    expect((await orderRow(t, shop.id, placed.id)).stock_held).toBe(0);
    expect(first.body.data.events.at(-1).message).toContain("stock returned");

    const second = await move(placed.id, "refund", { amount: 100, restock: true });
    expect(second.status).toBe(200);
    expect(await onHand(t, shop.id, mug)).toBe(start);
    expect(second.body.data.events.at(-1).message).toContain("already");
  });

  test("a refund without restock leaves the stock taken", async () => {
    const start = await onHand(t, shop.id, mug);
    const placed = await place({ paymentStatus: "paid", lines: [{ variantId: mug, quantity: 2 }] });
    await move(placed.id, "refund", {});
    expect(await onHand(t, shop.id, mug)).toBe(start - 2);
    expect((await orderRow(t, shop.id, placed.id)).stock_held).toBe(1);
  });

  test("restock gives back only the units a backordered line took", async () => {
    expect(await onHand(t, shop.id, lamp)).toBe(2);
    const placed = await place({ paymentStatus: "paid", lines: [{ variantId: lamp, quantity: 5 }] });
    expect(await onHand(t, shop.id, lamp)).toBe(0);
    await move(placed.id, "refund", { restock: true });
    expect(await onHand(t, shop.id, lamp)).toBe(2);
  });

  test("a provider order without a received provider payment cannot be refunded: 422, nothing changed", async () => {
    const placed = await place({ paymentStatus: "paid", paymentMethod: STRIPE_CARD });
    const before = await get(placed.id);
    const res = await move(placed.id, "refund", { amount: 100, restock: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("No payment through stripe was received for this order");
    expect(await get(placed.id)).toEqual(before);
    expect((await orderRow(t, shop.id, placed.id)).stock_held).toBe(1);
  });

  test("bad input is a 400 and changes nothing", async () => {
    const placed = await place({ paymentStatus: "paid" });
    const before = await get(placed.id);
    for (const body of [
      { amount: 0 },
      { amount: -1 },
      { amount: "5" },
      { amount: 1e12 },
      { amount: 2.5 },
      { amount: null },
      { restock: "yes" },
      { reason: "" },
      { amount: 100, note: "typo" },
    ]) {
      const res = await move(placed.id, "refund", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    const raw = await t.json(`/v1/admin/orders/${placed.id}/refund`, {
      method: "POST",
      headers: { "x-api-key": shop.key, "content-type": "application/json" },
      body: "{amount: 5",
    });
    expect(raw.status).toBe(400);
    expect(await get(placed.id)).toEqual(before);
  });

  test("concurrent full refunds: exactly one succeeds, the rest are 409s", async () => {
    const placed = await place({ paymentStatus: "paid" });
    const results = await Promise.all(Array.from({ length: 5 }, () => move(placed.id, "refund", {})));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const order = await get(placed.id);
    expect(order.refunds).toHaveLength(1);
    expect(order.totals.refunded.amount).toBe(placed.total);
  });

  test("the same Idempotency-Key and body refund once; the second answer is replayed", async () => {
    const placed = await place({ paymentStatus: "paid" });
    const send = (body: unknown, key = "refund-once-1") =>
      t.json(`/v1/admin/orders/${placed.id}/refund`, {
        method: "POST",
        headers: { "x-api-key": shop.key, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      });
    const first = await send({ amount: 300, reason: "Late" });
    expect(first.status).toBe(200);
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    const second = await send({ amount: 300, reason: "Late" });
    expect(second.status).toBe(200);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    const order = await get(placed.id);
    expect(order.refunds).toHaveLength(1);
    expect(order.totals.refunded.amount).toBe(300);

    const different = await send({ amount: 301, reason: "Late" });
    expect(different.status).toBe(409);
    expect(different.body.code).toBe("IDEMPOTENCY_CONFLICT");
    expect((await get(placed.id)).refunds).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- cancel

describe("cancel", () => {
  test("cancelling returns the stock and the coupon use, once", async () => {
    await insertCoupon(t, shop.id, "SPRING10", 1000);
    const start = await onHand(t, shop.id, mug);
    const placed = await place({
      coupon: { code: "spring10", value: 1000 },
      lines: [
        { variantId: mug, quantity: 4 },
        { variantId: poster, quantity: 1 },
      ],
    });
    expect(await onHand(t, shop.id, mug)).toBe(start - 4);
    expect(await couponUsage(t, shop.id, "SPRING10")).toBe(1);

    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "cancelled",
      paymentStatus: "pending",
      fulfillmentStatus: "unfulfilled",
    });
    expect(Date.parse(res.body.data.cancelledAt)).toBeGreaterThan(0);
    expect(res.body.data.events.at(-1)).toMatchObject({
      type: "cancelled",
      message: "Cancelled; stock and coupon use released",
    });
    expect(await onHand(t, shop.id, mug)).toBe(start);
    expect(await couponUsage(t, shop.id, "SPRING10")).toBe(0);
    expect(await orderRow(t, shop.id, placed.id)).toMatchObject({ stock_held: 0, coupon_counted: 0 });

    const again = await move(placed.id, "cancel");
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("Cannot cancel: the order is cancelled / pending / unfulfilled");
    expect(await onHand(t, shop.id, mug)).toBe(start);
    expect(await couponUsage(t, shop.id, "SPRING10")).toBe(0);
  });

  test("a paid order cannot be cancelled (it is refunded instead)", async () => {
    const start = await onHand(t, shop.id, mug);
    const placed = await place({ paymentStatus: "paid" });
    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("Cannot cancel: the order is open / paid / unfulfilled");
    expect(await onHand(t, shop.id, mug)).toBe(start - 1);
    expect((await get(placed.id)).status).toBe("open");
  });

  test("a fully refunded, unfulfilled order can be cancelled: no second refund, no second restock", async () => {
    const start = await onHand(t, shop.id, mug);
    const placed = await place({ paymentStatus: "paid", lines: [{ variantId: mug, quantity: 2 }] });
    await move(placed.id, "refund", { restock: true });
    expect(await onHand(t, shop.id, mug)).toBe(start);
    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(res.body.data.totals.refunded.amount).toBe(placed.total);
    expect(res.body.data.refunds).toHaveLength(1);
    expect(await onHand(t, shop.id, mug)).toBe(start);
    expect((await move(placed.id, "cancel")).status).toBe(409);
  });

  test("a partially refunded order cannot be cancelled", async () => {
    const placed = await place({ paymentStatus: "paid" });
    await move(placed.id, "refund", { amount: 100 });
    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("open / partially_refunded / unfulfilled");
  });

  test("a fulfilled order cannot be cancelled", async () => {
    const placed = await place({ paymentMethod: CASH_ON_DELIVERY });
    await move(placed.id, "fulfill");
    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("open / pending / fulfilled");
  });

  test("an order whose payment failed can be cancelled", async () => {
    const placed = await place({ paymentStatus: "failed", paymentMethod: STRIPE_CARD });
    const res = await move(placed.id, "cancel");
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("cancelled");
  });
});

// ---------------------------------------------------------------- reads and access

describe("reading an order", () => {
  test("a guest needs the order's token: none or a wrong one is a 404", async () => {
    const placed = await place();
    const none = await storefront(`/v1/orders/${placed.id}`);
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("NOT_FOUND");
    const last = placed.accessToken.at(-1) === "x" ? "y" : "x"; // never the right token by chance
    const wrong = await storefront(`/v1/orders/${placed.id}?token=${placed.accessToken.slice(0, -1)}${last}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual(none.body);
    const short = await storefront(`/v1/orders/${placed.id}?token=abc`);
    expect(short.status).toBe(404);
    const missing = await storefront(`/v1/orders/ord_doesnotexist00?token=${placed.accessToken}`);
    expect(missing.body).toEqual(none.body);

    const right = await storefront(`/v1/orders/${placed.id}?token=${placed.accessToken}`);
    expect(right.status).toBe(200);
    expect(right.body.data).toEqual(await get(placed.id));
  });

  test("the token of one order does not open another", async () => {
    const a = await place();
    const b = await place();
    expect((await storefront(`/v1/orders/${b.id}?token=${a.accessToken}`)).status).toBe(404);
  });

  test("API keys of the store read any of its orders, admin or storefront scope", async () => {
    const placed = await place();
    const viaAdminKey = await t.json(`/v1/orders/${placed.id}`, { headers: { "x-api-key": shop.key } });
    expect(viaAdminKey.status).toBe(200);
    const storefrontKey = createApiKey(t.app.ctx.platform, {
      organizationId: shop.id,
      name: "storefront server",
      scopes: ["storefront"],
    }).key;
    const viaStorefrontKey = await t.json(`/v1/orders/${placed.id}`, {
      headers: { "x-api-key": storefrontKey },
    });
    expect(viaStorefrontKey.status).toBe(200);
    expect(viaStorefrontKey.body.data.id).toBe(placed.id);
  });

  test("another store's order is a 404 for reads and for every move", async () => {
    const placed = await place({ paymentStatus: "paid" });
    expect((await otherAdmin.get(`/v1/admin/orders/${placed.id}`)).status).toBe(404);
    expect(
      (await t.json(`/v1/orders/${placed.id}`, { headers: { "x-api-key": otherShop.key } })).status,
    ).toBe(404);
    expect(
      (await t.json(`/v1/orders/${placed.id}?token=${placed.accessToken}`, { headers: { host: OTHER_HOST } }))
        .status,
    ).toBe(404);
    for (const [action, body] of [
      ["fulfill", {}],
      ["refund", { amount: 1 }],
      ["cancel", undefined],
      ["mark-paid", undefined],
    ] as const) {
      const res = await otherAdmin.post(`/v1/admin/orders/${placed.id}/${action}`, body);
      expect(res.status, action).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    const list = await otherAdmin.get("/v1/admin/orders?limit=100");
    expect(list.body.data.map((o: any) => o.id)).not.toContain(placed.id);
    expect(await get(placed.id)).toMatchObject({
      paymentStatus: "paid",
      fulfillmentStatus: "unfulfilled",
      refunds: [],
    });
  });

  test("malformed order ids are a 400", async () => {
    expect((await admin.get("/v1/admin/orders/prod_abc")).status).toBe(400);
    expect((await admin.get("/v1/admin/orders/ord_a-b")).status).toBe(400);
  });
});

describe("customer sessions", () => {
  let ana: { customerId: string; token: string };
  let bruno: { customerId: string; token: string };
  let anaOrders: string[];
  let brunoOrder: string;

  beforeAll(async () => {
    ana = await createCustomerSession(t, shop.id, { email: "ana@example.com", firstName: "Ana" });
    bruno = await createCustomerSession(t, shop.id, { email: "bruno@example.com", firstName: "Bruno" });
    const base = Date.now() - 10_000;
    anaOrders = [];
    for (let i = 0; i < 3; i++) {
      anaOrders.push(
        (await place({ customerId: ana.customerId, email: "ana@example.com", placedAt: base + i })).id,
      );
    }
    brunoOrder = (await place({ customerId: bruno.customerId, email: "bruno@example.com" })).id;
  });

  test("GET /v1/orders lists only the signed-in customer's orders, newest first, paginated", async () => {
    const res = await storefront("/v1/orders", { "x-customer-session": ana.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => o.id)).toEqual([...anaOrders].reverse());
    expect(res.body.meta).toEqual({ page: 1, limit: 20, total: 3 });
    const page2 = await storefront("/v1/orders?limit=2&page=2", { "x-customer-session": ana.token });
    expect(page2.body.data.map((o: any) => o.id)).toEqual([anaOrders[0]]);
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3 });

    const viaCookie = await storefront("/v1/orders", { cookie: `customer_session=${bruno.token}` });
    expect(viaCookie.body.data.map((o: any) => o.id)).toEqual([brunoOrder]);
  });

  test("without a customer session GET /v1/orders is a 401", async () => {
    const none = await storefront("/v1/orders");
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("UNAUTHORIZED");
    expect((await storefront("/v1/orders", { "x-customer-session": "not-a-session" })).status).toBe(401);
    expect((await t.json("/v1/orders", { headers: { "x-api-key": shop.key } })).status).toBe(401);
    // A session of this store means nothing on another store.
    expect(
      (await t.json("/v1/orders", { headers: { host: OTHER_HOST, "x-customer-session": ana.token } })).status,
    ).toBe(401);
  });

  test("a customer reads its own orders and gets 404 for anyone else's", async () => {
    const own = await storefront(`/v1/orders/${anaOrders[0]}`, { "x-customer-session": ana.token });
    expect(own.status).toBe(200);
    expect(own.body.data.customerId).toBe(ana.customerId);
    const other = await storefront(`/v1/orders/${brunoOrder}`, { "x-customer-session": ana.token });
    expect(other.status).toBe(404);
  });
});

describe("admin list", () => {
  let lister: { id: string; key: string };
  let client: AdminClient;
  let item: string;
  const day = 24 * 3600 * 1000;
  const t0 = Date.parse("2025-03-01T12:00:00.000Z");
  const ids: Record<string, { id: string; number: number }> = {};

  beforeAll(async () => {
    lister = await t.org("Lister Shop");
    client = adminClient(t, lister.key);
    item = await createVariant(
      client,
      simpleProduct("Cup", 1000, { variants: [{ price: 1000, inventory: { onHand: 100 } }] }),
    );
    const add = async (name: string, options: Partial<InsertOrderOptions>) => {
      const placed = await insertOrder(t, lister.id, {
        lines: [{ variantId: item, quantity: 1 }],
        ...options,
      });
      ids[name] = { id: placed.id, number: placed.number };
    };
    await add("carla", {
      email: "carla.mendes@example.com",
      firstName: "Carla",
      lastName: "Mendes",
      placedAt: t0,
      lines: [{ variantId: item, quantity: 3 }],
    });
    await add("duarte", {
      email: "duarte@shop.example",
      firstName: "Duarte",
      lastName: "Costa",
      placedAt: t0 + day,
      paymentStatus: "paid",
    });
    await add("eva", {
      email: "eva_99@example.com",
      firstName: "Eva",
      lastName: "Mendes",
      placedAt: t0 + 2 * day,
    });
    await add("filipa", {
      email: "filipa@example.com",
      firstName: "Filipa",
      placedAt: t0 + 3 * day,
      paymentStatus: "paid",
    });
    const lf = (await client.post(`/v1/admin/orders/${ids.filipa!.id}/fulfill`, {})).status;
    expect(lf).toBe(200);
    expect((await client.post(`/v1/admin/orders/${ids.eva!.id}/cancel`, undefined)).status).toBe(200);
  });

  const list = async (query = "") => {
    const res = await client.get(`/v1/admin/orders${query}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const names = (body: any) => body.data.map((o: any) => Object.keys(ids).find((k) => ids[k]!.id === o.id));

  test("newest first, as summaries", async () => {
    const body = await list();
    expect(names(body)).toEqual(["filipa", "eva", "duarte", "carla"]);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 4 });
    expect(body.data[3]).toEqual({
      id: ids.carla!.id,
      number: ids.carla!.number,
      status: "open",
      paymentStatus: "pending",
      fulfillmentStatus: "unfulfilled",
      email: "carla.mendes@example.com",
      customerId: expect.stringMatching(/^cus_/),
      totals: {
        subtotal: { amount: 3000, currency: "EUR" },
        discount: { amount: 0, currency: "EUR" },
        shipping: { amount: 500, currency: "EUR" },
        tax: { amount: expect.any(Number), currency: "EUR" },
        total: { amount: 3500, currency: "EUR" },
        refunded: { amount: 0, currency: "EUR" },
      },
      itemCount: 3,
      placedAt: "2025-03-01T12:00:00.000Z",
      updatedAt: expect.any(String),
    });
    const paged = await list("?limit=3&page=2");
    expect(names(paged)).toEqual(["carla"]);
    expect(paged.meta).toEqual({ page: 2, limit: 3, total: 4 });
  });

  test("status filters", async () => {
    expect(names(await list("?status=cancelled"))).toEqual(["eva"]);
    expect(names(await list("?status=completed"))).toEqual(["filipa"]);
    expect(names(await list("?paymentStatus=paid"))).toEqual(["filipa", "duarte"]);
    expect(names(await list("?fulfillmentStatus=unfulfilled&status=open"))).toEqual(["duarte", "carla"]);
    expect((await list("?paymentStatus=refunded")).meta.total).toBe(0);
  });

  test("query: order number, email, first or last name", async () => {
    expect(names(await list(`?query=${ids.duarte!.number}`))).toEqual(["duarte"]);
    expect(names(await list(`?query=%23${ids.duarte!.number}`))).toEqual(["duarte"]);
    expect(names(await list("?query=carla.mendes"))).toEqual(["carla"]);
    expect(names(await list("?query=shop.example"))).toEqual(["duarte"]);
    expect(names(await list("?query=MENDES"))).toEqual(["eva", "carla"]);
    expect(names(await list("?query=filipa"))).toEqual(["filipa"]);
    expect(names(await list("?query=Eva%20Mendes"))).toEqual(["eva"]);
    // LIKE wildcards are matched literally.
    expect(names(await list("?query=eva_"))).toEqual(["eva"]);
    expect(names(await list("?query=%25"))).toEqual([]);
    expect(names(await list("?query=nobody"))).toEqual([]);
    expect(names(await list("?query=%20%20"))).toHaveLength(4);
  });

  test("from (inclusive) and to (exclusive) on the placing time", async () => {
    const from = new Date(t0 + day).toISOString();
    const to = new Date(t0 + 3 * day).toISOString();
    expect(names(await list(`?from=${from}&to=${to}`))).toEqual(["eva", "duarte"]);
    expect(names(await list(`?to=${from}`))).toEqual(["carla"]);
    expect(names(await list(`?from=${to}&query=filipa`))).toEqual(["filipa"]);
  });

  test("bad filters are a 400", async () => {
    for (const query of [
      "?status=shipped",
      "?paymentStatus=PAID",
      "?fulfillmentStatus=partial",
      "?from=yesterday",
      "?to=2025-03-01",
      "?limit=0",
      "?limit=101",
      "?page=0",
      `?query=${"x".repeat(201)}`,
    ]) {
      const res = await client.get(`/v1/admin/orders${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("scopes", () => {
  test("a storefront Host cannot use admin routes: 403", async () => {
    const placed = await place({ paymentStatus: "paid" });
    const calls: [string, string][] = [
      ["GET", "/v1/admin/orders"],
      ["GET", `/v1/admin/orders/${placed.id}`],
      ["POST", `/v1/admin/orders/${placed.id}/fulfill`],
      ["POST", `/v1/admin/orders/${placed.id}/refund`],
      ["POST", `/v1/admin/orders/${placed.id}/cancel`],
      ["POST", `/v1/admin/orders/${placed.id}/mark-paid`],
    ];
    for (const [method, path] of calls) {
      const res = await t.json(path, {
        method,
        headers: { host: HOST, "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    expect(await get(placed.id)).toMatchObject({ paymentStatus: "paid", fulfillmentStatus: "unfulfilled" });
  });

  test("a customer session does not open admin routes either", async () => {
    const customer = await createCustomerSession(t, shop.id, { email: "curious@example.com" });
    const res = await storefront("/v1/admin/orders", { "x-customer-session": customer.token });
    expect(res.status).toBe(403);
  });

  test("the operations are in the OpenAPI document with their errors", async () => {
    const doc: any = await (await t.request("/v1/openapi.json")).json();
    const refund = doc.paths["/v1/admin/orders/{id}/refund"].post;
    expect(refund.operationId).toBe("adminRefundOrder");
    expect(Object.keys(refund.responses)).toEqual(
      expect.arrayContaining(["200", "400", "404", "409", "422"]),
    );
    expect(doc.paths["/v1/orders"].get.operationId).toBe("listOrders");
    expect(doc.paths["/v1/orders/{id}"].get.operationId).toBe("getOrder");
    expect(doc.components.schemas.OrderSummary).toBeDefined();
  });
});
