import { ApiError } from "../core/errors.ts";
import type { RawRoute } from "../core/module.ts";
import type { Caller } from "../core/operation.ts";
import {
  approvalView,
  type DecisionAction,
  DURATIONS,
  type Duration,
  decideApproval,
  pendingApprovalForCode,
} from "./approvals.ts";
import type { Capability } from "./capabilities.ts";
import { invalidRequest, ProtocolError } from "./errors.ts";
import { executeCapability } from "./execute.ts";
import {
  assertSameOrigin,
  bearerToken,
  dashboardSession,
  type Incoming,
  readBody,
  route,
  signInFirst,
  text,
} from "./http.ts";
import { type AgentAuth, type HostAuth, tokenKind, verifyAgentJwt, verifyHostJwt } from "./jwt.ts";
import {
  authorize,
  introspect,
  listAgents,
  ownAgent,
  pollToken,
  register,
  requestCapability,
  requestedCapabilities,
  revokeAgent,
  revokeHost,
  rotateAgentKey,
  rotateHostKey,
} from "./lifecycle.ts";
import type { AgentRuntime } from "./runtime.ts";
import { agentById, grantsOf, isEffective } from "./store.ts";
import { AGENT_MODES, type AgentMode } from "./tables.ts";
import { statusObject } from "./views.ts";

// Every Agent Auth endpoint under the issuer (`/api/auth/*`) and the discovery document.

const PROVIDER_NAME = "Commerce API";
const PROVIDER_DESCRIPTION =
  "Multi-tenant commerce API. Each request is bound to one organization by, in order: an agent " +
  "bearer token, an `x-api-key`, the dashboard session cookie, or (storefront reads and carts only) " +
  "the `Host` header of the shop.";

/** The discovery document, built once from configuration (never from the request). */
function discoveryDocument(rt: AgentRuntime): Record<string, unknown> {
  const { issuer: I, location: L } = rt.origins;
  return {
    version: "1.0-draft",
    provider_name: PROVIDER_NAME,
    description: PROVIDER_DESCRIPTION,
    issuer: I,
    default_location: L,
    authorization_endpoint: `${I}/agent/authorize`,
    token_endpoint: `${I}/agent/token`,
    registration_endpoint: `${I}/agent/register`,
    capabilities_endpoint: `${I}/agent/capabilities`,
    algorithms: ["Ed25519"],
    modes: ["delegated", "autonomous"],
    approval_methods: ["device_authorization"],
    endpoints: {
      register: `${I}/agent/register`,
      capabilities: `${I}/capability/list`,
      describe_capability: `${I}/capability/describe`,
      execute: L,
      request_capability: `${I}/agent/request-capability`,
      status: `${I}/agent/status`,
      revoke: `${I}/agent/revoke`,
      rotate_key: `${I}/agent/rotate-key`,
      revoke_host: `${I}/host/revoke`,
      rotate_host_key: `${I}/host/rotate-key`,
      introspect: `${I}/agent/introspect`,
    },
  };
}

const ipOf = (incoming: Incoming) => incoming.client.ip() ?? "unknown";

function requireBearer(incoming: Incoming): string {
  const token = bearerToken(incoming.request);
  if (!token) throw new ProtocolError(401, "authentication_required", "Send Authorization: Bearer <jwt>");
  return token;
}

const hostJwt = (
  rt: AgentRuntime,
  incoming: Incoming,
): Promise<HostAuth & { host: NonNullable<HostAuth["host"]> }> =>
  verifyHostJwt(rt, requireBearer(incoming)).then(
    (auth) => auth as HostAuth & { host: NonNullable<HostAuth["host"]> },
  );

/** One capability as listed: `{ name, description, class, auto_grant, grant_status? }`. */
function listed(capability: Capability, grantStatus?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: capability.name,
    description: capability.description,
    class: capability.class,
    auto_grant: capability.autoGrant,
  };
  if (grantStatus !== undefined) out.grant_status = grantStatus;
  return out;
}

