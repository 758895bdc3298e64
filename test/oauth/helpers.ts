import type { Server } from "bun";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import { oauthRuntime } from "../../src/oauth/runtime.ts";
import { cookieFrom, jsonBody, type TestApp } from "../helpers/app.ts";
import { listeningShop, type Shop } from "../helpers/shop.ts";

// A listening service whose BASE_URL is its own address (clients discover from it, the consent
// page checks Origin against it), a shop with an owner, and the steps of a flow as a client and a
// merchant's browser make them over HTTP.

export const PASSWORD = "correct horse battery";
export const MCP_ACCEPT = "application/json, text/event-stream";

export interface OAuthWorld {
  t: TestApp;
  server: Server<unknown>;
  base: string;
  shop: Shop;
  ownerEmail: string;
  ownerId: string;
  close(): Promise<void>;
}

/** Lifts the per-address limits: every request of a test comes from 127.0.0.1. */
export function relaxLimits(t: TestApp): void {
  const oauth = oauthRuntime(t.app.ctx)!;
  oauth.limits.register = new RateLimiter(10_000, 60_000);
  oauth.limits.token = new RateLimiter(10_000, 60_000);
  oauth.limits.authorize = new RateLimiter(10_000, 60_000);
  const limits = agentRuntime(t.app.ctx)!.limits;
  limits.pageSignInIp = new RateLimiter(10_000, 60_000);
  limits.pageSignInEmail = new RateLimiter(10_000, 60_000);
  limits.pageDecision = new RateLimiter(10_000, 60_000);
  limits.agentCalls = new RateLimiter(10_000, 60_000);
}

