import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CompactSign, generateKeyPair, SignJWT } from "jose";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import {
  activeAgent,
  BASE,
  ISSUER,
  LOCATION,
  type Merchant,
  newKeyPair,
  newMerchant,
  relaxRegisterLimit,
  TestAgent,
  TestHost,
} from "./helpers.ts";

const CHALLENGE = `AgentAuth discovery="${BASE}/.well-known/agent-configuration"`;
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

let t: TestApp;
let merchant: Merchant;
let agent: TestAgent;

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "owner-a@example.com", "Shop A");
  agent = await activeAgent(t, merchant);
});
afterAll(() => t.cleanup());

const withToken = (path: string, token: string, headers: Record<string, string> = {}) =>
  t.json(path, { headers: { authorization: `Bearer ${token}`, ...headers } });

/** A 401 `UNAUTHORIZED` on `/v1` with the Agent Auth challenge. */
function expectUnauthorized(res: { status: number; body: any; response: Response }) {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  expect(res.response.headers.get("www-authenticate")).toBe(CHALLENGE);
}

/** Named tokens (and the headers sent with them) that must each be refused on `/v1` with a 401. */
async function expectEachUnauthorized(cases: [string, string | Promise<string>, Record<string, string>?][]) {
  for (const [name, token, headers] of cases) {
    const res = await withToken("/v1/products", await token, headers);
    if (res.status !== 401) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    expectUnauthorized(res);
  }
}

/** The claims of a valid token of the test agent, fresh `jti`. */
const agentClaims = () => ({
  iss: agent.host.key.thumbprint,
  sub: agent.id,
  aud: BASE,
  iat: now(),
  exp: now() + 60,
  jti: crypto.randomUUID(),
});

