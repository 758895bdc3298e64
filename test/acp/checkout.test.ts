import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { POLICY_PAGES } from "../../src/catalog/tables.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop, stockedVariant } from "../helpers/shop.ts";
import {
  type AcpClient,
  type AcpValidators,
  acpClient,
  acpValidators,
  addPlatform,
  paymentWith,
  readyBody,
  shippingChoice,
} from "./helpers.ts";

// ACP's checkout on a shop's host, driven as an agent platform drives it, every request and answer
// validated against the published OpenAPI document (test/fixtures/acp, the release the service speaks).

const HOST = "acp-shop.example";
const OTHER_HOST = "acp-other.example";

let t: TestApp;
let shop: Shop;
let other: Shop;
let validate: AcpValidators;
let acp: AcpClient;
let platformId: string;

beforeAll(async () => {
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "ACP Shop", HOST);
  other = await makeShop(t, "ACP Other", OTHER_HOST);
  for (const s of [shop, other]) {
    await s.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  }
  validate = acpValidators();
  // The validators do refuse what the documents refuse.
  expect(validate.session({ id: 1, status: "open" }).length).toBeGreaterThan(0);
  expect(validate.error({ type: "oops", code: "x", message: "y" }).length).toBeGreaterThan(0);
  const platform = await addPlatform(shop);
  platformId = platform.id;
  acp = acpClient(t, HOST, platform.token);
});
afterAll(() => t.cleanup());

/** A request body, checked against the document's request schema before it is sent. */
function checked<T>(body: T, schema: (b: unknown) => string[]): T {
  expect(schema(body)).toEqual([]);
  return body;
}

/** A session ready for payment: one shirt, shipping to Portugal chosen. */
async function readySession(items = [{ id: shop.shirt.variants[0].id }]) {
  const created = await acp(
    "POST",
    "/acp/checkout_sessions",
    checked(readyBody(items), validate.createRequest),
  );
  expect(created.status).toBe(201);
  expect(validate.session(created.body)).toEqual([]);
  const updated = await acp(
    "POST",
    `/acp/checkout_sessions/${created.body.id}`,
    checked(
      shippingChoice(
        shop,
        items.map((i) => i.id),
      ),
      validate.updateRequest,
    ),
  );
  expect(updated.status).toBe(200);
  expect(validate.session(updated.body)).toEqual([]);
  return updated.body;
}

