import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TCPSocketListener } from "bun";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { addMember, createOrganization, createUser } from "../../src/auth/service.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import { oauthRuntime } from "../../src/oauth/runtime.ts";
import { jsonBody } from "../helpers/app.ts";
import { simpleProduct } from "../helpers/catalog.ts";
import { makeShop } from "../helpers/shop.ts";
import {
  approveOverHttp,
  authorizedCode,
  authorizeQuery,
  clientDocument,
  connectedClient,
  consentCsrf,
  consentSignIn,
  documentServer,
  exchangeCode,
  mcpCall,
  type OAuthWorld,
  oauthWorld,
  PASSWORD,
  pkce,
  postDecision,
  registerClient,
  relaxLimits,
  tokenRequest,
} from "./helpers.ts";

// The authorization server's refusals, each over HTTP through a listening service: PKCE, exact
// redirect URIs, single-use codes and refresh tokens, the resource (audience) a token is bound to,
// organizations, registration limits and checks, client ID metadata documents under the outbound
// rules, revocation (RFC 7009 and the dashboard), grant constraints and the consent page's guards.

const SLOW = 30_000;
const REDIRECT = "http://127.0.0.1:9/callback";
let w: OAuthWorld;

beforeAll(async () => {
  w = await oauthWorld();
}, SLOW);
afterAll(() => w.close());

const count = (sql: string, ...params: string[]) =>
  (w.t.app.ctx.platform.sqlite.query(sql).get(...params) as { n: number }).n;
const codesIssued = () => count("SELECT COUNT(*) AS n FROM oauth_tokens WHERE kind = 'code'");

const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest(w, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: clientId,
    ...extra,
  });

