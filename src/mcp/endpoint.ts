import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "../../package.json" with { type: "json" };
import { readCookie } from "../auth/caller.ts";
import { ApiError, type ErrorBody } from "../core/errors.ts";
import type { Outcome } from "../core/executor.ts";
import type { Service } from "../core/module.ts";
import type { Caller, ClientInfo } from "../core/operation.ts";
import { CUSTOMER_COOKIE, CUSTOMER_HEADER } from "../customers/customer-session.ts";
import { buildTools, scopeAllows, type Tool, type ToolDefinition } from "./tools.ts";

/** The same name as the OpenAPI document's `info.title`. */
export const SERVER_NAME = "Commerce API";
export const SERVER_VERSION: string = packageJson.version;

/** The `_meta` field of a `tools/call` request that carries an idempotency key (else the `Idempotency-Key` header). */
export const IDEMPOTENCY_META = "idempotencyKey";

const INSTRUCTIONS =
  "Each tool is one operation of the store's API, named by its operationId, run for the caller this " +
  "connection authenticated as (an API key, a dashboard session, an agent token or the shop's Host). " +
  'A success returns the API envelope {"data"} or {"data","meta"}; a refusal is a result with isError ' +
  'and {"error","code","status","details?"}. Writes accept an idempotency key in _meta.idempotencyKey.';

export interface McpOptions {
  /**
   * The operationIds an agent caller holds an effective grant for (the agents module's
   * `agentGrantedOperations`, wired in src/modules.ts). Without it, agents see the tools their scopes
   * allow, like any caller; the executor's grant check still refuses a call outside their grants.
   */
  grantedOperations?: (service: Service, caller: Caller) => Iterable<string> | Promise<Iterable<string>>;
}

const JSON_TYPE = "application/json; charset=utf-8";

function errorResponse(body: ErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": JSON_TYPE, ...headers },
  });
}

/** An error answered before the MCP layer (the service adds `WWW-Authenticate` to every 401). */
const refusal = (error: ApiError): Response => errorResponse(error.toBody(), error.headers);

/** `POST /mcp` (any other method is the service's 405 with `Allow: POST`): Streamable HTTP, stateless, JSON responses. */
export class McpEndpoint {
  private readonly tools: Map<string, Tool>;
  private readonly baseUrl: string;

  constructor(
    private readonly service: Service,
    private readonly options: McpOptions = {},
  ) {
    this.tools = buildTools(service.operations);
    this.baseUrl = service.ctx.config.baseUrl;
  }

  /** Every tool, for any caller allowed everything (tests, documentation). */
  allTools(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  /** `client`: the address and user agent the service worked out for this request (rate limits). */
  async handle(request: Request, requestId: string, client?: ClientInfo): Promise<Response> {
    // A browser page of another origin must not drive the tools with the user's cookies (DNS rebinding,
    // cross-site requests): a present Origin has to be the service's own.
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== this.baseUrl) {
      return errorResponse({ error: "Origin not allowed", code: "FORBIDDEN", status: 403 });
    }
    let caller: Caller;
    try {
      caller = await this.service.resolveCaller(request, "mcp");
    } catch (error) {
      if (error instanceof ApiError) return refusal(error);
      throw error;
    }

    const server = this.server(request, requestId, caller, {
      ip: client?.ip ?? (() => null),
      userAgent: client?.userAgent ?? request.headers.get("user-agent"),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: this.service.ctx.config.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  }

  /** A server for one HTTP request, bound to its caller. */
  private server(request: Request, requestId: string, caller: Caller, client: ClientInfo): Server {
    const server = new Server(
      { name: SERVER_NAME, version: SERVER_VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await this.visibleTools(caller)).map((tool) => tool.definition),
    }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const tool = this.tools.get(params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      const meta = params._meta?.[IDEMPOTENCY_META];
      try {
        if (meta !== undefined && typeof meta !== "string") {
          throw new ApiError("VALIDATION_ERROR", "_meta.idempotencyKey must be a string", [
            { path: `/_meta/${IDEMPOTENCY_META}`, message: "Expected string" },
          ]);
        }
        const outcome = await this.service.executor.execute(tool.op, { caller }, params.arguments ?? {}, {
          requestId,
          client,
          idempotencyKey: meta ?? request.headers.get("idempotency-key") ?? undefined,
          customerToken: () => request.headers.get(CUSTOMER_HEADER) ?? readCookie(request, CUSTOMER_COOKIE),
        });
        return success(outcome);
      } catch (error) {
        return failure(error, this.service, requestId);
      }
    });
    return server;
  }

  /** The tools this caller may call: by scope, and for agents by grant once a grant lookup is given. */
  private async visibleTools(caller: Caller): Promise<Tool[]> {
    const tools = [...this.tools.values()];
    if (caller.type === "agent" && this.options.grantedOperations) {
      const granted = new Set(await this.options.grantedOperations(this.service, caller));
      return tools.filter((tool) => granted.has(tool.op.operationId));
    }
    return tools.filter((tool) => scopeAllows(tool.op, caller));
  }
}

/** The API's envelope as text and as `structuredContent` (`{data: null}` for a 204). */
function success(outcome: Outcome): CallToolResult {
  const text = outcome.body ?? '{"data":null}';
  return {
    content: [{ type: "text", text }],
    structuredContent: JSON.parse(text) as Record<string, unknown>,
    ...(outcome.replayed ? { _meta: { idempotentReplayed: true } } : {}),
  };
}

/** Any refusal as a tool result the agent can read: `{error, code, status, details?}` with `isError`. */
function failure(error: unknown, service: Service, requestId: string): CallToolResult {
  let body: ErrorBody;
  if (error instanceof ApiError) body = error.toBody();
  else {
    service.ctx.log.error("unhandled error", {
      requestId,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    body = { error: "Internal error", code: "INTERNAL", status: 500 };
  }
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}
