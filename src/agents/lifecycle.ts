import type { Caller } from "../core/operation.ts";
import { immediately } from "../db/sqlite.ts";
import { newId } from "../lib/ids.ts";
import { isoOrNull } from "../lib/time.ts";
import { type ApprovalObject, createApproval } from "./approvals.ts";
import { type Constraints, parseConstraints } from "./capabilities.ts";
import { conflict, invalidRequest, ProtocolError } from "./errors.ts";
import { assertDelegation } from "./grants.ts";
import type { AgentAuth, HostAuth } from "./jwt.ts";
import { verifiableUntil, verifyAgentJwt } from "./jwt.ts";
import { jwkText, parsePublicJwk, thumbprintOf } from "./keys.ts";
import type { AgentRuntime } from "./runtime.ts";
import {
  type AgentRow,
  agentById,
  agentByThumbprint,
  agentsOfOrganization,
  approvalById,
  changed,
  countAgents,
  grantsOf,
  type HostRow,
  hostByThumbprint,
  isEffective,
  thumbprintTaken,
} from "./store.ts";
import type { AgentMode } from "./tables.ts";
import { agentIdentity, grantObject, grantObjects, statusObject } from "./views.ts";

// Hosts, agents and grants through their life: register, authorize, token polling, status, more
// capabilities, revocation, key rotation, introspection. Every state change is a compare-and-set in
// one BEGIN IMMEDIATE transaction.

const MAX_CAPABILITIES_PER_REQUEST = 50;
const MAX_ACTIVE_AGENTS = 25;
const MAX_PENDING_AGENTS = 10;
const AUTO = "system:auto";
const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

interface RequestedCapability {
  name: string;
  constraints: Constraints | null;
}

/**
 * The capabilities a register or request-capability body names: strings or `{ name, constraints? }`,
 * at most 50; omitted → the auto-grant set (when `fallbackToAutoGrant`). Unknown names → 400
 * `invalid_capabilities` listing them.
 */
export function requestedCapabilities(
  rt: AgentRuntime,
  raw: unknown,
  fallbackToAutoGrant: boolean,
): RequestedCapability[] {
  if (raw === undefined && fallbackToAutoGrant) {
    return [...rt.catalog.values()]
      .filter((c) => c.autoGrant)
      .map((c) => ({ name: c.name, constraints: null }));
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_CAPABILITIES_PER_REQUEST) {
    throw invalidRequest(`capabilities must be an array of 1 to ${MAX_CAPABILITIES_PER_REQUEST} entries`);
  }
  const invalid: string[] = [];
  const seen = new Set<string>();
  const out: RequestedCapability[] = [];
  for (const entry of raw) {
    const name = typeof entry === "string" ? entry : (entry as { name?: unknown } | null)?.name;
    if (typeof name !== "string") {
      throw invalidRequest("each capability is a name or an object { name, constraints? }");
    }
    const capability = rt.catalog.get(name);
    if (!capability || seen.has(name)) {
      invalid.push(name.slice(0, 100));
      continue;
    }
    seen.add(name);
    if (typeof entry === "object") {
      const extra = Object.keys(entry as object).filter((k) => k !== "name" && k !== "constraints");
      if (extra.length > 0) throw invalidRequest(`unknown member "${extra[0]}" in capability ${name}`);
    }
    const constraints =
      typeof entry === "object"
        ? parseConstraints(capability, (entry as { constraints?: unknown }).constraints)
        : null;
    out.push({ name, constraints });
  }
  if (invalid.length > 0) {
    throw new ProtocolError(
      400,
      "invalid_capabilities",
      `Unknown or repeated capabilities: ${invalid.join(", ")}`,
      {
        invalid_capabilities: invalid,
      },
    );
  }
  return out;
}

interface RegisterInput {
  name: string;
  hostName?: string;
  mode: AgentMode;
  capabilities: RequestedCapability[];
  reason?: string;
  bindingMessage?: string;
}

function registerAnswer(rt: AgentRuntime, agent: AgentRow, approval: ApprovalObject | undefined) {
  const body: Record<string, unknown> = {
    ...agentIdentity(agent),
    agent_capability_grants: grantObjects(rt, agent.id),
  };
  if (approval) body.approval = approval;
  return body;
}

/**
 * Register: creates the host if unknown (`pending`), the agent (`active` with the host's
 * organization if the host is active, else `pending`), one grant per capability (auto-grantable
 * ones `active` only under an active host) and an approval whenever a grant is pending. The same
 * agent key again while pending → 200 with a new approval.
 */