/** A form post as an OAuth client sends it; `body` is sent as written (a parameter may repeat). */
async function postForm(path: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${w.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

const revokeToken = async (token: string, clientId: string, extra: Record<string, string> = {}) =>
  (await postForm("/oauth/revoke", new URLSearchParams({ token, client_id: clientId, ...extra }).toString()))
    .status;

/** `GET /oauth/authorize` as the browser opens it from the client, without following a redirect. */
const openAuthorize = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${w.base}/oauth/authorize?${query}`, { redirect: "manual", headers });

const expectOAuthError = (r: { status: number; body: Record<string, unknown> }, error: string) => {
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ error, error_description: expect.any(String) });
};

describe("PKCE and redirect URIs", () => {
  test("a code with the wrong code_verifier is invalid_grant, and is spent: the right verifier fails too", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    const wrong = await exchangeCode(w, authorized, { code_verifier: pkce().verifier });
    expectOAuthError(wrong, "invalid_grant");
    expect(wrong.body.error_description).toContain("code_verifier");
    expectOAuthError(await exchangeCode(w, authorized), "invalid_grant");
    const issued = count(
      "SELECT COUNT(*) AS n FROM oauth_tokens WHERE client_id = ? AND kind != 'code'",
      authorized.client.client_id,
    );
    expect(issued).toBe(0);
  });

  test("an authorization request naming a redirect URI the client did not register is an error page (400), never a redirect", async () => {
    const client = await registerClient(w, REDIRECT);
    for (const redirectUri of ["http://127.0.0.1:9/elsewhere", "https://attacker.example/callback"]) {
      const query = authorizeQuery(w, {
        clientId: client.client_id,
        redirectUri,
        challenge: pkce().challenge,
      });
      const r = await openAuthorize(query);
      expect(r.status).toBe(400);
      expect(r.headers.get("location")).toBeNull();
      expect(await r.text()).toContain("Wrong return address");
    }
  });

  test("a code exchanged with another redirect_uri than its authorization request's is invalid_grant", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    const r = await exchangeCode(w, authorized, { redirect_uri: "http://127.0.0.1:9/elsewhere" });
    expectOAuthError(r, "invalid_grant");
    expect(r.body.error_description).toContain("redirect_uri");
  });
});

describe("token endpoint parameters", () => {
  test("a client secret, in the body or as Basic, is invalid_client (401) and spends nothing: clients here are public", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    const inBody = await exchangeCode(w, authorized, { client_secret: "s3cret" });
    expect(inBody.status).toBe(401);
    expect(inBody.body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
    const basic = `Basic ${btoa(`${authorized.client.client_id}:s3cret`)}`;
    const asBasic = await exchangeCode(w, authorized, {}, { authorization: basic });
    expect(asBasic.status).toBe(401);
    expect(asBasic.body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
    expect((await exchangeCode(w, authorized)).status).toBe(200);
  });

  test("an unrecognized parameter is ignored and a repeated one is invalid_request (RFC 6749 §3.2)", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    const exchanged = await exchangeCode(w, authorized, {
      audience: "https://elsewhere.example",
      nonce: "n",
    });
    expect(exchanged.status).toBe(200);
    const clientId = authorized.client.client_id;
    const refreshToken = exchanged.body.refresh_token as string;
    const twice = new URLSearchParams([
      ["grant_type", "refresh_token"],
      ["refresh_token", refreshToken],
      ["refresh_token", "mcp_rt_other"],
      ["client_id", clientId],
    ]);
    const repeated = await postForm("/oauth/token", twice.toString());
    expectOAuthError(repeated, "invalid_request");
    expect(repeated.body.error_description).toContain("refresh_token");
    expect(await revokeToken(refreshToken, clientId, { token_type_hint: "refresh_token", extra: "1" })).toBe(
      200,
    );
    expect((await mcpCall(w, exchanged.body.access_token, "tools/list")).status).toBe(401);
  });
});

describe("codes and refresh tokens work once", () => {
  test("a code presented twice is refused, and the access and refresh tokens issued from it are revoked", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    const first = await exchangeCode(w, authorized);
    expect(first.status).toBe(200);
    expect((await mcpCall(w, first.body.access_token, "tools/list")).status).toBe(200);

    expectOAuthError(await exchangeCode(w, authorized), "invalid_grant");
    expect((await mcpCall(w, first.body.access_token, "tools/list")).status).toBe(401);
    expectOAuthError(await refresh(authorized.client.client_id, first.body.refresh_token), "invalid_grant");
  });

  test("a refresh token presented again revokes the whole family, the tokens rotated after it included", async () => {
    const { client, tokens } = await connectedClient(w, ["listProducts"]);
    const second = await refresh(client.client_id, tokens.refresh_token);
    const third = await refresh(client.client_id, second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await mcpCall(w, third.body.access_token, "tools/list")).status).toBe(200);

    expectOAuthError(await refresh(client.client_id, tokens.refresh_token), "invalid_grant");
    expect((await mcpCall(w, third.body.access_token, "tools/list")).status).toBe(401);
    expectOAuthError(await refresh(client.client_id, third.body.refresh_token), "invalid_grant");
  });
});

describe("resource indicators (RFC 8707)", () => {
  test("an authorization request for another resource, or for none, goes back with invalid_target, state and iss", async () => {
    const client = await registerClient(w, REDIRECT);
    const input = { clientId: client.client_id, redirectUri: REDIRECT, challenge: pkce().challenge };
    const other = authorizeQuery(w, { ...input, state: "s-other", resource: "https://api.example/mcp" });
    const none = new URLSearchParams(authorizeQuery(w, { ...input, state: "s-none" }));
    none.delete("resource");
    for (const [query, state] of [
      [other, "s-other"],
      [none.toString(), "s-none"],
    ] as const) {
      const r = await openAuthorize(query);
      expect(r.status).toBe(303);
      const back = new URL(r.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get("error")).toBe("invalid_target");
      expect(back.searchParams.get("state")).toBe(state);
      expect(back.searchParams.get("iss")).toBe(w.base);
      expect(back.searchParams.has("code")).toBe(false);
    }
  });

  test("a token request for another resource is invalid_target, for a code and for a refresh", async () => {
    const authorized = await authorizedCode(w, ["listProducts"]);
    expectOAuthError(
      await exchangeCode(w, authorized, { resource: "https://api.example/mcp" }),
      "invalid_target",
    );
    const { client, tokens } = await connectedClient(w, ["listProducts"]);
    expectOAuthError(
      await refresh(client.client_id, tokens.refresh_token, { resource: `${w.base}/v1` }),
      "invalid_target",
    );
  });
});

describe("audience", () => {
  test("an access token is a 401 on /v1 and at /mcp under a shop's Host; at BASE_URL's /mcp it works", async () => {
    const { tokens } = await connectedClient(w, ["listProducts"]);
    const token = tokens.access_token as string;
    const v1 = await fetch(`${w.base}/v1/products`, { headers: { authorization: `Bearer ${token}` } });
    expect(v1.status).toBe(401);
    const atShop = await mcpCall(w, token, "tools/list", {}, w.shop.host);
    expect(atShop.status).toBe(401);
    expect(atShop.response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await mcpCall(w, token, "tools/list")).status).toBe(200);
  });

  test("a token connected for shop A is a 401 under shop B's Host and sees only shop A's data, though its user owns both", async () => {
    const other = await makeShop(w.t, "Second Shop", "second-shop.example");
    addMember(w.t.app.ctx.platform, other.org.id, w.ownerId, "owner");
    const active = { status: "active" };
    expect(
      (await w.shop.admin.post("/v1/admin/products", simpleProduct("Alpha lamp", 1500, active))).status,
    ).toBe(201);
    expect(
      (await other.admin.post("/v1/admin/products", simpleProduct("Bravo vase", 2500, active))).status,
    ).toBe(201);

    const { tokens } = await connectedClient(w, ["listProducts"]);
    const token = tokens.access_token as string;
    expect((await mcpCall(w, token, "tools/list", {}, other.host)).status).toBe(401);
    const refused = await mcpCall(
      w,
      token,
      "tools/call",
      { name: "listProducts", arguments: {} },
      other.host,
    );
    expect(refused.status).toBe(401);

    const listed = await mcpCall(w, token, "tools/call", { name: "listProducts", arguments: { limit: 100 } });
    expect(listed.body.result.isError).toBeUndefined();
    const text = JSON.stringify(listed.body.result.structuredContent.data);
    expect(text).toContain("Alpha lamp");
    expect(text).not.toContain("Bravo vase");
  });
});

describe("registration", () => {
  test("the 11th registration from one address within a minute is a 429 with Retry-After", async () => {
    oauthRuntime(w.t.app.ctx)!.limits.register = new RateLimiter(10, 60_000);
    try {
      for (let i = 0; i < 10; i++) await registerClient(w, REDIRECT, `Flood ${i}`);
      const before = count("SELECT COUNT(*) AS n FROM oauth_clients");
      const r = await fetch(`${w.base}/oauth/register`, jsonBody({ redirect_uris: [REDIRECT] }));
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(count("SELECT COUNT(*) AS n FROM oauth_clients")).toBe(before);
    } finally {
      relaxLimits(w.t);
    }
  });

  test("bad metadata is a 400 with error and error_description, and stores nothing", async () => {
    const cases: [string, RequestInit, string][] = [
      ["no redirect_uris", jsonBody({ client_name: "No URIs" }), "invalid_redirect_uri"],
      ["a javascript: URI", jsonBody({ redirect_uris: ["javascript:alert(1)"] }), "invalid_redirect_uri"],
      [
        "plain http, not loopback",
        jsonBody({ redirect_uris: ["http://app.example/cb"] }),
        "invalid_redirect_uri",
      ],
      ["a fragment", jsonBody({ redirect_uris: ["https://app.example/cb#frag"] }), "invalid_redirect_uri"],
      [
        "a confidential client",
        jsonBody({
          redirect_uris: ["https://app.example/cb"],
          token_endpoint_auth_method: "client_secret_basic",
        }),
        "invalid_client_metadata",
      ],
      [
        "a client_uri that is not a web address",
        jsonBody({ redirect_uris: ["https://app.example/cb"], client_uri: "javascript:alert(1)" }),
        "invalid_client_metadata",
      ],
      [
        "a body that is not JSON",
        { method: "POST", headers: { "content-type": "application/json" }, body: "{redirect_uris:" },
        "invalid_request",
      ],
    ];
    const before = count("SELECT COUNT(*) AS n FROM oauth_clients");
    for (const [why, init, error] of cases) {
      const r = await fetch(`${w.base}/oauth/register`, init);
      expect({ why, status: r.status }).toEqual({ why, status: 400 });
      expect(await r.json()).toEqual({ error, error_description: expect.any(String) });
    }
    expect(count("SELECT COUNT(*) AS n FROM oauth_clients")).toBe(before);
  });
});

describe("client ID metadata documents", () => {
  let docs: ReturnType<typeof documentServer>;
  beforeAll(() => {
    docs = documentServer();
  });
  afterAll(() => docs.stop());

  test("a document on a loopback server (allowed in development) works end to end: consent, token, tools/list", async () => {
    const clientId = docs.url("/client.json");
    docs.documents["/client.json"] = clientDocument(clientId, REDIRECT, "Document app");
    const { verifier, challenge } = pkce();
    const query = authorizeQuery(w, { clientId, redirectUri: REDIRECT, challenge });
    const back = await approveOverHttp(w, query, ["listProducts"]);
    expect(back.searchParams.get("iss")).toBe(w.base);
    const code = back.searchParams.get("code")!;
    const tokens = await exchangeCode(w, {
      client: { client_id: clientId },
      redirectUri: REDIRECT,
      code,
      verifier,
    });
    expect(tokens.status).toBe(200);
    const listed = await mcpCall(w, tokens.body.access_token, "tools/list");
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["listProducts"]);
    expect(docs.hits).toContain("/client.json");
    const kept = w.t.app.ctx.platform.sqlite
      .query("SELECT kind, name FROM oauth_clients WHERE id = ?")
      .get(clientId);
    expect(kept).toEqual({ kind: "metadata_document", name: "Document app" });
  });

  test("a document whose client_id is not its URL, that names no client_name, or is over 16 KiB is an Unknown app page (400), and nothing is stored", async () => {
    const wrongId = docs.url("/wrong-id.json");
    docs.documents["/wrong-id.json"] = clientDocument(docs.url("/client.json"), REDIRECT);
    const nameless = docs.url("/nameless.json");
    const { client_name: _, ...withoutName } = clientDocument(nameless, REDIRECT);
    docs.documents["/nameless.json"] = withoutName;
    const large = docs.url("/large.json");
    docs.documents["/large.json"] = { ...clientDocument(large, REDIRECT), padding: "x".repeat(16 * 1024) };

    for (const [clientId, why] of [
      [wrongId, "is not its own URL"],
      [nameless, "names no client_name"],
      [large, `larger than ${16 * 1024} bytes`],
    ] as [string, string][]) {
      const query = authorizeQuery(w, { clientId, redirectUri: REDIRECT, challenge: pkce().challenge });
      const r = await openAuthorize(query);
      expect(r.status).toBe(400);
      expect(r.headers.get("location")).toBeNull();
      const html = await r.text();
      expect(html).toContain("Unknown app");
      expect(html).toContain(why);
      expect(count("SELECT COUNT(*) AS n FROM oauth_clients WHERE id = ?", clientId)).toBe(0);
    }
    expect(docs.hits).toEqual(expect.arrayContaining(["/wrong-id.json", "/nameless.json", "/large.json"]));
  });
});

describe("client ID metadata documents under production rules", () => {
  let strict: OAuthWorld;
  let docs: ReturnType<typeof documentServer>;
  let tls: TCPSocketListener;
  let connections = 0;
  beforeAll(async () => {
    strict = await oauthWorld("Strict Shop", "strict-shop.example", {
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: "false",
    });
    docs = documentServer();
    // Where an https client_id at 127.0.0.1 would connect: any connection at all is counted.
    tls = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open: (socket) => {
          connections++;
          socket.end();
        },
        data: () => {},
      },
    });
  }, SLOW);
  afterAll(async () => {
    tls.stop(true);
    await docs.stop();
    await strict.close();
  });

  test("a client_id URL at a private or loopback address is refused without any connection being made", async () => {
    const loopbackHttp = docs.url("/client.json");
    docs.documents["/client.json"] = clientDocument(loopbackHttp, REDIRECT);
    const loopbackHttps = `https://127.0.0.1:${tls.port}/client.json`;
    const open = async (world: OAuthWorld, clientId: string) => {
      const query = authorizeQuery(world, { clientId, redirectUri: REDIRECT, challenge: pkce().challenge });
      const r = await fetch(`${world.base}/oauth/authorize?${query}`, { redirect: "manual" });
      expect(r.status).toBe(400);
      return r.text();
    };
    for (const [clientId, why] of [
      ["https://10.0.0.1/client.json", "points to an internal address (10.0.0.1)"],
      [loopbackHttps, "points to an internal address (127.0.0.1)"],
      [loopbackHttp, "Unknown client_id"],
    ] as [string, string][]) {
      const html = await open(strict, clientId);
      expect(html).toContain("Unknown app");
      expect(html).toContain(why);
      const stored = strict.t.app.ctx.platform.sqlite
        .query("SELECT COUNT(*) AS n FROM oauth_clients WHERE id = ?")
        .get(clientId) as { n: number };
      expect(stored.n).toBe(0);
    }
    expect(connections).toBe(0);
    expect(docs.hits).toEqual([]);

    // The listener does count: where loopback is allowed (development), the same URL is connected to.
    expect(await open(w, loopbackHttps)).toContain("Unknown app");
    expect(connections).toBeGreaterThan(0);
  });
});

