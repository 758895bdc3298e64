import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

let t: TestApp;
let shop: Shop;
let variantId: string;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Scopes", "scopes.example.com");
  variantId = shop.shirt.variants[0].id;
});
afterAll(() => t.cleanup());

const withKey = (key: string, extra: Record<string, string> = {}) => ({ "idempotency-key": key, ...extra });

describe("idempotency scopes of storefront callers", () => {
  test("two anonymous shoppers can use the same Idempotency-Key on their own carts", async () => {
    const a = await shop.storefront("/v1/carts", { body: {} });
    const b = await shop.storefront("/v1/carts", { body: {} });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const add = (cartId: string, quantity: number) =>
      shop.storefront(`/v1/carts/${cartId}/items`, {
        body: { variantId, quantity },
        headers: withKey("add-1"),
      });
    const first = await add(a.body.data.id, 1);
    const second = await add(b.body.data.id, 2);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.response.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.data.items[0].quantity).toBe(2);

    // Within one cart the key still replays, and reused with another body it is a conflict.
    const replay = await add(a.body.data.id, 1);
    expect(replay.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const conflict = await add(a.body.data.id, 3);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("IDEMPOTENCY_CONFLICT");
    const cart = await shop.storefront(`/v1/carts/${a.body.data.id}`);
    expect(cart.body.data.items[0].quantity).toBe(1);
  });

  test("a create with nothing to scope by replays on the client's own key", async () => {
    const body = { items: [{ variantId, quantity: 1 }] };
    const first = await shop.storefront("/v1/carts", { body, headers: withKey("new-cart-7f3a") });
    const again = await shop.storefront("/v1/carts", { body, headers: withKey("new-cart-7f3a") });
    expect(first.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  test("a replayed sign-up does not create a second customer, and sets the cookie again", async () => {
    const body = { email: "replay@example.com", password: "a long password 1" };
    const first = await shop.storefront("/v1/account/sign-up", { body, headers: withKey("signup-1") });
    const again = await shop.storefront("/v1/account/sign-up", { body, headers: withKey("signup-1") });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.response.headers.get("set-cookie")).toBe(first.response.headers.get("set-cookie"));
    const customers = await t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      tenant.sqlite.query("SELECT COUNT(*) AS n FROM customers WHERE email = ?").get("replay@example.com"),
    );
    expect(customers).toEqual({ n: 1 });
    // Without the key, the same sign-up is the usual conflict.
    const fresh = await shop.storefront("/v1/account/sign-up", { body });
    expect(fresh.status).toBe(409);
  });

  test("a signed-in customer's keys are scoped by the customer, across carts", async () => {
    const session = await shop.storefront("/v1/account/sign-up", {
      body: { email: "scoped@example.com", password: "a long password 2" },
    });
    const token = session.body.data.token as string;
    const headers = { "x-customer-session": token };
    const cart1 = await shop.storefront("/v1/carts", { body: {}, headers });
    const cart2 = await shop.storefront("/v1/carts", { body: {}, headers });
    const add = (cartId: string) =>
      shop.storefront(`/v1/carts/${cartId}/items`, {
        body: { variantId, quantity: 1 },
        headers: { ...headers, ...withKey("customer-key") },
      });
    expect((await add(cart1.body.data.id)).status).toBe(200);
    // The same customer reusing the key for another cart: another request under the same key.
    const other = await add(cart2.body.data.id);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("IDEMPOTENCY_CONFLICT");
    // An anonymous shopper acting on the second cart with that key is in the cart's own scope.
    const anonymous = await shop.storefront(`/v1/carts/${cart2.body.data.id}/items`, {
      body: { variantId, quantity: 1 },
      headers: withKey("customer-key"),
    });
    expect(anonymous.status).toBe(200);
    expect(anonymous.response.headers.get("idempotent-replayed")).toBeNull();
  });

  test("the same input in another key order is the same call", async () => {
    const post = (body: string) =>
      t.json("/v1/admin/coupons", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": shop.org.key, ...withKey("order-1") },
        body,
      });
    const first = await post('{"code":"ORDERED","type":"percentage","value":5}');
    const again = await post('{"value":5,"type":"percentage","code":"ORDERED"}');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  test("API-key callers keep their own key space", async () => {
    const other = await t.org("Other key space");
    const post = (key: string) =>
      t.json("/v1/admin/coupons", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key, ...withKey("coupon-1") },
        body: JSON.stringify({ code: "SAMEKEY", type: "percentage", value: 5 }),
      });
    expect((await post(shop.org.key)).status).toBe(201);
    expect((await post(other.key)).status).toBe(201);
  });
});
