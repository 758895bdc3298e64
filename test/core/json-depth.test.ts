import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/core/body.ts";
import { ApiError } from "../../src/core/errors.ts";
import { defineOperation } from "../../src/core/operation.ts";
import { Body } from "../../src/core/schemas.ts";
import { compileInput } from "../../src/core/validation.ts";
import { canonicalJson } from "../../src/lib/json.ts";
import { activeAgent, LOCATION, newMerchant, relaxRegisterLimit } from "../agents/helpers.ts";
import { Fingerprint } from "../fuzz/harness.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import {
  deliverStripe,
  makeWorld,
  type PaymentsWorld,
  providerShop,
  STRIPE,
  STRIPE_ENV,
} from "../payments/helpers.ts";

// Every JSON body a client sends is refused past 64 levels of arrays and objects before it is
// parsed, on every transport; walks of input made any other way stop there with a 400 as well.

/** `levels` arrays or objects inside one another, as text (the deepest would not survive JSON.stringify). */
function nested(levels: number, kind: "arrays" | "objects", inner = "1"): string {
  return kind === "arrays"
    ? "[".repeat(levels) + inner + "]".repeat(levels)
    : '{"a":'.repeat(levels) + inner + "}".repeat(levels);
}

/** The same as a value, built without recursion. */
function nestedValue(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** The depth of a JSON value, counted without recursion. */
function depthOf(value: unknown): number {
  let depth = 0;
  for (let level: unknown[] = [value]; level.length > 0; depth++) {
    level = level.flatMap((v) => (v !== null && typeof v === "object" ? Object.values(v) : []));
  }
  return depth - 1;
}

/** Deeper than the limit: just past it, far past it, and deep enough to exhaust the stack of a recursive walk. */
const TOO_DEEP = [65, 1_000, 30_000];
/** The same within Agent Auth's 64 KiB body limit (30,000 levels of objects take 180 KB). */
const TOO_DEEP_IN_64_KIB = [65, 1_000, 10_000];
const KINDS = ["arrays", "objects"] as const;

/** A body nested too deep everywhere the tests send one: as the whole body and inside a field. */
function tooDeepBodies(field: string, valid: Record<string, unknown>): { label: string; text: string }[] {
  const rest = JSON.stringify(valid).slice(1);
  return TOO_DEEP.flatMap((levels) =>
    KINDS.flatMap((kind) => [
      { label: `${levels} ${kind}`, text: nested(levels, kind) },
      { label: `${field}: ${levels} ${kind}`, text: `{"${field}":${nested(levels, kind)},${rest}` },
    ]),
  );
}

const TOO_DEEP_BODY = {
  error: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
  code: "VALIDATION_ERROR",
  status: 400,
  details: [{ path: "/body", message: `Nested deeper than ${MAX_JSON_DEPTH} levels` }],
};

/** Sends each labelled body and expects the refusal for every one of them (a failure names the label). */
async function expectEachTooDeep(
  bodies: { label: string; text: string }[],
  send: (text: string) => Promise<{ status: number; body: unknown }>,
): Promise<void> {
  const answers = [];
  for (const { label, text } of bodies) {
    const { status, body } = await send(text);
    answers.push({ label, status, body });
  }
  expect(answers).toEqual(bodies.map(({ label }) => ({ label, status: 400, body: TOO_DEEP_BODY })));
}

const anyValue = defineOperation({
  method: "POST",
  path: "/v1/admin/depth-probe",
  operationId: "testDepthProbe",
  summary: "Takes any JSON value and answers how deep it nests",
  tag: "Test",
  access: "admin",
  body: Body({ value: Type.Unknown() }),
  status: 201,
  response: Type.Object({ depth: Type.Integer() }),
  handler: ({ body }) => ({ depth: depthOf(body.value) }),
});

let t: TestApp;
let shop: Shop;
let fingerprint: Fingerprint;
const HOST = "depth-shop.example";

beforeAll(async () => {
  t = makeTestApp({ operations: [anyValue] });
  shop = await makeShop(t, "Depth Shop", HOST);
  fingerprint = new Fingerprint(t.dataDir);
});
afterAll(() => {
  fingerprint.close();
  t.cleanup();
});

const post = (path: string, text: string, headers: Record<string, string>) =>
  t.json(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
      ...headers,
    },
    body: text,
  });

