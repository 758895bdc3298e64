import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { POLICY_PAGES } from "../../src/catalog/tables.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import {
  type PlatformServer,
  platformProfile,
  platformServer,
  schemaValidators,
  shippingTo,
  ucpAnswerErrors,
} from "./helpers.ts";

// UCP's REST binding on a shop's host, driven as a platform drives it, every answer validated
// against the published schemas (test/fixtures/ucp, the release the service speaks).

const HOST = "ucp-shop.example";

let t: TestApp;
let platforms: PlatformServer;
let shop: Shop;
let validate: ReturnType<typeof schemaValidators>;

beforeAll(async () => {
  platforms = platformServer();
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "UCP Shop", HOST);
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  validate = schemaValidators();
  // The validators do refuse what the schemas refuse.
  expect(validate.checkout({ id: 1, status: "open" }).length).toBeGreaterThan(0);
  expect(validate.profile({ ucp: { version: "today" } }).length).toBeGreaterThan(0);
});
afterAll(async () => {
  t.cleanup();
  await platforms.stop();
});

let keys = 0;
/** A UCP request on the shop's host, as a platform sends it. */
async function ucp(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await t.request(path, {
    method,
    headers: {
      host: HOST,
      "ucp-agent": platforms.agent(),
      "request-id": crypto.randomUUID(),
      ...(method === "GET" ? {} : { "idempotency-key": `key-${++keys}`, "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const answer = text ? JSON.parse(text) : null;
  // Every answer of the suite is held to the release's schemas (the profile is checked apart).
  if (path !== "/.well-known/ucp") expect(ucpAnswerErrors(response.status, answer)).toEqual([]);
  return { status: response.status, body: answer, response };
}

const variant = () => shop.shirt.variants[0].id as string;
describe("UCP on a shop's host", () => {
  test("the business profile names the REST service, checkout with fulfillment, and the shop's payment handlers", async () => {
    const r = await t.request("/.well-known/ucp", { headers: { host: HOST } });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toContain("max-age=");
    const profile = (await r.json()) as { ucp: Record<string, any> };
    expect(validate.profile(profile)).toEqual([]);
    expect(profile.ucp.services["dev.ucp.shopping"][0]).toMatchObject({
      transport: "rest",
      endpoint: `http://${HOST}/ucp/v1`,
    });
    expect(profile.ucp.payment_handlers["example.ucp_shop.payments"]).toEqual([
      { id: "manual_bank_transfer", version: "2026-04-08" },
    ]);
    const platformHost = await t.request("/.well-known/ucp");
    expect(platformHost.status).toBe(404);
  });

  test("create → update with a destination and an option → complete with the handler: an order, each answer valid", async () => {
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: 2 }],
      buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
    });
    expect(created.status).toBe(201);
    expect(validate.checkout(created.body)).toEqual([]);
    expect(created.body.status).toBe("incomplete");
    expect(created.body.messages.map((m: { path: string }) => m.path)).toEqual([
      "$.fulfillment.methods[0].destinations",
      "$.fulfillment.methods[0].groups[0].selected_option_id",
      "$.payment.instruments",
    ]);
    expect(created.body.line_items[0]).toMatchObject({ quantity: 2, item: { id: variant(), price: 1999 } });
    const id = created.body.id;

    const option = created.body.fulfillment.methods[0].groups[0].options.find(
      (o: { id: string }) => o.id === shop.ptShipping.id,
    );
    expect(option).toMatchObject({ title: "Portugal" });
    const updated = await ucp("PUT", `/ucp/v1/checkout-sessions/${id}`, {
      line_items: [{ item: { id: variant() }, quantity: 1 }],
      buyer: { email: "ana@example.com" },
      fulfillment: shippingTo(shop.ptShipping.id),
    });
    expect(updated.status).toBe(200);
    expect(validate.checkout(updated.body)).toEqual([]);
    expect(updated.body.line_items[0].quantity).toBe(1);
    expect(updated.body.messages.map((m: { path: string }) => m.path)).toEqual(["$.payment.instruments"]);
    const types = updated.body.totals.map((x: { type: string }) => x.type);
    expect(types).toEqual(["subtotal", "fulfillment", "total"]);

    const completed = await ucp("POST", `/ucp/v1/checkout-sessions/${id}/complete`, {
      payment: {
        instruments: [{ id: "i1", handler_id: "manual_bank_transfer", type: "offline", selected: true }],
      },
    });
    expect(completed.status).toBe(200);
    expect(validate.checkout(completed.body)).toEqual([]);
    expect(completed.body.status).toBe("completed");
    expect(completed.body.order.id).toStartWith("ord_");
    // Without a storefront order page, the permalink is the order on the API, opened by its link token.
    const permalink = new URL(completed.body.order.permalink_url);
    expect(permalink.pathname).toBe(`/v1/orders/${completed.body.order.id}`);
    const opened = await t.json(`${permalink.pathname}${permalink.search}`, { headers: { host: HOST } });
    expect(opened.status).toBe(200);
    expect(opened.body.data.id).toBe(completed.body.order.id);
    const read = await ucp("GET", `/ucp/v1/checkout-sessions/${id}`);
    expect(read.body.status).toBe("completed");
    expect(read.body.order.id).toBe(completed.body.order.id);
  });

  test("cancel: canceled, and a later update is UCP's protocol error", async () => {
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: 1 }],
    });
    const canceled = await ucp("POST", `/ucp/v1/checkout-sessions/${created.body.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(validate.checkout(canceled.body)).toEqual([]);
    expect(canceled.body.status).toBe("canceled");
    const later = await ucp("PUT", `/ucp/v1/checkout-sessions/${created.body.id}`, {
      line_items: [{ item: { id: variant() }, quantity: 2 }],
    });
    expect(later.status).toBe(409);
    expect(later.body).toMatchObject({ code: "invalid_state", content: expect.any(String) });
  });

  test("the store's policy pages are the checkout's links under UCP's types (a contact page has none); one removed is gone", async () => {
    const policyLinks = Object.fromEntries(POLICY_PAGES.map((page) => [page, `https://${HOST}/${page}`]));
    await shop.admin.patch("/v1/admin/store", { policyLinks });
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: 1 }],
    });
    expect(validate.checkout(created.body)).toEqual([]);
    expect(created.body.links).toEqual([
      { type: "terms_of_service", url: "https://ucp-shop.example/terms" },
      { type: "privacy_policy", url: "https://ucp-shop.example/privacy" },
      { type: "refund_policy", url: "https://ucp-shop.example/returns" },
      { type: "shipping_policy", url: "https://ucp-shop.example/shipping" },
      { type: "faq", url: "https://ucp-shop.example/faq" },
    ]);

    await shop.admin.patch("/v1/admin/store", {
      policyLinks: { privacy: null, returns: null, shipping: null, faq: null, contact: null },
    });
    const read = await ucp("GET", `/ucp/v1/checkout-sessions/${created.body.id}`);
    expect(validate.checkout(read.body)).toEqual([]);
    expect(read.body.links).toEqual([{ type: "terms_of_service", url: "https://ucp-shop.example/terms" }]);
    await shop.admin.patch("/v1/admin/store", { policyLinks: { terms: null } });
    expect((await ucp("GET", `/ucp/v1/checkout-sessions/${created.body.id}`)).body.links).toEqual([]);
  });

  test("a session of another platform, or none, is UCP's not-found business outcome", async () => {
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: 1 }],
    });
    const other = await ucp("GET", `/ucp/v1/checkout-sessions/${created.body.id}`, undefined, {
      "ucp-agent": platforms.agent("other"),
    });
    expect(other.status).toBe(200);
    expect(validate.error(other.body)).toEqual([]);
    expect(other.body.messages[0]).toMatchObject({ code: "not_found", severity: "unrecoverable" });
    const none = await ucp("GET", "/ucp/v1/checkout-sessions/chk_doesnotexist0000");
    expect(none.body.ucp.status).toBe("error");
  });

  test("protocol errors: no UCP-Agent, no Idempotency-Key, a reused key with another body, bad JSON, bad input", async () => {
    const body = { line_items: [{ item: { id: variant() }, quantity: 1 }] };
    const noAgent = await ucp("POST", "/ucp/v1/checkout-sessions", body, { "ucp-agent": "" });
    expect(noAgent.status).toBe(400);
    expect(noAgent.body.code).toBe("invalid_profile_url");
    const noKey = await t.request("/ucp/v1/checkout-sessions", {
      method: "POST",
      headers: { host: HOST, "ucp-agent": platforms.agent(), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(noKey.status).toBe(400);
    const first = await ucp("POST", "/ucp/v1/checkout-sessions", body, { "idempotency-key": "reused-key" });
    const replay = await ucp("POST", "/ucp/v1/checkout-sessions", body, { "idempotency-key": "reused-key" });
    expect(replay.body.id).toBe(first.body.id);
    const reused = await ucp(
      "POST",
      "/ucp/v1/checkout-sessions",
      { line_items: [{ item: { id: variant() }, quantity: 3 }] },
      { "idempotency-key": "reused-key" },
    );
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_conflict");
    // Keys are each platform's own: another platform's same key opens its own checkout.
    const elsewhere = await ucp("POST", "/ucp/v1/checkout-sessions", body, {
      "idempotency-key": "reused-key",
      "ucp-agent": platforms.agent("another-platform"),
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
    const malformed = await t.request("/ucp/v1/checkout-sessions", {
      method: "POST",
      headers: {
        host: HOST,
        "ucp-agent": platforms.agent(),
        "idempotency-key": "k-malformed",
        "content-type": "application/json",
      },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    const wrongType = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: "many" }],
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe("invalid_request");
    const anonymous = await t.request("/ucp/v1/checkout-sessions", {
      method: "POST",
      headers: {
        "ucp-agent": platforms.agent(),
        "idempotency-key": "k-anon",
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("the platform's profile (UCP-Agent)", () => {
  const create = (agent: string) =>
    ucp(
      "POST",
      "/ucp/v1/checkout-sessions",
      { line_items: [{ item: { id: variant() }, quantity: 1 }] },
      { "ucp-agent": agent },
    );

  test("is fetched once and kept: several calls of one platform ask for it once", async () => {
    const before = platforms.hits.filter((path) => path.startsWith("/kept/")).length;
    for (let i = 0; i < 3; i++) expect((await create(platforms.agent("kept"))).status).toBe(201);
    expect(platforms.hits.filter((path) => path.startsWith("/kept/")).length - before).toBe(1);
  });

  test("one that cannot be fetched, is not JSON, offers no checkout or not this version is refused with UCP's codes", async () => {
    platforms.answers["/broken/.well-known/ucp"] = "{not json";
    platforms.answers["/nocheckout/.well-known/ucp"] = { ucp: { version: "2026-04-08", capabilities: {} } };
    platforms.answers["/older/.well-known/ucp"] = platformProfile("2026-01-11");
    for (const [name, status, code] of [
      ["broken", 422, "profile_malformed"],
      ["nocheckout", 422, "profile_malformed"],
      ["older", 422, "version_unsupported"],
    ] as const) {
      const answer = await create(platforms.agent(name));
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ code, content: expect.any(String) });
    }
    const unreachable = await create('profile="http://127.0.0.1:9/.well-known/ucp"');
    expect(unreachable.status).toBe(424);
    expect(unreachable.body.code).toBe("profile_unreachable");
  });

  test("under production rules a profile on this machine is not fetched at all", async () => {
    const strict = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "false" } });
    try {
      const strictShop = await makeShop(strict, "Strict UCP", "strict-ucp.example");
      const before = platforms.hits.length;
      const answer = await strict.json("/ucp/v1/checkout-sessions", {
        method: "POST",
        headers: {
          host: "strict-ucp.example",
          "ucp-agent": platforms.agent(),
          "idempotency-key": "strict-1",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          line_items: [{ item: { id: strictShop.shirt.variants[0].id }, quantity: 1 }],
        }),
      });
      expect(answer.status).toBe(424);
      expect(answer.body.code).toBe("profile_unreachable");
      expect(platforms.hits.length).toBe(before);
    } finally {
      strict.cleanup();
    }
  });
});

describe("UCP orders", () => {
  /** A completed checkout paid by bank transfer: its order id. */
  async function placed(): Promise<string> {
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", {
      line_items: [{ item: { id: variant() }, quantity: 2 }],
      buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
      fulfillment: shippingTo(shop.ptShipping.id),
    });
    const completed = await ucp("POST", `/ucp/v1/checkout-sessions/${created.body.id}/complete`, {
      payment: { instruments: [{ id: "i", handler_id: "manual_bank_transfer", type: "offline" }] },
    });
    expect(completed.body.status).toBe("completed");
    return completed.body.order.id;
  }

  test("the order a checkout placed: its lines, destination, then its shipment and refund, each answer valid", async () => {
    const orderId = await placed();
    const fresh = await ucp("GET", `/ucp/v1/orders/${orderId}`);
    expect(fresh.status).toBe(200);
    expect(validate.order(fresh.body)).toEqual([]);
    expect(fresh.body.line_items[0]).toMatchObject({
      quantity: { total: 2, fulfilled: 0 },
      status: "processing",
    });
    expect(fresh.body.fulfillment.expectations[0].destination).toMatchObject({ address_country: "PT" });

    const admin = (path: string, body: unknown = {}) =>
      t.json(`/v1/admin/orders/${orderId}/${path}`, {
        method: "POST",
        headers: { "x-api-key": shop.org.key, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await admin("mark-paid")).status).toBe(200);
    expect((await admin("fulfill", { carrier: "CTT", trackingNumber: "RR123456789PT" })).status).toBe(200);
    expect((await admin("refund", { amount: 500, reason: "damaged box" })).status).toBe(200);
    const later = await ucp("GET", `/ucp/v1/orders/${orderId}`);
    expect(validate.order(later.body)).toEqual([]);
    expect(later.body.line_items[0]).toMatchObject({ quantity: { fulfilled: 2 }, status: "fulfilled" });
    expect(later.body.fulfillment.events[0]).toMatchObject({
      type: "shipped",
      carrier: "CTT",
      tracking_number: "RR123456789PT",
    });
    expect(later.body.adjustments[0]).toMatchObject({
      type: "refund",
      totals: [{ type: "total", amount: 500 }],
    });
  });

  test("another platform's order, or an unknown one, is UCP's not-found outcome", async () => {
    const orderId = await placed();
    const other = await ucp("GET", `/ucp/v1/orders/${orderId}`, undefined, {
      "ucp-agent": platforms.agent("other"),
    });
    expect(other.status).toBe(200);
    expect(validate.error(other.body)).toEqual([]);
    expect(other.body.messages[0].code).toBe("not_found");
    const unknown = await ucp("GET", "/ucp/v1/orders/ord_doesnotexist0000");
    expect(unknown.body.ucp.status).toBe("error");
  });
});

describe("UCP completion at a moved total", () => {
  test("is answered with the new totals and a message, no order; after an update it completes", async () => {
    const product = await shop.admin.post("/v1/admin/products", {
      name: { en: "UCP mug" },
      status: "active",
      variants: [{ price: 800 }],
    });
    const variantId = product.body.data.variants[0].id;
    const body = {
      line_items: [{ item: { id: variantId }, quantity: 1 }],
      buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
      fulfillment: shippingTo(shop.ptShipping.id),
      payment: { instruments: [{ id: "i", handler_id: "manual_bank_transfer", type: "offline" }] },
    };
    const created = await ucp("POST", "/ucp/v1/checkout-sessions", body);
    expect(created.body.status).toBe("ready_for_complete");
    await shop.admin.patch(`/v1/admin/products/${product.body.data.id}`, {
      variants: [{ id: variantId, price: 900 }],
    });
    const refused = await ucp("POST", `/ucp/v1/checkout-sessions/${created.body.id}/complete`, {
      payment: body.payment,
    });
    expect(refused.status).toBe(200);
    expect(validate.checkout(refused.body)).toEqual([]);
    expect(refused.body.order).toBeUndefined();
    expect(refused.body.messages.map((m: { content: string }) => m.content).join(" ")).toContain(
      "total changed",
    );
    const total = (checkout: { totals: { type: string; amount: number }[] }) =>
      checkout.totals.find((x) => x.type === "total")!.amount;
    expect(total(refused.body)).toBe(total(created.body) + 100);
    await ucp("PUT", `/ucp/v1/checkout-sessions/${created.body.id}`, body);
    const completed = await ucp("POST", `/ucp/v1/checkout-sessions/${created.body.id}/complete`, {
      payment: body.payment,
    });
    expect(completed.body.status).toBe("completed");
  });
});
