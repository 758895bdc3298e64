import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

let t: TestApp;
let shop: Shop;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Order Shop", "orders.example");
});
afterAll(() => t.cleanup());

/** A cart with items, PT address and PT shipping, ready to place. */
async function readyCart(items: { variantId: string; quantity: number }[], email = "buyer@example.com") {
  const cart = (await shop.storefront("/v1/carts", { body: { email, items } })).body.data;
  if (!cart) throw new Error("cart not created");
  await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
  await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
    body: { shippingMethodId: shop.ptShipping.id },
  });
  return cart.id as string;
}

const place = (cartId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  shop.storefront(`/v1/carts/${cartId}/place-order`, { body, headers });

const stockOf = async (productId: string, variantId: string) =>
  (await shop.admin.get(`/v1/admin/products/${productId}`)).body.data.variants.find(
    (v: any) => v.id === variantId,
  ).inventory.onHand as number;

describe("place order", () => {
  test("a whole purchase: the order stores lines and totals as computed, takes stock, completes the cart", async () => {
    const variantId = shop.shirt.variants[0].id;
    const before = await stockOf(shop.shirt.id, variantId);
    const cartId = await readyCart([{ variantId, quantity: 2 }]);
    const priced = (await shop.storefront(`/v1/carts/${cartId}`)).body.data;
    const res = await place(cartId, { note: "Ring twice" });
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({
      number: 1001,
      status: "open",
      paymentStatus: "pending",
      fulfillmentStatus: "unfulfilled",
      email: "buyer@example.com",
      note: "Ring twice",
      shippingMethod: { id: shop.ptShipping.id, price: { amount: 490, currency: "EUR" } },
      billingAddress: PT_ADDRESS,
    });
    expect(order.accessToken).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(order.customerId).toMatch(/^cus_/);
    expect(order.totals).toEqual({ ...priced.totals, refunded: { amount: 0, currency: "EUR" } });
    expect(order.items[0]).toMatchObject({ variantId, quantity: 2, taxRate: 2300, sku: "SHP-RED-S" });
    expect(order.events.map((e: { type: string }) => e.type)).toEqual(["placed"]);
    expect(await stockOf(shop.shirt.id, variantId)).toBe(before - 2);

    const cart = (await shop.storefront(`/v1/carts/${cartId}`)).body.data;
    expect(cart.status).toBe("completed");
    for (const [path, body] of [
      [`/v1/carts/${cartId}/items`, { variantId, quantity: 1 }],
      [`/v1/carts/${cartId}/coupon`, { code: "WELCOME10" }],
      [`/v1/carts/${cartId}/shipping-address`, PT_ADDRESS],
      [`/v1/carts/${cartId}/place-order`, {}],
    ] as const) {
      const refused = await shop.storefront(path, { body });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("CONFLICT");
    }
    const second = await place(await readyCart([{ variantId, quantity: 1 }], "BUYER@example.com"));
    expect(second.body.data.number).toBe(1002);
    expect(second.body.data.customerId).toBe(order.customerId);
  });

  test("preconditions: each missing thing is a 422 naming it, and nothing changes", async () => {
    const product = (
      await shop.admin.post(
        "/v1/admin/products",
        simpleProduct("Cup", 800, { variants: [{ price: 800, inventory: { onHand: 3 } }] }),
      )
    ).body.data;
    const variantId = product.variants[0].id;
    const empty = (await shop.storefront("/v1/carts", { body: { email: "e@example.com" } })).body.data.id;
    expect((await place(empty)).body.error).toContain("no items");

    const noEmail = (await shop.storefront("/v1/carts", { body: { items: [{ variantId, quantity: 1 }] } }))
      .body.data.id;
    const missingEmail = await place(noEmail);
    expect(missingEmail.status).toBe(422);
    expect(missingEmail.body.error).toContain("email");

    const noAddress = (
      await shop.storefront("/v1/carts", {
        body: { email: "e@example.com", items: [{ variantId, quantity: 1 }] },
      })
    ).body.data.id;
    expect((await place(noAddress)).body.error).toContain("shipping address");
    await shop.storefront(`/v1/carts/${noAddress}/shipping-address`, { body: PT_ADDRESS });
    const noMethod = await place(noAddress);
    expect(noMethod.status).toBe(422);
    expect(noMethod.body.error).toContain("shipping method");

    await shop.admin.patch("/v1/admin/store", {
      manualPaymentMethods: ["bank_transfer", "cash_on_delivery"],
    });
    await shop.storefront(`/v1/carts/${noAddress}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    const noPayment = await place(noAddress);
    expect(noPayment.status).toBe(422);
    expect(noPayment.body.error).toContain("manual_bank_transfer");
    expect((await place(noAddress, { paymentMethodId: "stripe_card" })).status).toBe(422);

    await shop.admin.patch(`/v1/admin/products/${product.id}`, { status: "draft" });
    const unavailable = await place(noAddress, { paymentMethodId: "manual_cash_on_delivery" });
    expect(unavailable.status).toBe(422);
    await shop.admin.patch(`/v1/admin/products/${product.id}`, { status: "active" });

    expect(await stockOf(product.id, variantId)).toBe(3);
    const ok = await place(noAddress, { paymentMethodId: "manual_cash_on_delivery" });
    expect(ok.status).toBe(201);
    expect(ok.body.data.paymentMethod).toEqual({
      id: "manual_cash_on_delivery",
      provider: "manual",
      type: "cash_on_delivery",
    });
    expect(await stockOf(product.id, variantId)).toBe(2);
    await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: [] });
  });

  test("a total of 0 is paid at once", async () => {
    const freebie = (
      await shop.admin.post("/v1/admin/products", simpleProduct("Sticker", 0, { requiresShipping: false }))
    ).body.data;
    const cartId = (
      await shop.storefront("/v1/carts", {
        body: { email: "free@example.com", items: [{ productId: freebie.id, quantity: 1 }] },
      })
    ).body.data.id;
    const res = await place(cartId);
    expect(res.status).toBe(201);
    expect(res.body.data.paymentStatus).toBe("paid");
    expect(res.body.data.paidAt).not.toBeNull();
  });

  test("a guest reads the order only with its access token", async () => {
    const cartId = await readyCart([{ variantId: shop.shirt.variants[1].id, quantity: 1 }]);
    const order = (await place(cartId)).body.data;
    expect((await shop.storefront(`/v1/orders/${order.id}`)).status).toBe(404);
    expect((await shop.storefront(`/v1/orders/${order.id}?token=wrong`)).status).toBe(404);
    const read = await shop.storefront(`/v1/orders/${order.id}?token=${order.accessToken}`);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(order.id);
    expect(read.body.data.accessToken).toBeUndefined();
  });
});

describe("never overselling", () => {
  test("50 concurrent buyers of 10 units: exactly 10 orders, 40 × 409 INSUFFICIENT_STOCK, stock 0", async () => {
    const product = (
      await shop.admin.post(
        "/v1/admin/products",
        simpleProduct("Last units", 1000, { variants: [{ price: 1000, inventory: { onHand: 10 } }] }),
      )
    ).body.data;
    const variantId = product.variants[0].id;
    const carts = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const cart = (
          await shop.storefront("/v1/carts", {
            body: { email: `b${i}@example.com`, items: [{ variantId, quantity: 1 }] },
          })
        ).body.data;
        await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
        await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
          body: { shippingMethodId: shop.ptShipping.id },
        });
        return cart.id as string;
      }),
    );
    const results = await Promise.all(carts.map((id) => place(id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === "INSUFFICIENT_STOCK")).toBe(
      true,
    );
    expect(await stockOf(product.id, variantId)).toBe(0);
    const orders = await shop.admin.get(`/v1/admin/orders?limit=100&query=`);
    expect(orders.status).toBe(200);
  });

  test("a coupon limited to 5 uses, 50 concurrent buyers: exactly 5 orders with it", async () => {
    await shop.admin.post("/v1/admin/coupons", { code: "FIVE", type: "fixed", value: 100, usageLimit: 5 });
    const product = (
      await shop.admin.post(
        "/v1/admin/products",
        simpleProduct("Plenty", 1000, { variants: [{ price: 1000, inventory: { onHand: 1000 } }] }),
      )
    ).body.data;
    const carts = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const id = await readyCart([{ variantId: product.variants[0].id, quantity: 1 }], `c${i}@example.com`);
        const applied = await shop.storefront(`/v1/carts/${id}/coupon`, { body: { code: "FIVE" } });
        expect(applied.status).toBe(200);
        return id;
      }),
    );
    const results = await Promise.all(carts.map((id) => place(id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(45);
    expect(refused.every((r) => r.status === 422 && r.body.code === "COUPON_INVALID")).toBe(true);
    const coupons = (await shop.admin.get("/v1/admin/coupons?query=FIVE")).body.data;
    expect(coupons[0].usageCount).toBe(5);
    expect(await stockOf(product.id, product.variants[0].id)).toBe(995);
  });
});

describe("idempotency", () => {
  test("the same key and body twice → one order, identical responses, the second marked replayed", async () => {
    const variantId = shop.shirt.variants[4].id;
    const before = await stockOf(shop.shirt.id, variantId);
    const cartId = await readyCart([{ variantId, quantity: 1 }]);
    const first = await place(cartId, { note: "x" }, { "idempotency-key": "order-abc-1" });
    const second = await place(cartId, { note: "x" }, { "idempotency-key": "order-abc-1" });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();
    expect(await stockOf(shop.shirt.id, variantId)).toBe(before - 1);

    const conflict = await place(cartId, { note: "y" }, { "idempotency-key": "order-abc-1" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("IDEMPOTENCY_CONFLICT");
  });

  test("keys are per caller: another caller's same key is a new request", async () => {
    const cartId = await readyCart([{ variantId: shop.shirt.variants[5].id, quantity: 1 }]);
    const asKey = await t.json(`/v1/carts/${cartId}/items`, {
      method: "POST",
      headers: { "x-api-key": shop.org.key, "content-type": "application/json", "idempotency-key": "shared" },
      body: JSON.stringify({ variantId: shop.shirt.variants[5].id, quantity: 1 }),
    });
    expect(asKey.status).toBe(200);
    const asHost = await shop.storefront(`/v1/carts/${cartId}/items`, {
      body: { variantId: shop.shirt.variants[5].id, quantity: 1 },
      headers: { "idempotency-key": "shared" },
    });
    expect(asHost.response.headers.get("idempotent-replayed")).toBeNull();
    expect(asHost.body.data.itemCount).toBe(3);
  });

  test("a malformed key → 400; a failed request is not stored, so its key can be retried", async () => {
    const cartId = (await shop.storefront("/v1/carts", { body: { email: "k@example.com" } })).body.data.id;
    const bad = await place(cartId, {}, { "idempotency-key": "x".repeat(300) });
    expect(bad.status).toBe(400);
    const failed = await place(cartId, {}, { "idempotency-key": "retry-me" });
    expect(failed.status).toBe(422);
    await shop.storefront(`/v1/carts/${cartId}/items`, {
      body: { variantId: shop.shirt.variants[2].id, quantity: 1 },
    });
    await shop.storefront(`/v1/carts/${cartId}/shipping-address`, { body: PT_ADDRESS });
    await shop.storefront(`/v1/carts/${cartId}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    const retried = await place(cartId, {}, { "idempotency-key": "retry-me" });
    expect(retried.status).toBe(201);
  });
});

describe("customer accounts and orders", () => {
  test("a signed-in customer's order is theirs; a guest order with the same email is not", async () => {
    const variantId = shop.shirt.variants[3].id;
    const guestCart = await readyCart([{ variantId, quantity: 1 }], "maria@example.com");
    const guestOrder = (await place(guestCart)).body.data;

    const signUp = await shop.storefront("/v1/account/sign-up", {
      body: { email: "maria@example.com", password: "a good password" },
    });
    expect(signUp.status).toBe(201);
    const session = { "x-customer-session": signUp.body.data.token };
    const cart = (
      await shop.storefront("/v1/carts", { body: { items: [{ variantId, quantity: 1 }] }, headers: session })
    ).body.data;
    expect(cart.email).toBe("maria@example.com");
    await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
    await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
      body: { shippingMethodId: shop.ptShipping.id },
    });
    const mine = (await place(cart.id, {}, session)).body.data;
    expect(mine.customerId).toBe(guestOrder.customerId);

    const listed = await shop.storefront("/v1/orders", { headers: session });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((o: { id: string }) => o.id)).toEqual([mine.id]);
    expect((await shop.storefront(`/v1/orders/${mine.id}`, { headers: session })).status).toBe(200);
    expect((await shop.storefront(`/v1/orders/${guestOrder.id}`, { headers: session })).status).toBe(404);
    expect((await shop.storefront("/v1/orders")).status).toBe(401);
  });
});