describe("the depth check", () => {
  test("counts arrays and objects outside strings only, minding escaped quotes and backslashes", () => {
    expect(nestsDeeperThan(nested(64, "arrays"), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65, "arrays"), 64)).toBe(true);
    expect(nestsDeeperThan(nested(64, "objects", "[]"), 64)).toBe(true);
    // Brackets inside strings are text, even after an escaped quote.
    expect(nestsDeeperThan(`["${"[{".repeat(100)}"]`, 64)).toBe(false);
    expect(nestsDeeperThan(`["\\"${"[".repeat(100)}"]`, 64)).toBe(false);
    // An escaped backslash ends in a real closing quote: what follows counts.
    expect(nestsDeeperThan(`["\\\\",${nested(64, "arrays")}]`, 64)).toBe(true);
    expect(nestsDeeperThan(`["\\\\",${nested(63, "arrays")}]`, 64)).toBe(false);
    // Many brackets side by side are not depth.
    expect(nestsDeeperThan(`[${"[],".repeat(10_000)}{}]`, 64)).toBe(false);
  });

  test("walks of input made in-process stop past 64 levels with a 400, not a RangeError", () => {
    const validator = compileInput("body", Body({ value: Type.Unknown() }));
    expect(validator.parse({ value: nestedValue(63) })).toEqual({ value: nestedValue(63) });
    for (const levels of [64, 100_000]) {
      let thrown: unknown;
      try {
        validator.parse({ value: nestedValue(levels) });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).status).toBe(400);
      expect((thrown as ApiError).message).toContain(`nested deeper than ${MAX_JSON_DEPTH}`);
    }
    // The idempotency hash: the same text as before for what fits, a 400 for what does not.
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: nestedValue(63) })).toBe(
      `{"a":${nested(63, "arrays")},"b":[{"c":2,"d":1}]}`,
    );
    expect(() => canonicalJson(nestedValue(65))).toThrow(`nested deeper than ${MAX_JSON_DEPTH}`);
    expect(() => canonicalJson(nestedValue(100_000))).toThrow(ApiError);
  });
});

describe("a body nested deeper than 64 levels is a 400 and changes nothing", () => {
  test("through REST: an anonymous storefront write", async () => {
    const variantId = shop.shirt.variants[0].id;
    const before = fingerprint.current();
    const bodies = tooDeepBodies("items", { email: "a@example.com", items: [{ variantId, quantity: 1 }] });
    await expectEachTooDeep(bodies, (text) => post("/v1/carts", text, { host: HOST }));
    expect(fingerprint.current()).toBe(before);
  });

  test("through REST: an admin write, with an idempotency key", async () => {
    const before = fingerprint.current();
    const headers = { "x-api-key": shop.org.key, "idempotency-key": "deep-1" };
    const bodies = tooDeepBodies("tags", { name: { en: "Deep" }, status: "draft" });
    await expectEachTooDeep(bodies, (text) => post("/v1/admin/products", text, headers));
    expect(fingerprint.current()).toBe(before);
  });

  test("exactly 64 levels is accepted by the parser: a free-form field takes it, a typed field refuses it by its schema", async () => {
    const admin = { "x-api-key": shop.org.key };
    const fits = await post("/v1/admin/depth-probe", `{"value":${nested(63, "arrays")}}`, {
      ...admin,
      "idempotency-key": "fits-64",
    });
    expect(fits.status).toBe(201);
    expect(fits.body.data).toEqual({ depth: 63 });
    const typed = await post(
      "/v1/admin/products",
      `{"name":{"en":"Deep"},"tags":${nested(63, "objects")}}`,
      admin,
    );
    expect(typed.status).toBe(400);
    expect(typed.body.code).toBe("VALIDATION_ERROR");
    expect(typed.body.error).not.toContain("nested deeper");
    const over = await post("/v1/admin/depth-probe", `{"value":${nested(64, "arrays")}}`, admin);
    expect(over).toMatchObject({ status: 400, body: TOO_DEEP_BODY });
  });
});

