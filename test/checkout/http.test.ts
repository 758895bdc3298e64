import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// The checkout session operations over HTTP, as a storefront (by Host) or a server (API key) calls
// them: the happy path to a placed order, ownership, other shops, auth, and bad input that changes nothing.

let t: TestApp;
let shop: Shop;
let other: Shop;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Checkout Shop", "checkout-shop.example");
  other = await makeShop(t, "Other Shop", "other-checkout.example");
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
});
afterAll(() => t.cleanup());

const line = () => ({ variantId: shop.shirt.variants[0].id as string, quantity: 1 });
const open = (body: unknown = { lines: [line()] }) => shop.storefront("/v1/checkout-sessions", { body });
function sessionCount(): number {
  const tenant = t.app.ctx.tenants.acquire(shop.org.id);
  try {
    return (tenant.sqlite.query("SELECT COUNT(*) AS n FROM checkout_sessions").get() as { n: number }).n;
  } finally {
    t.app.ctx.tenants.release(tenant);
  }
}

describe("checkout sessions over HTTP", () => {
  test("open → update → ready → complete places the order; a repeated key replays, a second completion is a 409", async () => {
    const opened = await open({ lines: [line()], buyer: { email: "buyer@example.com", firstName: "Ana" } });
    expect(opened.status).toBe(201);
    const session = opened.body.data;
    expect(session).toMatchObject({
      status: "open",
      buyer: { email: "buyer@example.com", firstName: "Ana" },
    });
    expect(session.problems.map((p: { field: string }) => p.field)).toEqual([
      "shippingAddress",
      "shippingMethod",
      "paymentMethod",
    ]);
    const updated = await shop.storefront(`/v1/checkout-sessions/${session.id}`, {
      method: "PATCH",
      body: {
        shippingAddress: PT_ADDRESS,
        shippingMethodId: shop.ptShipping.id,
        paymentMethodId: "manual_bank_transfer",
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ status: "ready", problems: [] });

    const complete = () =>
      shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, {
        body: {},
        headers: { "idempotency-key": `complete-${session.id}` },
      });
    const completed = await complete();
    expect(completed.status).toBe(200);
    expect(completed.body.data.status).toBe("completed");
    expect(completed.body.data.order).toMatchObject({ status: "open", paymentStatus: "pending" });
    expect(completed.body.data.accessToken).toBeString();
    const replay = await complete();
    expect(replay.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(completed.body);
    const again = await shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT", status: 409 });
    const read = await shop.storefront(`/v1/checkout-sessions/${session.id}`);
    expect(read.body.data.order.id).toBe(completed.body.data.order.id);
  });

  test("a session is its caller's: another caller of the shop, or another shop, gets a 404", async () => {
    const session = (await open()).body.data;
    const byKey = await t.json(`/v1/checkout-sessions/${session.id}`, {
      headers: { "x-api-key": shop.org.key },
    });
    expect(byKey.status).toBe(404);
    const byOtherShop = await other.storefront(`/v1/checkout-sessions/${session.id}`);
    expect(byOtherShop.status).toBe(404);
    const cancelByOther = await other.storefront(`/v1/checkout-sessions/${session.id}/cancel`, { body: {} });
    expect(cancelByOther.status).toBe(404);
    expect((await shop.storefront(`/v1/checkout-sessions/${session.id}`)).body.data.status).toBe("open");
  });

  test("cancel: the session is canceled, and can then be neither changed nor completed", async () => {
    const session = (await open()).body.data;
    const canceled = await shop.storefront(`/v1/checkout-sessions/${session.id}/cancel`, { body: {} });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data.status).toBe("canceled");
    const change = await shop.storefront(`/v1/checkout-sessions/${session.id}`, {
      method: "PATCH",
      body: { buyer: { email: "x@example.com" } },
    });
    expect(change.status).toBe(409);
    expect((await shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: {} })).status).toBe(
      409,
    );
  });

  test("without a credential or shop host it is a 401; an admin-only key is a 403", async () => {
    const anonymous = await t.json("/v1/checkout-sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ lines: [line()] }),
    });
    expect(anonymous.status).toBe(401);
    const adminOnly = await t.org("Admin only", { scopes: ["admin"] });
    const refused = await t.json("/v1/checkout-sessions", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": adminOnly.key },
      body: JSON.stringify({ lines: [line()] }),
    });
    expect(refused.status).toBe(403);
  });

  test("bad input is a 4xx with the error body and opens nothing", async () => {
    const before = sessionCount();
    for (const [body, status] of [
      [{ lines: [{ variantId: "var_doesnotexist00", quantity: 1 }] }, 404],
      [{ lines: [{ ...line(), quantity: 0 }] }, 400],
      [{ lines: [{ ...line(), quantity: "2" }] }, 400],
      [{ lines: Array.from({ length: 101 }, line) }, 400],
      [{ lines: [line()], buyer: { email: "not an email" } }, 400],
      [{ lines: [line()], surprise: true }, 400],
      [{ lines: [line()], shippingMethodId: "shp_doesnotexist000" }, 404],
      [{ lines: [line()], buyer: { phone: "x".repeat(5000) } }, 400],
    ] as [unknown, number][]) {
      const answer = await open(body);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ status, code: expect.any(String), error: expect.any(String) });
    }
    expect(sessionCount()).toBe(before);
    const unknown = await shop.storefront("/v1/checkout-sessions/chk_doesnotexist0000");
    expect(unknown.status).toBe(404);
    const malformed = await shop.storefront("/v1/checkout-sessions/not-an-id");
    expect(malformed.status).toBe(400);
  });
});

