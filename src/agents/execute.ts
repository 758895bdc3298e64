import { sha256Hex } from "../auth/crypto.ts";
import { ApiError } from "../core/errors.ts";
import type { Outcome, ValidatedInput } from "../core/executor.ts";
import type { Caller, ClientInfo, Operation } from "../core/operation.ts";
import { JSON_TYPE, jsonResponse } from "../core/respond.ts";
import { compileInput, type InputValidator } from "../core/validation.ts";
import { TtlCache } from "../lib/ttl-cache.ts";
import { type Capability, violationsOf } from "./capabilities.ts";
import { ConstraintViolation, ProtocolError, type Violation } from "./errors.ts";
import { agentCaller, callerConstraints, callerHolds } from "./grants.ts";
import type { AgentAuth } from "./jwt.ts";
import type { AgentRuntime } from "./runtime.ts";

// Capability execute: one capability run for an agent, in-process through the executor (the `/v1`
// pipeline: validation, grant and constraints, tenant, handler, envelope, idempotency keyed by the
// agent), or proxied to API_PUBLIC_URL with an API key when that is another origin.

const PROXY_TIMEOUT_MS = 30_000;
const PROXY_KEY_CHECK_MS = 5 * 60_000;

/** One capability execute: the agent, the capability it names, its arguments and the request they came in. */
interface Invocation {
  auth: AgentAuth;
  capability: string;
  arguments: Record<string, unknown>;
  request: Request;
  requestId: string;
  client: ClientInfo;
}

const violationsBody = (capability: string, violations: Violation[]) =>
  new ProtocolError(
    403,
    "constraint_violated",
    `The call breaks a constraint of the grant for ${capability}`,
    {
      violations: violations.map(({ field, constraint, actual }) => ({ field, constraint, actual })),
    },
  );

/** The answer `/v1` would give: status, `{data}` / `{data, meta}` or nothing, and its headers. */
function outcomeResponse(outcome: Outcome): Response {
  const headers = new Headers();
  if (outcome.body !== null) headers.set("content-type", JSON_TYPE);
  if (outcome.replayed) headers.set("idempotent-replayed", "true");
  if (outcome.location) headers.set("location", outcome.location);
  return new Response(outcome.body, { status: outcome.status, headers });
}

/** Runs the call; the capability's existence and the agent's grant are checked first (404 / 403). */
export async function executeCapability(rt: AgentRuntime, invocation: Invocation): Promise<Response> {
  const capability = rt.catalog.get(invocation.capability);
  if (!capability) {
    throw new ProtocolError(
      404,
      "capability_not_found",
      `No capability named ${invocation.capability.slice(0, 100)}`,
    );
  }
  const caller = agentCaller(rt, invocation.auth);
  if (!callerHolds(caller, capability.name)) {
    throw new ProtocolError(403, "capability_not_granted", `The agent holds no grant for ${capability.name}`);
  }
  if (rt.origins.api !== rt.origins.base) return proxy(rt, capability, caller, invocation);
  try {
    const outcome = await rt.service.executor.execute(capability.op, { caller }, invocation.arguments, {
      requestId: invocation.requestId,
      client: invocation.client,
      idempotencyKey: invocation.request.headers.get("idempotency-key") ?? undefined,
      customerToken: () => invocation.request.headers.get("x-customer-session") ?? undefined,
    });
    return outcomeResponse(outcome);
  } catch (error) {
    if (error instanceof ConstraintViolation) throw violationsBody(capability.name, error.violations);
    if (error instanceof ApiError) return jsonResponse(error.status, error.toBody(), error.headers);
    throw error;
  }
}

// ---------------------------------------------------------------- proxied execution

interface Validators {
  params?: InputValidator;
  query?: InputValidator;
  body?: InputValidator;
}
const validators = new WeakMap<Operation, Validators>();

/** Splits the arguments by the operation's schemas and validates them as the executor would. */
function validate(rt: AgentRuntime, op: Operation, args: Record<string, unknown>) {
  let compiled = validators.get(op);
  if (!compiled) {
    compiled = {
      params: op.params && compileInput("params", op.params),
      query: op.query && compileInput("query", op.query),
      body: op.body && compileInput("body", op.body),
    };
    validators.set(op, compiled);
  }
  const names = rt.service.executor.inputNames(op);
  const raw = {
    params: {} as Record<string, unknown>,
    query: {} as Record<string, unknown>,
    body: {} as Record<string, unknown>,
  };
  let hasBody = false;
  for (const [name, value] of Object.entries(args)) {
    if (names.params.has(name)) raw.params[name] = value;
    else if (names.query.has(name)) raw.query[name] = value;
    else {
      raw.body[name] = value;
      hasBody = true;
    }
  }
  if (hasBody && !compiled.body) {
    const name = Object.keys(raw.body)[0]!;
    throw new ApiError("VALIDATION_ERROR", `Unknown input field "${name}"`, [
      { path: `/${name}`, message: "Unexpected property" },
    ]);
  }
  const validated: ValidatedInput = {
    params: compiled.params?.parse(raw.params),
    query: compiled.query?.parse(raw.query),
    body: compiled.body?.parse(raw.body),
  };
  return { raw, validated, hasBody: compiled.body !== undefined };
}

