import { readCookie, SESSION_COOKIE } from "../auth/caller.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { MAX_JSON_DEPTH, nestedTooDeep, nestsDeeperThan, readBodyText } from "../core/body.ts";
import { ApiError } from "../core/errors.ts";
import type { RawRoute } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { apiErrorOf, jsonResponse } from "../core/respond.ts";
import { characterFault, codePointLength } from "../core/text-rules.ts";
import { invalidRequest, ProtocolError } from "./errors.ts";
import type { AgentRuntime } from "./runtime.ts";

// The raw HTTP side of `/api/auth/*`: JSON bodies up to 64 KiB, protocol error bodies, no caching.

export const MAX_BODY_BYTES = 64 * 1024;

/** One request to an agent-protocol route, with what the route table and the transport resolved. */
export interface Incoming {
  request: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  client: ClientInfo;
}

type Handler = (incoming: Incoming) => Promise<Response | Answer> | Response | Answer;

/** A JSON answer: status (200 by default) and body. */
interface Answer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  jsonResponse(status, body, { "cache-control": "no-store", ...headers });

/** Renders anything thrown as the protocol's `{ error, message }`; our own bugs become a logged 500. */
function protocolErrorResponse(rt: AgentRuntime, error: unknown, requestId: string): Response {
  if (error instanceof ProtocolError) return json(error.status, error.toBody(), error.headers);
  const known = apiErrorOf(error, rt.ctx, requestId);
  const code = known.code === "INTERNAL" ? "internal_error" : known.code.toLowerCase();
  return json(known.status, { error: code, message: known.message }, known.headers);
}

export function route(
  rt: AgentRuntime,
  method: RawRoute["method"],
  path: string,
  handler: Handler,
): RawRoute {
  return {
    method,
    path,
    async handle(request, params, requestId, client) {
      try {
        const result = await handler({ request, url: new URL(request.url), params, requestId, client });
        if (result instanceof Response) return result;
        return json(result.status ?? 200, result.body, result.headers);
      } catch (error) {
        return protocolErrorResponse(rt, error, requestId);
      }
    },
  };
}

/** The body as text, counting bytes as they arrive (a chunked body cannot pass the limit either). */
export async function readText(request: Request, limit: number): Promise<string> {
  try {
    return await readBodyText(request, limit);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // The same refusals as the REST API's, in the protocol's error shape.
    if (error.code === "PAYLOAD_TOO_LARGE") {
      throw new ProtocolError(413, "payload_too_large", `The body must be at most ${limit} bytes`);
    }
    throw invalidRequest(error.message);
  }
}

/**
 * A JSON object body (the token endpoint also takes form encoding); fields other than `allowed`
 * are refused, so an organization or tenant field can never be slipped in.
 */
export async function readBody(
  incoming: Incoming,
  allowed: readonly string[],
  form = false,
): Promise<Record<string, unknown>> {
  const type = incoming.request.headers.get("content-type")?.toLowerCase() ?? "";
  const text = await readText(incoming.request, MAX_BODY_BYTES);
  let body: unknown;
  if (form && type.startsWith("application/x-www-form-urlencoded")) {
    body = Object.fromEntries(new URLSearchParams(text));
  } else if (text.trim() === "") {
    body = {};
  } else {
    // The same depth limit as the REST API's, in the protocol's error shape.
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw invalidRequest(nestedTooDeep().message);
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidRequest("The body must be JSON");
    }
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalidRequest("The body must be a JSON object");
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) throw invalidRequest(`Unknown field "${name.slice(0, 64)}"`);
  }
  return body as Record<string, unknown>;
}

/** An optional string field of at most `max` characters (`required`: 1 or more). */
export function text(
  body: Record<string, unknown>,
  name: string,
  max: number,
  required = false,
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw invalidRequest(`"${name}" is required`);
    return undefined;
  }
  if (typeof value !== "string" || codePointLength(value) > max || (required && value.length === 0)) {
    throw invalidRequest(`"${name}" must be a string of ${required ? 1 : 0} to ${max} characters`);
  }
  const fault = characterFault(value, false); // the text rules of every operation's input
  if (fault) throw invalidRequest(`"${name}" ${fault}`);
  return value;
}

/** `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (!header) return undefined;
  const match = /^bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ProtocolError(401, "invalid_jwt", "Authorization must be Bearer <jwt>");
  return match[1];
}

export interface DashboardSession {
  sessionId: string;
  userId: string;
  activeOrganizationId: string | null;
  authenticatedAt: number;
}

/** The signed-in dashboard user of a request (session cookie), or null. */
export function dashboardSession(rt: AgentRuntime, request: Request): DashboardSession | null {
  const token = readCookie(request, SESSION_COOKIE);
  if (token === undefined) return null;
  const row = rt.sqlite
    .query(
      "SELECT id, user_id, active_organization_id, expires_at, authenticated_at FROM sessions WHERE token_hash = ?",
    )
    .get(sha256Hex(token)) as {
    id: string;
    user_id: string;
    active_organization_id: string | null;
    expires_at: number;
    authenticated_at: number;
  } | null;
  if (!row || row.expires_at <= Date.now()) return null;
  return {
    sessionId: row.id,
    userId: row.user_id,
    activeOrganizationId: row.active_organization_id,
    authenticatedAt: row.authenticated_at,
  };
}

export const signInFirst = () =>
  new ProtocolError(401, "authentication_required", "Sign in to the dashboard first");

/**
 * Cookie-authenticated writes from a browser: a JSON body (which a cross-site form cannot send
 * without a CORS preflight), and a present `Origin` (else `Referer`) must be the service's own.
 */
export function assertSameOrigin(rt: AgentRuntime, request: Request): void {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/json")) throw invalidRequest("Send the decision as application/json");
  const origin = request.headers.get("origin") ?? request.headers.get("referer");
  if (origin === null) return;
  let actual: string;
  try {
    actual = new URL(origin).origin;
  } catch {
    actual = "";
  }
  if (actual !== rt.origins.base)
    throw new ProtocolError(403, "unauthorized", "Cross-origin request refused");
}
