import { Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { requireManagingCaller } from "../auth/service.ts";
import { notFound } from "../core/errors.ts";
import { defineOperation } from "../core/operation.ts";
import { Id, Nullable, named, Timestamp } from "../core/schemas.ts";
import { isoOrNull } from "../lib/time.ts";
import { revokeAgent } from "./lifecycle.ts";
import { type AgentRuntime, agentRuntime } from "./runtime.ts";
import { type AgentRow, agentById, agentsOfOrganization, grantsOf, type HostRow, hostById } from "./store.ts";

// The organization's agents as the dashboard's Settings show them, on `/v1` like every other
// setting (the Agent Auth endpoints under /api/auth speak the protocol to hosts and agents). Never
// an agent capability: an agent cannot list or revoke agents.

const TAG = "Admin: agents";

const AgentGrant = named(
  "AgentGrant",
  Type.Object({
    capability: Type.String({ description: "The operation id the grant allows" }),
    description: Type.String(),
    status: Type.Union(["pending", "active", "denied", "revoked"].map((s) => Type.Literal(s))),
    expiresAt: Nullable(Timestamp),
  }),
);

const Agent = named(
  "Agent",
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    mode: Type.Union([Type.Literal("delegated"), Type.Literal("autonomous")]),
    status: Type.Union(["pending", "active", "rejected", "revoked"].map((s) => Type.Literal(s))),
    createdAt: Timestamp,
    lastUsedAt: Nullable(Timestamp),
    grants: Type.Array(AgentGrant),
  }),
);

const AgentHost = named(
  "AgentHost",
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    status: Type.Union(["pending", "active", "revoked"].map((s) => Type.Literal(s))),
    credential: Type.Union([Type.Literal("ed25519"), Type.Literal("oauth")], {
      description:
        "`ed25519`: a program with Agent Auth keys; `oauth`: an app a merchant connected with OAuth (named after the app)",
    }),
    agents: Type.Array(Agent, { description: "The host's agents in this organization, newest first" }),
  }),
);

/** The agents runtime: made when the module's routes are mounted, which every app does. */
function runtime(ctx: AppContext): AgentRuntime {
  const rt = agentRuntime(ctx);
  if (!rt) throw new Error("The agents module's routes are not mounted");
  return rt;
}

const agentView = (rt: AgentRuntime, agent: AgentRow) => ({
  id: agent.id,
  name: agent.name,
  mode: agent.mode,
  status: agent.status,
  createdAt: isoOrNull(agent.created_at)!,
  lastUsedAt: isoOrNull(agent.last_used_at),
  grants: grantsOf(rt.sqlite, agent.id).map((grant) => ({
    capability: grant.capability,
    description: rt.catalog.get(grant.capability)?.summary ?? grant.capability,
    status: grant.status,
    expiresAt: isoOrNull(grant.expires_at),
  })),
});

/** The organization's agents grouped by their host, hosts in the order of their newest agent. */
function hostsOf(rt: AgentRuntime, organizationId: string) {
  const agents = agentsOfOrganization(rt.sqlite, organizationId);
  const hosts = new Map<
    string,
    {
      id: string;
      name: string;
      status: string;
      credential: HostRow["credential"];
      agents: ReturnType<typeof agentView>[];
    }
  >();
  for (const agent of agents) {
    let host = hosts.get(agent.host_id);
    if (!host) {
      const row = hostById(rt.sqlite, agent.host_id)!;
      host = { id: row.id, name: row.name, status: row.status, credential: row.credential, agents: [] };
      hosts.set(row.id, host);
    }
    host.agents.push(agentView(rt, agent));
  }
  return [...hosts.values()];
}

const adminListAgentsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/agents",
  operationId: "adminListAgents",
  summary: "The organization's agents, by host",
  description:
    "Every agent registered for the organization (any status), grouped by the host that registered " +
    "it, each with its capability grants. An organization has few, so the list is not paged.",
  tag: TAG,
  access: "admin",
  agent: false,
  response: Type.Array(AgentHost),
  handler: ({ ctx, caller }) => hostsOf(runtime(ctx), caller.orgId),
});

const adminRevokeAgentOp = defineOperation({
  method: "POST",
  path: "/v1/admin/agents/{id}/revoke",
  operationId: "adminRevokeAgent",
  summary: "Revoke an agent; its next call is refused",
  description:
    "The agent and its grants are revoked at once, and its pending approval expires; revoking a " +
    "revoked agent answers it unchanged. An agent that is not this organization's is a 404. From " +
    "the dashboard, owners and admins only.",
  tag: TAG,
  access: "admin",
  agent: false,
  params: Type.Object({ id: Id("agt") }),
  response: Agent,
  handler: ({ ctx, caller, params }) => {
    requireManagingCaller(ctx.platform, caller);
    const rt = runtime(ctx);
    const agent = agentById(rt.sqlite, params.id);
    if (!agent || agent.organization_id !== caller.orgId) throw notFound("Agent");
    revokeAgent(rt, agent);
    return agentView(rt, agentById(rt.sqlite, agent.id)!);
  },
});

export const agentAdminOperations = [adminListAgentsOp, adminRevokeAgentOp];
