import { ApiError } from "../core/errors.ts";
import type { ValidatedInput } from "../core/executor.ts";
import type { Caller, Scope } from "../core/operation.ts";
import { type Constraints, violationsOf } from "./capabilities.ts";
import { ConstraintViolation, notGranted, ProtocolError } from "./errors.ts";
import type { AgentRuntime } from "./runtime.ts";
import type { AgentWithStanding, GrantRead, Standing } from "./standings.ts";
import { type AgentRow, agentById, constraintsOf, type HostRow, hostById, isEffective } from "./store.ts";

/** Effective grants of the callers this module resolved (capability → constraints), for the grant check. */
const callerGrants = new WeakMap<Caller, Map<string, Constraints | null>>();

const LAST_USED_EVERY_MS = 60_000;

const activeGrantRows = (rt: AgentRuntime, agentId: string): GrantRead[] =>
  rt.sqlite
    .query(
      "SELECT capability, status, constraints, expires_at FROM agent_grants WHERE agent_id = ? AND status = 'active'",
    )
    .all(agentId) as GrantRead[];

/** The role of a delegated agent's user in its organization (undefined: not a member, or not delegated). */
const memberRole = (rt: AgentRuntime, agent: AgentRow): string | undefined =>
  agent.mode === "delegated" && agent.user_id !== null && agent.organization_id !== null
    ? (
        rt.sqlite
          .query("SELECT role FROM members WHERE organization_id = ? AND user_id = ?")
          .get(agent.organization_id, agent.user_id) as { role: string } | null
      )?.role
    : undefined;

function agentWithStanding(rt: AgentRuntime, agentId: string): AgentWithStanding | null {
  const agent = agentById(rt.sqlite, agentId);
  const host = agent && hostById(rt.sqlite, agent.host_id);
  if (!agent || !host) return null;
  return { agent, host, standing: { role: memberRole(rt, agent), grants: activeGrantRows(rt, agent.id) } };
}

/** An agent, its host and its standing as stored now (null when either row is missing), kept between requests. */
export const standingOf = (rt: AgentRuntime, agentId: string): AgentWithStanding | null =>
  rt.standings.get(agentId, () => agentWithStanding(rt, agentId));

/** The agent's effective grants, narrowed to the token's `capabilities` claim when it has one. */
function effectiveGrants(
  rt: AgentRuntime,
  agentId: string,
  tokenCapabilities?: string[],
  rows: GrantRead[] = activeGrantRows(rt, agentId),
): Map<string, Constraints | null> {
  const now = rt.now();
  const narrow = tokenCapabilities && new Set(tokenCapabilities);
  const grants = new Map<string, Constraints | null>();
  for (const row of rows) {
    if (!isEffective(row, now) || (narrow && !narrow.has(row.capability))) continue;
    if (!rt.catalog.has(row.capability)) continue; // an operation that no longer exists
    grants.set(row.capability, constraintsOf(row));
  }
  return grants;
}

/** `storefront` if any effective grant is a storefront capability, `admin` if any is an admin one. */
function scopesOf(rt: AgentRuntime, capabilities: Iterable<string>): Scope[] {
  const scopes = new Set<Scope>();
  for (const name of capabilities) {
    const capability = rt.catalog.get(name);
    if (capability) scopes.add(capability.scope);
  }
  return (["storefront", "admin"] as const).filter((s) => scopes.has(s));
}

/** A delegated agent acts for its user, who must still hold the admin role in the bound organization. */
export function assertDelegation(
  rt: AgentRuntime,
  agent: AgentRow,
  { role }: Pick<Standing, "role"> = { role: memberRole(rt, agent) },
): void {
  if (agent.mode !== "delegated") return;
  if (role !== "owner" && role !== "admin") {
    throw new ProtocolError(
      403,
      "unauthorized",
      "The user this agent acts for no longer holds the admin role in its organization",
    );
  }
}

