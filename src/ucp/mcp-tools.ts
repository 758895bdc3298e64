import { obj, SessionRunner } from "../checkout/adapter.ts";
import type { Service } from "../core/module.ts";
import type { Caller } from "../core/operation.ts";
import type { ProtocolTool, ToolDefinition } from "../mcp/tools.ts";
import {
  answerOf,
  callOf,
  checkedProfile,
  refusalAnswer,
  UCP_OPERATIONS,
  type UcpOperationName,
} from "./checkout.ts";
import type { Json } from "./errors.ts";

// UCP's MCP binding: the checkout operations (checkout.ts) as tools of a shop's `/mcp`, named and
// shaped as UCP's MCP binding says: `{ meta: { "ucp-agent": { profile }, "idempotency-key"? },
// id?, checkout? }`. A checkout (or UCP's not-found outcome) is the result's `structuredContent`,
// with its JSON as text; a protocol error is the JSON-RPC error -32000 with `{ code, content }`.

/** JSON-RPC's code for UCP protocol errors (the binding's -32001 is for profile and version problems). */
const PROTOCOL_ERROR = -32000;
const DISCOVERY_ERROR = -32001;

const META = {
  type: "object",
  description: "Request metadata: the platform (`ucp-agent.profile`) and, on writes, `idempotency-key`.",
  properties: {
    "ucp-agent": {
      type: "object",
      properties: { profile: { type: "string", format: "uri" } },
      required: ["profile"],
    },
    "idempotency-key": { type: "string", minLength: 1, maxLength: 255 },
  },
  required: ["ucp-agent"],
};

const TITLES: Record<UcpOperationName, string> = {
  create_checkout: "Create a UCP checkout",
  get_checkout: "Get a UCP checkout",
  update_checkout: "Replace a UCP checkout's lines, buyer, fulfillment and payment",
  complete_checkout: "Complete a UCP checkout: place its order with the payment instrument",
  cancel_checkout: "Cancel a UCP checkout",
  get_order: "Get the order a UCP checkout placed",
  search_catalog: "Search the shop's catalog (UCP)",
  lookup_catalog: "Look up products or variants by id, handle or SKU (UCP)",
  get_product: "Get one product's detail, with option selection (UCP)",
};

function definitionOf(name: UcpOperationName): ToolDefinition {
  const spec = UCP_OPERATIONS[name];
  const properties: Json = { meta: META };
  const required = ["meta"];
  if (spec.needsId) {
    properties.id = {
      type: "string",
      description: name === "get_order" ? "The order's id" : "The checkout's id",
    };
    required.push("id");
  }
  if (spec.body) {
    properties[spec.body] = {
      type: "object",
      description:
        spec.body === "checkout" ? "The UCP checkout request (without `id`)" : "The UCP catalog request",
    };
    required.push(spec.body);
  }
  return {
    name,
    title: TITLES[name],
    description: `${TITLES[name]} (Universal Commerce Protocol 2026-04-08, the shop's ${spec.body === "catalog" ? "catalog" : "checkout"} as UCP shapes it).`,
    inputSchema: { type: "object", properties, required, additionalProperties: false },
    annotations: {
      readOnlyHint: !spec.needsKey,
      destructiveHint: name === "cancel_checkout",
      idempotentHint: !spec.needsKey,
    },
  };
}

/**
 * Shown on a shop's own host (`https://shop.example/mcp`, where UCP platforms connect); a caller
 * with a key or a token uses the shop's operations' tools, the checkout sessions among them.
 */
const forShopCallers = (caller: Caller) => caller.type === "host";

/** UCP's checkout and catalog tools for a shop's `/mcp` (wired beside the operations' tools in src/modules.ts). */
export function ucpMcpTools(service: Service): ProtocolTool[] {
  const shop = new SessionRunner(service);
  return (Object.keys(UCP_OPERATIONS) as UcpOperationName[]).map((name) => {
    const spec = UCP_OPERATIONS[name];
    return {
      definition: definitionOf(name),
      visibleTo: forShopCallers,
      async call(args, context) {
        const meta = obj(args.meta);
        let answer: Awaited<ReturnType<typeof answerOf>>;
        try {
          const profile = checkedProfile(obj(meta["ucp-agent"]).profile as string | undefined);
          const call = await callOf(service, context.request, context.caller, profile, context);
          const key = typeof meta["idempotency-key"] === "string" ? meta["idempotency-key"] : undefined;
          answer = await answerOf(shop, call, name, {
            id: args.id as string | undefined,
            body: spec.body ? obj(args[spec.body]) : {},
            key,
          });
        } catch (error) {
          answer = refusalAnswer(error);
        }
        if (answer.error) {
          const { code, content } = answer.body as { code: string; content: string };
          const rpc = code === "invalid_profile_url" ? DISCOVERY_ERROR : PROTOCOL_ERROR;
          return { error: { code: rpc, message: content, data: { code, content, status: answer.status } } };
        }
        return {
          result: {
            content: [{ type: "text", text: JSON.stringify(answer.body) }],
            structuredContent: answer.body,
          },
        };
      },
    };
  });
}