describe("revocation (RFC 7009)", () => {
  test("revoking the refresh token answers 200 and ends the family's access token", async () => {
    const { client, tokens } = await connectedClient(w, ["listProducts"]);
    expect((await mcpCall(w, tokens.access_token, "tools/list")).status).toBe(200);
    expect(await revokeToken(tokens.refresh_token, client.client_id)).toBe(200);
    expect((await mcpCall(w, tokens.access_token, "tools/list")).status).toBe(401);
    expectOAuthError(await refresh(client.client_id, tokens.refresh_token), "invalid_grant");
  });

  test("an unknown token answers 200; another client's token answers 200 and keeps working", async () => {
    const mine = await connectedClient(w, ["listProducts"]);
    const theirs = await connectedClient(w, ["listProducts"]);
    expect(await revokeToken("mcp_rt_doesnotexist", mine.client.client_id)).toBe(200);
    expect(await revokeToken("not-a-token", mine.client.client_id)).toBe(200);
    expect(await revokeToken(theirs.tokens.access_token, mine.client.client_id)).toBe(200);
    expect(await revokeToken(theirs.tokens.refresh_token, mine.client.client_id)).toBe(200);
    expect((await mcpCall(w, theirs.tokens.access_token, "tools/list")).status).toBe(200);
    expect((await refresh(theirs.client.client_id, theirs.tokens.refresh_token)).status).toBe(200);
  });
});