export async function register(
  rt: AgentRuntime,
  auth: HostAuth,
  input: RegisterInput,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const agentJwk = parsePublicJwk(auth.claims.agent_public_key, "agent_public_key");
  const agentThumbprint = await thumbprintOf(agentJwk);
  if (agentThumbprint === auth.thumbprint) {
    throw new ProtocolError(409, "key_in_use", "The agent key must differ from the host key");
  }
  const { sqlite } = rt;
  return immediately(sqlite, () => {
    const now = rt.now();
    const known = hostByThumbprint(sqlite, auth.thumbprint);
    if (known?.status === "revoked") throw new ProtocolError(403, "host_revoked", "The host is revoked");
    const existing = agentByThumbprint(sqlite, agentThumbprint);
    if (existing) return registerAgain(rt, known, existing, input);
    if (thumbprintTaken(sqlite, agentThumbprint))
      throw new ProtocolError(409, "key_in_use", "This agent key is in use");

    const host = known ?? insertHost(rt, auth, input, now);
    assertRoomForAgent(rt, host);
    const agentId = insertAgent(rt, host, input, jwkText(agentJwk), agentThumbprint, now);
    const hostActive = host.status === "active";
    let pending = false;
    for (const requested of input.capabilities) {
      const auto = hostActive && rt.catalog.get(requested.name)?.autoGrant === true;
      pending ||= !auto;
      insertGrant(rt, agentId, requested, auto ? "active" : "pending", now);
    }
    const agent = agentById(sqlite, agentId)!;
    const approval = pending
      ? createApproval(rt, agent, { bindingMessage: input.bindingMessage, reason: input.reason })
      : undefined;
    return { status: 201, body: registerAnswer(rt, agent, approval) };
  });
}

/**
 * A register naming an agent key already known: the host's pending agent gets a new approval (200);
 * its active agent is a 409 `agent_exists`, and another host's key a 409 `key_in_use`.
 */
function registerAgain(
  rt: AgentRuntime,
  host: HostRow | null,
  existing: AgentRow,
  input: RegisterInput,
): { status: number; body: Record<string, unknown> } {
  if (host && existing.host_id === host.id && existing.status === "pending") {
    const approval = createApproval(rt, existing, {
      bindingMessage: input.bindingMessage,
      reason: input.reason,
    });
    return { status: 200, body: registerAnswer(rt, existing, approval) };
  }
  if (host && existing.host_id === host.id && existing.status === "active") {
    throw new ProtocolError(409, "agent_exists", "This agent is registered and active already", {
      agent_id: existing.id,
    });
  }
  throw new ProtocolError(409, "key_in_use", "This agent key is in use");
}

/** A host seen for the first time: `pending`, with no organization until a user approves it. */
function insertHost(rt: AgentRuntime, auth: HostAuth, input: RegisterInput, now: number): HostRow {
  rt.sqlite
    .query(
      `INSERT INTO agent_hosts (id, name, public_key, thumbprint, status, organization_id, user_id, activated_at,
         last_used_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, 'pending', NULL, NULL, NULL, NULL, ?5, ?5)`,
    )
    .run(
      newId("host"),
      input.hostName ?? `Host ${auth.thumbprint.slice(0, 8)}`,
      jwkText(auth.jwk),
      auth.thumbprint,
      now,
    );
  return hostByThumbprint(rt.sqlite, auth.thumbprint)!;
}

/** 429 when the host holds its limit of agents of the status a new one would get. */
function assertRoomForAgent(rt: AgentRuntime, host: HostRow): void {
  const full =
    host.status === "active"
      ? countAgents(rt.sqlite, host.id, "active") >= MAX_ACTIVE_AGENTS
      : countAgents(rt.sqlite, host.id, "pending") >= MAX_PENDING_AGENTS;
  if (full) {
    throw new ProtocolError(
      429,
      "too_many_agents",
      `A host may hold ${MAX_ACTIVE_AGENTS} active and ${MAX_PENDING_AGENTS} pending agents; revoke some first`,
      {},
      { "retry-after": "60" },
    );
  }
}

