import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop, PT_ADDRESS, type Shop, stockedVariant } from "../helpers/shop.ts";

// A cart write answers the cart it built in memory from what it read and wrote, without reading it
// back: that answer must be exactly what a read of the cart shows right after it.

let t: TestApp;
let shop: Shop;
const variant = (i: number) => shop.shirt.variants[i].id as string;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Writes", "writes.example");
});
afterAll(() => t.cleanup());

/** Sends a cart write and answers its `data` next to a read of the same cart right after it. */
async function writeAndRead(
  cartId: string,
  path: string,
  init: { method?: string; body?: unknown },
  status = 200,
) {
  const written = await shop.storefront(`/v1/carts/${cartId}${path}`, init);
  expect(written.status).toBe(status);
  const read = await shop.storefront(`/v1/carts/${cartId}`);
  expect(read.status).toBe(200);
  return { written: written.body.data, read: read.body.data };
}

/** A cart of several lines with a coupon (a discount spread over the lines), an address and a shipping method. */
async function fullCart() {
  const created = await shop.storefront("/v1/carts", {
    body: {
      email: "writes@example.com",
      items: [
        { variantId: variant(0), quantity: 2 },
        { variantId: variant(2), quantity: 1 },
        { variantId: variant(4), quantity: 3 },
      ],
    },
  });
  expect(created.status).toBe(201);
  const cartId: string = created.body.data.id;
  expect(created.body.data).toEqual((await shop.storefront(`/v1/carts/${cartId}`)).body.data);
  for (const [path, body] of [
    ["/coupon", { code: "welcome10" }],
    ["/shipping-address", PT_ADDRESS],
    ["/shipping-method", { shippingMethodId: shop.ptShipping.id }],
  ] as const) {
    const { written, read } = await writeAndRead(cartId, path, { body });
    expect(written).toEqual(read);
  }
  return cartId;
}

describe("a cart write answers what a read right after it shows", () => {
  test("+1 on an existing line and a new line, on a cart with several lines, a coupon and a shipping method", async () => {
    const cartId = await fullCart();
    const raised = await writeAndRead(cartId, "/items", { body: { variantId: variant(2), quantity: 1 } });
    expect(raised.written).toEqual(raised.read);
    expect(raised.written.items.map((i: { quantity: number }) => i.quantity)).toEqual([2, 2, 3]);
    expect(raised.written.coupon.code).toBe("WELCOME10");
    expect(raised.written.totals.discount.amount).toBeGreaterThan(0);
    expect(raised.written.items.every((i: { discount: { amount: number } }) => i.discount.amount > 0)).toBe(
      true,
    );

    const added = await writeAndRead(cartId, "/items", { body: { variantId: variant(1), quantity: 1 } });
    expect(added.written).toEqual(added.read);
    expect(added.written.items.map((i: { variantId: string }) => i.variantId)).toEqual([
      variant(0),
      variant(2),
      variant(4),
      variant(1),
    ]);
    // Enough for free shipping: the shipping price and the discount move with the subtotal.
    const free = await writeAndRead(cartId, "/items", { body: { variantId: variant(1), quantity: 2 } });
    expect(free.written).toEqual(free.read);
    expect(free.written.totals.shipping.amount).toBe(0);
    expect(free.written.totals.discount.amount).toBeGreaterThan(raised.written.totals.discount.amount);
  });

  test("a line's quantity changed, a line removed, the coupon removed and an address set", async () => {
    const cartId = await fullCart();
    const lines = (await shop.storefront(`/v1/carts/${cartId}`)).body.data.items as { id: string }[];
    const writes: [string, { method?: string; body?: unknown }][] = [
      [`/items/${lines[0]!.id}`, { method: "PATCH", body: { quantity: 5 } }],
      [`/items/${lines[0]!.id}`, { method: "PATCH", body: { quantity: 1 } }],
      [`/items/${lines[1]!.id}`, { method: "PATCH", body: { quantity: 0 } }],
      [`/items/${lines[2]!.id}`, { method: "DELETE" }],
      ["/billing-address", { body: { ...PT_ADDRESS, firstName: "Rita" } }],
      ["/coupon", { method: "DELETE" }],
    ];
    for (const [path, init] of writes) {
      const { written, read } = await writeAndRead(cartId, path, init);
      expect(written).toEqual(read);
    }
  });

  test("a write after price changes reports them once (not for the line it adds to, which takes the new price), and otherwise answers what the read after it shows", async () => {
    const product = async (name: string, price: number) =>
      (await shop.admin.post("/v1/admin/products", simpleProduct(name, price, { status: "active" }))).body
        .data;
    const [lamp, vase] = [await product("Lamp", 3000), await product("Vase", 1000)];
    const cartId = await fullCart();
    for (const p of [lamp, vase]) {
      const add = await shop.storefront(`/v1/carts/${cartId}/items`, {
        body: { variantId: p.variants[0].id, quantity: 1 },
      });
      expect(add.status).toBe(200);
    }
    for (const [p, price] of [
      [lamp, 3200],
      [vase, 1200],
    ] as const) {
      const patched = await shop.admin.patch(`/v1/admin/products/${p.id}`, {
        variants: [{ id: p.variants[0].id, price }],
      });
      expect(patched.status).toBe(200);
    }
    const { written, read } = await writeAndRead(cartId, "/items", {
      body: { variantId: lamp.variants[0].id, quantity: 1 },
    });
    const vaseLine = written.items.find((i: { variantId: string }) => i.variantId === vase.variants[0].id);
    expect(written.messages).toEqual([
      expect.objectContaining({ code: "PRICE_CHANGED", itemId: vaseLine.id }),
    ]);
    expect(read.messages).toEqual([]);
    expect({ ...written, messages: [] }).toEqual(read);
    expect(written.items.slice(-2).map((i: { unitPrice: { amount: number } }) => i.unitPrice.amount)).toEqual(
      [3200, 1200],
    );
  });
});

describe("cart writes made together share one commit", () => {
  test("each is answered as it would be alone: refusals alone, every created cart in the file, a reused key one cart", async () => {
    const scarce = await stockedVariant(shop, "Scarce", 900, 2);
    const create = (quantity: number, key?: string) =>
      t.json("/v1/carts", {
        method: "POST",
        headers: {
          host: shop.host,
          "content-type": "application/json",
          ...(key ? { "idempotency-key": key } : {}),
        },
        body: JSON.stringify({ items: [{ variantId: scarce, quantity }] }),
      });
    // One turn of the event loop: these writes run as savepoints of one transaction.
    const answers = await Promise.all([
      create(1),
      create(5),
      create(2),
      create(1, "same-key"),
      create(1, "same-key"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 409, 201, 201, 201]);
    expect(answers[1]!.body).toMatchObject({ code: "INSUFFICIENT_STOCK", status: 409 });
    expect(answers[4]!.body).toEqual(answers[3]!.body);
    expect(answers[4]!.response.headers.get("idempotent-replayed")).toBe("true");
    const created = [answers[0], answers[2], answers[3]].map((a) => a!.body.data.id as string);
    const inFile = await t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      (
        tenant.sqlite.query("SELECT id FROM carts WHERE id IN (?, ?, ?)").all(...created) as { id: string }[]
      ).map((row) => row.id),
    );
    expect(inFile.toSorted()).toEqual(created.toSorted());
    for (const answer of [answers[0], answers[2], answers[3]]) {
      const read = await shop.storefront(`/v1/carts/${answer!.body.data.id}`);
      expect(read.body.data).toEqual(answer!.body.data);
    }
  });
});