/** Writes `last_used_at` of agent and host, at most once a minute each. */
function touch(rt: AgentRuntime, agent: AgentRow, host: HostRow): void {
  const now = rt.now();
  if (agent.last_used_at === null || now - agent.last_used_at >= LAST_USED_EVERY_MS) {
    rt.sqlite.query("UPDATE agents SET last_used_at = ? WHERE id = ?").run(now, agent.id);
  }
  if (host.last_used_at === null || now - host.last_used_at >= LAST_USED_EVERY_MS) {
    rt.sqlite.query("UPDATE agent_hosts SET last_used_at = ? WHERE id = ?").run(now, host.id);
  }
}

/**
 * The `/v1` caller of a verified, active agent: its bound organization (never the request's Host),
 * scopes derived from its grants, the user for delegated agents. Throws a 403 ProtocolError when a
 * delegated agent's user lost the admin role.
 */
export function agentCaller(rt: AgentRuntime, auth: AgentWithStanding & { capabilities?: string[] }): Caller {
  const { agent, host, standing } = auth;
  if (agent.organization_id === null)
    throw new ProtocolError(403, "agent_pending", "The agent is not bound yet");
  assertDelegation(rt, agent, standing);
  const grants = effectiveGrants(rt, agent.id, auth.capabilities, standing.grants);
  const caller: Caller = {
    type: "agent",
    orgId: agent.organization_id,
    scopes: scopesOf(rt, grants.keys()),
    id: `agent:${agent.id}`,
    agentId: agent.id,
  };
  if (agent.mode === "delegated" && agent.user_id !== null) caller.userId = agent.user_id;
  callerGrants.set(caller, grants);
  touch(rt, agent, host);
  return caller;
}

/**
 * The grant check of every agent call (`/v1`, `/mcp`, execute): the operation must be a capability
 * (`GET /v1/me` excepted) with an effective grant, and the validated call must hold its constraints.
 * The grant replaces the scope check: a grant for one admin operation opens no other.
 */
export function checkAgentGrant(
  rt: AgentRuntime,
  operationId: string,
  caller: Caller,
  input: ValidatedInput,
): void {
  if (operationId === "getMe") return;
  const capability = rt.catalog.get(operationId);
  if (!capability || !caller.agentId) throw notGranted(operationId);
  const grants = callerGrants.get(caller) ?? effectiveGrants(rt, caller.agentId);
  if (!grants.has(operationId)) throw notGranted(operationId);
  const constraints = grants.get(operationId);
  if (!constraints) return;
  const violations = violationsOf(capability, constraints, input);
  if (violations.length > 0) throw new ConstraintViolation(operationId, violations);
}

/** Whether a caller this module resolved holds an effective grant for a capability. */
export const callerHolds = (caller: Caller, capability: string): boolean =>
  callerGrants.get(caller)?.has(capability) === true;

/** The constraints of a resolved caller's grant for a capability, or null (none, or no grant). */
export const callerConstraints = (caller: Caller, capability: string): Constraints | null =>
  callerGrants.get(caller)?.get(capability) ?? null;

/**
 * The capabilities an agent caller may call now: its effective grants (narrowed by its token's
 * `capabilities` claim), e.g. for the tools `/mcp` lists to it.
 */
export function grantedCapabilities(rt: AgentRuntime, caller: Caller): string[] {
  const grants =
    callerGrants.get(caller) ?? (caller.agentId ? effectiveGrants(rt, caller.agentId) : undefined);
  return grants ? [...grants.keys()] : [];
}

/** A ProtocolError of agent verification as `/v1` and `/mcp` answer it: 401 `UNAUTHORIZED`, or 403. */
export function asApiError(error: unknown): unknown {
  if (!(error instanceof ProtocolError)) return error;
  if (error.status === 403 && error.error === "unauthorized") return new ApiError("FORBIDDEN", error.message);
  if (error.status === 429) return new ApiError("RATE_LIMITED", error.message, undefined, error.headers);
  return new ApiError("UNAUTHORIZED", error.message);
}