/** The new agent: active in the host's organization under an active host, else pending. Returns its id. */
function insertAgent(
  rt: AgentRuntime,
  host: HostRow,
  input: RegisterInput,
  publicKey: string,
  thumbprint: string,
  now: number,
): string {
  const hostActive = host.status === "active";
  const agentId = newId("agt");
  rt.sqlite
    .query(
      `INSERT INTO agents (id, host_id, name, mode, public_key, thumbprint, status, organization_id, user_id,
         activated_at, last_used_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, NULL, ?11, ?11)`,
    )
    .run(
      agentId,
      host.id,
      input.name,
      input.mode,
      publicKey,
      thumbprint,
      hostActive ? "active" : "pending",
      hostActive ? host.organization_id : null,
      hostActive && input.mode === "delegated" ? host.user_id : null,
      hostActive ? now : null,
      now,
    );
  return agentId;
}

function insertGrant(
  rt: AgentRuntime,
  agentId: string,
  requested: RequestedCapability,
  status: "active" | "pending",
  now: number,
): void {
  rt.sqlite
    .query(
      `INSERT INTO agent_grants (id, agent_id, capability, status, constraints, granted_by, denied_by, reason,
         expires_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, NULL, NULL, ?7, ?7)`,
    )
    .run(
      newId("grt"),
      agentId,
      requested.name,
      status,
      requested.constraints ? JSON.stringify(requested.constraints) : null,
      status === "active" ? AUTO : null,
      now,
    );
}

/** The agent named by a host request, which must be one of the host's own (else 404 `agent_not_found`). */
export function ownAgent(rt: AgentRuntime, host: HostRow, agentId: unknown): AgentRow {
  const agent = typeof agentId === "string" ? agentById(rt.sqlite, agentId) : null;
  if (!agent || agent.host_id !== host.id)
    throw new ProtocolError(404, "agent_not_found", "No such agent of this host");
  return agent;
}

function assertLive(agent: AgentRow): void {
  if (agent.status === "revoked") throw new ProtocolError(403, "agent_revoked", "The agent is revoked");
  if (agent.status === "rejected") throw new ProtocolError(403, "agent_rejected", "The agent was rejected");
}

/** Authorize: a new device authorization for the agent's pending grants (the previous one expires). */
export function authorize(rt: AgentRuntime, host: HostRow, agentId: unknown, bindingMessage?: string) {
  const agent = ownAgent(rt, host, agentId);
  assertLive(agent);
  return immediately(rt.sqlite, () => {
    const pending = rt.sqlite
      .query("SELECT 1 FROM agent_grants WHERE agent_id = ? AND status = 'pending' LIMIT 1")
      .get(agent.id);
    if (!pending) throw invalidRequest("The agent has no pending capability grants");
    const approval = createApproval(rt, agent, { bindingMessage });
    return {
      agent_id: agent.id,
      approval,
      device_code: approval.device_code,
      user_code: approval.user_code,
      verification_uri: approval.verification_uri,
      verification_uri_complete: approval.verification_uri_complete,
      expires_in: approval.expires_in,
      interval: approval.interval,
    };
  });
}

const tokenError = (error: string, description: string, extra: Record<string, unknown> = {}) =>
  new ProtocolError(400, error, description, { error_description: description, ...extra });

/**
 * Token (device-code polling, RFC 8628): no token is minted (agents sign their own JWTs); an
 * approved request answers the status object, anything else the RFC's 400 errors, in this order:
 * unsupported_grant_type, invalid_grant, slow_down (interval += 5 s), authorization_pending,
 * access_denied, expired_token.
 */
export function pollToken(rt: AgentRuntime, host: HostRow, grantType: unknown, deviceCode: unknown) {
  if (grantType !== DEVICE_CODE_GRANT) {
    throw tokenError("unsupported_grant_type", `grant_type must be ${DEVICE_CODE_GRANT}`);
  }
  const approval = typeof deviceCode === "string" ? approvalById(rt.sqlite, deviceCode) : null;
  if (!approval || approval.host_id !== host.id) throw tokenError("invalid_grant", "Unknown device_code");
  const now = rt.now();
  const last = approval.last_polled_at;
  rt.sqlite.query("UPDATE agent_approvals SET last_polled_at = ? WHERE id = ?").run(now, approval.id);
  if (last !== null && now - last < approval.interval * 1000) {
    const interval = approval.interval + 5;
    rt.sqlite.query("UPDATE agent_approvals SET interval = ? WHERE id = ?").run(interval, approval.id);
    throw tokenError("slow_down", `Poll at most every ${interval} s`, { interval });
  }
  const expired =
    approval.status === "expired" || (approval.status === "pending" && approval.expires_at <= now);
  if (approval.status === "pending" && !expired) {
    throw tokenError("authorization_pending", "The merchant has not decided yet");
  }
  if (approval.status === "denied") throw tokenError("access_denied", "The merchant denied the request");
  if (expired) {
    changed(
      rt.sqlite,
      "UPDATE agent_approvals SET status = 'expired', updated_at = ? WHERE id = ? AND status = 'pending'",
      now,
      approval.id,
    );
    throw tokenError("expired_token", "The request expired; start a new one (authorize)");
  }
  return statusObject(rt, agentById(rt.sqlite, approval.agent_id)!);
}