describe("/mcp refuses a body nested deeper than 64 levels before any MCP message is read", () => {
  const mcp = (text: string, declaredLength: boolean) =>
    t.json("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        host: HOST,
        // Without a declared length the body is read like a chunked one, the SDK transport's way.
        ...(declaredLength ? { "content-length": String(Buffer.byteLength(text)) } : {}),
      },
      body: text,
    });
  const call = (args: string, meta = "{}") =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createCart","arguments":${args},"_meta":${meta}}}`;

  test("a tools/call with deep arguments and a deep JSON-RPC envelope are a 400 envelope and change nothing", async () => {
    const before = fingerprint.current();
    const bodies = TOO_DEEP.flatMap((levels) =>
      KINDS.flatMap((kind) => [
        {
          label: `arguments: ${levels} ${kind}`,
          text: call(`{"email":"a@example.com","items":${nested(levels, kind)}}`),
        },
        { label: `_meta: ${levels} ${kind}`, text: call("{}", nested(levels, kind)) },
        { label: `message: ${levels} ${kind}`, text: nested(levels, kind) },
      ]),
    );
    for (const declaredLength of [true, false])
      await expectEachTooDeep(bodies, (text) => mcp(text, declaredLength));
    expect(fingerprint.current()).toBe(before);
  });

  test("exactly 64 levels reaches the tool", async () => {
    // The message, params and arguments objects, and 61 levels in the value: 64.
    const message = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"testDepthProbe","arguments":{"value":${nested(61, "objects")}}}}`;
    for (const declaredLength of [true, false]) {
      const res = await t.json("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "x-api-key": shop.org.key,
          ...(declaredLength ? { "content-length": String(Buffer.byteLength(message)) } : {}),
        },
        body: message,
      });
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBeUndefined();
      expect(res.body.result.structuredContent).toEqual({ data: { depth: 61 } });
    }
  });
});

describe("Agent Auth endpoints refuse a body nested deeper than 64 levels in the protocol's shape", () => {
  test("register (before the host JWT is read) and capability execute (deep arguments) are a 400 invalid_request and change nothing", async () => {
    relaxRegisterLimit(t);
    const merchant = await newMerchant(t, "depth.merchant@example.com", "Depth Agents");
    const agent = await activeAgent(t, merchant);
    const before = fingerprint.current();
    const answers = [];
    for (const levels of TOO_DEEP_IN_64_KIB) {
      for (const kind of KINDS) {
        const register = await t.json("/api/auth/agent/register", {
          method: "POST",
          headers: { authorization: "Bearer not-read", "content-type": "application/json" },
          body: `{"name":"Deep","capabilities":${nested(levels, kind)}}`,
        });
        answers.push({ label: `${levels} ${kind}`, status: register.status, body: register.body });
      }
    }
    const refusal = { error: "invalid_request", message: TOO_DEEP_BODY.error };
    expect(answers).toEqual(
      TOO_DEEP_IN_64_KIB.flatMap((levels) =>
        KINDS.map((kind) => ({ label: `${levels} ${kind}`, status: 400, body: refusal })),
      ),
    );
    expect(fingerprint.current()).toBe(before);
    // Execute authenticates first (the token's jti is recorded); the store's file is left alone.
    const storeFile = () =>
      fingerprint
        .current()
        .split("|")
        .filter((file) => file.includes(merchant.orgId));
    const store = storeFile();
    const execute = await t.json("/api/auth/capability/execute", {
      method: "POST",
      headers: { authorization: `Bearer ${await agent.jwt(LOCATION)}`, "content-type": "application/json" },
      body: `{"capability":"createCart","arguments":{"items":${nested(10_000, "objects")}}}`,
    });
    expect({ status: execute.status, body: execute.body }).toEqual({ status: 400, body: refusal });
    expect(storeFile()).toEqual(store);
  });
});

describe("payment webhooks refuse a body nested deeper than 64 levels", () => {
  let w: PaymentsWorld;
  let cardShop: Shop;
  let prints: Fingerprint;
  beforeAll(async () => {
    w = makeWorld(STRIPE_ENV);
    cardShop = await providerShop(
      w.t,
      "Deep Card Shop",
      "deep-card.example",
      { provider: "stripe", fields: STRIPE },
      5,
    );
    prints = new Fingerprint(w.t.dataDir);
  });
  afterAll(() => {
    prints.close();
    w.close();
  });

  test("a correctly signed Stripe event nested too deep is a 400 on the ingress and the API route, and changes nothing", async () => {
    const before = prints.current();
    const bodies = TOO_DEEP.map((levels) => ({
      label: `${levels} objects`,
      text: `{"id":"evt_deep_${levels}","type":"checkout.session.completed","data":{"object":{"metadata":${nested(levels, "objects")}}}}`,
    }));
    for (const via of ["ingress", "api"] as const) {
      await expectEachTooDeep(bodies, (payload) => deliverStripe(w, cardShop.org.id, null, { payload, via }));
    }
    expect(prints.current()).toBe(before);
  });

  test("an Ifthenpay JSON callback nested too deep is a 400 before its key is compared (an anonymous caller), and changes nothing", async () => {
    const before = prints.current();
    const bodies = TOO_DEEP.map((levels) => ({
      label: `${levels} arrays`,
      text: `{"key":${nested(levels, "arrays")},"orderId":"1","amount":"1.00"}`,
    }));
    await expectEachTooDeep(bodies, (body) =>
      w.t.json(`/api/webhooks/ifthenpay/${cardShop.org.id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    );
    expect(prints.current()).toBe(before);
  });
});
