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
import { checkJsonDepth, readBodyText } from "../core/body.ts";
import { answerBody, answeredLate, chunked } from "../lib/late-answers.ts";

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

/**
 * Whether the transport would read the body: it answers a wrong `Accept` or `Content-Type` (406,
 * 415) without reading it, and the service refuses a declared length over the limit before routing.
 */
function transportReads(headers: Headers, length: string | null, maxBodyBytes: number): boolean {
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!isJsonContentType(headers.get("content-type"))) return false;
  return length === null || Number(length) <= maxBodyBytes;
}

/**
 * With `transportReads`, the same checks, in substance, as the transport's `handlePostRequest`
 * before it dispatches; and a declared length (a chunked body keeps the SDK's way).
 */
function answeredDirectly(headers: Headers, length: string | null): boolean {
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  return length !== null && /^\d+$/.test(length);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
const hasOnlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));
const MESSAGE_KEYS = ["jsonrpc", "id", "method", "params"] as const;
const CALL_PARAMS_KEYS = ["name", "arguments"] as const;

/**
 * The common tool call, `{jsonrpc: "2.0", id, method: "tools/call", params: {name, arguments?}}`
 * with nothing more: a message the SDK's schemas below accept exactly as it is, so it need not
 * pass through them (three schema checks, the larger part of screening a call). Anything else,
 * `_meta` included, takes the schemas.
 */
function plainToolCall(raw: unknown): { id: RequestId; params: CallToolRequest["params"] } | undefined {
  if (!isPlainObject(raw) || !hasOnlyKeys(raw, MESSAGE_KEYS)) return undefined;
  const { jsonrpc, id, method, params } = raw;
  if (jsonrpc !== "2.0" || method !== "tools/call") return undefined;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || !hasOnlyKeys(params, CALL_PARAMS_KEYS) || typeof params.name !== "string") {
    return undefined;
  }
  // The schemas' record drops an own `__proto__` key of the arguments: such a call takes them.
  const args = params.arguments;
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, "__proto__"))) return undefined;
  return { id: id as RequestId, params: params as CallToolRequest["params"] };
}

/** `knownTool`: a call of any other name is left to the SDK, which answers its JSON-RPC error. */
export async function screen(
  request: Request,
  maxBodyBytes: number,
  knownTool: (name: string) => boolean,
): Promise<Screened> {
  const { headers } = request;
  const length = headers.get("content-length");
  if (request.method !== "POST" || !transportReads(headers, length, maxBodyBytes))
    return { kind: "sdk", request };
  // Every body the transport would parse is read here, counting bytes: a body cut short is the
  // client's 400 (logged), and so is one nested deeper than the limit, as on every other route.
  const text = await readBodyText(request, maxBodyBytes);
  checkJsonDepth(text);
  // Whatever is not answered here goes to the transport as the same request with the same text.
  const forSdk = () => new Request(request.url, { method: "POST", headers, body: text });
  const toSdk = (): Screened => ({ kind: "sdk", request: forSdk() });
  if (!answeredDirectly(headers, length)) return toSdk();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return toSdk();
  }
  if (Array.isArray(raw)) return toSdk();
  const plain = plainToolCall(raw);
  if (plain) return knownTool(plain.params.name) ? { kind: "call", ...plain } : toSdk();
  const message = JSONRPCMessageSchema.safeParse(raw);
  if (!message.success || !isJSONRPCRequest(message.data)) return toSdk();
  const { id, method } = message.data;
  // Task-augmented requests (`params.task`) take the SDK's task handling.
  if (message.data.params?.task !== undefined) return toSdk();
  if (method === "tools/call") {
    const toolCall = CallToolRequestSchema.safeParse(message.data);
    return toolCall.success && knownTool(toolCall.data.params.name)
      ? { kind: "call", id, params: toolCall.data.params }
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

/** Room kept after a kept head for a request's id and the closing brace. */
const TAIL_ROOM = 256;

/**
 * A `resultHead` kept as UTF-8 bytes, with room after them for a request's id. An answer writes its
 * id there and gives the Response the whole: a Response takes a copy of the bytes it is given (the
 * Fetch standard's body extraction), so that copy is the only one, and the next answer may write
 * its own id at once. Joining the two in a Blob per answer copied them into fresh memory instead:
 * 11–17 µs against 5 µs for 47 KB.
 */
export class KeptHead {
  private readonly buffer: Uint8Array;
  readonly bytes: Uint8Array;

  constructor(head: string) {
    const encoded = encoder.encode(head);
    this.buffer = new Uint8Array(encoded.length + TAIL_ROOM);
    this.buffer.set(encoded);
    this.bytes = this.buffer.subarray(0, encoded.length);
  }

  /** The head and a tail as one body, for a Response made at once (it copies them); an id too long for the room, joined in a Blob. */
  withTail(tail: string): Uint8Array | Blob {
    const { read, written } = encoder.encodeInto(tail, this.buffer.subarray(this.bytes.length));
    if (read < tail.length) return new Blob([this.bytes, tail]);
    return this.buffer.subarray(0, this.bytes.length + written);
  }
}

/**
 * The response the transport sends for one request's result: the same JSON as its
 * `JSON.stringify({result, jsonrpc, id})`, from the `resultHead` as text or kept as bytes. A late
 * answer is a stream of chunks of the kept bytes and the id's tail, which copies nothing.
 */
export function resultResponse(request: Request, id: RequestId, head: string | KeptHead): Response {
  const tail = `${JSON.stringify(id)}}`;
  if (typeof head === "string") return jsonAnswer(answerBody(request, head + tail));
  if (!answeredLate(request, head.bytes.length)) return jsonAnswer(head.withTail(tail));
  return jsonAnswer(chunked(head.bytes, encoder.encode(tail)));
}

const jsonAnswer = (body: string | Uint8Array | Blob | ReadableStream<Uint8Array>) =>
  new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
