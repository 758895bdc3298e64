import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { capabilityCatalog } from "../../src/agents/capabilities.ts";
import { assertRegistry } from "../../src/core/registry.ts";
import { buildTools } from "../../src/mcp/tools.ts";
import { WebhookAnswer } from "../../src/payments/webhooks.ts";
import { tenantsTaken } from "../helpers/app.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  CHECKOUT_SECRET,
  deliverStripe,
  events,
  makeWorld,
  type PaymentsWorld,
  placeStripeOrder,
  providerShop,
  STRIPE,
  STRIPE_ENV,
  stripeEvent,
} from "./helpers.ts";

// The payment webhooks as declared operations: in the OpenAPI document with what they answer,
// never offered to agents, verified before any tenant is taken, answering through the REST adapter.

let w: PaymentsWorld;
let shop: Shop;
let doc: any;

beforeAll(async () => {
  w = makeWorld({ ...STRIPE_ENV, WEBHOOK_RATE_LIMIT_PER_MIN: "40" });
  shop = await providerShop(
    w.t,
    "Hook Shop",
    "hook-shop.example",
    { provider: "stripe", fields: STRIPE },
    100,
  );
  doc = (await w.t.json("/v1/openapi.json")).body;
});
afterAll(() => w.close());

const API = "/v1/webhooks/payments/{provider}";
const INGRESS = "/api/webhooks/{provider}/{org}";
const WEBHOOKS = [
  { operationId: "paymentWebhook", method: "post", path: API },
  { operationId: "paymentWebhookGet", method: "get", path: API },
  { operationId: "paymentWebhookIngress", method: "post", path: INGRESS },
  { operationId: "paymentWebhookIngressGet", method: "get", path: INGRESS },
];
const documented = (path: string, method: string) => doc.paths[path][method];
/** The error codes a documented response enumerates (`components/responses`). */
const codesOf = (entry: { $ref: string }) =>
  doc.components.responses[entry.$ref.replace("#/components/responses/", "")].content["application/json"]
    .schema.allOf[1].properties.code.enum as string[];

describe("the webhook operations in the OpenAPI document", () => {
  test("paymentWebhook, paymentWebhookGet and the ingress pair are in /v1/openapi.json with every status they answer", () => {
    for (const { operationId, method, path } of WEBHOOKS) {
      const op = documented(path, method);
      expect(op.operationId).toBe(operationId);
      expect(op.tags).toEqual(["Payment webhooks"]);
      const statuses =
        path === INGRESS
          ? ["200", "400", "401", "404", "413", "429", "500", "503"]
          : ["200", "400", "401", "404", "413", "500", "503"];
      expect([operationId, Object.keys(op.responses).sort()]).toEqual([operationId, statuses]);
      expect(op.responses["200"].content["application/json"].schema.properties.data).toEqual({
        $ref: "#/components/schemas/PaymentWebhookAnswer",
      });
      expect(codesOf(op.responses["401"])).toEqual(["UNAUTHORIZED", "WEBHOOK_SIGNATURE_INVALID"]);
      expect(codesOf(op.responses["503"])).toEqual(
        expect.arrayContaining(["WEBHOOKS_DISABLED", "PROVIDER_NOT_CONFIGURED", "UPSTREAM_UNAVAILABLE"]),
      );
      // A notification is taken as bytes, whatever its media type; a GET sends none.
      expect(op.requestBody?.content).toEqual(method === "post" ? { "*/*": { schema: {} } } : undefined);
    }
    expect(codesOf(documented(INGRESS, "post").responses["429"])).toEqual(["RATE_LIMITED"]);
    const query = documented(API, "get").parameters.map((p: { name: string }) => p.name);
    expect(query).toEqual(expect.arrayContaining(["provider", "org", "key", "orderId", "amount"]));
  });

  test("every answer of the webhook routes has a status, code and body the document declares for its operation", async () => {
    const { refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    const stripe = (path: string, init: RequestInit = {}) =>
      w.t.json(path, { method: "POST", body: JSON.stringify(event), ...init });
    const answers = [
      { op: ["post", INGRESS], res: await deliverStripe(w, shop.org.id, event) },
      { op: ["post", API], res: await deliverStripe(w, shop.org.id, event, { via: "api" }) },
      { op: ["get", API], res: await w.t.json(`/v1/webhooks/payments/easypay?org=${shop.org.id}`) },
      { op: ["get", INGRESS], res: await w.t.json(`/api/webhooks/stripe/${shop.org.id}`) },
      { op: ["post", API], res: await stripe(`/v1/webhooks/payments/stripe?org=${shop.org.id}`) },
      { op: ["post", INGRESS], res: await stripe(`/api/webhooks/stripe/${shop.org.id}`) },
      { op: ["post", INGRESS], res: await stripe("/api/webhooks/paypal/_") },
      { op: ["get", API], res: await w.t.json("/v1/webhooks/payments/ifthenpay?org=_&org=_&key=k") },
      {
        op: ["post", INGRESS],
        res: await stripe("/api/webhooks/stripe/_", { body: "x".repeat(256 * 1024 + 1) }),
      },
      {
        op: ["post", INGRESS],
        res: await deliverStripe(w, "_", stripeEvent("charge.refunded", { id: "ch_none" }), {
          secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
        }),
      },
    ];
    // No environment Easypay account: 503 until the ingress's limit of 40 per provider and org is passed.
    for (let i = 0; i <= 40; i++)
      answers.push({ op: ["post", INGRESS], res: await stripe("/api/webhooks/easypay/_") });
    const statuses = new Set<number>();
    for (const { op, res } of answers) {
      const declared = documented(op[1]!, op[0]!).responses[String(res.status)];
      expect([op, res.status, declared !== undefined]).toEqual([op, res.status, true]);
      statuses.add(res.status);
      if (res.status === 200) expect(Value.Check(WebhookAnswer, res.body.data)).toBe(true);
      else expect(codesOf(declared)).toContain(res.body.code);
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 413, 429, 503]);
  });
});