describe("ACP checkout", () => {
  test("a whole purchase by bank transfer: create, update, complete, with ACP's statuses, totals and order", async () => {
    const created = await acp(
      "POST",
      "/acp/checkout_sessions",
      checked(
        { line_items: [{ id: shop.shirt.variants[0].id }], currency: "eur", capabilities: {} },
        validate.createRequest,
      ),
    );
    expect(created.status).toBe(201);
    expect(validate.session(created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      status: "not_ready_for_payment",
      currency: "eur",
      protocol: { version: "2026-04-17" },
    });
    expect(created.body.messages.map((m: { param: string }) => m.param)).toEqual(
      expect.arrayContaining(["$.buyer.email", "$.fulfillment_details.address"]),
    );
    expect(created.headers.get("idempotency-key")).toBeTruthy();
    const session = await readySession();
    expect(session.status).toBe("ready_for_payment");
    expect(session.fulfillment_options.map((o: { id: string }) => o.id)).toContain(shop.ptShipping.id);
    expect(session.selected_fulfillment_options[0].option_id).toBe(shop.ptShipping.id);
    const handlers = session.capabilities.payment.handlers.map((h: { id: string }) => h.id);
    expect(handlers).toContain("manual_bank_transfer");
    const total = session.totals.find((x: { type: string }) => x.type === "total").amount;
    expect(session.totals.map((x: { type: string }) => x.type)).toEqual(["subtotal", "fulfillment", "total"]);

    const completed = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      checked(paymentWith("manual_bank_transfer"), validate.completeRequest),
    );
    expect(completed.status).toBe(200);
    expect(validate.completed(completed.body)).toEqual([]);
    expect(completed.body.status).toBe("completed");
    expect(completed.body.order).toMatchObject({
      type: "order",
      checkout_session_id: session.id,
      status: "created",
    });
    expect(completed.body.order.permalink_url).toContain(`/v1/orders/${completed.body.order.id}?token=`);
    const order = (await shop.admin.get(`/v1/admin/orders/${completed.body.order.id}`)).body.data;
    expect(order).toMatchObject({ email: "ana@example.com", paymentStatus: "pending" });
    expect(order.totals.total.amount).toBe(total);

    const read = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(read.status).toBe(200);
    expect(validate.completed(read.body)).toEqual([]);
  });

  test("API-Version is required and must be one the shop speaks: a 400 listing the supported versions", async () => {
    for (const [version, code] of [
      [undefined, "missing_api_version"],
      ["2025-09-29", "unsupported_api_version"],
    ] as const) {
      const answer = await acp("GET", "/acp/checkout_sessions/chk_x", undefined, { "api-version": version });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        type: "invalid_request",
        code,
        supported_versions: ["2026-04-17"],
      });
      expect(validate.versionError(answer.body)).toEqual([]);
    }
  });

  test("a POST without Idempotency-Key is a 400 idempotency_key_required, and nothing is created", async () => {
    const before = (await shop.admin.get("/v1/admin/orders")).body.meta.total;
    const answer = await acp(
      "POST",
      "/acp/checkout_sessions",
      { line_items: [{ id: shop.shirt.variants[0].id }], currency: "eur", capabilities: {} },
      { "idempotency-key": undefined },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: "invalid_request", code: "idempotency_key_required" });
    expect(validate.error(answer.body)).toEqual([]);
    expect((await shop.admin.get("/v1/admin/orders")).body.meta.total).toBe(before);
  });

  test("the same key with the same body answers the first answer again; with another body it is a 422 idempotency_conflict", async () => {
    const body = { line_items: [{ id: shop.shirt.variants[0].id }], currency: "eur", capabilities: {} };
    const key = crypto.randomUUID();
    const first = await acp("POST", "/acp/checkout_sessions", body, { "idempotency-key": key });
    const again = await acp("POST", "/acp/checkout_sessions", body, { "idempotency-key": key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const conflict = await acp(
      "POST",
      "/acp/checkout_sessions",
      { ...body, line_items: [{ id: shop.shirt.variants[1].id }] },
      { "idempotency-key": key },
    );
    expect(conflict.status).toBe(422);
    expect(conflict.body).toMatchObject({ type: "invalid_request", code: "idempotency_conflict" });
    expect(validate.error(conflict.body)).toEqual([]);
    // Keys are the platform's own: another platform's same key opens its own session.
    const second = await addPlatform(shop, "Second");
    const theirs = await acpClient(t, HOST, second.token)("POST", "/acp/checkout_sessions", body, {
      "idempotency-key": key,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  test("cancel: the session reads canceled; canceling it again, or completing it, is refused", async () => {
    const session = await readySession();
    const canceled = await acp("POST", `/acp/checkout_sessions/${session.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(validate.session(canceled.body)).toEqual([]);
    expect(canceled.body.status).toBe("canceled");
    const again = await acp("POST", `/acp/checkout_sessions/${session.id}/cancel`);
    expect(again.status).toBe(200);
    const completed = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("manual_bank_transfer"),
    );
    expect(completed.status).toBe(409);
    expect(validate.error(completed.body)).toEqual([]);
    const placed = await acp(
      "POST",
      `/acp/checkout_sessions/${(await readySession()).id}/complete`,
      paymentWith("manual_bank_transfer"),
    );
    const cancelCompleted = await acp("POST", `/acp/checkout_sessions/${placed.body.id}/cancel`);
    expect(cancelCompleted.status).toBe(405);
    expect(validate.error(cancelCompleted.body)).toEqual([]);
  });

  test("the store's policy pages are the session's links under ACP's types; one removed is gone", async () => {
    const policyLinks = Object.fromEntries(POLICY_PAGES.map((page) => [page, `https://${HOST}/${page}`]));
    await shop.admin.patch("/v1/admin/store", { policyLinks });
    const session = await readySession();
    expect(session.links).toEqual([
      { type: "terms_of_use", url: "https://acp-shop.example/terms" },
      { type: "privacy_policy", url: "https://acp-shop.example/privacy" },
      { type: "return_policy", url: "https://acp-shop.example/returns" },
      { type: "shipping_policy", url: "https://acp-shop.example/shipping" },
      { type: "faq", url: "https://acp-shop.example/faq" },
      { type: "contact_us", url: "https://acp-shop.example/contact" },
    ]);

    await shop.admin.patch("/v1/admin/store", {
      policyLinks: { terms: null, privacy: null, shipping: null, faq: null },
    });
    const read = await acp("GET", `/acp/checkout_sessions/${session.id}`);
    expect(validate.session(read.body)).toEqual([]);
    expect(read.body.links).toEqual([
      { type: "return_policy", url: "https://acp-shop.example/returns" },
      { type: "contact_us", url: "https://acp-shop.example/contact" },
    ]);
    await shop.admin.patch("/v1/admin/store", { policyLinks: { returns: null, contact: null } });
    expect((await acp("GET", `/acp/checkout_sessions/${session.id}`)).body.links).toEqual([]);
  });

  test("complete after the stock ran out: ACP's out_of_stock, nothing sold", async () => {
    const variantId = await stockedVariant(shop, "Last lamp", 3000, 1);
    const session = await readySession([{ id: variantId }]);
    expect(session.status).toBe("ready_for_payment");
    await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 0 });
    const before = (await shop.admin.get("/v1/admin/orders")).body.meta.total;
    const refused = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("manual_bank_transfer"),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      type: "invalid_request",
      code: "out_of_stock",
      param: "$.line_items",
    });
    expect(validate.error(refused.body)).toEqual([]);
    expect((await shop.admin.get("/v1/admin/orders")).body.meta.total).toBe(before);
    // The stock comes back: the same session completes.
    await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand: 1 });
    const completed = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("manual_bank_transfer"),
    );
    expect(completed.body.status).toBe("completed");
  });

  test("a price changed between update and complete: refused with price_changed until an update accepts it", async () => {
    const product = await shop.admin.post("/v1/admin/products", {
      name: { en: "Moving price" },
      status: "active",
      variants: [{ price: 800 }],
    });
    const variantId = product.body.data.variants[0].id;
    const session = await readySession([{ id: variantId }]);
    await shop.admin.patch(`/v1/admin/products/${product.body.data.id}`, {
      variants: [{ id: variantId, price: 900 }],
    });
    // The buyer's details given at completion do not accept the new total.
    const refused = await acp("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      ...paymentWith("manual_bank_transfer"),
      buyer: { email: "ana@example.com", first_name: "Ana" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "price_changed", param: "$.totals" });
    expect(validate.error(refused.body)).toEqual([]);
    const accepted = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}`,
      shippingChoice(shop, [variantId]),
    );
    const total = (s: { totals: { type: string; amount: number }[] }) =>
      s.totals.find((x) => x.type === "total")!.amount;
    expect(total(accepted.body)).toBe(total(session) + 100);
    const completed = await acp(
      "POST",
      `/acp/checkout_sessions/${session.id}/complete`,
      paymentWith("manual_bank_transfer"),
    );
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe("completed");
  });

  test("another shop's or another platform's session is a 404 not_found", async () => {
    const session = await readySession();
    const theirs = await addPlatform(other, "Elsewhere");
    const elsewhere = acpClient(t, OTHER_HOST, theirs.token);
    const second = await addPlatform(shop, "Third");
    const sibling = acpClient(t, HOST, second.token);
    for (const client of [elsewhere, sibling]) {
      for (const [method, path] of [
        ["GET", `/acp/checkout_sessions/${session.id}`],
        ["POST", `/acp/checkout_sessions/${session.id}`],
        ["POST", `/acp/checkout_sessions/${session.id}/complete`],
        ["POST", `/acp/checkout_sessions/${session.id}/cancel`],
      ] as const) {
        const answer = await client(method, path, method === "POST" ? {} : undefined);
        expect([path, answer.status, answer.body.code]).toEqual([path, 404, "not_found"]);
        expect(validate.error(answer.body)).toEqual([]);
      }
    }
    expect((await acp("GET", `/acp/checkout_sessions/${session.id}`)).body.status).toBe("ready_for_payment");
  });

  test("a missing, unknown or other shop's token is a 401; a rotated token stops working", async () => {
    const theirs = await addPlatform(other, "Theirs");
    for (const authorization of [undefined, "Bearer acp_nope", `Bearer ${theirs.token}`, "Basic abc"]) {
      const answer = await acp("GET", "/acp/checkout_sessions/chk_x", undefined, { authorization });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ type: "invalid_request", code: "unauthorized" });
      expect(validate.error(answer.body)).toEqual([]);
    }
    const rotating = await addPlatform(shop, "Rotating");
    const before = acpClient(t, HOST, rotating.token);
    expect((await before("GET", "/acp/checkout_sessions/chk_x")).status).toBe(404);
    const rotated = await shop.admin.post(`/v1/admin/acp-platforms/${rotating.id}/rotate-token`, {});
    expect(rotated.status).toBe(200);
    expect((await before("GET", "/acp/checkout_sessions/chk_x")).status).toBe(401);
    const after = acpClient(t, HOST, rotated.body.data.token);
    expect((await after("GET", "/acp/checkout_sessions/chk_x")).status).toBe(404);
  });

  test("a malformed body or a wrong type is a 400 invalid, and changes nothing", async () => {
    const session = await readySession();
    for (const body of ['{"line_items": [', '"text"', JSON.stringify({ line_items: [{ id: 5 }] })]) {
      const answer = await t.request(`/acp/checkout_sessions/${session.id}`, {
        method: "POST",
        headers: {
          host: HOST,
          authorization: `Bearer ${(await addPlatform(shop, "Bad input")).token}`,
          "api-version": "2026-04-17",
          "idempotency-key": crypto.randomUUID(),
          "content-type": "application/json",
        },
        body,
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    const wrongType = await acp("POST", `/acp/checkout_sessions/${session.id}`, { line_items: [{ id: 5 }] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.type).toBe("invalid_request");
    expect(validate.error(wrongType.body)).toEqual([]);
    expect((await acp("GET", `/acp/checkout_sessions/${session.id}`)).body).toEqual(
      (await acp("GET", `/acp/checkout_sessions/${session.id}`)).body,
    );
    expect((await acp("GET", `/acp/checkout_sessions/${session.id}`)).body.line_items).toEqual(
      session.line_items,
    );
  });

  test("an item given twice counts twice, and the RFC's `quantity` is read", async () => {
    const id = shop.shirt.variants[0].id;
    const twice = await acp("POST", "/acp/checkout_sessions", {
      line_items: [{ id }, { id }],
      currency: "eur",
      capabilities: {},
    });
    expect(twice.body.line_items[0].quantity).toBe(2);
    const three = await acp("POST", "/acp/checkout_sessions", {
      line_items: [{ id, quantity: 3 }],
      currency: "eur",
      capabilities: {},
    });
    expect(three.body.line_items[0].quantity).toBe(3);
  });

  test("the platform is the shop's configuration: admin only, listed without secrets, another shop's is a 404", async () => {
    const list = await shop.admin.get("/v1/admin/acp-platforms");
    expect(list.status).toBe(200);
    const mine = list.body.data.find((p: { id: string }) => p.id === platformId);
    expect(Object.keys(mine).sort()).toEqual([
      "createdAt",
      "id",
      "name",
      "tokenHint",
      "updatedAt",
      "webhookUrl",
    ]);
    expect((await shop.storefront("/v1/admin/acp-platforms")).status).toBe(403);
    const theirs = await addPlatform(other, "Not yours");
    for (const answer of [
      await shop.admin.patch(`/v1/admin/acp-platforms/${theirs.id}`, { name: "Mine now" }),
      await shop.admin.post(`/v1/admin/acp-platforms/${theirs.id}/rotate-token`, {}),
      await shop.admin.delete(`/v1/admin/acp-platforms/${theirs.id}`),
    ]) {
      expect(answer.status).toBe(404);
    }
    const internal = await shop.admin.post("/v1/admin/acp-platforms", {
      name: "Internal",
      webhookUrl: "https://10.0.0.1/hooks",
    });
    expect(internal.status).toBe(422);
    expect(internal.body.details[0].path).toBe("/body/webhookUrl");
    const removed = await addPlatform(shop, "Removed");
    expect((await shop.admin.delete(`/v1/admin/acp-platforms/${removed.id}`)).status).toBe(204);
    expect((await acpClient(t, HOST, removed.token)("GET", "/acp/checkout_sessions/chk_x")).status).toBe(401);
  });
});
