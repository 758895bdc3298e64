import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as oauth from "oauth4webapi";
import {
  approveOverHttp,
  clientDocument,
  documentServer,
  MCP_ACCEPT,
  type OAuthWorld,
  oauthWorld,
} from "./helpers.ts";

// The flow as a third-party OAuth client library makes it (oauth4webapi, which checks the server's
// answers against the RFCs): discovery from the 401 of /mcp, registration or a client ID metadata
// document, PKCE, the authorization response's iss and state, the code grant with the resource,
// tools at /mcp, refresh, revocation. The consent in between is the merchant's, over HTTP.

const SLOW = 30_000;
const REDIRECT = "http://127.0.0.1:9/callback";
// The test server is loopback http; the library refuses http unless told.
const insecure = { [oauth.allowInsecureRequests]: true };

let w: OAuthWorld;
let docs: ReturnType<typeof documentServer>;

beforeAll(async () => {
  w = await oauthWorld();
  docs = documentServer();
}, SLOW);
afterAll(async () => {
  await docs.stop();
  await w.close();
});

const rpc = (method: string, params: unknown = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
const mcpHeaders = () => new Headers({ "content-type": "application/json", accept: MCP_ACCEPT });

/** Discovery as an MCP client makes it: the 401's `resource_metadata`, then the issuer's metadata. */
async function discover() {
  const mcpUrl = `${w.base}/mcp`;
  const unauthorized = await fetch(mcpUrl, {
    method: "POST",
    headers: mcpHeaders(),
    body: rpc("tools/list"),
  });
  expect(unauthorized.status).toBe(401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(
    unauthorized.headers.get("www-authenticate") ?? "",
  )?.[1];
  expect(metadataUrl).toBe(`${w.base}/.well-known/oauth-protected-resource/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(new URL(mcpUrl), await fetch(metadataUrl!));
  const issuer = new URL(rs.authorization_servers![0]!);
  const discovery = await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure });
  const as = await oauth.processDiscoveryResponse(issuer, discovery);
  return { as, resource: rs.resource, metadataUrl };
}

/** The authorization request's URL as the client builds it: PKCE (S256), a fresh state, the resource. */
async function authorizationRequest(as: oauth.AuthorizationServer, client: oauth.Client, resource: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource,
    scope: "mcp",
  }).toString();
  return { url, verifier, state };
}

/** The authorization request, its consent over HTTP, the authorization response's checks, the code grant. */
async function authorize(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  resource: string,
  capabilities: string[],
) {
  const { url, verifier, state } = await authorizationRequest(as, client, resource);
  const back = await approveOverHttp(w, url.search.slice(1), capabilities);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    REDIRECT,
    verifier,
    {
      additionalParameters: { resource },
      ...insecure,
    },
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

/** One JSON-RPC message to `/mcp` with the access token; the parsed answer. */
async function mcp(resource: string, token: string, method: string, params: unknown = {}) {
  const response = await oauth.protectedResourceRequest(
    token,
    "POST",
    new URL(resource),
    mcpHeaders(),
    rpc(method, params),
    insecure,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { result: Record<string, any> };
}

/** The refusal of a token at `/mcp`: the library's parsed challenge. */
async function challengeOf(resource: string, token: string) {
  const refused = await oauth
    .protectedResourceRequest(token, "POST", new URL(resource), mcpHeaders(), rpc("tools/list"), insecure)
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  const error = refused as oauth.WWWAuthenticateChallengeError;
  expect(error.response.status).toBe(401);
  return error.cause.find((c) => c.scheme === "bearer")!;
}

describe("oauth4webapi", () => {
  test("discovery, dynamic registration, PKCE, consent, the code grant with resource, tools, refresh, revocation", async () => {
    const { as, resource, metadataUrl } = await discover();
    expect(as.issuer).toBe(w.base);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);

    const registration = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: "oauth4webapi client",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
      insecure,
    );
    const client = await oauth.processDynamicClientRegistrationResponse(registration);
    expect(client.client_id).toStartWith("oc_");

    const tokens = await authorize(as, client, resource, ["listProducts", "getProduct"]);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.access_token).toStartWith("mcp_at_");
    const listed = await mcp(resource, tokens.access_token, "tools/list");
    expect(listed.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      "getProduct",
      "listProducts",
    ]);
    const called = await mcp(resource, tokens.access_token, "tools/call", {
      name: "listProducts",
      arguments: { limit: 5 },
    });
    expect(called.result.isError).toBeUndefined();
    expect(called.result.structuredContent.data.length).toBeGreaterThan(0);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
        additionalParameters: { resource },
        ...insecure,
      }),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcp(resource, refreshed.access_token, "tools/list")).result.tools).toHaveLength(2);

    const revocation = await oauth.revocationRequest(
      as,
      client,
      oauth.None(),
      refreshed.refresh_token!,
      insecure,
    );
    expect(await oauth.processRevocationResponse(revocation)).toBeUndefined();
    const challenge = await challengeOf(resource, refreshed.access_token);
    expect(challenge.parameters.error).toBe("invalid_token");
    expect(challenge.parameters.resource_metadata).toBe(metadataUrl);
    const again = await oauth
      .refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure)
      .then((response) => oauth.processRefreshTokenResponse(as, client, response))
      .catch((error: unknown) => error);
    expect(again).toBeInstanceOf(oauth.ResponseBodyError);
    expect((again as oauth.ResponseBodyError).error).toBe("invalid_grant");
  });

  test("an authorization request for another resource comes back as an invalid_target error that passes the iss and state checks", async () => {
    const { as } = await discover();
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
        insecure,
      ),
    );
    const { url, state } = await authorizationRequest(as, client, "https://api.example/mcp");
    const r = await fetch(url, { redirect: "manual" });
    expect(r.status).toBe(303);
    let refused: unknown;
    try {
      oauth.validateAuthResponse(as, client, new URL(r.headers.get("location")!), state);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((refused as oauth.AuthorizationResponseError).error).toBe("invalid_target");
  });

  test("a client ID metadata document stands in for registration: its URL is the client_id through the whole flow", async () => {
    const { as, resource } = await discover();
    const clientId = docs.url("/oauth4webapi-client.json");
    docs.documents["/oauth4webapi-client.json"] = clientDocument(clientId, REDIRECT, "oauth4webapi document");
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };

    const tokens = await authorize(as, client, resource, ["listProducts"]);
    expect(docs.hits).toContain("/oauth4webapi-client.json");
    const listed = await mcp(resource, tokens.access_token, "tools/list");
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["listProducts"]);

    const revocation = await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure);
    expect(await oauth.processRevocationResponse(revocation)).toBeUndefined();
    expect((await challengeOf(resource, tokens.access_token)).parameters.error).toBe("invalid_token");
  });
});
