import { isoOrNull } from "../lib/time.ts";
import type { AgentRuntime } from "./runtime.ts";
import {
  type AgentRow,
  type ApprovalRow,
  constraintsOf,
  type GrantRow,
  grantsOf,
  latestApproval,
} from "./store.ts";

// The protocol's JSON objects (snake_case, ISO 8601 times).

/** `{ capability, status, description, constraints?, granted_by?, expires_at?, reason? }` */
export function grantObject(rt: AgentRuntime, grant: GrantRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    capability: grant.capability,
    status: grant.status,
    description: rt.catalog.get(grant.capability)?.summary ?? grant.capability,
  };
  const constraints = constraintsOf(grant);
  if (constraints) out.constraints = constraints;
  if (grant.granted_by !== null) out.granted_by = grant.granted_by;
  if (grant.expires_at !== null) out.expires_at = isoOrNull(grant.expires_at);
  if (grant.reason !== null) out.reason = grant.reason;
  return out;
}

export const grantObjects = (rt: AgentRuntime, agentId: string) =>
  grantsOf(rt.sqlite, agentId).map((g) => grantObject(rt, g));

const approvalSummary = (approval: ApprovalRow) => ({
  approval_id: approval.id,
  status: approval.status,
  expires_at: isoOrNull(approval.expires_at),
});

/** What every answer about an agent starts with: `{ agent_id, host_id, name, mode, status, organization_id }`. */
export const agentIdentity = (agent: AgentRow) => ({
  agent_id: agent.id,
  host_id: agent.host_id,
  name: agent.name,
  mode: agent.mode,
  status: agent.status,
  organization_id: agent.organization_id,
});

/**
 * The status object: `{ agent_id, host_id, name, mode, status, organization_id, user_id?,
 * created_at, activated_at?, last_used_at?, agent_capability_grants, approval? }`.
 */
export function statusObject(rt: AgentRuntime, agent: AgentRow): Record<string, unknown> {
  const out: Record<string, unknown> = agentIdentity(agent);
  if (agent.user_id !== null) out.user_id = agent.user_id;
  out.created_at = isoOrNull(agent.created_at);
  if (agent.activated_at !== null) out.activated_at = isoOrNull(agent.activated_at);
  if (agent.last_used_at !== null) out.last_used_at = isoOrNull(agent.last_used_at);
  out.agent_capability_grants = grantObjects(rt, agent.id);
  const approval = latestApproval(rt.sqlite, agent.id);
  if (approval) out.approval = approvalSummary(approval);
  return out;
}
