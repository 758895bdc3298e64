import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, placeBankTransferOrder, type Shop, stockedVariant } from "../helpers/shop.ts";

// Events (src/core/events.ts): each order move and catalog change records `{id, type, createdAt,
// data: {object}}` in the shop's file, in the transaction of the change; `GET /v1/admin/events`
// lists them newest first.

let t: TestApp;
let shop: Shop;
let other: Shop;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Events Shop", "events-shop.example");
  other = await makeShop(t, "Other Events Shop", "other-events-shop.example");
});
afterAll(() => t.cleanup());

/** Every event of the shop, oldest first, as `[type, the object's id]`. */
async function eventsOf(s: Shop): Promise<{ type: string; id: string; object: any }[]> {
  const all: any[] = [];
  for (let page = 1; ; page++) {
    const res = await s.admin.get(`/v1/admin/events?limit=100&page=${page}`);
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    if (all.length >= res.body.meta.total) break;
  }
  return all.reverse().map((e) => ({ type: e.type, id: e.id, object: e.data.object }));
}

const since = async (s: Shop, count: number) => (await eventsOf(s)).slice(count);

describe("events recorded by order moves and catalog changes", () => {
  test("a whole purchase records order.placed, order.paid, order.fulfilled and order.refunded, each with the order as the admin API renders it", async () => {
    const before = (await eventsOf(shop)).length;
    const order = await placeBankTransferOrder(shop);
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/mark-paid`, {})).status).toBe(200);
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/fulfill`, { carrier: "CTT" })).status).toBe(
      200,
    );
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 100 })).status).toBe(200);
    const happened = (await since(shop, before)).filter((e) => e.type.startsWith("order."));
    expect(happened.map((e) => e.type)).toEqual([
      "order.placed",
      "order.paid",
      "order.fulfilled",
      "order.refunded",
    ]);
    expect(happened.map((e) => [e.object.id, e.object.paymentStatus, e.object.fulfillmentStatus])).toEqual([
      [order.id, "pending", "unfulfilled"],
      [order.id, "paid", "unfulfilled"],
      [order.id, "paid", "fulfilled"],
      [order.id, "partially_refunded", "fulfilled"],
    ]);
    // The last one is the order as GET /v1/admin/orders/{id} answers it now.
    const now = (await shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data;
    expect(happened.at(-1)!.object).toEqual(now);
  });

  test("a cancel records order.cancelled; a new guest's first order records customer.created", async () => {
    const before = (await eventsOf(shop)).length;
    const placed = await placeBankTransferOrder(shop, "first-time@example.com");
    expect((await shop.admin.post(`/v1/admin/orders/${placed.id}/cancel`, {})).status).toBe(200);
    const happened = await since(shop, before);
    expect(happened.map((e) => e.type)).toEqual(["customer.created", "order.placed", "order.cancelled"]);
    expect(happened[0]!.object).toMatchObject({
      email: "first-time@example.com",
      hasAccount: false,
      ordersCount: 0,
    });
    expect(happened[2]!.object).toMatchObject({ id: placed.id, status: "cancelled" });
  });

  test("product.created, product.updated and product.deleted carry the product; inventory.low_stock is recorded once, when the stock falls to the threshold", async () => {
    const before = (await eventsOf(shop)).length;
    const created = await shop.admin.post("/v1/admin/products", {
      name: { en: "Event Mug" },
      variants: [{ price: 900 }],
    });
    const productId: string = created.body.data.id;
    const variantId: string = created.body.data.variants[0].id;
    await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 7, tracked: true }); // threshold 5
    await shop.admin.patch(`/v1/admin/products/${productId}`, { tags: ["clay"] });
    for (const adjust of [-1, -1, -1]) {
      expect((await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { adjust })).status).toBe(200);
    }
    expect((await shop.admin.delete(`/v1/admin/products/${productId}`)).status).toBe(204);
    const happened = await since(shop, before);
    expect(happened.map((e) => e.type)).toEqual([
      "product.created",
      "product.updated",
      "inventory.low_stock",
      "product.deleted",
    ]);
    expect(happened[1]!.object).toMatchObject({ id: productId, tags: ["clay"] });
    expect(happened[2]!.object).toMatchObject({ variantId, onHand: 5, lowStockThreshold: 5 });
    expect(happened[3]!.object).toMatchObject({ id: productId });
  });

  test("a refused write records nothing: an order for more than the stock", async () => {
    const variantId = await stockedVariant(shop, "Scarce Lamp", 2000, 1);
    const before = (await eventsOf(shop)).length;
    const cart = await shop.storefront("/v1/carts", {
      body: { email: "x@example.com", items: [{ variantId, quantity: 1 }] },
    });
    await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 0 });
    await shop.storefront(`/v1/carts/${cart.body.data.id}/shipping-address`, { body: PT_ADDRESS });
    await shop.storefront(`/v1/carts/${cart.body.data.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    const refused = await shop.storefront(`/v1/carts/${cart.body.data.id}/place-order`, {
      body: { paymentMethodId: "manual_bank_transfer" },
    });
    expect(refused.status).toBe(409);
    // Nor did the stock set from 1 to 0: it was at the threshold or below already.
    expect((await since(shop, before)).map((e) => e.type)).toEqual([]);
  });
});

describe("GET /v1/admin/events", () => {
  test("filters by type, pages newest first, and reads one event by id", async () => {
    const paid = await shop.admin.get("/v1/admin/events?type=order.paid,order.refunded&limit=1");
    expect(paid.status).toBe(200);
    expect(paid.body.data).toHaveLength(1);
    expect(paid.body.data[0].type).toBe("order.refunded");
    expect(paid.body.meta.total).toBe(2);
    const one = await shop.admin.get(`/v1/admin/events/${paid.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(paid.body.data[0]);
  });

  test("another shop's event is a 404 here; a storefront caller is refused; a malformed filter is a 400", async () => {
    const theirs = (await other.admin.get("/v1/admin/events?limit=1")).body.data[0];
    expect((await shop.admin.get(`/v1/admin/events/${theirs.id}`)).status).toBe(404);
    expect((await shop.storefront("/v1/admin/events")).status).toBe(403);
    const bad = await shop.admin.get("/v1/admin/events?type=not%20a%20type");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect((await shop.admin.get("/v1/admin/events/evt_doesNotExist12345678")).status).toBe(404);
  });
});