describe("revocation from the dashboard", () => {
  /** The agent of the app named `name` in the shop's Settings → Agents (its `oauth` host). */
  async function appAgent(headers: Record<string, string>, name: string): Promise<string> {
    const listed = await w.t.json("/v1/admin/agents", { headers });
    expect(listed.status).toBe(200);
    const host = listed.body.data.find(
      (h: { name: string; credential?: string }) => h.name === name && h.credential === "oauth",
    );
    expect(host.agents).toHaveLength(1);
    return host.agents[0].id;
  }

  test("revoking the app's agent, with the owner's session or an admin key, ends its access token and its refresh token", async () => {
    const cookie = await consentSignIn(w, "");
    const selected = await w.t.json(
      "/api/auth/organization/set-active",
      jsonBody({ organizationId: w.shop.org.id }, { cookie }),
    );
    expect(selected.status).toBe(200);
    for (const [name, headers] of [
      ["Revoked from a session", { cookie }],
      ["Revoked with a key", { "x-api-key": w.shop.org.key }],
    ] as [string, Record<string, string>][]) {
      const authorized = await authorizedCode(w, ["listProducts"], { clientName: name });
      const tokens = await exchangeCode(w, authorized);
      expect((await mcpCall(w, tokens.body.access_token, "tools/list")).status).toBe(200);

      const agentId = await appAgent(headers, name);
      const revoked = await w.t.json(`/v1/admin/agents/${agentId}/revoke`, jsonBody({}, headers));
      expect(revoked.status).toBe(200);
      expect(revoked.body.data).toMatchObject({ id: agentId, status: "revoked" });
      expect((await mcpCall(w, tokens.body.access_token, "tools/list")).status).toBe(401);
      expectOAuthError(
        await refresh(authorized.client.client_id, tokens.body.refresh_token),
        "invalid_grant",
      );
    }
  });
});

