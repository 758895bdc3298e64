import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { LOCALE_PATTERN } from "../../src/catalog/schema.ts";
import { ERROR_STATUS, type ErrorCode } from "../../src/core/errors.ts";
import { defineOperation, isTenantWrite } from "../../src/core/operation.ts";
import { assertRegistry } from "../../src/core/registry.ts";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { strictAjv } from "../helpers/openapi-conformance.ts";

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = makeTestApp({ env: { API_PUBLIC_URL: "https://api.shop.example" } });
  doc = await (await t.request("/v1/openapi.json")).json();
});
afterAll(() => t.cleanup());

const methods = ["get", "post", "patch", "put", "delete"];
const entries = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );

/** A response, resolved when it is a `$ref` to `components/responses`. */
function response(entry: any): any {
  if (!entry.$ref) return entry;
  const name = entry.$ref.replace("#/components/responses/", "");
  expect(doc.components.responses[name]).toBeDefined();
  return doc.components.responses[name];
}

describe("GET /v1/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
  });

  test("carries every declared operation with its operationId, on the declared path and method", () => {
    const documented = new Map(
      entries().map((e) => [e.op.operationId, `${e.method.toUpperCase()} ${e.path}`]),
    );
    for (const op of t.app.operations) expect(documented.get(op.operationId)).toBe(`${op.method} ${op.path}`);
    expect(documented.size).toBe(t.app.operations.length);
    for (const id of ["getHealth", "getMe", "signInEmail", "createApiKey", "listApiKeys", "revokeApiKey"]) {
      expect(documented.has(id)).toBe(true);
    }
  });

  test("declares the caller, customer-session and webhook shared-secret security schemes and uses them", () => {
    expect(doc.components.securitySchemes).toEqual({
      checkoutSecret: expect.objectContaining({ type: "apiKey", in: "header", name: "x-checkout-secret" }),
      apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
      agentToken: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
      sessionCookie: expect.objectContaining({ type: "apiKey", in: "cookie", name: "session_token" }),
      customerSession: expect.objectContaining({ type: "apiKey", in: "header", name: "x-customer-session" }),
      customerSessionCookie: expect.objectContaining({
        type: "apiKey",
        in: "cookie",
        name: "customer_session",
      }),
    });
    const me = doc.paths["/v1/me"].get;
    expect(me.security).toEqual(
      expect.arrayContaining([{ apiKey: [] }, { agentToken: [] }, { sessionCookie: [] }]),
    );
    expect(doc.paths["/v1/health"].get.security).toEqual([]);
    // A notification needs the shared secret; a readiness GET needs none.
    const webhook = doc.paths["/v1/webhooks/payments/{provider}"];
    expect(webhook.post.security).toEqual([{ checkoutSecret: [] }]);
    expect(webhook.get.security).toEqual([{}, { checkoutSecret: [] }]);
  });

  test("every operation documents its error responses with the error body", () => {
    for (const { op } of entries()) {
      const codes = Object.keys(op.responses);
      expect(codes).toContain("500");
      if (op.security.length > 0) expect(codes).toContain("401");
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        expect(response(op.responses[code]).content["application/json"].schema.allOf[0]).toEqual({
          $ref: "#/components/schemas/Error",
        });
      }
    }
    expect(Object.keys(doc.paths["/v1/me"].get.responses)).toEqual(
      expect.arrayContaining(["200", "401", "403"]),
    );
    expect(Object.keys(doc.paths["/api/auth/api-key/list"].get.responses)).toContain("400");
    expect(Object.keys(doc.paths["/api/auth/sign-up/email"].post.responses)).toEqual(
      expect.arrayContaining(["201", "400", "409", "413"]),
    );
  });

  test("lists carry data and meta; servers is API_PUBLIC_URL", () => {
    const list = doc.paths["/api/auth/api-key/list"].get.responses["200"].content["application/json"].schema;
    expect(list.required).toEqual(["data", "meta"]);
    expect(list.properties.meta).toEqual({ $ref: "#/components/schemas/PageMeta" });
    expect(doc.servers).toEqual([{ url: "https://api.shop.example", description: expect.any(String) }]);
  });
});

