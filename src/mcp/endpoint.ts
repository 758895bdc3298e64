import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import packageJson from "../../package.json" with { type: "json" };
import { ApiError } from "../core/errors.ts";
import type { Outcome } from "../core/executor.ts";
import type { Service } from "../core/module.ts";
import type { Caller, ClientInfo } from "../core/operation.ts";
import { apiErrorOf } from "../core/respond.ts";
import type { KeptBody } from "../core/response-cache.ts";
import { customerSessionOf } from "../customers/customer-session.ts";
import { KeptHead, resultHead, resultResponse, screen } from "./direct.ts";
import { buildTools, type ProtocolTool, scopeAllows, type Tool, type ToolDefinition } from "./tools.ts";

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
  /**
   * The `WWW-Authenticate` challenge of a 401 at `/mcp` for a service URL (the oauth module's
   * `Bearer resource_metadata=…`, wired in src/modules.ts), before the service's own.
   */
  challenge?: (baseUrl: string) => string;
  /** Tools other modules serve in their protocol's terms (UCP's checkout), wired in src/modules.ts. */
  protocolTools?: (service: Service) => ProtocolTool[];
}

/** What a tool call needs of its HTTP request, whichever way it is answered. */
interface ToolRun {
  request: Request;
  requestId: string;
  caller: Caller;
  client: ClientInfo;
  idempotencyHeader: string | undefined;
  customerToken: () => string | undefined;
  customerCookie: () => string | undefined;
}

/**
 * The SDK server's JSON Schema validator (used only for elicitation, which these tools never ask
 * for): one for every request, as a new Ajv instance per server cost more than the tool call.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** `POST /mcp` (any other method is the service's 405 with `Allow: POST`): Streamable HTTP, stateless, JSON responses. */
export class McpEndpoint {
  private readonly tools: Map<string, Tool>;
  /** Answered through the SDK's transport (they are not the hot path). */
  private readonly protocolTools: Map<string, ProtocolTool>;
  private readonly baseUrl: string;
  private readonly keptResults = new WeakMap<KeptBody, KeptHead>();

  constructor(
    private readonly service: Service,
    private readonly options: McpOptions = {},
  ) {
    this.tools = buildTools(service.operations);
    this.protocolTools = new Map(
      (options.protocolTools?.(service) ?? []).map((tool) => [tool.definition.name, tool]),
    );
    this.baseUrl = service.ctx.config.baseUrl;
  }

  /** Every tool, for any caller allowed everything (tests, documentation). */
  allTools(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  /**
   * `client`: the address and user agent the service worked out for this request (rate limits).
   * What is refused before any MCP message is read (a foreign Origin, no valid credential, a body cut
   * short, too large or nested too deep) is thrown as an ApiError: the service answers it over HTTP
   * with the error body (and `WWW-Authenticate` on a 401).
   */
  async handle(request: Request, requestId: string, client?: ClientInfo): Promise<Response> {
    // A browser page of another origin must not drive the tools with the user's cookies (DNS rebinding,
    // cross-site requests): a present Origin has to be the service's own.
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== this.baseUrl) throw new ApiError("FORBIDDEN", "Origin not allowed");
    const caller = await this.resolveCaller(request);
    if (client?.trace) Object.assign(client.trace, { orgId: caller.orgId, callerType: caller.type });

    const run: ToolRun = {
      request,
      requestId,
      caller,
      client: {
        ip: client?.ip ?? (() => null),
        userAgent: client?.userAgent ?? request.headers.get("user-agent"),
      },
      idempotencyHeader: request.headers.get("idempotency-key") ?? undefined,
      ...customerSessionOf(request),
    };
    const screened = await screen(request, this.service.ctx.config.maxBodyBytes, (name) =>
      this.tools.has(name),
    );
    switch (screened.kind) {
      case "list": {
        let result: ListToolsResult;
        try {
          result = await this.listTools(caller);
        } catch {
          // A failing grant lookup: the SDK turns the same failure into its JSON-RPC error.
          return this.viaSdk(screened.forSdk(), run);
        }
        return resultResponse(request, screened.id, resultHead(JSON.stringify(result)));
      }
      case "call": {
        const answer = await this.callTool(this.tools.get(screened.params.name)!, screened.params, run);
        return resultResponse(
          request,
          screened.id,
          answer.refusal ? resultHead(JSON.stringify(answer.refusal)) : this.successHead(answer.outcome),
        );
      }
      case "sdk":
        return this.viaSdk(screened.request, run);
    }
  }