describe("agent JWTs on /v1", () => {
  test("a fresh, well-formed token is accepted", async () => {
    const res = await withToken("/v1/products", await agent.jwt());
    expect(res.status).toBe(200);
  });

  test("14. exp − iat > 60, iat over 30 s ahead, alg ≠ EdDSA, wrong typ, another surface's aud, an aud built from a spoofed Host → 401 with WWW-Authenticate: AgentAuth, never 500", async () => {
    const cases: [string, Promise<string>, Record<string, string>?][] = [
      ["expired", agent.jwt(BASE, {}, { iat: now() - 200, exp: now() - 140 })],
      ["exp − iat > 60", agent.jwt(BASE, {}, { iat: now(), exp: now() + 61 })],
      // 32: whole seconds, and the tokens are made before the requests, so 31 could land within 30 s.
      ["iat 32 s ahead", agent.jwt(BASE, {}, { iat: now() + 32, exp: now() + 62 })],
      ["issuer audience", agent.jwt(ISSUER)],
      ["execute audience", agent.jwt(LOCATION)],
      ["two audiences", agent.jwt([BASE, ISSUER])],
      ["aud from a spoofed Host", agent.jwt("http://evil.example"), { host: "evil.example" }],
      ["short jti", agent.jwt(BASE, {}, { jti: "short" })],
      ["cnf", agent.jwt(BASE, { cnf: { jkt: "x" } })],
      ["unknown agent", agent.jwt(BASE, { sub: "agt_doesnotexist" })],
      ["wrong iss", agent.jwt(BASE, { iss: agent.key.thumbprint })],
    ];
    await expectEachUnauthorized(cases);
  });

  test("wrong typ, alg none, RS256 and HS256 tokens → 401", async () => {
    const claims = agentClaims();
    const wrongTyp = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
      .sign(agent.key.privateKey);
    const hostTyp = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "EdDSA", typ: "host+jwt" })
      .sign(agent.key.privateKey);
    const none = `${b64({ alg: "none", typ: "agent+jwt" })}.${b64(claims)}.`;
    const rsa = await generateKeyPair("RS256");
    const rs256 = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "RS256", typ: "agent+jwt" })
      .sign(rsa.privateKey);
    const hs256 = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "HS256", typ: "agent+jwt" })
      .sign(new TextEncoder().encode("a shared secret of thirty-two bytes!"));
    // An EdDSA header over a forged signature: the key comes from the database, never the header.
    const [h, p] = (await agent.jwt()).split(".");
    const forged = `${h}.${p}.${Buffer.from(crypto.getRandomValues(new Uint8Array(64))).toString("base64url")}`;
    for (const token of [
      wrongTyp,
      hostTyp,
      none,
      rs256,
      hs256,
      forged,
      "garbage",
      "a.b.c",
      "x".repeat(9000),
    ]) {
      expectUnauthorized(await withToken("/v1/products", token));
    }
  });

  test("claims and encodings a hand-made token can get wrong → 401; one audience in an array is taken", async () => {
    const signed = (payload: unknown, header: Record<string, unknown> = {}) =>
      new CompactSign(
        new TextEncoder().encode(typeof payload === "string" ? payload : JSON.stringify(payload)),
      )
        .setProtectedHeader({ alg: "EdDSA", typ: "agent+jwt", ...header })
        .sign(agent.key.privateKey);
    // Signed over exactly the header given (jose refuses to make a compact token with b64: false).
    const signedRaw = async (header: Record<string, unknown>, payload: unknown) => {
      const input = `${b64(header)}.${b64(payload)}`;
      const signature = await crypto.subtle.sign(
        "Ed25519",
        agent.key.privateKey,
        new TextEncoder().encode(input),
      );
      return `${input}.${Buffer.from(signature).toString("base64url")}`;
    };
    const { exp: _exp, ...withoutExp } = agentClaims();
    const { iat: _iat, ...withoutIat } = agentClaims();
    const { jti: _jti, ...withoutJti } = agentClaims();
    const [h, , sig] = (await signed(agentClaims())).split(".");
    const cases: [string, string][] = [
      ["nbf 40 s ahead", await signed({ ...agentClaims(), nbf: now() + 40 })],
      ["nbf not a number", await signed({ ...agentClaims(), nbf: "soon" })],
      ["no exp", await signed(withoutExp)],
      ["no iat", await signed(withoutIat)],
      ["no jti", await signed(withoutJti)],
      ["exp a string", await signed({ ...agentClaims(), exp: String(now() + 60) })],
      ["payload an array", await signed([agentClaims()])],
      ["payload not JSON", await signed("not json")],
      [
        "b64 false",
        await signedRaw({ alg: "EdDSA", typ: "agent+jwt", b64: false, crit: ["b64"] }, agentClaims()),
      ],
      ["b64 without crit", await signed(agentClaims(), { b64: true })],
      ["crit", await signedRaw({ alg: "EdDSA", typ: "agent+jwt", crit: ["exp"], exp: 1 }, agentClaims())],
      ["another payload under a valid signature", `${h}.${b64(agentClaims())}.${sig}`],
      ["a short signature", `${h}.${b64(agentClaims())}.${Buffer.alloc(10).toString("base64url")}`],
      ["header an array", `${b64(["EdDSA"])}.${b64(agentClaims())}.${sig}`],
      ["aud a number", await signed({ ...agentClaims(), aud: 1 })],
    ];
    await expectEachUnauthorized(cases);
    expect((await withToken("/v1/products", await signed({ ...agentClaims(), aud: [BASE] }))).status).toBe(
      200,
    );
    expect((await withToken("/v1/products", await signed({ ...agentClaims(), nbf: now() }))).status).toBe(
      200,
    );
  });

  test("a bearer that fails never falls through to the API key or the Host", async () => {
    const res = await t.json("/v1/products", {
      headers: { authorization: "Bearer nope", "x-api-key": merchant.apiKey },
    });
    expectUnauthorized(res);
  });

  test("13. A replayed agent JWT (same jti) → 401, also after a restart on the same DATA_DIR", async () => {
    const token = await agent.jwt();
    expect((await withToken("/v1/products", token)).status).toBe(200);
    expectUnauthorized(await withToken("/v1/products", token));

    const dir = makeTestApp();
    try {
      const m = await newMerchant(dir, "restart@example.com");
      const a = await activeAgent(dir, m);
      const kept = await a.jwt();
      expect((await dir.json("/v1/me", { headers: { authorization: `Bearer ${kept}` } })).status).toBe(200);
      dir.close();
      const again = makeTestApp({ dataDir: dir.dataDir });
      try {
        const replay = await again.json("/v1/me", { headers: { authorization: `Bearer ${kept}` } });
        expect(replay.status).toBe(401);
        const fresh = new TestAgent(again, a.host, a.id, a.key);
        expect((await fresh.v1("/v1/me")).status).toBe(200);
      } finally {
        again.close();
      }
    } finally {
      dir.cleanup();
    }
  });

  test("each surface takes only its own audience: execute wants L, /api/auth wants I", async () => {
    const onExecute = await t.json("/api/auth/capability/execute", {
      method: "POST",
      headers: { authorization: `Bearer ${await agent.jwt(BASE)}`, "content-type": "application/json" },
      body: JSON.stringify({ capability: "listProducts" }),
    });
    expect(onExecute.status).toBe(401);
    expect(onExecute.body.error).toBe("invalid_jwt");
    expect(onExecute.response.headers.get("www-authenticate")).toBe(CHALLENGE);
    const good = await agent.execute("listProducts");
    expect(good.status).toBe(200);

    const request = await t.json("/api/auth/agent/request-capability", {
      method: "POST",
      headers: { authorization: `Bearer ${await agent.jwt(LOCATION)}`, "content-type": "application/json" },
      body: JSON.stringify({ capabilities: ["placeOrder"] }),
    });
    expect(request.status).toBe(401);
    expect(request.body.error).toBe("invalid_jwt");
  });
});

