import type { Operation } from "./operation.ts";

/** Operations an agent may be granted without a merchant's approval must be harmless storefront reads. */
const AUTO_GRANT_EXCEPTIONS = new Set(["createCart"]);

/**
 * Start-up checks on the declared operations: unique operationIds and routes, auto-grants only on
 * storefront reads, webhooks never offered to agents, and input names that do not collide across path, query and body (an agent's
 * tool input merges the three).
 */
export function assertRegistry(operations: Operation[]): void {
  const ids = new Set<string>();
  const routes = new Set<string>();
  for (const op of operations) {
    if (ids.has(op.operationId)) throw new Error(`duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    const route = `${op.method} ${op.path}`;
    if (routes.has(route)) throw new Error(`duplicate route ${route}`);
    routes.add(route);

    if (op.autoGrant && !AUTO_GRANT_EXCEPTIONS.has(op.operationId)) {
      if (op.method !== "GET" || op.access !== "storefront") {
        throw new Error(`${op.operationId}: only storefront GET operations may be auto-granted`);
      }
    }
    if ((op.access === "webhook") !== (op.tenantOf !== undefined))
      throw new Error(
        `${op.operationId}: webhook operations, and only they, choose their tenant with tenantOf`,
      );
    if (op.access === "webhook" && op.body)
      throw new Error(
        `${op.operationId}: a webhook reads its raw body (call.rawBody), not a JSON body schema`,
      );
    // Agent capabilities and MCP tools come from `agent`: a provider's notification is never one.
    if (op.access === "webhook" && op.agent !== false)
      throw new Error(`${op.operationId}: webhook operations are declared agent: false`);
    // A file in or out travels over HTTP only: an agent's tool takes and answers JSON.
    if ((op.upload || op.fileResponse) && op.agent !== false)
      throw new Error(`${op.operationId}: an upload or a file answer is declared agent: false`);
    if ((op.upload && op.body) || (op.fileResponse && op.response))
      throw new Error(`${op.operationId}: a file is the whole body or answer, beside no JSON schema`);
    // An agent's tool answers JSON; a text answer (a CSV file) is for HTTP clients.
    if (op.textResponse && op.agent !== false)
      throw new Error(`${op.operationId}: an operation answering text is declared agent: false`);
    if (op.autoGrant && op.agent === false)
      throw new Error(`${op.operationId}: autoGrant on a non-agent operation`);

    const names = new Map<string, string>();
    for (const [part, schema] of [
      ["params", op.params],
      ["query", op.query],
      ["body", op.body],
    ] as const) {
      const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      for (const name of Object.keys(properties)) {
        const other = names.get(name);
        if (other) throw new Error(`${op.operationId}: input "${name}" appears in both ${other} and ${part}`);
        names.set(name, part);
      }
    }
  }
}

/** Whether an operation is offered to agents as a capability and MCP tool. */
export const isAgentOperation = (op: Operation): boolean => op.path.startsWith("/v1/") && op.agent !== false;