/** granted / pending / denied / not_granted, for an agent's own view of the catalog. */
function grantStatuses(rt: AgentRuntime, agentId: string): Map<string, string> {
  const now = rt.now();
  const statuses = new Map<string, string>();
  for (const grant of grantsOf(rt.sqlite, agentId)) {
    if (isEffective(grant, now)) statuses.set(grant.capability, "granted");
    else if (grant.status === "pending" || grant.status === "denied")
      statuses.set(grant.capability, grant.status);
  }
  return statuses;
}

/** The optional credential of the capability endpoints: none, a host JWT or an agent JWT (`aud` = I). */
async function optionalPrincipal(
  rt: AgentRuntime,
  incoming: Incoming,
): Promise<{ key: string; agent?: AgentAuth }> {
  const token = bearerToken(incoming.request);
  if (!token) return { key: `ip:${ipOf(incoming)}` };
  const kind = tokenKind(token);
  if (kind === "host") return { key: `host:${(await verifyHostJwt(rt, token)).thumbprint}` };
  if (kind === "agent") {
    const agent = await verifyAgentJwt(rt, token, rt.origins.issuer);
    return { key: `agent:${agent.agent.id}`, agent };
  }
  throw new ProtocolError(401, "invalid_jwt", 'The token\'s typ must be "host+jwt" or "agent+jwt"');
}

const cursorOf = (name: string) => Buffer.from(name).toString("base64url");
const nameOfCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString();

async function listCapabilities(rt: AgentRuntime, incoming: Incoming) {
  const principal = await optionalPrincipal(rt, incoming);
  rt.limits.capabilities.hit(principal.key);
  const search = incoming.url.searchParams;
  const query = search.get("query")?.toLowerCase();
  if (query !== undefined && query.length > 200) throw invalidRequest("query must be at most 200 characters");
  const limitText = search.get("limit") ?? "50";
  if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
    throw invalidRequest("limit must be a whole number from 1 to 100");
  }
  const limit = Number(limitText);
  const cursor = search.get("cursor");
  const after = cursor ? nameOfCursor(cursor) : undefined;
  const statuses = principal.agent && grantStatuses(rt, principal.agent.agent.id);
  const matching = [...rt.catalog.values()].filter(
    (c) =>
      (after === undefined || c.name > after) &&
      (query === undefined ||
        c.name.toLowerCase().includes(query) ||
        c.description.toLowerCase().includes(query)),
  );
  const page = matching.slice(0, limit);
  const body: Record<string, unknown> = {
    capabilities: page.map((c) => listed(c, statuses ? (statuses.get(c.name) ?? "not_granted") : undefined)),
  };
  const hasMore = matching.length > limit;
  if (hasMore) body.next_cursor = cursorOf(page.at(-1)!.name);
  body.has_more = hasMore;
  return { body };
}

async function describeCapability(rt: AgentRuntime, incoming: Incoming) {
  const principal = await optionalPrincipal(rt, incoming);
  rt.limits.capabilities.hit(principal.key);
  const name = incoming.url.searchParams.get("name") ?? "";
  const capability = rt.catalog.get(name);
  if (!capability)
    throw new ProtocolError(404, "capability_not_found", `No capability named ${name.slice(0, 100)}`);
  const statuses = principal.agent && grantStatuses(rt, principal.agent.agent.id);
  return {
    body: {
      ...listed(capability, statuses ? (statuses.get(name) ?? "not_granted") : undefined),
      method: capability.op.method,
      path: capability.op.path,
      scope: capability.scope,
      location: rt.origins.location,
      input: capability.input,
      output: capability.output,
    },
  };
}