/**
 * Request capability: already effective ones are left alone (all of them → 409 `already_granted`),
 * auto-grantable ones activate at once, the rest (denied, revoked or expired before included) become
 * pending under a new approval.
 */
export function requestCapability(
  rt: AgentRuntime,
  auth: AgentAuth,
  requested: RequestedCapability[],
  options: { reason?: string; bindingMessage?: string },
) {
  const { agent } = auth;
  assertDelegation(rt, agent);
  const { sqlite } = rt;
  return immediately(sqlite, () => {
    const now = rt.now();
    const current = new Map(grantsOf(sqlite, agent.id).map((g) => [g.capability, g]));
    const wanted = requested.filter((r) => {
      const grant = current.get(r.name);
      return !(grant && isEffective(grant, now));
    });
    if (wanted.length === 0) {
      throw new ProtocolError(409, "already_granted", "Every requested capability is granted already");
    }
    let pending = false;
    const changedNames: string[] = [];
    for (const r of wanted) {
      const grant = current.get(r.name);
      const auto = rt.catalog.get(r.name)?.autoGrant === true && auth.host.status === "active";
      const constraints = r.constraints ? JSON.stringify(r.constraints) : null;
      pending ||= !auto;
      changedNames.push(r.name);
      if (!grant) {
        insertGrant(rt, agent.id, r, auto ? "active" : "pending", now);
        continue;
      }
      const from = grant.status;
      const moved = changed(
        sqlite,
        `UPDATE agent_grants SET status = ?1, constraints = ?2, granted_by = ?3, denied_by = NULL, reason = NULL,
                expires_at = NULL, updated_at = ?4
          WHERE id = ?5 AND status = ?6`,
        auto ? "active" : "pending",
        constraints,
        auto ? AUTO : null,
        now,
        grant.id,
        from,
      );
      if (moved === 0) throw conflict();
    }
    const approval = pending
      ? createApproval(rt, agent, { bindingMessage: options.bindingMessage, reason: options.reason })
      : undefined;
    const grants = grantsOf(sqlite, agent.id).filter((g) => changedNames.includes(g.capability));
    const body: Record<string, unknown> = {
      agent_id: agent.id,
      agent_capability_grants: grants.map((g) => grantObject(rt, g)),
    };
    if (approval) body.approval = approval;
    return body;
  });
}

/** Revokes an agent: its active grants revoked, its pending approval expired. Repeatable. */
export function revokeAgent(rt: AgentRuntime, agent: AgentRow) {
  const { sqlite } = rt;
  immediately(sqlite, () => {
    const now = rt.now();
    const moved = changed(
      sqlite,
      "UPDATE agents SET status = 'revoked', updated_at = ?1 WHERE id = ?2 AND status IN ('pending', 'active')",
      now,
      agent.id,
    );
    if (moved === 0) return;
    sqlite
      .query(
        "UPDATE agent_grants SET status = 'revoked', updated_at = ? WHERE agent_id = ? AND status = 'active'",
      )
      .run(now, agent.id);
    sqlite
      .query(
        "UPDATE agent_approvals SET status = 'expired', updated_at = ? WHERE agent_id = ? AND status = 'pending'",
      )
      .run(now, agent.id);
  });
  const after = agentById(sqlite, agent.id)!;
  return { agent_id: agent.id, status: after.status };
}

/** Rotate an agent's key: the old key is refused from the next request. */
export async function rotateAgentKey(rt: AgentRuntime, host: HostRow, agentId: unknown, publicKey: unknown) {
  const agent = ownAgent(rt, host, agentId);
  assertLive(agent);
  await replaceKey(rt, "agents", agent, publicKey, "status IN ('pending', 'active')");
  return { agent_id: agent.id, status: agent.status };
}

