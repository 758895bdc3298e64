import { type Incoming, MAX_BODY_BYTES, readText, route } from "../agents/http.ts";
import { MAX_JSON_DEPTH, nestedTooDeep, nestsDeeperThan } from "../core/body.ts";
import type { RawRoute } from "../core/module.ts";
import { jsonResponse } from "../core/respond.ts";
import { registerClient } from "./clients.ts";
import { consentRoutes } from "./consent-page.ts";
import { invalidClient, invalidRequest } from "./errors.ts";
import { type OAuthRuntime, SCOPE } from "./runtime.ts";
import { exchange, revoke } from "./tokens.ts";

// The authorization server's endpoints and the protected resource's metadata. Public documents are
// cacheable for an hour and readable from any origin (browser-based MCP clients discover from the
// page); the token, registration and revocation endpoints take no cookie, so any origin may call
// them too.

const HOUR = "public, max-age=3600";

/** RFC 9728: the protected resource `/mcp`, its authorization server and its one scope. */
export const resourceMetadata = (rt: OAuthRuntime) => ({
  resource: rt.urls.resource,
  authorization_servers: [rt.urls.issuer],
  scopes_supported: [SCOPE],
  bearer_methods_supported: ["header"],
  resource_name: "Commerce API (MCP)",
  resource_documentation: `${rt.urls.issuer}/docs`,
});

/** RFC 8414: what MCP clients check before they register and authorize. */
const serverMetadata = (rt: OAuthRuntime) => ({
  issuer: rt.urls.issuer,
  authorization_endpoint: rt.urls.authorize,
  token_endpoint: rt.urls.token,
  registration_endpoint: rt.urls.register,
  revocation_endpoint: rt.urls.revoke,
  scopes_supported: [SCOPE],
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  code_challenge_methods_supported: ["S256"],
  authorization_response_iss_parameter_supported: true,
  client_id_metadata_document_supported: true,
});

const TOKEN_FIELDS = [
  "grant_type",
  "code",
  "redirect_uri",
  "code_verifier",
  "client_id",
  "refresh_token",
  "resource",
  "scope",
];
const REVOKE_FIELDS = ["token", "token_type_hint", "client_id"];

/** A form field as a string (repeated or non-string values are a malformed request). */
function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.length > 4096) throw invalidRequest(`${name} must be one string`);
  return value;
}

/** Public clients name themselves in the body; a client secret (Basic or in the body) is not ours. */
function clientIdOf(incoming: Incoming, body: Record<string, unknown>): string {
  if (incoming.request.headers.has("authorization") || body.client_secret !== undefined) {
    throw invalidClient("Clients here are public: send client_id in the body, and no secret");
  }
  const clientId = field(body, "client_id");
  if (!clientId) throw invalidClient("client_id is required");
  return clientId;
}

/** Token answers are never cached (RFC 6749 §5.1). */
const noStore = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * The form's `names` (and `client_secret`, to refuse it): unrecognized parameters are ignored and
 * none may repeat (RFC 6749 §3.2).
 */
async function readForm(incoming: Incoming, names: readonly string[]): Promise<Record<string, unknown>> {
  const type = incoming.request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    throw invalidRequest("Send the request as application/x-www-form-urlencoded");
  }
  const params = new URLSearchParams(await readText(incoming.request, MAX_BODY_BYTES));
  const body: Record<string, unknown> = {};
  for (const name of [...names, "client_secret"]) {
    const values = params.getAll(name);
    if (values.length > 1) throw invalidRequest(`${name} must be sent once`);
    if (values.length === 1) body[name] = values[0];
  }
  return body;
}

export function oauthRoutes(rt: OAuthRuntime): RawRoute[] {
  const document = (path: string, body: () => unknown): RawRoute => ({
    method: "GET",
    path,
    cors: "any",
    handle: () => jsonResponse(200, body(), { "cache-control": HOUR }),
  });
  const open = (r: RawRoute): RawRoute => ({ ...r, cors: "any" });
  return [
    document("/.well-known/oauth-protected-resource", () => resourceMetadata(rt)),
    document("/.well-known/oauth-protected-resource/mcp", () => resourceMetadata(rt)),
    document("/.well-known/oauth-authorization-server", () => serverMetadata(rt)),
    ...consentRoutes(rt),
    open(
      route(rt.agents, "POST", new URL(rt.urls.token).pathname, async (incoming) => {
        rt.limits.token.hit(incoming.client.ip() ?? "unknown");
        const body = await readForm(incoming, TOKEN_FIELDS);
        const answer = exchange(rt, {
          grantType: field(body, "grant_type") ?? "",
          clientId: clientIdOf(incoming, body),
          code: field(body, "code"),
          redirectUri: field(body, "redirect_uri"),
          codeVerifier: field(body, "code_verifier"),
          refreshToken: field(body, "refresh_token"),
          resource: field(body, "resource"),
        });
        return { body: answer, headers: noStore };
      }),
    ),
    open(
      route(rt.agents, "POST", new URL(rt.urls.register).pathname, async (incoming) => {
        rt.limits.register.hit(incoming.client.ip() ?? "unknown");
        const metadata = await readJsonObject(incoming);
        return { status: 201, body: registerClient(rt, metadata, incoming.client.ip()), headers: noStore };
      }),
    ),
    open(
      route(rt.agents, "POST", new URL(rt.urls.revoke).pathname, async (incoming) => {
        rt.limits.token.hit(incoming.client.ip() ?? "unknown");
        const body = await readForm(incoming, REVOKE_FIELDS);
        const token = field(body, "token");
        if (!token) throw invalidRequest("token is required");
        revoke(rt, token, clientIdOf(incoming, body));
        return new Response(null, { status: 200, headers: noStore });
      }),
    ),
  ];
}

/** A registration body: any JSON object (unknown metadata is ignored, RFC 7591 §2). */
async function readJsonObject(incoming: Incoming): Promise<Record<string, unknown>> {
  const type = incoming.request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/json")) throw invalidRequest("Send the metadata as application/json");
  const raw = await readText(incoming.request, MAX_BODY_BYTES);
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw invalidRequest(nestedTooDeep().message);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw invalidRequest("The body must be JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw invalidRequest("The body must be a JSON object");
  }
  return body as Record<string, unknown>;
}
