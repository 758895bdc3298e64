import type { TSchema } from "@sinclair/typebox";
import type { Caller, ClientInfo, Operation } from "../core/operation.ts";
import { isAgentOperation } from "../core/registry.ts";

/** A JSON Schema object, as published in `inputSchema`. */
export type JsonSchema = Record<string, unknown>;

/** An MCP tool as `tools/list` publishes it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
  };
}

/**
 * A tool another module serves in its own protocol's terms (UCP's checkout tools): listed beside
 * the operations' tools to the callers it is for, and answering with a result or a protocol error.
 */
export interface ProtocolTool {
  definition: ToolDefinition;
  visibleTo(caller: Caller): boolean;
  call(
    args: Record<string, unknown>,
    context: { caller: Caller; request: Request; requestId: string; client: ClientInfo },
  ): Promise<
    { result: Record<string, unknown> } | { error: { code: number; message: string; data: unknown } }
  >;
}

/** A tool and the operation it runs. */
export interface Tool {
  op: Operation;
  definition: ToolDefinition;
}

/**
 * POST operations that undo or give back what was done (money returned, an order called off): the
 * path's last segment names the action. Other POSTs create or add.
 */
const DESTRUCTIVE_ACTIONS = new Set(["refund", "cancel"]);

/**
 * Only operations a resolved `/v1` caller runs become tools: `user` (dashboard, no tenant) and
 * `webhook` operations (no caller, the tenant comes from the input) have no meaning here.
 */
const CALLER_ACCESS = new Set(["public", "caller", "storefront", "admin"]);

/** Plain JSON Schema: TypeBox's symbol keys vanish in the JSON round trip, `$id`s are dropped. */
function plain(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === "$id" ? undefined : value));
}

/**
 * The one input object of a tool: the properties of the path params, query and body schemas side by
 * side (the registry refuses names that collide), their `required` lists merged. Unknown fields are
 * refused, as the executor refuses them.
 */
export function mergedInputSchema(op: Operation): ToolDefinition["inputSchema"] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of [op.params, op.query, op.body]) {
    if (!part) continue;
    const schema = plain(part) as { properties?: Record<string, JsonSchema>; required?: string[] };
    Object.assign(properties, schema.properties ?? {});
    required.push(...(schema.required ?? []));
  }
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * What a client may assume about a tool, from the HTTP method: GET only reads; DELETE removes
 * (destructive, and deleting twice leaves the same state); PUT replaces (idempotent); POST and PATCH
 * change state and are not idempotent unless the client sends an idempotency key. A POST whose last
 * path segment is `refund` or `cancel` is destructive: it gives money back or calls an order off.
 */
export function annotationsOf(op: Pick<Operation, "method" | "path">): ToolDefinition["annotations"] {
  const method = op.method as string;
  const action = op.path.slice(op.path.lastIndexOf("/") + 1);
  return {
    readOnlyHint: method === "GET",
    destructiveHint: method === "DELETE" || (method === "POST" && DESTRUCTIVE_ACTIONS.has(action)),
    idempotentHint: method === "GET" || method === "PUT" || method === "DELETE",
  };
}

export function toolOf(op: Operation): Tool {
  return {
    op,
    definition: {
      name: op.operationId,
      title: op.summary,
      description: op.description ? `${op.summary}\n\n${op.description}` : op.summary,
      inputSchema: mergedInputSchema(op),
      annotations: annotationsOf(op),
    },
  };
}

/** One tool per agent operation of the registry, by name, in registry order. */
export function buildTools(operations: readonly Operation[]): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const op of operations) {
    if (isAgentOperation(op) && CALLER_ACCESS.has(op.access)) tools.set(op.operationId, toolOf(op));
  }
  return tools;
}

/** Whether the caller's scopes let it run the operation (the executor's access check, without running it). */
export function scopeAllows(op: Operation, caller: Caller): boolean {
  if (op.access === "storefront" || op.access === "admin") return caller.scopes.includes(op.access);
  return true;
}
