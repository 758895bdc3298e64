import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiError } from "../../src/core/errors.ts";
import { Executor } from "../../src/core/executor.ts";
import type { Caller } from "../../src/core/operation.ts";
import { signedInCustomer } from "../../src/customers/customer-session.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, simpleProduct } from "../helpers/catalog.ts";

// A kept body answers right after the access check, before validation and the rest of the executor:
// these tests pin that nothing before it is skipped.

const HOST = "cache.example";
let t: TestApp;
let admin: AdminClient;
let org: { id: string; key: string };
let slug: string;

beforeAll(async () => {
  t = makeTestApp();
  org = await t.org("Cache", { host: HOST });
  admin = adminClient(t, org.key);
  const created = await admin.post("/v1/admin/products", simpleProduct("Kept lamp", 2500));
  slug = created.body.data.slug;
});
afterAll(() => t.cleanup());

const op = (id: string) => t.app.operations.find((o) => o.operationId === id)!;

describe("cached storefront reads", () => {
  test("are served only after the caller is resolved and holds the scope", async () => {
    const path = `/v1/products/${slug}`;
    const first = await t.json(path, { headers: { host: HOST } });
    expect(first.status).toBe(200);
    // The same input through the executor is now a kept body (no handler, no validation).
    const caller: Caller = { type: "host", orgId: org.id, scopes: ["storefront"], id: `host:${HOST}` };
    const kept = await t.app.executor.execute(
      op("getProduct"),
      { caller },
      { id: slug },
      { requestId: "r1" },
    );
    expect(kept.body).toBe(JSON.stringify(first.body));

    const adminOnly = await t.org("Other", { scopes: ["admin"] });
    const wrongScope = await t.json(path, { headers: { host: HOST, "x-api-key": adminOnly.key } });
    expect(wrongScope.status).toBe(403);
    const badKey = await t.json(path, { headers: { host: HOST, "x-api-key": "nope" } });
    expect(badKey.status).toBe(401);
    const unknownHost = await t.json(path, { headers: { host: "nobody.example" } });
    expect(unknownHost.status).toBe(401);
    const scoped = await t.app.executor
      .execute(
        op("getProduct"),
        { caller: { ...caller, scopes: ["admin"] } },
        { id: slug },
        { requestId: "r2" },
      )
      .catch((error: unknown) => error);
    expect(scoped).toBeInstanceOf(ApiError);
    expect((scoped as ApiError).status).toBe(403);
  });

  test("still ask an agent's grant check, whose refusal wins over a kept body", async () => {
    const path = "/v1/products?limit=2";
    expect((await t.json(path, { headers: { host: HOST } })).status).toBe(200);
    const asked: string[] = [];
    const executor = new Executor(t.app.ctx, t.app.operations, {
      outbox: t.app.outbox,
      resolveCustomer: signedInCustomer,
      checkGrant: (operationId) => {
        asked.push(operationId);
        throw new ApiError("FORBIDDEN", `No grant for ${operationId}`);
      },
    });
    const agent: Caller = {
      type: "agent",
      orgId: org.id,
      scopes: ["storefront"],
      id: "agent:a1",
      agentId: "a1",
    };
    const refused = executor.execute(
      op("listProducts"),
      { caller: agent },
      { limit: "2" },
      { requestId: "r3" },
    );
    await expect(refused).rejects.toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(asked).toEqual(["listProducts"]);
  });

  test("never keep an input that fails validation", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.json("/v1/products?limit=0", { headers: { host: HOST } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    const unknown = await t.json("/v1/products/no-such-lamp", { headers: { host: HOST } });
    expect(unknown.status).toBe(404);
    await admin.post("/v1/admin/products", simpleProduct("No such lamp", 900));
    const later = await t.json("/v1/products/no-such-lamp", { headers: { host: HOST } });
    expect(later.status).toBe(200);
  });
});