describe("the catalog of event types", () => {
  test("the OpenAPI document's webhooks section has one POST per event type, its body typed by the object", async () => {
    const { EVENT_TYPES } = await import("../../src/core/events.ts");
    const doc = (await t.json("/v1/openapi.json")).body;
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    const body = (type: string) => doc.webhooks[type].post.requestBody.content["application/json"].schema;
    expect(body("order.paid").properties.data.properties.object).toEqual({
      $ref: "#/components/schemas/Order",
    });
    expect(body("product.deleted").properties.data.properties.object).toEqual({
      $ref: "#/components/schemas/Product",
    });
    expect(body("order.paid").properties.type).toMatchObject({ const: "order.paid" });
  });
});

describe("retention", () => {
  test("events older than 30 days are dropped by a later recording (at most once an hour per open shop)", async () => {
    const { recordEvent, findEvent } = await import("../../src/core/events.ts");
    const day = 24 * 3600 * 1000;
    const now = Date.now() + 2 * 3600 * 1000; // past any prune of this handle so far
    await t.app.ctx.tenants.with(other.org.id, (tenant) => {
      const old = recordEvent(tenant, "product.deleted", { id: "prod_old" }, now - 31 * day);
      const kept = recordEvent(tenant, "product.deleted", { id: "prod_recent" }, now - 29 * day);
      expect(findEvent(tenant, old)).not.toBeNull();
      recordEvent(tenant, "product.deleted", { id: "prod_now" }, now);
      expect(findEvent(tenant, old)).toBeNull();
      expect(findEvent(tenant, kept)).not.toBeNull();
    });
  });
});
