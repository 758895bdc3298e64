import type { Module, Service } from "../core/module.ts";
import type { Caller } from "../core/operation.ts";
import { agentAdminOperations } from "./admin-routes.ts";
import { approvalPageRoutes } from "./approval-page.ts";
import { agentCaller, asApiError, checkAgentGrant, grantedCapabilities } from "./grants.ts";
import { verifyAgentJwt } from "./jwt.ts";
import { audienceOf } from "./origins.ts";
import { agentRoutes } from "./routes.ts";
import { runtimeOf } from "./runtime.ts";

/**
 * Agent Auth: hosts and agents with Ed25519 keys, capability grants approved by a merchant
 * (device authorization), agent JWTs on `/v1` and `/mcp`, discovery and capability execute.
 * Its tables are in the control plane.
 */
export const agentsModule: Module = {
  name: "agents",
  tables: { file: "src/agents/tables.ts", database: "platform" },
  operations: agentAdminOperations,
  async authenticateBearer(token, surface, service) {
    const rt = runtimeOf(service);
    try {
      const auth = await verifyAgentJwt(rt, token, audienceOf(rt.origins, surface));
      rt.limits.agentCalls.hit(auth.agent.id);
      return agentCaller(rt, auth);
    } catch (error) {
      throw asApiError(error);
    }
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

/** The operations an agent caller resolved by this module may call (its effective grants), for `/mcp`. */
export const agentGrantedOperations = (service: Service, caller: Caller): string[] =>
  grantedCapabilities(runtimeOf(service), caller);