/** An organization's admin over an API key or a session (introspection). */
async function adminCaller(rt: AgentRuntime, incoming: Incoming): Promise<Caller> {
  if (incoming.request.headers.has("authorization")) {
    throw new ProtocolError(403, "unauthorized", "Introspection takes an API key or a dashboard session");
  }
  let caller: Caller;
  try {
    caller = await rt.service.resolveCaller(incoming.request, "v1");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new ProtocolError(401, "authentication_required", "Send an admin API key or a dashboard session");
    }
    if (error instanceof ApiError && error.status === 403)
      throw new ProtocolError(403, "unauthorized", error.message);
    throw error;
  }
  const adminRole =
    caller.type !== "session" ||
    rt.sqlite
      .query("SELECT 1 FROM members WHERE organization_id = ? AND user_id = ? AND role IN ('owner', 'admin')")
      .get(caller.orgId, caller.userId ?? "") !== null;
  if (
    (caller.type !== "api-key" && caller.type !== "session") ||
    !caller.scopes.includes("admin") ||
    !adminRole
  ) {
    throw new ProtocolError(403, "unauthorized", "Introspection needs the admin scope");
  }
  return caller;
}

const isAdminOf = (rt: AgentRuntime, organizationId: string | null, userId: string) =>
  organizationId !== null &&
  rt.sqlite
    .query("SELECT 1 FROM members WHERE organization_id = ? AND user_id = ? AND role IN ('owner', 'admin')")
    .get(organizationId, userId) !== null;

/** `GET /.well-known/agent-configuration`: the discovery document, serialized once. */
function discoveryRoute(rt: AgentRuntime): RawRoute {
  const discovery = JSON.stringify(discoveryDocument(rt));
  return route(rt, "GET", "/.well-known/agent-configuration", (incoming) => {
    rt.limits.discovery.hit(ipOf(incoming));
    return new Response(discovery, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=3600",
        "access-control-allow-origin": "*",
      },
    });
  });
}

/** A host registers an agent (its key in the host JWT's `agent_public_key`) with the capabilities it asks for. */
async function registerAgent(rt: AgentRuntime, incoming: Incoming) {
  rt.limits.registerIp.hit(ipOf(incoming));
  const token = requireBearer(incoming);
  const body = await readBody(incoming, [
    "name",
    "host_name",
    "mode",
    "capabilities",
    "reason",
    "binding_message",
    "preferred_method",
  ]);
  const auth = await verifyHostJwt(rt, token, true);
  rt.limits.registerHost.hit(auth.thumbprint);
  if (auth.claims.agent_public_key === undefined) {
    throw invalidRequest("The host JWT must carry agent_public_key on register");
  }
  const mode = (body.mode ?? "delegated") as AgentMode;
  if (!AGENT_MODES.includes(mode))
    throw new ProtocolError(400, "unsupported_mode", "mode is delegated or autonomous");
  const preferred = text(body, "preferred_method", 50);
  if (preferred !== undefined && preferred !== "device_authorization") {
    throw invalidRequest("The only approval method offered is device_authorization");
  }
  return register(rt, auth, {
    name: text(body, "name", 100, true)!,
    hostName: text(body, "host_name", 100),
    mode,
    capabilities: requestedCapabilities(rt, body.capabilities, true),
    reason: text(body, "reason", 500),
    bindingMessage: text(body, "binding_message", 200),
  });
}

async function requestMoreCapabilities(rt: AgentRuntime, incoming: Incoming) {
  const auth = await verifyAgentJwt(rt, requireBearer(incoming), rt.origins.issuer);
  rt.limits.requestCapability.hit(auth.agent.id);
  const body = await readBody(incoming, ["capabilities", "reason", "binding_message"]);
  const requested = requestedCapabilities(rt, body.capabilities, false);
  return {
    body: requestCapability(rt, auth, requested, {
      reason: text(body, "reason", 500),
      bindingMessage: text(body, "binding_message", 200),
    }),
  };
}

