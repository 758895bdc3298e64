import type { Module } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import type { McpEndpoint, McpOptions } from "./endpoint.ts";

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
      // The endpoint and the MCP SDK it runs on (its protocol schemas alone about 30 MB resident from
      // source) are loaded by the first request to /mcp, not by every process at start
      // (docs/operations.md, "Memory").
      let endpoint: Promise<McpEndpoint> | undefined;
      const load = () =>
        (endpoint ??= import("./endpoint.ts").then(({ McpEndpoint }) => new McpEndpoint(service, options)));
      return [
        {
          method: "POST",
          path: "/mcp",
          handle: async (request, _params, requestId, client?: ClientInfo) =>
            (await load()).handle(request, requestId, client),
        },
      ];
    },
  };
}
