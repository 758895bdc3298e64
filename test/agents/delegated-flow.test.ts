import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addMember } from "../../src/auth/service.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";
import {
  activeAgent,
  approve,
  type Merchant,
  relaxRegisterLimit,
  type TestAgent,
  TestHost,
} from "./helpers.ts";

// The delegated flow end to end with real Ed25519 keys: register → pending → approval by a
// signed-in merchant with the user code → active → shopping via /v1 → an admin capability
// refused until approved → a refund constrained to at most 5000.

let t: TestApp;
let shop: Shop;
let merchant: Merchant;

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  shop = await makeShop(t, "Agent Shop", "agent-shop.example");
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  const cookie = await signUp(t, "owner@agent-shop.example");
  const session = await t.json("/api/auth/session", { headers: { cookie } });
  const userId = session.body.data.user.id;
  addMember(t.app.ctx.platform, shop.org.id, userId, "owner");
  merchant = { cookie, userId, orgId: shop.org.id, apiKey: shop.org.key };
});
afterAll(() => t.cleanup());

const SHOPPING = [
  "listProducts",
  "getProduct",
  "createCart",
  "getCart",
  "addCartItem",
  "setCartShippingAddress",
  "setCartShippingMethod",
  "listCartShippingMethods",
  "placeOrder",
  "getOrder",
];

