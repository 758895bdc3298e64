import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/auth/crypto.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { withTenant } from "../helpers/seed-orders.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { readyCart } from "../payments/helpers.ts";

// The `x-customer-session` header is a credential a client chose to send: a wrong one is a 401, on
// every operation that reads the session. The `customer_session` cookie is a browser's: a stale one
// is no session, and the browser keeps shopping as a guest.

let t: TestApp;
let shop: Shop;
let other: Shop;
let stale: string;
let otherShopToken: string;

const signUp = async (target: Shop, email: string) => {
  const res = await target.storefront("/v1/account/sign-up", {
    body: { email, password: "a long password 3" },
  });
  expect(res.status).toBe(201);
  return res.body.data.token as string;
};

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Sessions", "sessions.example");
  other = await makeShop(t, "Other Sessions", "other-sessions.example");
  stale = await signUp(shop, "stale@example.com");
  withTenant(t, shop.org.id, (tenant) =>
    tenant.sqlite
      .query("UPDATE customer_sessions SET expires_at = ? WHERE token_hash = ?")
      .run(Date.now() - 1, sha256Hex(stale)),
  );
  otherShopToken = await signUp(other, "elsewhere@example.com");
});
afterAll(() => t.cleanup());

describe("a present but wrong x-customer-session is a 401; a stale customer_session cookie is no session", () => {
  test("an expired, unknown, empty or other shop's x-customer-session header: 401 on place-order and cart creation, nothing changes", async () => {
    const cartId = await readyCart(shop);
    for (const token of [stale, "not-a-session", "", otherShopToken]) {
      const headers = { "x-customer-session": token };
      const placed = await shop.storefront(`/v1/carts/${cartId}/place-order`, { body: {}, headers });
      const created = await shop.storefront("/v1/carts", { body: {}, headers });
      for (const res of [placed, created]) {
        expect({ token, status: res.status, code: res.body.code }).toEqual({
          token,
          status: 401,
          code: "UNAUTHORIZED",
        });
      }
    }
    expect((await shop.storefront(`/v1/carts/${cartId}`)).body.data.status).toBe("active");
    const orders = await shop.admin.get("/v1/admin/orders");
    expect(orders.body.meta.total).toBe(0);
  });

  test("a guest's order read with its access token and a wrong header is a 401; without the header, a 200", async () => {
    const cartId = await readyCart(shop);
    const placed = await shop.storefront(`/v1/carts/${cartId}/place-order`, { body: {} });
    expect(placed.status).toBe(201);
    const path = `/v1/orders/${placed.body.data.id}?token=${placed.body.data.accessToken}`;
    expect((await shop.storefront(path, { headers: { "x-customer-session": stale } })).status).toBe(401);
    expect((await shop.storefront(path)).status).toBe(200);
  });

  test("a stale or forged customer_session cookie is no session: the browser places its order as a guest", async () => {
    for (const cookie of [`customer_session=${stale}`, "customer_session=forged"]) {
      const cartId = await readyCart(shop);
      const placed = await shop.storefront(`/v1/carts/${cartId}/place-order`, {
        body: {},
        headers: { cookie },
      });
      expect({ cookie, status: placed.status }).toEqual({ cookie, status: 201 });
      // Guest rules: the order is read with its access token, not with the cookie.
      const order = `/v1/orders/${placed.body.data.id}`;
      expect((await shop.storefront(order, { headers: { cookie } })).status).toBe(404);
      expect((await shop.storefront(`${order}?token=${placed.body.data.accessToken}`)).status).toBe(200);
    }
  });

  test("a live session works by header and by cookie", async () => {
    const token = await signUp(shop, "live@example.com");
    const ways: Record<string, string>[] = [
      { "x-customer-session": token },
      { cookie: `customer_session=${token}` },
    ];
    for (const headers of ways) {
      expect((await shop.storefront("/v1/carts", { body: {}, headers })).status).toBe(201);
      expect((await shop.storefront("/v1/account", { headers })).body.data.customer.email).toBe(
        "live@example.com",
      );
    }
  });
});
