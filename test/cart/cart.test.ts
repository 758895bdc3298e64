import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";
import { tenantRows as rowsOfTenant } from "../helpers/tenant-rows.ts";

let t: TestApp;
let shop: Shop;
let other: Shop;
const variant = (i: number) => shop.shirt.variants[i].id as string;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Cart Shop", "cart.example");
  other = await makeShop(t, "Other Shop", "other-cart.example");
});
afterAll(() => t.cleanup());

/** Every row of every table of the organization's file, read on a connection of its own. */
const tenantRows = (orgId: string) => rowsOfTenant(t.dataDir, orgId);

const newCart = async (body: unknown = {}) => {
  const res = await shop.storefront("/v1/carts", { body });
  expect(res.status).toBe(201);
  return res.body.data;
};

describe("cart lifecycle", () => {
  test("create, add, merge, update, remove: the whole cart with fresh totals each time", async () => {
    const cart = await newCart({ email: "Ana@Example.com" });
    expect(cart).toMatchObject({
      status: "active",
      currency: "EUR",
      email: "ana@example.com",
      items: [],
      itemCount: 0,
    });
    expect(cart.totals.total).toEqual({ amount: 0, currency: "EUR" });

    let res = await shop.storefront(`/v1/carts/${cart.id}/items`, {
      body: { variantId: variant(0), quantity: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.items[0]).toMatchObject({
      variantId: variant(0),
      productId: shop.shirt.id,
      sku: "SHP-RED-S",
      variantTitle: "S / Red",
      quantity: 2,
      unitPrice: { amount: 1999, currency: "EUR" },
      subtotal: { amount: 3998, currency: "EUR" },
    });
    res = await shop.storefront(`/v1/carts/${cart.id}/items`, {
      body: { variantId: variant(0), quantity: 1 },
    });
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.itemCount).toBe(3);

    const itemId = res.body.data.items[0].id;
    res = await shop.storefront(`/v1/carts/${cart.id}/items/${itemId}`, {
      method: "PATCH",
      body: { quantity: 1 },
    });
    expect(res.body.data.itemCount).toBe(1);
    res = await shop.storefront(`/v1/carts/${cart.id}/items/${itemId}`, {
      method: "PATCH",
      body: { quantity: 0 },
    });
    expect(res.body.data.items).toEqual([]);

    await shop.storefront(`/v1/carts/${cart.id}/items`, { body: { variantId: variant(1), quantity: 1 } });
    const added = (await shop.storefront(`/v1/carts/${cart.id}`)).body.data.items[0].id;
    res = await shop.storefront(`/v1/carts/${cart.id}/items/${added}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body.data.itemCount).toBe(0);
  });

  test("totals: VAT-inclusive 23 %, a 10 % coupon, PT shipping free over €50", async () => {
    const cart = await newCart({ items: [{ variantId: variant(0), quantity: 2 }] }); // 2 × 19.99 = 39.98
    await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
    let res = await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    // 39.98 + 4.90; tax = round(3998 × 2300 / 12300) = 748 + round(490 × 2300 / 12300) = 92
    expect(res.body.data.totals).toEqual({
      subtotal: { amount: 3998, currency: "EUR" },
      discount: { amount: 0, currency: "EUR" },
      shipping: { amount: 490, currency: "EUR" },
      tax: { amount: 840, currency: "EUR" },
      total: { amount: 4488, currency: "EUR" },
    });
    res = await shop.storefront(`/v1/carts/${cart.id}/coupon`, { body: { code: "welcome10" } });
    expect(res.body.data.coupon).toEqual({ code: "WELCOME10", type: "percentage", value: 10 });
    // discount round(399.8) = 400; net 3598 → tax round(3598 × 2300 / 12300) = 673; + shipping tax 92
    expect(res.body.data.totals.discount.amount).toBe(400);
    expect(res.body.data.totals.tax.amount).toBe(765);
    expect(res.body.data.totals.total.amount).toBe(3598 + 490);
    const item = res.body.data.items[0];
    expect(item.discount.amount + item.total.amount).toBe(item.subtotal.amount);

    res = await shop.storefront(`/v1/carts/${cart.id}/items`, {
      body: { variantId: variant(2), quantity: 1 },
    }); // + 21.99
    // subtotal 6197, discount 620, after discount 5577 ≥ 5000: shipping free
    expect(res.body.data.totals.shipping.amount).toBe(0);
    expect(res.body.data.shippingMethod.price.amount).toBe(0);
    res = await shop.storefront(`/v1/carts/${cart.id}/coupon`, { method: "DELETE" });
    expect(res.body.data.coupon).toBeNull();
    expect(res.body.data.totals.discount.amount).toBe(0);
  });

  test("shipping methods: all active before an address, then those serving its country, priced for the cart", async () => {
    const cart = await newCart({ items: [{ variantId: variant(0), quantity: 1 }] });
    let methods = (await shop.storefront(`/v1/carts/${cart.id}/shipping-methods`)).body.data;
    expect(methods.map((m: { id: string }) => m.id)).toEqual([shop.ptShipping.id, shop.world.id]);
    await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, {
      body: { ...PT_ADDRESS, country: "ES", postalCode: "28001" },
    });
    methods = (await shop.storefront(`/v1/carts/${cart.id}/shipping-methods`)).body.data;
    expect(methods.map((m: { id: string }) => m.id)).toEqual([shop.world.id]);
    const refused = await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    expect(refused.status).toBe(422);
  });

  test("a changed country that the chosen method does not serve clears it with a message", async () => {
    const cart = await newCart({ items: [{ variantId: variant(0), quantity: 1 }] });
    await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
    await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    const res = await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, {
      body: { ...PT_ADDRESS, country: "FR", postalCode: "75001" },
    });
    expect(res.body.data.shippingMethod).toBeNull();
    expect(res.body.data.messages.map((m: { code: string }) => m.code)).toContain("SHIPPING_METHOD_CLEARED");
  });

  test("payment methods: manual ones from the store settings, none when the total is 0", async () => {
    const cart = await newCart({ items: [{ variantId: variant(0), quantity: 1 }] });
    expect((await shop.storefront(`/v1/carts/${cart.id}/payment-methods`)).body.data).toEqual([]);
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
    const methods = (await shop.storefront(`/v1/carts/${cart.id}/payment-methods`)).body.data;
    expect(methods).toEqual([
      {
        id: "manual_bank_transfer",
        type: "bank_transfer",
        provider: "manual",
        flow: "offline",
        name: { en: "Bank transfer", pt: "Transferência bancária" },
        requires: [],
      },
    ]);
    const empty = await newCart();
    expect((await shop.storefront(`/v1/carts/${empty.id}/payment-methods`)).body.data).toEqual([]);
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: [] });
  });

  test("live prices: a price change and a deleted product show as messages on every read until the next write", async () => {
    const product = (await shop.admin.post("/v1/admin/products", simpleProduct("Lamp", 3000))).body.data;
    const doomed = (await shop.admin.post("/v1/admin/products", simpleProduct("Vase", 1000))).body.data;
    const cart = await newCart({
      items: [
        { productId: product.id, quantity: 1 },
        { productId: doomed.id, quantity: 1 },
      ],
    });
    await shop.admin.patch(`/v1/admin/products/${product.id}`, {
      variants: [{ id: product.variants[0].id, price: 3500 }],
    });
    await shop.admin.delete(`/v1/admin/products/${doomed.id}`);
    const res = await shop.storefront(`/v1/carts/${cart.id}`);
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.items[0].unitPrice.amount).toBe(3500);
    expect(res.body.data.messages.map((m: { code: string }) => m.code).sort()).toEqual([
      "ITEM_REMOVED",
      "PRICE_CHANGED",
    ]);
    const again = await shop.storefront(`/v1/carts/${cart.id}`);
    expect(again.body.data).toEqual(res.body.data);
    // A write persists the corrections and reports them once; later reads have nothing to report.
    const written = await shop.storefront(`/v1/carts/${cart.id}/billing-address`, { body: PT_ADDRESS });
    expect(written.status).toBe(200);
    expect(written.body.data.messages.map((m: { code: string }) => m.code).sort()).toEqual([
      "ITEM_REMOVED",
      "PRICE_CHANGED",
    ]);
    const after = await shop.storefront(`/v1/carts/${cart.id}`);
    expect(after.body.data.messages).toEqual([]);
    expect(after.body.data.items).toEqual(res.body.data.items);
  });

  test("a cart GET writes nothing: after a variant is deleted and a price changed, every row of the tenant file stays as it was while the reads show the current cart", async () => {
    const lamp = (await shop.admin.post("/v1/admin/products", simpleProduct("Desk lamp", 3000))).body.data;
    const vase = (await shop.admin.post("/v1/admin/products", simpleProduct("Tall vase", 1000))).body.data;
    const cart = await newCart({
      items: [
        { productId: lamp.id, quantity: 2 },
        { productId: vase.id, quantity: 1 },
      ],
    });
    const [lampLine, vaseLine] = cart.items;
    await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
    await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
    await shop.admin.patch(`/v1/admin/products/${lamp.id}`, {
      variants: [{ id: lamp.variants[0].id, price: 3200 }],
    });
    await shop.admin.delete(`/v1/admin/products/${vase.id}`);

    const before = tenantRows(shop.org.id);
    const read = await shop.storefront(`/v1/carts/${cart.id}`);
    const shipping = await shop.storefront(`/v1/carts/${cart.id}/shipping-methods`);
    const payment = await shop.storefront(`/v1/carts/${cart.id}/payment-methods`);
    expect([read.status, shipping.status, payment.status]).toEqual([200, 200, 200]);
    expect(tenantRows(shop.org.id)).toEqual(before);
    const stored = before.cart_items!.filter((row) => row.cart_id === cart.id);
    expect(stored.map((row) => [row.id, row.unit_price])).toEqual([
      [lampLine.id, 3000],
      [vaseLine.id, 1000],
    ]);

    // The reads show the cart as it is now: the vase left out with a notice, the lamp at its new price.
    expect(read.body.data.items.map((item: { id: string }) => item.id)).toEqual([lampLine.id]);
    expect(read.body.data.items[0].unitPrice.amount).toBe(3200);
    expect(read.body.data.totals.subtotal.amount).toBe(6400);
    expect(read.body.data.messages).toEqual([
      { code: "PRICE_CHANGED", message: "The price of Desk lamp changed", itemId: lampLine.id },
      { code: "ITEM_REMOVED", message: "A product in the cart is no longer sold", itemId: vaseLine.id },
    ]);
    // 6400 after discount is over the PT method's €50: shipping is free for this cart now.
    expect(shipping.body.data.find((m: { id: string }) => m.id === shop.ptShipping.id).price.amount).toBe(0);
    expect(payment.body.data.map((m: { id: string }) => m.id)).toEqual(["manual_bank_transfer"]);

    // The next write persists the corrections in its own transaction.
    const written = await shop.storefront(`/v1/carts/${cart.id}/items/${lampLine.id}`, {
      method: "PATCH",
      body: { quantity: 1 },
    });
    expect(written.status).toBe(200);
    const rows = tenantRows(shop.org.id).cart_items!.filter((row) => row.cart_id === cart.id);
    expect(rows.map((row) => [row.id, row.unit_price, row.quantity])).toEqual([[lampLine.id, 3200, 1]]);
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: [] });
  });
});

describe("cart rules and bad input", () => {
  test("quantity above the stock → 409 INSUFFICIENT_STOCK naming what is available", async () => {
    const cart = await newCart();
    const res = await shop.storefront(`/v1/carts/${cart.id}/items`, {
      body: { variantId: variant(3), quantity: 6 },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("INSUFFICIENT_STOCK");
    expect(res.body.error).toContain("5 available");
    expect(res.body.error).toContain("SHP-BLUE-S");
  });

  test("bad item input → 4xx, cart unchanged", async () => {
    const cart = await newCart();
    const cases: [unknown, number][] = [
      [{ variantId: variant(0), quantity: 0 }, 400],
      [{ variantId: variant(0), quantity: 1000 }, 400],
      [{ variantId: variant(0), quantity: -1 }, 400],
      [{ variantId: variant(0), quantity: "2" }, 400],
      [{ variantId: variant(0) }, 400],
      [{ variantId: "var_unknown", quantity: 1 }, 404],
      [{ productId: shop.shirt.id, quantity: 1 }, 400], // several variants
      [{ quantity: 1 }, 400],
      [{ variantId: variant(0), quantity: 1, price: 1 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await shop.storefront(`/v1/carts/${cart.id}/items`, { body });
      expect(res.status).toBe(status);
      expect(res.body.status).toBe(status);
    }
    expect((await shop.storefront(`/v1/carts/${cart.id}`)).body.data.items).toEqual([]);
  });

  test("bad addresses and emails → 400 or 422, nothing stored", async () => {
    const cart = await newCart();
    const cases: [unknown, number][] = [
      [{ ...PT_ADDRESS, country: undefined }, 400],
      [{ ...PT_ADDRESS, postalCode: "1100053" }, 400],
      [{ ...PT_ADDRESS, postalCode: undefined }, 400],
      [{ ...PT_ADDRESS, country: "ZZ" }, 400],
      [{ ...PT_ADDRESS, country: "JP", postalCode: "100-0001" }, 200], // the world method ships everywhere
      [{ ...PT_ADDRESS, firstName: "" }, 400],
      [{ ...PT_ADDRESS, line1: "x".repeat(201) }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body });
      expect(res.status).toBe(status);
    }
    expect((await shop.storefront("/v1/carts", { body: { email: "no-at-sign" } })).status).toBe(400);
    const billing = await shop.storefront(`/v1/carts/${cart.id}/billing-address`, {
      body: { ...PT_ADDRESS, postalCode: "12" },
    });
    expect(billing.status).toBe(400);
    expect((await shop.storefront(`/v1/carts/${cart.id}`)).body.data.billingAddress).toBeNull();
  });

  test("an unknown coupon, a coupon below its minimum → 422 COUPON_INVALID with the reason", async () => {
    await shop.admin.post("/v1/admin/coupons", {
      code: "BIG",
      type: "fixed",
      value: 500,
      minSubtotal: 10_000,
    });
    const cart = await newCart({ items: [{ variantId: variant(0), quantity: 1 }] });
    const unknown = await shop.storefront(`/v1/carts/${cart.id}/coupon`, { body: { code: "NOPE" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("COUPON_INVALID");
    expect(unknown.body.error).toContain("unknown");
    const small = await shop.storefront(`/v1/carts/${cart.id}/coupon`, { body: { code: "big" } });
    expect(small.status).toBe(422);
    expect(small.body.error).toContain("minimum subtotal not met");
  });

  test("another tenant's cart → 404; a malformed id → 400", async () => {
    const cart = await newCart();
    expect((await other.storefront(`/v1/carts/${cart.id}`)).status).toBe(404);
    expect(
      (await other.storefront(`/v1/carts/${cart.id}/items`, { body: { variantId: variant(0), quantity: 1 } }))
        .status,
    ).toBe(404);
    expect((await shop.storefront("/v1/carts/not-a-cart")).status).toBe(400);
    expect((await shop.storefront("/v1/carts/cart_missing000")).status).toBe(404);
  });
});

describe("countries", () => {
  test("shipsTo follows the active shipping methods", async () => {
    const plain = await makeShop(t, "Ships nowhere", "nowhere.example");
    const countries = async (s: Shop) =>
      Object.fromEntries(
        (await s.storefront("/v1/countries")).body.data.map((c: { code: string; shipsTo: boolean }) => [
          c.code,
          c.shipsTo,
        ]),
      );
    // makeShop adds a worldwide method: every country ships.
    expect((await countries(plain)).JP).toBe(true);
    for (const m of (await plain.admin.get("/v1/admin/shipping-methods")).body.data) {
      if (m.countries.length === 0)
        await plain.admin.patch(`/v1/admin/shipping-methods/${m.id}`, { active: false });
    }
    const after = await countries(plain);
    expect(after.PT).toBe(true);
    expect(after.JP).toBe(false);
    expect(after.ES).toBe(false);
  });
});
