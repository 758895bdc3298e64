import type { Module } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { McpEndpoint, type McpOptions } from "./endpoint.ts";

/**
 * The Model Context Protocol at `/mcp`: one tool per agent operation of the registry, run by the
 * executor for the caller the request authenticates as (docs/mcp.md). No tables, no operations.
 * `grantedOperations` is where the agents module's grant lookup plugs in (src/modules.ts wires
 * `agentGrantedOperations`, so this module imports nothing of the agents module).
 */
export function createMcpModule(options: McpOptions = {}): Module {
  return {
    name: "mcp",
    operations: [],
    routes(service) {
      const endpoint = new McpEndpoint(service, options);
      return [
        {
          method: "POST",
          path: "/mcp",
          handle: (request, _params, requestId, client?: ClientInfo) =>
            endpoint.handle(request, requestId, client),
        },
      ];
    },
  };
}