/** The proxy key for an organization: the single key, or the organization's entry of the JSON map. */
function proxyKeyFor(rt: AgentRuntime, organizationId: string): string | undefined {
  const setting = rt.ctx.config.agentProxyApiKey;
  return typeof setting === "string" ? setting : setting?.[organizationId];
}

interface KeyIdentity {
  type: string;
  orgId: string;
  scopes: string[];
}
const keyChecks = new WeakMap<AgentRuntime, TtlCache<KeyIdentity>>();

const upstreamError = (message: string) => new ProtocolError(502, "upstream_error", message);

/** What `GET R/v1/me` says about a key (cached 5 minutes). */
async function keyIdentity(rt: AgentRuntime, key: string, requestId: string): Promise<KeyIdentity> {
  let cache = keyChecks.get(rt);
  if (!cache) {
    cache = new TtlCache<KeyIdentity>(PROXY_KEY_CHECK_MS, 1000);
    keyChecks.set(rt, cache);
  }
  const cacheKey = sha256Hex(key);
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  let response: Response;
  try {
    response = await fetch(`${rt.origins.api}/v1/me`, {
      headers: { "x-api-key": key, "x-request-id": requestId },
      signal: AbortSignal.timeout(PROXY_TIMEOUT_MS),
    });
  } catch {
    throw upstreamError("The API origin could not be reached");
  }
  const body = (await response.json().catch(() => null)) as { data?: KeyIdentity } | null;
  if (response.status !== 200 || !body?.data) {
    throw new ProtocolError(403, "unauthorized", "The proxy key is not accepted by the API origin");
  }
  cache.set(cacheKey, body.data);
  return body.data;
}

/**
 * Runs the call at API_PUBLIC_URL: validated and constraint-checked here as the executor would,
 * then sent with the organization's proxy key; the upstream answer is relayed as it came.
 */
async function proxy(
  rt: AgentRuntime,
  capability: Capability,
  caller: Caller,
  invocation: Invocation,
): Promise<Response> {
  let parts: ProxiedInput;
  try {
    parts = validate(rt, capability.op, invocation.arguments);
  } catch (error) {
    if (error instanceof ApiError) return jsonResponse(error.status, error.toBody(), error.headers);
    throw error;
  }
  // The grants agentCaller loaded for this request (narrowed by the token's capabilities claim).
  const constraints = callerConstraints(caller, capability.name);
  if (constraints) {
    const violations = violationsOf(capability, constraints, parts.validated);
    if (violations.length > 0) throw violationsBody(capability.name, violations);
  }
  const key = await checkedProxyKey(rt, capability, caller, invocation.requestId);
  const { url, init } = upstreamRequest(rt, capability.op, parts, key, caller, invocation);
  let upstream: Response;
  try {
    upstream = await fetch(url, { ...init, signal: AbortSignal.timeout(PROXY_TIMEOUT_MS) });
  } catch {
    throw upstreamError("The API origin did not answer");
  }
  const out = new Headers();
  for (const name of ["content-type", "location", "idempotent-replayed", "retry-after"]) {
    const value = upstream.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return new Response(upstream.status === 204 ? null : await upstream.arrayBuffer(), {
    status: upstream.status,
    headers: out,
  });
}

type ProxiedInput = ReturnType<typeof validate>;

/**
 * The organization's proxy key, once the API origin confirmed it is an API key of the agent's
 * organization holding the capability's scope: a key never carries an agent into another tenant,
 * nor beyond the key's scopes.
 */
async function checkedProxyKey(
  rt: AgentRuntime,
  capability: Capability,
  caller: Caller,
  requestId: string,
): Promise<string> {
  const key = proxyKeyFor(rt, caller.orgId);
  if (!key) {
    throw new ProtocolError(
      503,
      "proxy_not_configured",
      "Execution is proxied to the API origin, but no proxy key is set",
    );
  }
  const identity = await keyIdentity(rt, key, requestId);
  if (
    identity.type !== "api-key" ||
    identity.orgId !== caller.orgId ||
    !identity.scopes.includes(capability.scope)
  ) {
    throw new ProtocolError(
      403,
      "unauthorized",
      "The proxy key does not belong to this agent's organization and scope",
    );
  }
  return key;
}

/** The `/v1` request the call is: path and query from the arguments, the key, the agent and the idempotency key. */
function upstreamRequest(
  rt: AgentRuntime,
  op: Operation,
  parts: ProxiedInput,
  key: string,
  caller: Caller,
  invocation: Invocation,
): { url: URL; init: RequestInit } {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String((parts.validated.params as Record<string, unknown>)[name])),
  );
  const url = new URL(`${rt.origins.api}${path}`);
  for (const [name, value] of Object.entries(parts.raw.query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  const headers: Record<string, string> = {
    "x-api-key": key,
    "x-request-id": invocation.requestId,
    "x-agent-id": caller.agentId!,
  };
  const idempotencyKey = invocation.request.headers.get("idempotency-key");
  if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  let body: string | undefined;
  if (parts.hasBody) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(parts.raw.body);
  }
  return { url, init: { method: op.method, headers, body } };
}