describe("host JWTs", () => {
  test("13. a replayed host JWT → 401 on every host endpoint", async () => {
    const host = agent.host;
    const endpoints: [string, string, unknown][] = [
      ["POST", "/agent/authorize", { agent_id: agent.id }],
      ["POST", "/agent/token", { grant_type: "x", device_code: "y" }],
      ["GET", `/agent/status?agent_id=${agent.id}`, undefined],
      ["POST", "/agent/rotate-key", { agent_id: "agt_x", public_key: {} }],
      ["POST", "/agent/revoke", { agent_id: "agt_x" }],
      ["POST", "/host/rotate-key", { public_key: {} }],
      ["POST", "/agent/register", { name: "x" }],
    ];
    for (const [method, path, body] of endpoints) {
      const token = await host.jwt();
      const send = () =>
        t.json(`/api/auth${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const first = await send();
      expect(first.status).not.toBe(500);
      const second = await send();
      if (second.status !== 401) throw new Error(`${path}: ${second.status} ${JSON.stringify(second.body)}`);
      expect(second.body.error).toBe("invalid_jwt");
      expect(second.response.headers.get("www-authenticate")).toBe(CHALLENGE);
    }
  });

  test("14. a host JWT whose iss is not its key's thumbprint → 401; a JWK with d → 400 unsupported_algorithm", async () => {
    const host = await TestHost.create(t);
    const agentKey = await newKeyPair();
    const wrongIss = await host.call(
      "POST",
      "/agent/register",
      { name: "x" },
      { iss: agentKey.thumbprint, host_public_key: host.key.jwk, agent_public_key: agentKey.jwk },
    );
    expect(wrongIss.status).toBe(401);
    expect(wrongIss.body.error).toBe("invalid_jwt");

    const withPrivate = await host.call(
      "POST",
      "/agent/register",
      { name: "x" },
      { host_public_key: host.key.jwk, agent_public_key: { ...agentKey.jwk, d: "A".repeat(43) } },
    );
    expect(withPrivate.status).toBe(400);
    expect(withPrivate.body.error).toBe("unsupported_algorithm");

    const rsaKey = await host.call(
      "POST",
      "/agent/register",
      { name: "x" },
      { host_public_key: host.key.jwk, agent_public_key: { kty: "RSA", n: "abc", e: "AQAB" } },
    );
    expect(rsaKey.status).toBe(400);
    expect(rsaKey.body.error).toBe("unsupported_algorithm");

    const jwksUrl = await host.call(
      "POST",
      "/agent/register",
      { name: "x" },
      { host_public_key: host.key.jwk, agent_jwks_url: "https://evil.example/jwks.json" },
    );
    expect(jwksUrl.status).toBe(400);
    expect(jwksUrl.body.error).toBe("unsupported_algorithm");

    const unknownHost = await host.call("GET", `/agent/status?agent_id=${agent.id}`);
    expect(unknownHost.status).toBe(401);
  });
});

describe("state and organization", () => {
  test("15. Revoked agent, agent of a revoked host, rejected agent → 401 on /v1, 403 with the matching code on /api/auth/*", async () => {
    // Revoked agent.
    const revoked = await activeAgent(t, merchant, { name: "To revoke" });
    const byHost = await revoked.host.call("POST", "/agent/revoke", { agent_id: revoked.id });
    expect(byHost.body).toEqual({ agent_id: revoked.id, status: "revoked" });
    expectUnauthorized(await revoked.v1("/v1/products"));
    const onAuth = await revoked.auth("POST", "/agent/request-capability", { capabilities: ["placeOrder"] });
    expect(onAuth.status).toBe(403);
    expect(onAuth.body.error).toBe("agent_revoked");

    // Agent of a revoked host.
    const hostGone = await activeAgent(t, merchant, { name: "Host goes" });
    const hostRevoked = await hostGone.host.call("POST", "/host/revoke");
    expect(hostRevoked.body).toEqual({ host_id: expect.any(String), status: "revoked", agents_revoked: 1 });
    expectUnauthorized(await hostGone.v1("/v1/products"));
    const onAuth2 = await hostGone.auth("POST", "/agent/request-capability", {
      capabilities: ["placeOrder"],
    });
    expect(onAuth2.status).toBe(403);
    expect(onAuth2.body.error).toBe("host_revoked");
    const hostCall = await hostGone.host.call("GET", `/agent/status?agent_id=${hostGone.id}`);
    expect(hostCall.status).toBe(403);
    expect(hostCall.body.error).toBe("host_revoked");

    // Rejected agent (denied while pending).
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Rejected" });
    const denied = await t.json("/api/auth/agent/deny", {
      method: "POST",
      headers: { cookie: merchant.cookie, "content-type": "application/json" },
      body: JSON.stringify({
        approval_id: reg.body.approval.approval_id,
        user_code: reg.body.approval.user_code,
      }),
    });
    expect(denied.status).toBe(200);
    expect(denied.body.agent_status).toBe("rejected");
    expectUnauthorized(await reg.agent!.v1("/v1/products"));
    const onAuth3 = await reg.agent!.auth("GET", "/capability/list");
    expect(onAuth3.status).toBe(403);
    expect(onAuth3.body.error).toBe("agent_rejected");

    // Pending agent.
    const pending = await (await TestHost.create(t)).register({ name: "Pending" });
    expectUnauthorized(await pending.agent!.v1("/v1/products"));
    const onAuth4 = await pending.agent!.auth("GET", "/capability/list");
    expect(onAuth4.status).toBe(403);
    expect(onAuth4.body.error).toBe("agent_pending");
  });

  test("15. a delegated agent whose user loses the admin role → 403 on its next request", async () => {
    const m = await newMerchant(t, "demoted@example.com", "Demotion shop");
    const a = await activeAgent(t, m);
    expect((await a.v1("/v1/products")).status).toBe(200);
    t.app.ctx.platform.sqlite
      .query("UPDATE members SET role = 'member' WHERE organization_id = ? AND user_id = ?")
      .run(m.orgId, m.userId);
    const res = await a.v1("/v1/products");
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    const onAuth = await a.auth("POST", "/agent/request-capability", { capabilities: ["placeOrder"] });
    expect(onAuth.status).toBe(403);
    expect(onAuth.body.error).toBe("unauthorized");
  });

  test("8. an agent bound to org A sending org B's Host acts in A, and B's ids → 404", async () => {
    const b = await newMerchant(t, "owner-b@example.com", "Shop B");
    t.app.ctx.platform.sqlite
      .query("INSERT INTO domains (host, organization_id, verified, created_at) VALUES (?, ?, 1, ?)")
      .run("shop-b.example", b.orgId, Date.now());
    const productB = await adminClient(t, b.apiKey).post("/v1/admin/products", {
      ...simpleProduct("B only", 1000),
      status: "active",
    });
    expect(productB.status).toBe(201);
    const productA = await adminClient(t, merchant.apiKey).post("/v1/admin/products", {
      ...simpleProduct("A thing", 1000),
      status: "active",
    });

    const me = await agent.v1("/v1/me", { headers: { host: "shop-b.example" } });
    expect(me.body.data.orgId).toBe(merchant.orgId);
    const list = await agent.v1("/v1/products", { headers: { host: "shop-b.example" } });
    const names = list.body.data.map((p: { id: string }) => p.id);
    expect(names).toContain(productA.body.data.id);
    expect(names).not.toContain(productB.body.data.id);
    const foreign = await agent.v1(`/v1/products/${productB.body.data.id}`, {
      headers: { host: "shop-b.example" },
    });
    expect(foreign.status).toBe(404);
    const viaExecute = await agent.execute("getProduct", { id: productB.body.data.id });
    expect(viaExecute.status).toBe(404);
    expect(viaExecute.body.code).toBe("NOT_FOUND");
  });
});