/**
 * Swaps the key of a host or agent row (`table`) for `publicKey`, a compare-and-set on its current
 * thumbprint and on `liveStatus`: a key in use anywhere → 409 `key_in_use`, a moved row → 409 `conflict`.
 */
async function replaceKey(
  rt: AgentRuntime,
  table: "agents" | "agent_hosts",
  row: { id: string; thumbprint: string },
  publicKey: unknown,
  liveStatus: string,
): Promise<void> {
  const jwk = parsePublicJwk(publicKey, "public_key");
  const thumbprint = await thumbprintOf(jwk);
  immediately(rt.sqlite, () => {
    if (thumbprintTaken(rt.sqlite, thumbprint))
      throw new ProtocolError(409, "key_in_use", "This key is in use");
    const moved = changed(
      rt.sqlite,
      `UPDATE ${table} SET public_key = ?1, thumbprint = ?2, updated_at = ?3 WHERE id = ?4 AND thumbprint = ?5 AND ${liveStatus}`,
      jwkText(jwk),
      thumbprint,
      rt.now(),
      row.id,
      row.thumbprint,
    );
    if (moved === 0) throw conflict();
  });
}

/** Revokes a host and, in the same transaction, its agents, their grants and pending approvals. */
export function revokeHost(rt: AgentRuntime, host: HostRow) {
  const { sqlite } = rt;
  return immediately(sqlite, () => {
    const now = rt.now();
    const moved = changed(
      sqlite,
      "UPDATE agent_hosts SET status = 'revoked', updated_at = ?1 WHERE id = ?2 AND status != 'revoked'",
      now,
      host.id,
    );
    if (moved === 0) throw conflict();
    sqlite
      .query(
        `UPDATE agent_grants SET status = 'revoked', updated_at = ?1
        WHERE status = 'active' AND agent_id IN (SELECT id FROM agents WHERE host_id = ?2 AND status IN ('pending', 'active'))`,
      )
      .run(now, host.id);
    const agentsRevoked = changed(
      sqlite,
      "UPDATE agents SET status = 'revoked', updated_at = ?1 WHERE host_id = ?2 AND status IN ('pending', 'active')",
      now,
      host.id,
    );
    sqlite
      .query(
        "UPDATE agent_approvals SET status = 'expired', updated_at = ? WHERE host_id = ? AND status = 'pending'",
      )
      .run(now, host.id);
    return { host_id: host.id, status: "revoked", agents_revoked: agentsRevoked };
  });
}

/** Rotate the host key: its thumbprint (the `iss` of its agents' JWTs too) changes. */
export async function rotateHostKey(rt: AgentRuntime, host: HostRow, publicKey: unknown) {
  await replaceKey(rt, "agent_hosts", host, publicKey, "status != 'revoked'");
  return { host_id: host.id, status: host.status };
}

/**
 * Introspection for an organization's admin: verifies an agent JWT against every accepted audience
 * without recording its jti; active only for an active agent of the caller's organization whose
 * token was not used yet.
 */
export async function introspect(rt: AgentRuntime, caller: Caller, token: string) {
  const { issuer, location, api, base } = rt.origins;
  let auth: AgentAuth;
  try {
    auth = await verifyAgentJwt(rt, token, [...new Set([issuer, location, api, base])], {
      record: false,
      checkState: false,
    });
  } catch {
    return { active: false };
  }
  const { agent, host, claims } = auth;
  if (
    rt.replay.seen(agent.id, claims.jti, verifiableUntil(claims)) ||
    agent.status !== "active" ||
    host.status === "revoked" ||
    agent.organization_id !== caller.orgId
  ) {
    return { active: false };
  }
  const out: Record<string, unknown> = {
    active: true,
    agent_id: agent.id,
    host_id: host.id,
    organization_id: agent.organization_id,
    mode: agent.mode,
  };
  if (agent.user_id !== null) out.user_id = agent.user_id;
  out.agent_capability_grants = grantsOf(rt.sqlite, agent.id).map((g) => ({
    capability: g.capability,
    status: g.status,
  }));
  out.expires_at = isoOrNull(claims.exp * 1000);
  return out;
}

/** The agents of an organization with their grants (dashboard). */
export function listAgents(rt: AgentRuntime, organizationId: string) {
  return { agents: agentsOfOrganization(rt.sqlite, organizationId).map((a) => statusObject(rt, a)) };
}