/** Revokes an agent: its host (host JWT), or an admin of its organization (dashboard session, same origin). */
async function revokeAgentRoute(rt: AgentRuntime, incoming: Incoming) {
  if (incoming.request.headers.has("authorization")) {
    const { host } = await hostJwt(rt, incoming);
    rt.limits.revoke.hit(host.id);
    const body = await readBody(incoming, ["agent_id"]);
    return { body: revokeAgent(rt, ownAgent(rt, host, body.agent_id)) };
  }
  const session = dashboardSession(rt, incoming.request);
  if (!session) throw signInFirst();
  assertSameOrigin(rt, incoming.request);
  rt.limits.revoke.hit(`session:${session.sessionId}`);
  const body = await readBody(incoming, ["agent_id"]);
  const agent = typeof body.agent_id === "string" ? agentById(rt.sqlite, body.agent_id) : null;
  if (!agent || !isAdminOf(rt, agent.organization_id, session.userId)) {
    throw new ProtocolError(404, "agent_not_found", "No such agent in an organization you administer");
  }
  return { body: revokeAgent(rt, agent) };
}

/** Runs one capability for an agent (agent JWT with `aud` = the execute location). */
async function executeRoute(rt: AgentRuntime, incoming: Incoming) {
  const auth = await verifyAgentJwt(rt, requireBearer(incoming), rt.origins.location);
  rt.limits.agentCalls.hit(auth.agent.id);
  const body = await readBody(incoming, ["capability", "arguments"]);
  const capability = text(body, "capability", 200, true)!;
  const args = body.arguments ?? {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw invalidRequest("arguments must be a JSON object");
  }
  return executeCapability(rt, {
    auth,
    capability,
    arguments: args as Record<string, unknown>,
    request: incoming.request,
    requestId: incoming.requestId,
    client: incoming.client,
  });
}

/** The agents of the session's active organization, for its admins. */
function listAgentsRoute(rt: AgentRuntime, incoming: Incoming) {
  const session = dashboardSession(rt, incoming.request);
  if (!session) throw signInFirst();
  if (!isAdminOf(rt, session.activeOrganizationId, session.userId)) {
    throw new ProtocolError(403, "unauthorized", "Needs the admin role in the active organization");
  }
  return { body: listAgents(rt, session.activeOrganizationId!) };
}

/** The merchant's side of device authorization, as JSON (the approval page calls decideApproval too). */
function approvalRoute(rt: AgentRuntime, incoming: Incoming) {
  const session = dashboardSession(rt, incoming.request);
  if (!session) throw signInFirst();
  const approval = pendingApprovalForCode(rt, incoming.url.searchParams.get("code") ?? "");
  if (!approval) {
    rt.limits.codeLookups.hit(session.sessionId);
    throw new ProtocolError(404, "approval_not_found", "No pending request matches this code");
  }
  return { body: approvalView(rt, approval, session.userId) };
}