export async function oauthWorld(
  name = "OAuth Shop",
  host = "oauth-shop.example",
  env: Record<string, string> = {},
): Promise<OAuthWorld> {
  const served = await listeningShop(name, host, {
    password: PASSWORD,
    env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true", ...env },
  });
  // The runtimes are made when the routes mount; a first request makes sure of it.
  await served.t.request("/.well-known/oauth-authorization-server");
  relaxLimits(served.t);
  return { ...served, ownerEmail: served.owner };
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce() {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const challenge = Buffer.from(new Bun.CryptoHasher("sha256").update(verifier).digest()).toString(
    "base64url",
  );
  return { verifier, challenge };
}

/** Registers a public client (RFC 7591) with one redirect URI. */
export async function registerClient(
  w: OAuthWorld,
  redirectUri = "http://127.0.0.1:9/callback",
  name = "Test client",
) {
  const r = await fetch(
    `${w.base}/oauth/register`,
    jsonBody({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      application_type: "native",
    }),
  );
  if (r.status !== 201) throw new Error(`register: ${r.status} ${await r.text()}`);
  return (await r.json()) as { client_id: string; redirect_uris: string[] };
}

export interface AuthorizeInput {
  clientId: string;
  redirectUri: string;
  challenge: string;
  state?: string;
  resource?: string;
}

export const authorizeQuery = (w: OAuthWorld, input: AuthorizeInput): string =>
  new URLSearchParams({
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    code_challenge: input.challenge,
    code_challenge_method: "S256",
    state: input.state ?? "st-1",
    resource: input.resource ?? `${w.base}/mcp`,
    scope: "mcp",
  }).toString();

const formInit = (fields: [string, string][], headers: Record<string, string>): RequestInit => ({
  method: "POST",
  redirect: "manual",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

/** Signs the owner (or another user) in on the consent page; the session cookie. */
export async function consentSignIn(w: OAuthWorld, query: string, email = w.ownerEmail): Promise<string> {
  const r = await fetch(
    `${w.base}/oauth/authorize/sign-in`,
    formInit(
      [
        ["email", email],
        ["password", PASSWORD],
        ["request", query],
      ],
      { origin: w.base },
    ),
  );
  if (r.status !== 303) throw new Error(`sign-in: ${r.status} ${await r.text()}`);
  return cookieFrom(r);
}

/** The consent form's hidden CSRF token, as the page rendered it for this session and request. */
export async function consentCsrf(w: OAuthWorld, query: string, cookie: string): Promise<string> {
  const page = await fetch(`${w.base}/oauth/authorize?${query}`, { headers: { cookie } });
  const html = await page.text();
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(html)?.[1];
  if (!csrf) throw new Error(`no consent form: ${page.status} ${html.slice(0, 500)}`);
  return csrf;
}

export interface DecisionOptions {
  limits?: Record<string, number>;
  cookie?: string;
  action?: string;
  organizationId?: string;
}

/**
 * Posts the consent form's decision as the browser does: `capabilities`, with `limits` as
 * `capability:field` → max, and `headers` (the Origin and the session cookie). The raw answer.
 */
export function postDecision(
  w: OAuthWorld,
  query: string,
  csrf: string,
  capabilities: string[],
  headers: Record<string, string>,
  options: Omit<DecisionOptions, "cookie"> = {},
): Promise<Response> {
  const fields: [string, string][] = [
    ["request", query],
    ["csrf", csrf],
    ["organization_id", options.organizationId ?? w.shop.org.id],
    ["duration", "30d"],
    ["action", options.action ?? "approve"],
    ...capabilities.map((c): [string, string] => ["capability", c]),
    ...Object.entries(options.limits ?? {}).map(([key, max]): [string, string] => [
      `max:${key}`,
      String(max),
    ]),
  ];
  return fetch(`${w.base}/oauth/authorize/decision`, formInit(fields, headers));
}

/**
 * Approves on the consent page over HTTP (signed in as the owner unless `cookie` says otherwise).
 * Answers the redirect's URL (with `code`, `state`, `iss`, or `error`).
 */
export async function approveOverHttp(
  w: OAuthWorld,
  query: string,
  capabilities: string[],
  options: DecisionOptions = {},
): Promise<URL> {
  const cookie = options.cookie ?? (await consentSignIn(w, query));
  const csrf = await consentCsrf(w, query, cookie);
  const r = await postDecision(w, query, csrf, capabilities, { origin: w.base, cookie }, options);
  if (r.status !== 303) throw new Error(`decision: ${r.status} ${await r.text()}`);
  return new URL(r.headers.get("location")!);
}

/** A token request (form-encoded, public client; `headers` to send more, as a client secret). */
export async function tokenRequest(
  w: OAuthWorld,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const r = await fetch(`${w.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any>, response: r };
}

/** One JSON-RPC message to `/mcp` with a bearer token; the HTTP status and the parsed answer. */
export async function mcpCall(
  w: OAuthWorld,
  token: string | null,
  method: string,
  params: unknown = {},
  host?: string,
) {
  const headers: Record<string, string> = { "content-type": "application/json", accept: MCP_ACCEPT };
  if (token) headers.authorization = `Bearer ${token}`;
  if (host) headers.host = host;
  const r = await fetch(`${w.base}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null, response: r };
}

/** Registration and consent over HTTP: a client's code for `capabilities`, not exchanged yet. */
export async function authorizedCode(
  w: OAuthWorld,
  capabilities: string[],
  options: { limits?: Record<string, number>; clientName?: string } = {},
) {
  const redirectUri = "http://127.0.0.1:9/callback";
  const client = await registerClient(w, redirectUri, options.clientName);
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(w, { clientId: client.client_id, redirectUri, challenge });
  const back = await approveOverHttp(w, query, capabilities, { limits: options.limits });
  return { client, redirectUri, code: back.searchParams.get("code")!, verifier };
}

/** The code exchange (PKCE, the `/mcp` resource) of `authorized`; `overrides` replace its fields. */
export const exchangeCode = (
  w: OAuthWorld,
  authorized: { client: { client_id: string }; redirectUri: string; code: string; verifier: string },
  overrides: Record<string, string> = {},
  headers: Record<string, string> = {},
) =>
  tokenRequest(
    w,
    {
      grant_type: "authorization_code",
      code: authorized.code,
      redirect_uri: authorized.redirectUri,
      code_verifier: authorized.verifier,
      client_id: authorized.client.client_id,
      resource: `${w.base}/mcp`,
      ...overrides,
    },
    headers,
  );

/** Registration, consent and code exchange over HTTP: a client's tokens for `capabilities`. */
export async function connectedClient(
  w: OAuthWorld,
  capabilities: string[],
  limits?: Record<string, number>,
) {
  const authorized = await authorizedCode(w, capabilities, { limits });
  const tokens = await exchangeCode(w, authorized);
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return { ...authorized, tokens: tokens.body };
}

/** A client ID metadata document: a public client named by its own URL. */
export const clientDocument = (url: string, redirectUri: string, name = "Document client") => ({
  client_id: url,
  client_name: name,
  redirect_uris: [redirectUri],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
});

/**
 * A loopback web server for client ID metadata documents: each path of `documents` (filled in once
 * `url` is known, as a document names its own URL) answers an object as JSON, a string as is;
 * `hits` lists the paths requested, in order.
 */
export function documentServer() {
  const documents: Record<string, unknown> = {};
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      const document = documents[path];
      if (document === undefined) return new Response("not found", { status: 404 });
      const body = typeof document === "string" ? document : JSON.stringify(document);
      return new Response(body, { headers: { "content-type": "application/json" } });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    documents,
    hits,
    url: (path: string) => `${origin}${path}`,
    stop: () => server.stop(true),
  };
}
