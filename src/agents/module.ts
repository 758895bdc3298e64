import type { BearerSurface, Module, Service } from "../core/module.ts";
import type { Caller } from "../core/operation.ts";
import { agentAdminOperations } from "./admin-routes.ts";
import { approvalPageRoutes } from "./approval-page.ts";
import { agentCaller, asApiError, checkAgentGrant, grantedCapabilities } from "./grants.ts";
import { verifyAgentJwt } from "./jwt.ts";
import { audienceOf } from "./origins.ts";
import { agentRoutes } from "./routes.ts";
import { type AgentRuntime, runtimeOf } from "./runtime.ts";
import { carryOverReplayTable } from "./token-journal.ts";

/**
 * Agent Auth: hosts and agents with Ed25519 keys, capability grants approved by a merchant
 * (device authorization), agent JWTs on `/v1` and `/mcp`, discovery and capability execute.
 * Its tables are in the control plane.
 */
export const agentsModule: Module = {
  name: "agents",
  tables: { file: "src/agents/tables.ts", database: "platform" },
  shopRows: [
    { table: "agent_hosts", where: "organization_id = ?1" },
    { table: "agents", where: "organization_id = ?1" },
    { table: "agent_grants", where: "agent_id IN (SELECT id FROM agents WHERE organization_id = ?1)" },
    { table: "agent_approvals", where: "organization_id = ?1" },
  ],
  operations: agentAdminOperations,
  beforePlatformMigration: { "0013_used_tokens_in_files": carryOverReplayTable },
  authenticateBearer(token, surface, service) {
    // Every token shaped like another module's (an OAuth access token) is left to that module.
    if (!looksLikeJws(token)) return undefined;
    return verifyAgentBearer(runtimeOf(service), token, surface);
  },
  checkGrant(operationId, caller, _input, validated, service) {
    checkAgentGrant(runtimeOf(service), operationId, caller, validated);
  },
  /** The Agent Auth endpoints, discovery, and the merchant approval page (AGENT_DEVICE_AUTH_PAGE). */
  routes: (service) => {
    const rt = runtimeOf(service);
    return [...agentRoutes(rt), ...approvalPageRoutes(rt)];
  },
};

/** Three dot-separated parts: a JWS in compact form, which only this module's tokens are. */
const looksLikeJws = (token: string): boolean => token.split(".", 4).length === 3;

/** An agent JWT on `/v1` or `/mcp`: the agent's caller, or the 401/403 ApiError. */
async function verifyAgentBearer(rt: AgentRuntime, token: string, surface: BearerSurface): Promise<Caller> {
  try {
    const auth = await verifyAgentJwt(rt, token, audienceOf(rt.origins, surface));
    rt.limits.agentCalls.hit(auth.agent.id);
    return agentCaller(rt, auth);
  } catch (error) {
    throw asApiError(error);
  }
}

/** The operations an agent caller resolved by this module may call (its effective grants), for `/mcp`. */
export const agentGrantedOperations = (service: Service, caller: Caller): string[] =>
  grantedCapabilities(runtimeOf(service), caller);