describe("never offered to agents", () => {
  test("the webhook operations are neither MCP tools nor agent capabilities, and a webhook offered to agents is refused at start", () => {
    const ids = WEBHOOKS.map((hook) => hook.operationId);
    const declared = w.t.app.operations.filter((op) => ids.includes(op.operationId));
    expect(declared.map((op) => [op.operationId, op.access, op.agent])).toEqual(
      ids.map((id) => [id, "webhook", false]),
    );
    const tools = [...buildTools(w.t.app.operations).keys()];
    const capabilities = [...capabilityCatalog(w.t.app.operations).keys()];
    expect(tools.length).toBeGreaterThan(20);
    expect(capabilities.length).toBeGreaterThan(20);
    for (const id of ids) {
      expect(tools).not.toContain(id);
      expect(capabilities).not.toContain(id);
    }
    expect(() => assertRegistry([{ ...declared[0]!, agent: undefined }])).toThrow(
      "paymentWebhook: webhook operations are declared agent: false",
    );
  });
});

describe("verification before the tenant", () => {
  test("a delivery refused before a store's own secret is needed opens no tenant file: wrong shared secret, no Stripe signature, no Ifthenpay key, unknown org, `_` with a bad signature", async () => {
    const { refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    const org = shop.org.id;
    const refusals = [
      {
        code: "UNAUTHORIZED",
        send: () => deliverStripe(w, org, event, { via: "api", checkoutSecret: "x".repeat(40) }),
      },
      {
        code: "WEBHOOK_SIGNATURE_INVALID",
        send: () => w.t.json(`/api/webhooks/stripe/${org}`, { method: "POST", body: JSON.stringify(event) }),
      },
      {
        code: "WEBHOOK_SIGNATURE_INVALID",
        send: () =>
          w.t.json(`/api/webhooks/ifthenpay/${org}`, { method: "POST", body: "orderId=1&amount=1.00" }),
      },
      { code: "NOT_FOUND", send: () => deliverStripe(w, "org_doesnotexist1", event) },
      {
        code: "WEBHOOK_SIGNATURE_INVALID",
        send: () => deliverStripe(w, "_", event, { secret: "whsec_notTheEnvironmentSecret" }),
      },
    ];
    for (const { code, send } of refusals) {
      const { result, orgs } = await tenantsTaken(w.t.app, send);
      expect([result.body.code, orgs]).toEqual([code, []]);
    }
    expect((await tenantsTaken(w.t.app, () => deliverStripe(w, org, event))).orgs).toContain(org);
  });

  test("a bad signature checked against a store's own secret reads that store's file, records nothing and answers 401", async () => {
    const { order, refs } = await placeStripeOrder(shop);
    const event = events.completed(refs);
    const count = () =>
      w.t.app.ctx.tenants.with(shop.org.id, (tenant) =>
        tenant.sqlite.query("SELECT COUNT(*) AS n FROM payment_events").get(),
      );
    const before = await count();
    const { result, orgs } = await tenantsTaken(w.t.app, () =>
      deliverStripe(w, shop.org.id, event, { secret: "whsec_forgedSecret000" }),
    );
    expect(result.status).toBe(401);
    expect(orgs).toEqual([shop.org.id]);
    expect(await count()).toEqual(before);
    const after = await w.t.json(`/v1/admin/orders/${order.id}`, { headers: { "x-api-key": shop.org.key } });
    expect(after.body.data.paymentStatus).toBe("pending");
  });
});

describe("answers through the REST adapter", () => {
  test("an org that is neither an organization id nor _ is a 400 on every webhook route, readiness checks included", async () => {
    for (const org of ["x", "-", "%00", "org_", "a".repeat(300)]) {
      for (const [method, path] of [
        ["GET", `/api/webhooks/stripe/${org}`],
        ["POST", `/api/webhooks/easypay/${org}`],
        ["GET", `/v1/webhooks/payments/stripe?org=${org}`],
        ["POST", `/v1/webhooks/payments/stripe?org=${org}`],
      ] as const) {
        const res = await w.t.json(path, {
          method,
          headers: { "x-checkout-secret": CHECKOUT_SECRET },
          ...(method === "POST" ? { body: "{}" } : {}),
        });
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 400, "VALIDATION_ERROR"]);
      }
    }
    // A well-formed one still gets the readiness answer, whether or not such a store exists.
    expect((await w.t.json("/api/webhooks/stripe/org_doesnotexist1")).body.data).toEqual({
      provider: "stripe",
      ready: true,
    });
  });

  test("every error answer of the webhook routes carries {error, code, status} and the request's x-request-id", async () => {
    const sent = [
      ["/v1/webhooks/payments/stripe?org=_", { "x-checkout-secret": "nope" }],
      ["/v1/webhooks/payments/stripe", { "x-checkout-secret": CHECKOUT_SECRET }],
      ["/v1/webhooks/payments/paypal?org=_", { "x-checkout-secret": CHECKOUT_SECRET }],
      ["/api/webhooks/stripe/_", {}],
      ["/api/webhooks/stripe/org_doesnotexist1", {}],
    ] as const;
    for (const [i, [path, headers]] of sent.entries()) {
      const id = `hook-error-${i}`;
      const res = await w.t.json(path, {
        method: "POST",
        headers: { ...headers, "x-request-id": id },
        body: "{}",
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String), status: res.status });
      expect(res.response.headers.get("x-request-id")).toBe(id);
      expect(res.response.headers.get("content-type")).toContain("application/json");
    }
  });
});