  /** The caller, or the 401 with the OAuth challenge (`error="invalid_token"` when a bearer token was refused). */
  private async resolveCaller(request: Request): Promise<Caller> {
    try {
      return await this.service.resolveCaller(request, "mcp");
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || !this.options.challenge) throw error;
      const bearer = /^bearer\s/i.test(request.headers.get("authorization") ?? "");
      const challenge = `${this.options.challenge(this.baseUrl)}${bearer ? ', error="invalid_token"' : ""}`;
      throw new ApiError(error.code, error.message, error.details, {
        ...error.headers,
        "www-authenticate": challenge,
      });
    }
  }

  /** Anything not answered directly: a server and transport for this one request, bound to its caller. */
  private async viaSdk(request: Request, run: ToolRun): Promise<Response> {
    const server = new Server(
      { name: SERVER_NAME, version: SERVER_VERSION },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator: SCHEMA_VALIDATOR,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => this.listTools(run.caller));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const protocolTool = this.protocolTools.get(params.name);
      if (protocolTool?.visibleTo(run.caller)) return this.callProtocolTool(protocolTool, params, run);
      const tool = this.tools.get(params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      const answer = await this.callTool(tool, params, run);
      return answer.refusal ?? success(answer.outcome);
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

  /**
   * The `resultHead` of a success; for a kept catalog body, encoded once and reused for as long as the
   * response cache keeps that body (as REST reuses its encoded form), so a cached listing costs
   * neither escaping nor encoding again.
   */
  private successHead(outcome: Outcome): string | KeptHead {
    const { kept } = outcome;
    if (!kept) return resultHead(successJson(outcome));
    let head = this.keptResults.get(kept);
    if (!head) {
      head = new KeptHead(resultHead(successJson(outcome)));
      this.keptResults.set(kept, head);
    }
    return head;
  }

  private async listTools(caller: Caller): Promise<ListToolsResult> {
    const protocol = [...this.protocolTools.values()].filter((tool) => tool.visibleTo(caller));
    return {
      tools: [...(await this.visibleTools(caller)), ...protocol].map((tool) => tool.definition),
    };
  }

  /** A protocol tool's result, or its protocol error as the JSON-RPC error the SDK sends. */
  private async callProtocolTool(
    tool: ProtocolTool,
    params: CallToolRequest["params"],
    run: ToolRun,
  ): Promise<CallToolResult> {
    const answer = await tool.call(params.arguments ?? {}, run);
    // The SDK sends a thrown error's `code`, `message` and `data` as the JSON-RPC error (McpError would
    // prefix its message).
    if ("error" in answer) throw Object.assign(new Error(answer.error.message), answer.error);
    return answer.result as CallToolResult;
  }

  /** One tool call: the operation's outcome, or any refusal as the error result. */
  private async callTool(
    tool: Tool,
    params: CallToolRequest["params"],
    run: ToolRun,
  ): Promise<{ outcome: Outcome; refusal?: never } | { refusal: CallToolResult }> {
    const meta = params._meta?.[IDEMPOTENCY_META];
    try {
      if (meta !== undefined && typeof meta !== "string") {
        throw new ApiError("VALIDATION_ERROR", "_meta.idempotencyKey must be a string", [
          { path: `/_meta/${IDEMPOTENCY_META}`, message: "Expected string" },
        ]);
      }
      const outcome = await this.service.executor.execute(
        tool.op,
        { caller: run.caller },
        params.arguments ?? {},
        {
          requestId: run.requestId,
          client: run.client,
          idempotencyKey: meta ?? run.idempotencyHeader,
          customerToken: run.customerToken,
          customerCookie: run.customerCookie,
        },
      );
      return { outcome };
    } catch (error) {
      return { refusal: failure(error, this.service, run.requestId) };
    }
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

const NULL_ENVELOPE = '{"data":null}';

/** The API's envelope as text and as `structuredContent` (`{data: null}` for a 204). */
function success(outcome: Outcome): CallToolResult {
  const text = outcome.body ?? NULL_ENVELOPE;
  return {
    content: [{ type: "text", text }],
    structuredContent: JSON.parse(text) as Record<string, unknown>,
    ...(outcome.replayed ? { _meta: { idempotentReplayed: true } } : {}),
  };
}

/**
 * `JSON.stringify(success(outcome))` without parsing and re-serialising the envelope: the body is
 * already JSON, so it goes in as `structuredContent` verbatim (the direct path's hot spot).
 */
function successJson(outcome: Outcome): string {
  const text = outcome.body ?? NULL_ENVELOPE;
  const meta = outcome.replayed ? ',"_meta":{"idempotentReplayed":true}' : "";
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${meta}}`;
}

/** Any refusal as a tool result the agent can read: `{error, code, status, details?}` with `isError`. */
function failure(error: unknown, service: Service, requestId: string): CallToolResult {
  const body = apiErrorOf(error, service.ctx, requestId).toBody();
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}