describe("the OpenAPI document is complete", () => {
  const declared = (operationId: string) => t.app.operations.find((op) => op.operationId === operationId)!;
  const documented = (operationId: string) => entries().find((e) => e.op.operationId === operationId)!.op;
  const refs = (op: any): string[] => (op.parameters ?? []).map((p: any) => p.$ref).filter(Boolean);
  const resolveHeaders = (entry: any) => response(entry).headers ?? {};

  test("a request body is required exactly when it has a required field: one of optional fields may be left out", async () => {
    let optional = 0;
    for (const op of t.app.operations) {
      if (!op.body || op.access === "webhook") continue;
      const mustSend = ((op.body as { required?: string[] }).required?.length ?? 0) > 0;
      expect([op.operationId, documented(op.operationId).requestBody.required]).toEqual([
        op.operationId,
        mustSend,
      ]);
      if (!mustSend) optional++;
    }
    expect(optional).toBeGreaterThan(3);
    expect(documented("placeOrder").requestBody.required).toBe(false);
    expect(documented("retryOrderPayment").requestBody.required).toBe(false);
    expect(documented("adminCreateProduct").requestBody.required).toBe(true);
    // Left out, it reads as {}: a cart is created with no body at all.
    const shop = await t.org("Optional Body");
    const created = await t.json("/v1/carts", { method: "POST", headers: { "x-api-key": shop.key } });
    expect(created.status).toBe(201);
  });

  test("every write takes Idempotency-Key from components/parameters; reads and dashboard calls do not", () => {
    expect(doc.components.parameters.IdempotencyKey).toEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false }),
    );
    let writes = 0;
    for (const op of t.app.operations) {
      const takesKey = refs(documented(op.operationId)).includes("#/components/parameters/IdempotencyKey");
      expect([op.operationId, takesKey]).toEqual([op.operationId, isTenantWrite(op)]);
      if (isTenantWrite(op)) writes++;
    }
    expect(writes).toBeGreaterThan(20);
    for (const id of ["createCart", "addCartItem", "placeOrder", "adminCreateProduct", "adminRefundOrder"]) {
      expect(refs(documented(id))).toContain("#/components/parameters/IdempotencyKey");
    }
    for (const id of ["listProducts", "getCart", "signInEmail", "createApiKey"]) {
      expect(refs(documented(id))).not.toContain("#/components/parameters/IdempotencyKey");
    }
  });

  test("the documented idempotency header is what a replayed write answers", async () => {
    const org = await t.org("Idempotent Shop");
    const create = () =>
      t.request("/v1/carts", {
        method: "POST",
        headers: { "x-api-key": org.key, "content-type": "application/json", "idempotency-key": "cart-1" },
        body: JSON.stringify({ email: "ana@example.com" }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const documentedHeaders = response(documented("createCart").responses["201"]).headers;
    expect(documentedHeaders["idempotent-replayed"]).toEqual({
      $ref: "#/components/headers/IdempotentReplayed",
    });
    expect(doc.components.headers.IdempotentReplayed.schema.enum).toEqual([
      again.headers.get("idempotent-replayed"),
    ]);
  });

  test("operations that read the customer session list it as a security scheme, alone or required", async () => {
    const customerSchemes = (security: Record<string, unknown>[]) =>
      security.map((entry) => Object.keys(entry).filter((name) => name.startsWith("customerSession")));
    const usesSession = t.app.operations.filter((op) => op.customerSession);
    expect(usesSession.map((op) => op.operationId).sort()).toEqual(
      expect.arrayContaining([
        "createCart",
        "getAccount",
        "getOrder",
        "listOrders",
        "placeOrder",
        "signOutCustomer",
      ]),
    );
    for (const op of t.app.operations) {
      const schemes = customerSchemes(documented(op.operationId).security);
      if (op.customerSession === "required") {
        // Every alternative carries the session, by header or by cookie.
        expect(schemes.every((names) => names.length === 1)).toBe(true);
        expect(new Set(schemes.flat())).toEqual(new Set(["customerSession", "customerSessionCookie"]));
      } else if (op.customerSession === "optional") {
        expect(schemes.some((names) => names.length === 0)).toBe(true);
        expect(new Set(schemes.flat())).toEqual(new Set(["customerSession", "customerSessionCookie"]));
      } else {
        expect([op.operationId, schemes.flat()]).toEqual([op.operationId, []]);
      }
    }
    // Required means required: without a session, the caller alone is refused.
    const org = await t.org("Session Shop");
    const orders = await t.json("/v1/orders", { headers: { "x-api-key": org.key } });
    expect(orders.status).toBe(401);
    expect(orders.body.code).toBe("UNAUTHORIZED");
  });

  test("top-level tags describe every tag the operations use, in module order", () => {
    const used = [...new Set(t.app.operations.map((op) => op.tag))];
    expect(doc.tags.map((tag: any) => tag.name)).toEqual(used);
    for (const tag of doc.tags) expect([tag.name, tag.description?.length > 20]).toEqual([tag.name, true]);
  });

  test("every operation has a description that says more than its summary", () => {
    for (const { op } of entries()) {
      expect([op.operationId, typeof op.description]).toEqual([op.operationId, "string"]);
      expect(op.description.length).toBeGreaterThan(20);
      expect(op.description).not.toBe(op.summary);
    }
  });

  test("error responses come from components/responses with code as an enum of what the operation answers", () => {
    for (const op of t.app.operations) {
      const responses = documented(op.operationId).responses;
      const enumerated: string[] = [];
      for (const [status, entry] of Object.entries<any>(responses)) {
        if (Number(status) < 400) continue;
        expect(entry.$ref).toMatch(/^#\/components\/responses\/[A-Za-z]+$/);
        const codes: string[] =
          response(entry).content["application/json"].schema.allOf[1].properties.code.enum;
        // Each code carries the status it is documented under.
        for (const code of codes)
          expect(`${code} ${ERROR_STATUS[code as ErrorCode]}`).toBe(`${code} ${status}`);
        enumerated.push(...codes);
      }
      for (const code of op.errors ?? [])
        expect([op.operationId, enumerated]).toEqual([op.operationId, expect.arrayContaining([code])]);
      expect(enumerated).toContain("INTERNAL");
    }
    const placeOrder = documented("placeOrder").responses;
    expect(
      response(placeOrder["409"]).content["application/json"].schema.allOf[1].properties.code.enum,
    ).toEqual(["CONFLICT", "IDEMPOTENCY_CONFLICT", "INSUFFICIENT_STOCK"]);
    expect(
      response(placeOrder["422"]).content["application/json"].schema.allOf[1].properties.code.enum,
    ).toEqual(["COUPON_INVALID", "UNPROCESSABLE"]);
  });

  test("an error the service answers is one the document enumerates for that operation", async () => {
    const org = await t.org("Empty Cart Shop");
    const headers = { "x-api-key": org.key, "content-type": "application/json" };
    const cart = await t.json("/v1/carts", { method: "POST", headers, body: "{}" });
    const placed = await t.json(`/v1/carts/${cart.body.data.id}/place-order`, {
      method: "POST",
      headers,
      body: "{}",
    });
    expect(placed.status).toBe(422);
    const documentedCodes = response(documented("placeOrder").responses[placed.status]).content[
      "application/json"
    ].schema.allOf[1].properties.code.enum;
    expect(documentedCodes).toContain(placed.body.code);
  });

  test("a wrong password at the dashboard's sign-in is a 401 the document declares for signInEmail", async () => {
    await signUp(t, "declared-401@example.com");
    const res = await t.json(
      "/api/auth/sign-in/email",
      jsonBody({ email: "declared-401@example.com", password: "not the password" }),
    );
    expect(res.status).toBe(401);
    const declared = documented("signInEmail").responses["401"];
    expect(response(declared).content["application/json"].schema.allOf[1].properties.code.enum).toEqual([
      res.body.code,
    ]);
  });

  test("list operations take page and limit from components/parameters", () => {
    expect(doc.components.parameters.Page).toEqual(
      expect.objectContaining({ name: "page", in: "query", schema: expect.objectContaining({ minimum: 1 }) }),
    );
    expect(doc.components.parameters.Limit.schema).toEqual(
      expect.objectContaining({ minimum: 1, maximum: 100 }),
    );
    const lists = t.app.operations.filter((op) => op.list);
    expect(lists.length).toBeGreaterThan(5);
    for (const op of lists) {
      const documentedOp = documented(op.operationId);
      expect(refs(documentedOp)).toEqual(
        expect.arrayContaining(["#/components/parameters/Page", "#/components/parameters/Limit"]),
      );
      // Not also inline.
      const inline = documentedOp.parameters.filter((p: any) => p.name === "page" || p.name === "limit");
      expect(inline).toEqual([]);
    }
  });

  test("response headers: x-request-id everywhere, idempotent-replayed on writes, retry-after on 429 and 503, etag on cacheable reads and files", () => {
    for (const op of t.app.operations) {
      const responses = documented(op.operationId).responses;
      for (const [status, entry] of Object.entries<any>(responses)) {
        const headers = resolveHeaders(entry);
        expect([op.operationId, status, headers["x-request-id"]]).toEqual([
          op.operationId,
          status,
          { $ref: "#/components/headers/RequestId" },
        ]);
        if (status === "429" || status === "503")
          expect(headers["retry-after"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
      }
      const success = resolveHeaders(responses[String(op.status ?? 200)]);
      expect([op.operationId, "idempotent-replayed" in success]).toEqual([op.operationId, isTenantWrite(op)]);
      const revalidated = op.cacheable === true || op.fileResponse !== undefined;
      expect([op.operationId, "etag" in success]).toEqual([op.operationId, revalidated]);
      expect([op.operationId, "304" in responses]).toEqual([op.operationId, revalidated]);
    }
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      "ETag",
      "IdempotentReplayed",
      "RequestId",
      "RetryAfter",
    ]);
  });

  test("the main bodies carry examples that fit their schemas", () => {
    const withExamples = [
      "listProducts",
      "getProduct",
      "createCart",
      "addCartItem",
      "getCart",
      "placeOrder",
      "getOrder",
    ];
    for (const id of withExamples) {
      const content = response(documented(id).responses[String(declared(id).status ?? 200)]).content[
        "application/json"
      ];
      expect([id, content.example?.data]).toEqual([id, expect.anything()]);
    }
    for (const id of ["createCart", "addCartItem", "placeOrder"]) {
      expect(documented(id).requestBody.content["application/json"].example).toBeDefined();
    }
    for (const op of t.app.operations.filter((o) => o.examples)) {
      const { body, response: data } = op.examples!;
      if (body !== undefined)
        expect([op.operationId, Value.Check(op.body!, body)]).toEqual([op.operationId, true]);
      if (data !== undefined) {
        const schema = op.list ? Type.Array(op.response!) : op.response!;
        expect([
          op.operationId,
          [...Value.Errors(schema, data)].map((e) => `${e.path} ${e.message}`),
        ]).toEqual([op.operationId, []]);
      }
    }
  });

  test("localized text maps declare string values and show real locale keys in their examples", () => {
    const maps: { where: string; schema: any }[] = [];
    const walk = (node: any, where: string) => {
      if (node === null || typeof node !== "object") return;
      if (node.patternProperties?.[LOCALE_PATTERN]) maps.push({ where, schema: node });
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    walk(doc, "#");
    // LocalizedText, and the names and descriptions that products, categories and shipping methods take.
    expect(maps.map((map) => map.where)).toContain("#/components/schemas/LocalizedText");
    expect(maps.length).toBeGreaterThanOrEqual(10);
    const ajv = strictAjv();
    const locale = new RegExp(LOCALE_PATTERN);
    for (const { where, schema } of maps) {
      // The values, whatever the key, so generated clients type the map Record<string, string>.
      expect([where, schema.additionalProperties?.type]).toEqual([where, "string"]);
      // What the API reference shows as the map's example: locales, not the key pattern.
      expect([where, schema.examples?.length > 0]).toEqual([where, true]);
      for (const example of schema.examples) {
        for (const key of Object.keys(example)) expect(key).toMatch(locale);
        expect([where, ajv.validate(schema, example), ajv.errors]).toEqual([where, true, null]);
      }
    }
  });

  test("servers is API_PUBLIC_URL, else BASE_URL", async () => {
    expect(doc.servers.map((server: any) => server.url)).toEqual(["https://api.shop.example"]);
    const other = makeTestApp({ env: { BASE_URL: "https://shop-service.example" } });
    try {
      const otherDoc: any = await (await other.request("/v1/openapi.json")).json();
      expect(otherDoc.servers.map((server: any) => server.url)).toEqual(["https://shop-service.example"]);
    } finally {
      other.cleanup();
    }
  });

  test("place-order's 201 refers to Order instead of copying it", () => {
    const data = documented("placeOrder").responses["201"].content["application/json"].schema.properties.data;
    expect(data.allOf[0]).toEqual({ $ref: "#/components/schemas/Order" });
    expect(data.allOf[1].required).toEqual(["accessToken"]);
    expect(Object.keys(data.allOf[1].properties)).toEqual(["accessToken"]);
    expect(
      doc.paths["/v1/orders/{id}"].get.responses["200"].content["application/json"].schema.properties.data,
    ).toEqual({
      $ref: "#/components/schemas/Order",
    });
  });
});

describe("registry start-up checks", () => {
  const base = {
    summary: "s",
    tag: "T",
    response: Type.Object({}),
    handler: () => ({}),
  };

  test("an auto-granted operation must be a storefront GET (createCart excepted)", () => {
    const write = defineOperation({
      ...base,
      method: "POST",
      path: "/v1/x",
      operationId: "x",
      access: "storefront",
      autoGrant: true,
    });
    expect(() => assertRegistry([write])).toThrow(/only storefront GET/);
    const adminRead = defineOperation({
      ...base,
      method: "GET",
      path: "/v1/admin/x",
      operationId: "y",
      access: "admin",
      autoGrant: true,
    });
    expect(() => assertRegistry([adminRead])).toThrow(/only storefront GET/);
    const createCart = defineOperation({
      ...base,
      method: "POST",
      path: "/v1/carts",
      operationId: "createCart",
      access: "storefront",
      autoGrant: true,
    });
    expect(() => assertRegistry([createCart])).not.toThrow();
  });

  test("input names may not collide across params, query and body; ids and routes are unique", () => {
    const clash = defineOperation({
      ...base,
      method: "POST",
      path: "/v1/x/{id}",
      operationId: "clash",
      access: "admin",
      params: Type.Object({ id: Type.String() }),
      body: Type.Object({ id: Type.String() }),
    });
    expect(() => assertRegistry([clash])).toThrow(/"id" appears in both params and body/);
    const a = defineOperation({
      ...base,
      method: "GET",
      path: "/v1/a",
      operationId: "same",
      access: "admin",
    });
    const b = defineOperation({
      ...base,
      method: "GET",
      path: "/v1/b",
      operationId: "same",
      access: "admin",
    });
    expect(() => assertRegistry([a, b])).toThrow(/duplicate operationId/);
  });

  test("the service's own operations pass", () => {
    expect(() => assertRegistry(t.app.operations)).not.toThrow();
  });
});
