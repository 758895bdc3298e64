import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { readRawBody } from "../core/body.ts";

/**
 * A `POST /mcp` sorted before the SDK sees it. Building an SDK server and transport costs more than a
 * tool call itself, so the two hot requests, one plain `tools/call` or `tools/list`, are answered
 * directly (`call`, `list`); everything else (initialize, notifications, batches, any malformed or
 * unusual message, any header the transport would refuse) goes to the SDK transport (`sdk`), which
 * answers it exactly as before. A request only takes the direct way when it passes every check the
 * SDK's `WebStandardStreamableHTTPServerTransport` makes, validated with the SDK's own schemas.
 */
export type Screened =
  | { kind: "call"; id: RequestId; params: CallToolRequest["params"] }
  | { kind: "list"; id: RequestId; forSdk: () => Request }
  | { kind: "sdk"; request: Request };

/** The same checks, in substance, as the transport's `handlePostRequest` before it dispatches. */
function headersPass(request: Request, maxBodyBytes: number): boolean {
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!isJsonContentType(request.headers.get("content-type"))) return false;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  // A declared length keeps the body within the limit (the server holds the body to it); a chunked
  // body is left to the transport, which counts as it reads.
  const length = request.headers.get("content-length");
  return length !== null && /^\d+$/.test(length) && Number(length) <= maxBodyBytes;
}

/** `knownTool`: a call of any other name is left to the SDK, which answers its JSON-RPC error. */
export async function screen(
  request: Request,
  maxBodyBytes: number,
  knownTool: (name: string) => boolean,
): Promise<Screened> {
  if (request.method !== "POST" || !headersPass(request, maxBodyBytes)) return { kind: "sdk", request };
  // A body cut short is the client's 400 (logged), as on every other route.
  const bytes = await readRawBody(request, maxBodyBytes);
  // Whatever is not answered here goes to the transport as the same request with the same bytes.
  const forSdk = () => new Request(request.url, { method: "POST", headers: request.headers, body: bytes });
  const toSdk = (): Screened => ({ kind: "sdk", request: forSdk() });
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return toSdk();
  }
  if (Array.isArray(raw)) return toSdk();
  const message = JSONRPCMessageSchema.safeParse(raw);
  if (!message.success || !isJSONRPCRequest(message.data)) return toSdk();
  const { id, method } = message.data;
  // Task-augmented requests (`params.task`) take the SDK's task handling.
  if (message.data.params?.task !== undefined) return toSdk();
  if (method === "tools/call") {
    const call = CallToolRequestSchema.safeParse(message.data);
    return call.success && knownTool(call.data.params.name)
      ? { kind: "call", id, params: call.data.params }
      : toSdk();
  }
  if (method === "tools/list") {
    return ListToolsRequestSchema.safeParse(message.data).success ? { kind: "list", id, forSdk } : toSdk();
  }
  return toSdk();
}

const encoder = new TextEncoder();

/** The transport's response text for a result, up to the request id: `{"result":…,"jsonrpc":"2.0","id":`. */
export const resultHead = (resultJson: string): string => `{"result":${resultJson},"jsonrpc":"2.0","id":`;

/**
 * The response the transport sends for one request's result: the same JSON as its
 * `JSON.stringify({result, jsonrpc, id})`, from the `resultHead` as text or as its UTF-8 bytes.
 */
export function resultResponse(id: RequestId, head: string | Uint8Array): Response {
  const tail = `${JSON.stringify(id)}}`;
  let body: string | Uint8Array;
  if (typeof head === "string") body = head + tail;
  else {
    const tailBytes = encoder.encode(tail);
    body = new Uint8Array(head.length + tailBytes.length);
    body.set(head);
    body.set(tailBytes, head.length);
  }
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
}