describe("a delegated payment credential", () => {
  test("pays by card only: with a bank transfer it is a 422 on /body/paymentCredential, and a malformed one a 400; nothing placed", async () => {
    const session = (
      await open({
        lines: [line()],
        buyer: { email: "token@example.com" },
        shippingAddress: PT_ADDRESS,
        shippingMethodId: shop.ptShipping.id,
        paymentMethodId: "manual_bank_transfer",
      })
    ).body.data;
    const completeWith = (paymentCredential: unknown) =>
      shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: { paymentCredential } });
    const refused = await completeWith({ type: "stripe_shared_payment_token", token: "spt_test_1" });
    expect(refused.status).toBe(422);
    expect(refused.body.details[0].path).toBe("/body/paymentCredential");
    for (const bad of [
      { type: "card", token: "x" },
      { type: "stripe_shared_payment_token", token: "a b" },
      "spt_1",
    ]) {
      const answer = await completeWith(bad);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("VALIDATION_ERROR");
    }
    const read = await shop.storefront(`/v1/checkout-sessions/${session.id}`);
    expect(read.body.data).toMatchObject({ status: "ready", order: null });
  });
});

describe("the quoted total", () => {
  test("completing at a total that moved since the last change is a 422 that changes nothing; an update accepts the new total", async () => {
    const product = await shop.admin.post("/v1/admin/products", {
      name: { en: "Quoted mug" },
      status: "active",
      variants: [{ price: 1000 }],
    });
    const variant = product.body.data.variants[0];
    const session = (
      await open({
        lines: [{ variantId: variant.id, quantity: 1 }],
        buyer: { email: "quote@example.com" },
        shippingAddress: PT_ADDRESS,
        shippingMethodId: shop.ptShipping.id,
        paymentMethodId: "manual_bank_transfer",
      })
    ).body.data;
    expect(session.status).toBe("ready");
    const quoted = session.cart.totals.total.amount;
    await shop.admin.patch(`/v1/admin/products/${product.body.data.id}`, {
      variants: [{ id: variant.id, price: 1200 }],
    });
    const refused = await shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain(`from ${quoted} to ${quoted + 200}`);
    expect((await shop.storefront(`/v1/checkout-sessions/${session.id}`)).body.data.order).toBeNull();
    // The buyer's details do not accept the new total; the shipping method, even the same, does.
    await shop.storefront(`/v1/checkout-sessions/${session.id}`, {
      method: "PATCH",
      body: { buyer: { firstName: "Quinn" } },
    });
    const stillRefused = await shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: {} });
    expect(stillRefused.status).toBe(422);
    expect(stillRefused.body.details[0].path).toBe("/totals/total");
    const accepted = await shop.storefront(`/v1/checkout-sessions/${session.id}`, {
      method: "PATCH",
      body: { shippingMethodId: shop.ptShipping.id },
    });
    expect(accepted.body.data.cart.totals.total.amount).toBe(quoted + 200);
    const completed = await shop.storefront(`/v1/checkout-sessions/${session.id}/complete`, { body: {} });
    expect(completed.status).toBe(200);
    expect(completed.body.data.order.totals.total.amount).toBe(quoted + 200);
  });
});