export function agentRoutes(rt: AgentRuntime): RawRoute[] {
  const I = "/api/auth";
  const limits = rt.limits;
  return [
    discoveryRoute(rt),
    route(rt, "POST", `${I}/agent/register`, (incoming) => registerAgent(rt, incoming)),
    route(rt, "POST", `${I}/agent/authorize`, async (incoming) => {
      const { host } = await hostJwt(rt, incoming);
      limits.authorize.hit(host.id);
      const body = await readBody(incoming, ["agent_id", "binding_message"]);
      return { body: authorize(rt, host, body.agent_id, text(body, "binding_message", 200)) };
    }),
    route(rt, "POST", `${I}/agent/token`, async (incoming) => {
      limits.token.hit(ipOf(incoming));
      const { host } = await hostJwt(rt, incoming);
      const body = await readBody(incoming, ["grant_type", "device_code", "client_id"], true);
      return { body: pollToken(rt, host, body.grant_type, body.device_code) };
    }),
    route(rt, "GET", `${I}/agent/capabilities`, (incoming) => listCapabilities(rt, incoming)),
    route(rt, "GET", `${I}/capability/list`, (incoming) => listCapabilities(rt, incoming)),
    route(rt, "GET", `${I}/capability/describe`, (incoming) => describeCapability(rt, incoming)),
    route(rt, "POST", `${I}/agent/request-capability`, (incoming) => requestMoreCapabilities(rt, incoming)),
    route(rt, "GET", `${I}/agent/status`, async (incoming) => {
      const { host } = await hostJwt(rt, incoming);
      limits.status.hit(host.id);
      return { body: statusObject(rt, ownAgent(rt, host, incoming.url.searchParams.get("agent_id"))) };
    }),
    route(rt, "POST", `${I}/agent/revoke`, (incoming) => revokeAgentRoute(rt, incoming)),
    route(rt, "POST", `${I}/agent/rotate-key`, async (incoming) => {
      const { host } = await hostJwt(rt, incoming);
      limits.hostKeys.hit(host.id);
      const body = await readBody(incoming, ["agent_id", "public_key"]);
      return { body: await rotateAgentKey(rt, host, body.agent_id, body.public_key) };
    }),
    route(rt, "POST", `${I}/host/revoke`, async (incoming) => {
      const { host } = await hostJwt(rt, incoming);
      limits.hostKeys.hit(host.id);
      await readBody(incoming, []);
      return { body: revokeHost(rt, host) };
    }),
    route(rt, "POST", `${I}/host/rotate-key`, async (incoming) => {
      const { host } = await hostJwt(rt, incoming);
      limits.hostKeys.hit(host.id);
      const body = await readBody(incoming, ["public_key"]);
      return { body: await rotateHostKey(rt, host, body.public_key) };
    }),
    route(rt, "POST", `${I}/capability/execute`, (incoming) => executeRoute(rt, incoming)),
    route(rt, "POST", `${I}/agent/introspect`, async (incoming) => {
      const caller = await adminCaller(rt, incoming);
      limits.introspect.hit(caller.id);
      const body = await readBody(incoming, ["token"]);
      return { body: await introspect(rt, caller, text(body, "token", 8192, true)!) };
    }),
    route(rt, "GET", `${I}/agent/list`, (incoming) => listAgentsRoute(rt, incoming)),
    route(rt, "GET", `${I}/agent/approval`, (incoming) => approvalRoute(rt, incoming)),
    route(rt, "POST", `${I}/agent/approve`, (incoming) => decide(rt, incoming, "approve")),
    route(rt, "POST", `${I}/agent/deny`, (incoming) => decide(rt, incoming, "deny")),
  ];
}

async function decide(rt: AgentRuntime, incoming: Incoming, kind: "approve" | "deny") {
  const session = dashboardSession(rt, incoming.request);
  if (!session) throw signInFirst();
  assertSameOrigin(rt, incoming.request);
  const body = await readBody(
    incoming,
    kind === "approve"
      ? ["approval_id", "user_code", "organization_id", "capabilities", "duration"]
      : ["approval_id", "user_code", "organization_id", "reason"],
  );
  let action: DecisionAction = "deny";
  let capabilities: string[] | undefined;
  if (kind === "approve") {
    action = "approve_all";
    if (body.capabilities !== undefined) {
      if (!Array.isArray(body.capabilities) || !body.capabilities.every((c) => typeof c === "string")) {
        throw invalidRequest("capabilities must be an array of capability names");
      }
      action = "approve_selected";
      capabilities = body.capabilities as string[];
    }
  }
  const duration = text(body, "duration", 3) as Duration | undefined;
  if (duration !== undefined && !(duration in DURATIONS))
    throw invalidRequest("duration is 1h, 24h, 7d, 30d or 90d");
  return {
    body: decideApproval(rt, {
      approvalId: text(body, "approval_id", 80, true)!,
      userCode: text(body, "user_code", 20, true)!,
      userId: session.userId,
      authenticatedAt: session.authenticatedAt,
      action,
      capabilities,
      organizationId: text(body, "organization_id", 80),
      duration,
      reason: text(body, "reason", 500),
    }),
  };
}
