import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../src/core/errors.ts";
import { Executor } from "../../src/core/executor.ts";
import { type Caller, defineOperation } from "../../src/core/operation.ts";
import { signedInCustomer } from "../../src/customers/customer-session.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

const webhookOp = (method: "GET" | "POST") =>
  defineOperation({
    method,
    path: "/v1/test/webhook",
    operationId: `testWebhook${method}`,
    summary: "Records the raw body it was sent (tests only)",
    tag: "Test",
    access: "webhook",
    agent: false,
    query: Type.Object({ org: Type.String({ maxLength: 80 }) }),
    tenantOf: (input) => input.org as string,
    response: Type.Object({ sha256: Type.String(), hasCaller: Type.Boolean() }),
    handler: (ctx) => {
      const sha256 = createHash("sha256").update(ctx.rawBody).digest("hex");
      ctx.tenant.sqlite
        .query("INSERT OR REPLACE INTO tenant_meta (key, value) VALUES ('test_webhook', ?)")
        .run(sha256);
      let hasCaller = true;
      try {
        void ctx.caller;
      } catch {
        hasCaller = false;
      }
      return { sha256, hasCaller };
    },
  });

let t: TestApp;
let org: { id: string; key: string };
beforeAll(async () => {
  t = makeTestApp({ operations: [webhookOp("POST"), webhookOp("GET")] });
  org = await t.org("Hooks");
});
afterAll(() => t.cleanup());

const stored = () =>
  t.app.ctx.tenants.with(org.id, (tenant) =>
    tenant.sqlite.query("SELECT value FROM tenant_meta WHERE key = 'test_webhook'").get(),
  );

describe("webhook access", () => {
  test("gets the exact body bytes, the tenant named by the route, and no caller", async () => {
    // Bytes that are not valid UTF-8 and not JSON must reach the handler unchanged.
    const bytes = new Uint8Array([0x7b, 0xff, 0x00, 0x22, 0xc3, 0x28, 0x0a]);
    const res = await t.json(`/v1/test/webhook?org=${org.id}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: bytes,
    });
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sha256, hasCaller: false });
    expect(await stored()).toEqual({ value: sha256 });
  });

  test("a GET notification writes too (in a transaction on the tenant)", async () => {
    const res = await t.json(`/v1/test/webhook?org=${org.id}`);
    expect(res.status).toBe(200);
    expect(await stored()).toEqual({ value: createHash("sha256").update("").digest("hex") });
  });

  test("an unknown or malformed organization is a 404 and changes nothing", async () => {
    const before = await stored();
    for (const bad of ["org_doesnotexist1", "../../etc/passwd", ""]) {
      const res = await t.json(`/v1/test/webhook?org=${encodeURIComponent(bad)}`, {
        method: "POST",
        body: "x",
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Organization not found", code: "NOT_FOUND", status: 404 });
    }
    expect(await stored()).toEqual(before);
  });

  test("credentials are not looked at: a wrong API key does not turn into a 401", async () => {
    const res = await t.json(`/v1/test/webhook?org=${org.id}`, {
      method: "POST",
      headers: { "x-api-key": "ck_wrong" },
      body: "{}",
    });
    expect(res.status).toBe(200);
  });
});

describe("grant check hook", () => {
  test("is asked for agent callers with the operation and the merged input, and can refuse", async () => {
    const asked: { operationId: string; input: Record<string, unknown> }[] = [];
    const executor = new Executor(t.app.ctx, t.app.operations, {
      outbox: t.app.outbox,
      resolveCustomer: signedInCustomer,
      checkGrant: (operationId, _caller, input) => {
        asked.push({ operationId, input });
        if (operationId === "adminCreateCoupon") {
          throw new ApiError("FORBIDDEN", "No grant for adminCreateCoupon");
        }
      },
    });
    const op = (id: string) => t.app.operations.find((o) => o.operationId === id)!;
    const agent: Caller = {
      type: "agent",
      orgId: org.id,
      scopes: ["storefront", "admin"],
      id: "agent:a1",
      agentId: "a1",
    };
    const list = await executor.execute(
      op("listProducts"),
      { caller: agent },
      { limit: 5 },
      { requestId: "r1" },
    );
    expect(list.status).toBe(200);
    const input = { code: "AGENT10", type: "percentage", value: 10 };
    const refused = executor.execute(op("adminCreateCoupon"), { caller: agent }, input, { requestId: "r2" });
    await expect(refused).rejects.toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(asked).toEqual([
      { operationId: "listProducts", input: { limit: 5 } },
      { operationId: "adminCreateCoupon", input },
    ]);
    // Refused before anything was written.
    const coupons = await t.app.ctx.tenants.with(org.id, (tenant) =>
      tenant.sqlite.query("SELECT COUNT(*) AS n FROM coupons WHERE code = 'AGENT10'").get(),
    );
    expect(coupons).toEqual({ n: 0 });

    // Other callers are authorized by their scopes alone.
    const key: Caller = { type: "api-key", orgId: org.id, scopes: ["admin"], id: "key:k1" };
    const created = await executor.execute(op("adminCreateCoupon"), { caller: key }, input, {
      requestId: "r3",
    });
    expect(created.status).toBe(201);
    expect(asked).toHaveLength(2);
  });
});

describe("module hooks: bearer authentication, grant check, raw routes", () => {
  let h: TestApp;
  let hookOrg: { id: string; key: string };
  const seen: string[] = [];
  beforeAll(async () => {
    h = makeTestApp({
      modules: [
        {
          name: "test-agents",
          operations: [],
          authenticateBearer: async (token, surface) => {
            seen.push(`${surface}:${token}`);
            if (token !== "good-token") throw new ApiError("UNAUTHORIZED", "Invalid agent token");
            return {
              type: "agent",
              orgId: hookOrg.id,
              scopes: ["storefront"],
              id: "agent:t1",
              agentId: "t1",
            };
          },
          checkGrant: (operationId) => {
            if (operationId !== "listProducts")
              throw new ApiError("FORBIDDEN", `No grant for ${operationId}`);
          },
          routes: (service) => [
            {
              method: "GET",
              path: "/test/whoami",
              handle: async (request, _params, requestId) => {
                const caller = await service.resolveCaller(request, "mcp");
                return Response.json({
                  caller: caller.type,
                  requestId,
                  operations: service.operations.length,
                });
              },
            },
          ],
        },
      ],
    });
    hookOrg = await h.org("Hooked");
  });
  afterAll(() => h.cleanup());

  test("a bearer token goes to the module's verifier, and its caller to the grant check", async () => {
    const listed = await h.json("/v1/products", { headers: { authorization: "Bearer good-token" } });
    expect(listed.status).toBe(200);
    const cart = await h.json("/v1/carts", {
      method: "POST",
      headers: { authorization: "Bearer good-token", "content-type": "application/json" },
      body: "{}",
    });
    expect(cart.status).toBe(403);
    expect(cart.body.error).toBe("No grant for createCart");
    const bad = await h.json("/v1/products", { headers: { authorization: "Bearer forged" } });
    expect(bad.status).toBe(401);
    expect(seen).toEqual(["v1:good-token", "v1:good-token", "v1:forged"]);
  });

  test("raw routes are mounted, resolve callers for their surface and carry the request id", async () => {
    const res = await h.request("/test/whoami", {
      headers: { authorization: "Bearer good-token", "x-request-id": "req-123" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-123");
    expect(await res.json()).toEqual({
      caller: "agent",
      requestId: "req-123",
      operations: h.app.operations.length,
    });
    expect(seen.at(-1)).toBe("mcp:good-token");
  });
});