describe("constraints", () => {
  test("a cap on addCartItem's quantity refuses a call above it (constraint_violated) and lets one within it through", async () => {
    const { tokens } = await connectedClient(w, ["createCart", "addCartItem"], { "addCartItem:quantity": 2 });
    const call = (name: string, args: Record<string, unknown>) =>
      mcpCall(w, tokens.access_token, "tools/call", { name, arguments: args });
    const cart = await call("createCart", {});
    expect(cart.body.result.isError).toBeUndefined();
    const cartId = cart.body.result.structuredContent.data.id as string;
    const variantId = w.shop.shirt.variants[0].id as string;

    const above = await call("addCartItem", { id: cartId, variantId, quantity: 3 });
    expect(above.body.result.isError).toBe(true);
    expect(above.body.result.structuredContent).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(above.body.result.structuredContent.details).toContainEqual({
      path: "/body/quantity",
      message: "constraint_violated: max 2",
    });

    const within = await call("addCartItem", { id: cartId, variantId, quantity: 2 });
    expect(within.body.result.isError).toBeUndefined();
    const items = within.body.result.structuredContent.data.items as { quantity: number }[];
    expect(items.map((item) => item.quantity)).toEqual([2]);
  });
});

describe("consent page guards", () => {
  /** A fresh authorization request of a new client, and the owner's session on its consent page. */
  async function consentRequest() {
    const client = await registerClient(w, REDIRECT);
    const query = authorizeQuery(w, {
      clientId: client.client_id,
      redirectUri: REDIRECT,
      challenge: pkce().challenge,
    });
    const cookie = await consentSignIn(w, query);
    return { query, cookie, csrf: await consentCsrf(w, query, cookie) };
  }

  test("a decision sent without this page's Origin is a 403 and issues no code", async () => {
    const { query, cookie, csrf } = await consentRequest();
    const before = codesIssued();
    const origins: Record<string, string>[] = [
      {},
      { origin: "https://attacker.example" },
      { origin: "null" },
    ];
    for (const origin of origins) {
      const r = await postDecision(w, query, csrf, ["listProducts"], { ...origin, cookie });
      expect(r.status).toBe(403);
      expect(r.headers.get("location")).toBeNull();
    }
    expect(codesIssued()).toBe(before);
    const sameOrigin = await postDecision(w, query, csrf, ["listProducts"], { origin: w.base, cookie });
    expect(sameOrigin.status).toBe(303);
  });

  test("a decision with a forged CSRF token is a 403 and issues no code", async () => {
    const { query, cookie, csrf } = await consentRequest();
    const other = await consentRequest();
    const before = codesIssued();
    for (const forged of ["0".repeat(64), other.csrf, csrf.slice(0, 63), ""]) {
      const r = await postDecision(w, query, forged, ["listProducts"], { origin: w.base, cookie });
      expect(r.status).toBe(403);
      expect(await r.text()).toContain("The form expired or was not made for you");
    }
    expect(codesIssued()).toBe(before);
    const genuine = await postDecision(w, query, csrf, ["listProducts"], { origin: w.base, cookie });
    expect(genuine.status).toBe(303);
  });

  test("a user who is only a member of the shop cannot connect it (403) and no code is issued", async () => {
    const platform = w.t.app.ctx.platform;
    const member = await createUser(platform, {
      email: "member@oauth-shop.example",
      password: PASSWORD,
      name: "Member",
    });
    addMember(platform, w.shop.org.id, member.id, "member");
    const { query } = await consentRequest();
    const cookie = await consentSignIn(w, query, "member@oauth-shop.example");
    const before = codesIssued();

    const page = await openAuthorize(query, { cookie });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("Only an owner or admin");
    const decided = await postDecision(w, query, "0".repeat(64), ["listProducts"], {
      origin: w.base,
      cookie,
    });
    expect(decided.status).toBe(403);
    expect(await decided.text()).toContain("Only an owner or admin of a shop");

    // Owner of an organization of their own, the member gets the form, yet not for this shop.
    const own = createOrganization(w.t.app.ctx, { name: "Member's own" });
    addMember(platform, own.id, member.id, "owner");
    const csrf = await consentCsrf(w, query, cookie);
    const elsewhere = await postDecision(w, query, csrf, ["listProducts"], { origin: w.base, cookie });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get("location")).toBeNull();
    expect(await elsewhere.text()).toContain("Only an owner or admin of the organization");
    expect(codesIssued()).toBe(before);
  });

  test("a password checked more than 5 minutes ago is asked for again before any decision", async () => {
    const { query, cookie, csrf } = await consentRequest();
    const agents = agentRuntime(w.t.app.ctx)!;
    const before = codesIssued();
    agents.now = () => Date.now() + 6 * 60_000;
    try {
      const page = await openAuthorize(query, { cookie });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Confirm your password");
      const decided = await postDecision(w, query, csrf, ["listProducts"], { origin: w.base, cookie });
      expect(decided.status).toBe(401);
      expect(await decided.text()).toContain("Confirm your password");
      expect(codesIssued()).toBe(before);
    } finally {
      agents.now = () => Date.now();
    }
    const fresh = await postDecision(w, query, csrf, ["listProducts"], { origin: w.base, cookie });
    expect(fresh.status).toBe(303);
    expect(new URL(fresh.headers.get("location")!).searchParams.get("code")).toStartWith("mcp_ac_");
  });
});
