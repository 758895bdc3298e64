import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../src/core/errors.ts";
import { Executor } from "../../src/core/executor.ts";
import { type Caller, defineOperation } from "../../src/core/operation.ts";
import { signedInCustomer } from "../../src/customers/customer-session.ts";
import { makeTestApp, type TestApp, tenantsTaken } from "../helpers/app.ts";

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
    handler: (call) => {
      const sha256 = createHash("sha256").update(call.rawBody).digest("hex");
      call.tenant.sqlite
        .query("INSERT OR REPLACE INTO tenant_meta (key, value) VALUES ('test_webhook', ?)")
        .run(sha256);
      let hasCaller = true;
      try {
        void call.caller;
      } catch {
        hasCaller = false;
      }
      return { sha256, hasCaller };
    },
  });

/** Verifies its delivery from a header in `prepare`, then names the tenant the header asked for (or none). */
const verifiedWebhook = defineOperation({
  method: "POST",
  path: "/v1/test/verified-webhook",
  operationId: "testVerifiedWebhook",
  summary: "Checks a header before naming its tenant (tests only)",
  tag: "Test",
  access: "webhook",
  agent: false,
  response: Type.Object({ wrote: Type.Boolean(), tenantInPrepare: Type.Boolean() }),
  prepare: async (call) => {
    if (call.headers.get("x-test-proof") !== "good") throw new ApiError("UNAUTHORIZED", "Bad proof");
    let tenantInPrepare = true;
    try {
      void call.tenant;
    } catch {
      tenantInPrepare = false;
    }
    return { org: call.headers.get("x-test-org"), tenantInPrepare };
  },
  tenantOf: (_input, verified) => verified.org,
  handler: (call) => {
    const { prepared } = call;
    if (prepared.org === null) return { wrote: false, tenantInPrepare: prepared.tenantInPrepare };
    call.tenant.sqlite
      .query("INSERT OR REPLACE INTO tenant_meta (key, value) VALUES ('test_verified', ?)")
      .run(prepared.org);
    return { wrote: true, tenantInPrepare: prepared.tenantInPrepare };
  },
});

let t: TestApp;
let org: { id: string; key: string };
beforeAll(async () => {
  t = makeTestApp({ operations: [webhookOp("POST"), webhookOp("GET"), verifiedWebhook] });
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

describe("webhook verification before the tenant", () => {
  const opened = <T>(fn: () => Promise<T>) => tenantsTaken(t.app, fn);
  const deliver = (headers: Record<string, string>) =>
    t.json("/v1/test/verified-webhook", { method: "POST", headers, body: "x" });
  const written = () =>
    t.app.ctx.tenants.with(org.id, (tenant) =>
      tenant.sqlite.query("SELECT value FROM tenant_meta WHERE key = 'test_verified'").get(),
    );

  test("a webhook's prepare sees the request headers and no tenant; the tenant it names afterwards is written in the transaction", async () => {
    const { result, orgs } = await opened(() => deliver({ "x-test-proof": "good", "x-test-org": org.id }));
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ wrote: true, tenantInPrepare: false });
    expect(orgs).toEqual([org.id]);
    expect(await written()).toEqual({ value: org.id });
  });

  test("a delivery refused in prepare takes no tenant and keeps the error envelope and x-request-id", async () => {
    const { result, orgs } = await opened(() =>
      deliver({ "x-test-proof": "forged", "x-test-org": org.id, "x-request-id": "hook-refused-1" }),
    );
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: "Bad proof", code: "UNAUTHORIZED", status: 401 });
    expect(result.response.headers.get("x-request-id")).toBe("hook-refused-1");
    expect(orgs).toEqual([]);
  });

  test("a tenant named after verification that does not exist is a 404; none named answers without a tenant", async () => {
    const unknown = await opened(() =>
      deliver({ "x-test-proof": "good", "x-test-org": "org_doesnotexist1" }),
    );
    expect(unknown.result.status).toBe(404);
    expect(unknown.result.body).toEqual({ error: "Organization not found", code: "NOT_FOUND", status: 404 });
    expect(unknown.orgs).toEqual([]);
    const none = await opened(() => deliver({ "x-test-proof": "good" }));
    expect(none.result.status).toBe(200);
    expect(none.result.body.data).toEqual({ wrote: false, tenantInPrepare: false });
    expect(none.orgs).toEqual([]);
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
