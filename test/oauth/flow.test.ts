import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonBody } from "../helpers/app.ts";
import { png } from "../helpers/images.ts";
import {
  approveOverHttp,
  authorizeQuery,
  connectedClient,
  consentSignIn,
  mcpCall,
  type OAuthWorld,
  oauthWorld,
  pkce,
  registerClient,
  tokenRequest,
} from "./helpers.ts";

// The OAuth flow over plain HTTP, step by step as a client and the merchant's browser make it:
// discovery from the 401 of /mcp, registration, consent, the code exchange, tools limited to the
// grants, refresh rotation, revocation.

const SLOW = 30_000;
let w: OAuthWorld;

beforeAll(async () => {
  w = await oauthWorld();
}, SLOW);
afterAll(() => w.close());

describe("discovery", () => {
  test("a 401 from /mcp names the protected resource metadata first, and Agent Auth beside it", async () => {
    const r = await mcpCall(w, null, "tools/list");
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    const challenge = r.response.headers.get("www-authenticate")!;
    expect(challenge).toStartWith(
      `Bearer resource_metadata="${w.base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
    );
    expect(challenge).toContain(`AgentAuth discovery="${w.base}/.well-known/agent-configuration"`);
  });

  test("a refused bearer token is an invalid_token challenge", async () => {
    const r = await mcpCall(w, "mcp_at_notatoken", "tools/list");
    expect(r.status).toBe(401);
    expect(r.response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  test("the resource metadata is served at both addresses and names this authorization server", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const r = await fetch(`${w.base}${path}`, { headers: { origin: "https://inspector.example" } });
      expect(r.status).toBe(200);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(await r.json()).toMatchObject({
        resource: `${w.base}/mcp`,
        authorization_servers: [w.base],
        scopes_supported: ["mcp"],
      });
    }
  });

  test("the authorization server metadata says S256, iss, metadata documents and registration", async () => {
    const r = await fetch(`${w.base}/.well-known/oauth-authorization-server`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      issuer: w.base,
      authorization_endpoint: `${w.base}/oauth/authorize`,
      token_endpoint: `${w.base}/oauth/token`,
      registration_endpoint: `${w.base}/oauth/register`,
      revocation_endpoint: `${w.base}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: ["none"],
    });
  });
});

describe("the flow", () => {
  test("consent issues a code with state and iss; the token lists and calls exactly the granted tools", async () => {
    const connected = await connectedClient(w, ["listProducts", "getProduct", "createCart"], {
      "createCart:quantity": 2,
    });
    expect(connected.tokens).toMatchObject({ token_type: "Bearer", scope: "mcp" });
    expect(connected.tokens.expires_in).toBeGreaterThan(3000);
    const token = connected.tokens.access_token as string;
    const listed = await mcpCall(w, token, "tools/list");
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      "createCart",
      "getProduct",
      "listProducts",
    ]);
    const products = await mcpCall(w, token, "tools/call", { name: "listProducts", arguments: { limit: 5 } });
    expect(products.body.result.isError).toBeUndefined();
    expect(products.body.result.structuredContent.data.length).toBeGreaterThan(0);
    const refused = await mcpCall(w, token, "tools/call", { name: "adminListOrders", arguments: {} });
    expect(refused.body.result.isError).toBe(true);
  });

  test("the same token on /v1 is a 401: it is bound to /mcp", async () => {
    const { tokens } = await connectedClient(w, ["listProducts"]);
    const r = await fetch(`${w.base}/v1/products`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(r.status).toBe(401);
  });

  test("a refresh rotates both tokens; the old refresh token presented again revokes the family", async () => {
    const { client, tokens } = await connectedClient(w, ["listProducts"]);
    const refreshed = await tokenRequest(w, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(w, refreshed.body.access_token, "tools/list")).status).toBe(200);
    const reused = await tokenRequest(w, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    expect((await mcpCall(w, refreshed.body.access_token, "tools/list")).status).toBe(401);
  });

  test("deny goes back to the client with access_denied, state and iss", async () => {
    const client = await registerClient(w);
    const { challenge } = pkce();
    const query = authorizeQuery(w, {
      clientId: client.client_id,
      redirectUri: client.redirect_uris[0]!,
      challenge,
      state: "xyz",
    });
    const back = await approveOverHttp(w, query, [], { action: "deny" });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("xyz");
    expect(back.searchParams.get("iss")).toBe(w.base);
  });
});

describe("storefront agents", () => {
  test("/mcp on a shop's host needs no sign-in: the shop's storefront tools, no admin one, no 401", async () => {
    const r = await mcpCall(w, null, "tools/list", {}, "oauth-shop.example");
    expect(r.status).toBe(200);
    const names: string[] = r.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain("listProducts");
    expect(names).toContain("createCart");
    expect(names).toContain("placeOrder");
    expect(names.filter((name) => name.startsWith("admin"))).toEqual([]);
    const products = await mcpCall(
      w,
      null,
      "tools/call",
      { name: "listProducts", arguments: {} },
      "oauth-shop.example",
    );
    expect(products.body.result.structuredContent.data.length).toBeGreaterThan(0);
  });
});

describe("the client's logo", () => {
  test("a logo its registration names is shown inlined, and only if it is an image; the page still loads nothing from elsewhere", async () => {
    const served = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname === "/logo.png"
          ? new Response(png(8, 8), { headers: { "content-type": "image/png" } })
          : new Response("<svg onload=alert(1)>", { headers: { "content-type": "image/svg+xml" } }),
    });
    try {
      const consentFor = async (logo: string) => {
        const redirectUri = "http://127.0.0.1:9/callback";
        const registered = await fetch(
          `${w.base}/oauth/register`,
          jsonBody({ client_name: "Logo client", redirect_uris: [redirectUri], logo_uri: logo }),
        );
        const client = (await registered.json()) as { client_id: string; logo_uri: string };
        expect(client.logo_uri).toBe(logo);
        const query = authorizeQuery(w, {
          clientId: client.client_id,
          redirectUri,
          challenge: pkce().challenge,
        });
        const cookie = await consentSignIn(w, query);
        return fetch(`${w.base}/oauth/authorize?${query}`, { headers: { cookie } });
      };
      const withImage = await consentFor(`http://127.0.0.1:${served.port}/logo.png`);
      const html = await withImage.text();
      expect(html).toContain(`src="data:image/png;base64,${Buffer.from(png(8, 8)).toString("base64")}"`);
      expect(withImage.headers.get("content-security-policy")).toContain("img-src data:;");
      expect(html).not.toContain(`127.0.0.1:${served.port}`);
      const notAnImage = await consentFor(`http://127.0.0.1:${served.port}/logo.svg`);
      const plain = await notAnImage.text();
      expect(plain).not.toContain("<img");
      expect(notAnImage.headers.get("content-security-policy")).not.toContain("img-src");
    } finally {
      await served.stop(true);
    }
  });

  test("a logo_uri that is not an http(s) URL is refused at registration", async () => {
    const r = await fetch(
      `${w.base}/oauth/register`,
      jsonBody({
        client_name: "Bad logo",
        redirect_uris: ["http://127.0.0.1:9/cb"],
        logo_uri: "javascript:alert(1)",
      }),
    );
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error: "invalid_client_metadata" });
  });
});