describe("a delegated agent, from registration to a constrained refund", () => {
  let agent: TestAgent;
  let orderId: string;

  test("register → pending → approval with the user code → active", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({
      name: "Personal shopper",
      host_name: "Ana's laptop",
      capabilities: SHOPPING,
      binding_message: "Buy 5 red shirts",
    });
    expect(reg.status).toBe(201);
    expect(reg.body.status).toBe("pending");
    agent = reg.agent!;
    const { approval } = reg.body;
    expect((await agent.v1("/v1/products")).status).toBe(401);
    expect((await host.poll(approval.device_code)).body.error).toBe("authorization_pending");

    // The merchant signs in, opens the request by its code and approves it for the shop.
    const view = await t.json(`/api/auth/agent/approval?code=${encodeURIComponent(approval.user_code)}`, {
      headers: { cookie: merchant.cookie },
    });
    expect(view.status).toBe(200);
    expect(view.body.approval.binding_message).toBe("Buy 5 red shirts");
    expect(view.body.host.name).toBe("Ana's laptop");
    expect(view.body.capabilities.map((c: { name: string }) => c.name)).toEqual([...SHOPPING].sort());
    const decided = await approve(t, merchant, approval, { organization_id: view.body.organizations[0].id });
    expect(decided.status).toBe(200);
    expect(decided.body.agent_status).toBe("active");

    t.app.ctx.platform.sqlite
      .query("UPDATE agent_approvals SET last_polled_at = 0 WHERE id = ?")
      .run(approval.device_code);
    const polled = await host.poll(approval.device_code);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({
      status: "active",
      organization_id: shop.org.id,
      user_id: merchant.userId,
    });
  });

  test("shopping via /v1: browse, cart, address, shipping, place the order", async () => {
    const products = await agent.v1("/v1/products");
    expect(products.status).toBe(200);
    const shirt = products.body.data.find((p: { id: string }) => p.id === shop.shirt.id);
    expect(shirt).toBeDefined();
    const large = shop.shirt.variants.find((v: { sku: string }) => v.sku === "SHP-RED-L");

    const cart = await agent.v1("/v1/carts", { method: "POST", body: { email: "ana@example.com" } });
    expect(cart.status).toBe(201);
    const cartId = cart.body.data.id;
    const added = await agent.v1(`/v1/carts/${cartId}/items`, {
      method: "POST",
      body: { variantId: large.id, quantity: 5 },
    });
    expect(added.status).toBe(200);
    expect(
      (await agent.v1(`/v1/carts/${cartId}/shipping-address`, { method: "POST", body: PT_ADDRESS })).status,
    ).toBe(200);
    const methods = await agent.v1(`/v1/carts/${cartId}/shipping-methods`);
    expect(methods.status).toBe(200);
    const shipping = await agent.v1(`/v1/carts/${cartId}/shipping-method`, {
      method: "POST",
      body: { shippingMethodId: shop.ptShipping.id },
    });
    expect(shipping.status).toBe(200);
    // Not granted: the coupon capability was never asked for.
    const coupon = await agent.v1(`/v1/carts/${cartId}/coupon`, {
      method: "POST",
      body: { code: "WELCOME10" },
    });
    expect(coupon.status).toBe(403);
    expect(coupon.body.details).toEqual([
      { path: "/capability", message: "capability_not_granted: applyCartCoupon" },
    ]);

    const placed = await agent.v1(`/v1/carts/${cartId}/place-order`, {
      method: "POST",
      body: { paymentMethodId: "manual_bank_transfer" },
      headers: { "idempotency-key": "agent-order-1" },
    });
    expect(placed.status).toBe(201);
    orderId = placed.body.data.id;
    expect(placed.body.data.totals.total.amount).toBeGreaterThanOrEqual(10_000);
    const again = await agent.v1(`/v1/carts/${cartId}/place-order`, {
      method: "POST",
      body: { paymentMethodId: "manual_bank_transfer" },
      headers: { "idempotency-key": "agent-order-1" },
    });
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.id).toBe(orderId);
  });

  test("an admin capability is refused until approved; adminRefundOrder with amount max 5000 refuses 6000 (403 constraint_violated) and allows 4000", async () => {
    const refused = await agent.v1(`/v1/admin/orders/${orderId}/refund`, {
      method: "POST",
      body: { amount: 4000 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "FORBIDDEN",
      details: [{ path: "/capability", message: "capability_not_granted: adminRefundOrder" }],
    });
    const refusedExecute = await agent.execute("adminRefundOrder", { id: orderId, amount: 4000 });
    expect(refusedExecute.status).toBe(403);
    expect(refusedExecute.body.error).toBe("capability_not_granted");

    const asked = await agent.auth("POST", "/agent/request-capability", {
      capabilities: [{ name: "adminRefundOrder", constraints: { amount: { max: 5000 } } }],
      reason: "Refund the shirts that do not fit",
    });
    expect(asked.status).toBe(200);
    expect(asked.body.agent_capability_grants).toEqual([
      expect.objectContaining({
        capability: "adminRefundOrder",
        status: "pending",
        constraints: { amount: { max: 5000 } },
      }),
    ]);
    const view = await t.json(`/api/auth/agent/approval?code=${asked.body.approval.user_code}`, {
      headers: { cookie: merchant.cookie },
    });
    expect(view.body.capabilities[0]).toMatchObject({
      name: "adminRefundOrder",
      class: "admin-write",
      label: "Admin · mutating",
      admin: true,
      constraints_text: ["amount ≤ 5000"],
    });
    expect(view.body.bound_organization_id).toBe(shop.org.id);
    expect((await approve(t, merchant, asked.body.approval)).status).toBe(200);

    // The order is paid by bank transfer (the merchant marks it), then refunded by the agent.
    expect(
      (await adminClient(t, shop.org.key).post(`/v1/admin/orders/${orderId}/mark-paid`, {})).status,
    ).toBe(200);

    const tooMuch = await agent.v1(`/v1/admin/orders/${orderId}/refund`, {
      method: "POST",
      body: { amount: 6000 },
    });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body).toEqual({
      error: expect.any(String),
      code: "FORBIDDEN",
      status: 403,
      details: [{ path: "/body/amount", message: "constraint_violated: max 5000" }],
    });
    const tooMuchExecute = await agent.execute("adminRefundOrder", { id: orderId, amount: 6000 });
    expect(tooMuchExecute.status).toBe(403);
    expect(tooMuchExecute.body).toMatchObject({
      error: "constraint_violated",
      violations: [{ field: "amount", constraint: "max 5000", actual: 6000 }],
    });

    const allowed = await agent.v1(`/v1/admin/orders/${orderId}/refund`, {
      method: "POST",
      body: { amount: 4000, reason: "Too small" },
      headers: { "idempotency-key": "refund-1" },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.totals.refunded.amount).toBe(4000);
  });

  test("11. adminRefundOrder granted with amount ≤ 5000: 5000 succeeds; 5001 or no amount → 403 with constraint details, on /v1 and execute alike", async () => {
    for (const body of [{ amount: 5001 }, {}, { reason: "no amount: a full refund" }]) {
      const v1 = await agent.v1(`/v1/admin/orders/${orderId}/refund`, { method: "POST", body });
      expect(v1.status).toBe(403);
      expect(v1.body.details[0].path).toBe("/body/amount");
      const executed = await agent.execute("adminRefundOrder", { id: orderId, ...body });
      expect(executed.status).toBe(403);
      expect(executed.body.error).toBe("constraint_violated");
      expect(executed.body.violations[0]).toMatchObject({ field: "amount", constraint: "max 5000" });
    }
    const viaExecute = await agent.execute(
      "adminRefundOrder",
      { id: orderId, amount: 5000 },
      { "idempotency-key": "r5000" },
    );
    expect(viaExecute.status).toBe(200);
    expect(viaExecute.body.data.totals.refunded.amount).toBe(9000);
    // Idempotency-Key on execute: the same key answers the stored outcome, nothing is refunded twice.
    const replay = await agent.execute(
      "adminRefundOrder",
      { id: orderId, amount: 5000 },
      { "idempotency-key": "r5000" },
    );
    expect(replay.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(viaExecute.body);
    const order = await agent.v1(`/v1/admin/orders/${orderId}`);
    expect(order.status).toBe(403); // adminGetOrder was never granted: one admin grant opens no other
    const asAdmin = await adminClient(t, shop.org.key).get(`/v1/admin/orders/${orderId}`);
    expect(asAdmin.body.data.totals.refunded.amount).toBe(9000);
  });

  test("/v1/me shows the agent, its organization, scopes from grants and the merchant", async () => {
    const me = await agent.v1("/v1/me");
    expect(me.body.data).toEqual({
      orgId: shop.org.id,
      type: "agent",
      scopes: ["storefront", "admin"],
      userId: merchant.userId,
    });
  });
});

