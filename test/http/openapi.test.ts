import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Type } from "@sinclair/typebox";
import { defineOperation } from "../../src/core/operation.ts";
import { assertRegistry } from "../../src/core/registry.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

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

  test("declares the three security schemes and uses them", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
      agentToken: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
      sessionCookie: expect.objectContaining({ type: "apiKey", in: "cookie", name: "session_token" }),
    });
    const me = doc.paths["/v1/me"].get;
    expect(me.security).toEqual(
      expect.arrayContaining([{ apiKey: [] }, { agentToken: [] }, { sessionCookie: [] }]),
    );
    expect(doc.paths["/v1/health"].get.security).toEqual([]);
  });

  test("every operation documents its error responses with the error body", () => {
    for (const { op } of entries()) {
      const codes = Object.keys(op.responses);
      expect(codes).toContain("500");
      if (op.security.length > 0) expect(codes).toContain("401");
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        expect(op.responses[code].content["application/json"].schema).toEqual({
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
    expect(doc.servers).toEqual([{ url: "https://api.shop.example" }]);
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