describe("grants are per capability", () => {
  test("10. An agent holding only adminGetOrder gets 403 on adminListCustomers and adminCreateProduct", async () => {
    const reader = await activeAgent(t, merchant, { name: "Order reader", capabilities: ["adminGetOrder"] });
    const list = await reader.v1("/v1/admin/customers");
    expect(list.status).toBe(403);
    expect(list.body.details).toEqual([
      { path: "/capability", message: "capability_not_granted: adminListCustomers" },
    ]);
    const create = await reader.v1("/v1/admin/products", {
      method: "POST",
      body: simpleProduct("Nope", 100),
    });
    expect(create.status).toBe(403);
    expect((await reader.v1("/v1/admin/orders/ord_missing")).status).toBe(404);
    // Storefront operations are capabilities too: none was granted.
    expect((await reader.v1("/v1/products")).status).toBe(403);
  });

  test("16. Execute returns the same status and body as /v1 (201 for adminCreateProduct, 404 for an unknown id) and honours Idempotency-Key", async () => {
    const maker = await activeAgent(t, merchant, {
      name: "Catalog manager",
      capabilities: ["adminCreateProduct", "adminGetProduct"],
    });
    const created = await maker.execute("adminCreateProduct", simpleProduct("Made by an agent", 1234), {
      "idempotency-key": "create-1",
    });
    expect(created.status).toBe(201);
    expect(created.response.headers.get("x-request-id")).toBeString();
    const viaV1 = await maker.v1(`/v1/admin/products/${created.body.data.id}`);
    const viaExecute = await maker.execute("adminGetProduct", { id: created.body.data.id });
    expect(viaExecute.status).toBe(200);
    expect(viaExecute.body).toEqual(viaV1.body);
    const replay = await maker.execute("adminCreateProduct", simpleProduct("Made by an agent", 1234), {
      "idempotency-key": "create-1",
    });
    expect(replay.status).toBe(201);
    expect(replay.body.data.id).toBe(created.body.data.id);
    const missing = await maker.execute("adminGetProduct", { id: "prod_missing" });
    const missingV1 = await maker.v1("/v1/admin/products/prod_missing");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(missingV1.body);
    const invalid = await maker.execute("adminCreateProduct", { name: 5 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
    const unknown = await maker.execute("noSuchCapability");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("capability_not_found");
    const notAgent = await maker.execute("signUpCustomer", {});
    expect(notAgent.status).toBe(404);
  });
});
