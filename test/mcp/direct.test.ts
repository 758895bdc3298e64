import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  CallToolRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Caller } from "../../src/core/operation.ts";
import { KeptHead, resultHead, type Screened, screen } from "../../src/mcp/direct.ts";
import { McpEndpoint } from "../../src/mcp/endpoint.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// A plain tools/call or tools/list with a declared length is answered by the endpoint itself; the
// same message without Content-Length (as a chunked upload arrives) goes through the SDK transport.
// Both are sent here through the whole service (`app.fetch`), so each pair shows the two ways agree.

let t: TestApp;
let shop: Shop;
const HOST = "direct-shop.example";
const LIMIT = 1_048_576;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Direct Shop", HOST);
});
afterAll(() => t.cleanup());

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};

type Way = "direct" | "sdk";

function mcpRequest(way: Way, message: unknown, headers: Record<string, string> = {}): Request {
  const body = typeof message === "string" ? message : JSON.stringify(message);
  const length: Record<string, string> =
    way === "direct" ? { "content-length": String(Buffer.byteLength(body)) } : {};
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, "x-api-key": shop.org.key, ...length, ...headers },
    body,
  });
}

const alwaysKnown = () => true;
const kindOf = async (request: Request): Promise<Screened["kind"]> =>
  (await screen(request, LIMIT, alwaysKnown)).kind;

/** Sends the message one way (checking it really goes that way) and reads the JSON-RPC answer. */
async function send(way: Way, message: unknown, headers: Record<string, string> = {}) {
  const expected = way === "direct" ? ["call", "list"] : ["sdk"];
  expect(expected).toContain(await kindOf(mcpRequest(way, message, headers)));
  const response = await t.app.fetch(mcpRequest(way, message, headers));
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    sessionId: response.headers.get("mcp-session-id"),
    body: text ? JSON.parse(text) : null,
  };
}

const call = (
  id: number,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe("a tools/call or tools/list answered directly equals the SDK transport's answer", () => {
  test("tools/call listProducts: same status, content type, no session id and the same JSON-RPC body", async () => {
    const direct = await send("direct", call(1, "listProducts"));
    const sdk = await send("sdk", call(1, "listProducts"));
    expect(direct.status).toBe(200);
    expect(direct.body.result.structuredContent.data.length).toBeGreaterThan(0);
    expect(direct).toEqual(sdk);
    const rest = await t.json("/v1/products", { headers: { "x-api-key": shop.org.key } });
    expect(direct.body.result.structuredContent).toEqual(rest.body);
    expect(JSON.parse(direct.body.result.content[0].text)).toEqual(rest.body);
  });

  test("a cached listing answered again directly is the same, and a catalog change shows at once", async () => {
    const first = await send("direct", call(1, "listProducts"));
    const again = await send("direct", call(2, "listProducts"));
    expect(again.body.id).toBe(2);
    expect(again.body.result).toEqual(first.body.result);
    const renamed = await shop.admin.patch(`/v1/admin/products/${shop.shirt.id}`, {
      name: { en: "Renamed shirt" },
    });
    expect(renamed.status).toBe(200);
    const after = await send("direct", call(3, "listProducts"));
    const names = after.body.result.structuredContent.data.map((p: { name: { en: string } }) => p.name.en);
    expect(names).toContain("Renamed shirt");
    expect(after).toEqual(await send("sdk", call(3, "listProducts")));
  });

  test("a kept listing answered to many calls at once carries each call's own id, byte for byte", async () => {
    const ids: (number | string)[] = [
      ...Array.from({ length: 40 }, (_, i) => 100 + i),
      "short",
      'é-ü-✓ and a quote " in it',
      // Longer than the room kept after the listing's bytes for an id.
      "x".repeat(1_000),
    ];
    // Every answer is made before any is read: each holds its own bytes, not the kept buffer's.
    const answers = await Promise.all(
      ids.map((id) => t.app.fetch(mcpRequest("direct", { ...call(0, "listProducts"), id }))),
    );
    const texts = await Promise.all(answers.map((answer) => answer.text()));
    const { result } = JSON.parse(texts[0]!);
    texts.forEach((text, i) => {
      expect(text).toBe(JSON.stringify({ result, jsonrpc: "2.0", id: ids[i] }));
    });
  });

  test("a kept head's answers are copies: the next answer's id does not change an earlier one", async () => {
    const head = new KeptHead(resultHead(JSON.stringify({ content: [] })));
    const first = new Response(head.withTail("1}"));
    const second = new Response(head.withTail('"second"}'));
    expect(await second.text()).toBe('{"result":{"content":[]},"jsonrpc":"2.0","id":"second"}');
    expect(await first.text()).toBe('{"result":{"content":[]},"jsonrpc":"2.0","id":1}');
  });

  test("a string JSON-RPC id comes back as the same string both ways", async () => {
    const message = { ...call(1, "getStore"), id: "req-7" };
    const direct = await send("direct", message);
    expect(direct.body.id).toBe("req-7");
    expect(direct).toEqual(await send("sdk", message));
  });

  test("a refusal (VALIDATION_ERROR with details) is the same isError result both ways", async () => {
    const message = call(2, "addCartItem", { id: "nope", quantity: "two" });
    const direct = await send("direct", message);
    expect(direct.body.result.isError).toBe(true);
    expect(direct.body.result.structuredContent.code).toBe("VALIDATION_ERROR");
    expect(direct).toEqual(await send("sdk", message));
  });

  test("a non-string _meta.idempotencyKey is the same VALIDATION_ERROR both ways", async () => {
    const message = call(3, "createCart", { email: "x@example.com" }, { idempotencyKey: 5 });
    const direct = await send("direct", message);
    expect(direct.body.result.structuredContent.details).toEqual([
      { path: "/_meta/idempotencyKey", message: "Expected string" },
    ]);
    expect(direct).toEqual(await send("sdk", message));
  });

  test("an idempotent write made one way replays the other way, with _meta.idempotentReplayed", async () => {
    const message = call(4, "createCart", { email: "twice@example.com" }, { idempotencyKey: "direct-1" });
    const first = await send("sdk", message);
    expect(first.body.result._meta).toBeUndefined();
    const replayedDirect = await send("direct", message);
    expect(replayedDirect.body.result.structuredContent).toEqual(first.body.result.structuredContent);
    expect(replayedDirect.body.result._meta).toEqual({ idempotentReplayed: true });
    expect(replayedDirect).toEqual(await send("sdk", message));
    // The Idempotency-Key header counts too.
    const headerKey = { "idempotency-key": "direct-2" };
    const byHeader = await send("direct", call(5, "createCart", { email: "h@example.com" }), headerKey);
    const again = await send("sdk", call(5, "createCart", { email: "h@example.com" }), headerKey);
    expect(again.body.result.structuredContent).toEqual(byHeader.body.result.structuredContent);
    expect(again.body.result._meta).toEqual({ idempotentReplayed: true });
  });

  test("tools/list (with and without a cursor) is the same both ways, for an admin key and a storefront Host", async () => {
    const list = { jsonrpc: "2.0", id: 6, method: "tools/list" };
    const direct = await send("direct", list);
    expect(direct.body.result.tools.length).toBeGreaterThan(0);
    expect(direct).toEqual(await send("sdk", list));
    const withCursor = { ...list, params: { cursor: "x" } };
    expect(await send("direct", withCursor)).toEqual(await send("sdk", withCursor));

    const host = { "x-api-key": "", host: HOST };
    const asShopper = (way: Way) => {
      const request = mcpRequest(way, list, host);
      request.headers.delete("x-api-key");
      return t.app.fetch(request).then((r) => r.json() as Promise<any>);
    };
    const shopper = await asShopper("direct");
    expect(shopper.result.tools.length).toBeLessThan(direct.body.result.tools.length);
    expect(shopper).toEqual(await asShopper("sdk"));
  });

  test("a failing grant lookup on tools/list gets the SDK's JSON-RPC error both ways", async () => {
    const caller: Caller = {
      type: "agent",
      orgId: shop.org.id,
      scopes: ["storefront"],
      id: "agent:agt_direct",
      agentId: "agt_direct",
    };
    const endpoint = new McpEndpoint(
      {
        ctx: t.app.ctx,
        executor: t.app.executor,
        operations: t.app.operations,
        shopOfHost: () => undefined,
        resolveCaller: async () => caller,
      },
      {
        grantedOperations: () => {
          throw new Error("grants unavailable");
        },
      },
    );
    const list = { jsonrpc: "2.0", id: 8, method: "tools/list" };
    const answer = async (way: Way) => {
      const response = await endpoint.handle(mcpRequest(way, list), "direct-grants");
      return { status: response.status, body: await response.json() };
    };
    const direct = await answer("direct");
    expect(direct).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "grants unavailable" } },
    });
    expect(direct).toEqual(await answer("sdk"));
  });
});

describe("what is not a plain tools/call or tools/list goes to the SDK transport unchanged", () => {
  const cases: [string, () => Request][] = [
    ["malformed JSON", () => mcpRequest("direct", "{not json")],
    ["a batch", () => mcpRequest("direct", [call(1, "getStore"), call(2, "getStore")])],
    ["a notification", () => mcpRequest("direct", { jsonrpc: "2.0", method: "notifications/initialized" })],
    [
      "initialize",
      () =>
        mcpRequest("direct", {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "c", version: "1" },
          },
        }),
    ],
    ["another method", () => mcpRequest("direct", { jsonrpc: "2.0", id: 1, method: "resources/list" })],
    [
      "tools/call without a name",
      () => mcpRequest("direct", { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }),
    ],
    [
      "a task-augmented tools/call",
      () => mcpRequest("direct", { ...call(1, "getStore"), params: { name: "getStore", task: {} } }),
    ],
    [
      "Accept without text/event-stream",
      () => mcpRequest("direct", call(1, "getStore"), { accept: "application/json" }),
    ],
    [
      "a Content-Type other than JSON",
      () => mcpRequest("direct", call(1, "getStore"), { "content-type": "text/plain" }),
    ],
    [
      "an unsupported mcp-protocol-version",
      () => mcpRequest("direct", call(1, "getStore"), { "mcp-protocol-version": "1999-01-01" }),
    ],
    ["no Content-Length (a chunked body)", () => mcpRequest("sdk", call(1, "getStore"))],
  ];
  for (const [name, make] of cases) {
    test(`${name} is left to the SDK, with the same method, headers and bytes`, async () => {
      const original = make();
      const expectedBytes = await make().bytes();
      const screened = await screen(original, LIMIT, alwaysKnown);
      if (screened.kind !== "sdk") throw new Error(`${name} was answered directly`);
      expect(screened.request.method).toBe("POST");
      expect([...screened.request.headers]).toEqual([...original.headers]);
      expect(await screened.request.bytes()).toEqual(expectedBytes);
    });
  }

  test("a tools/call is screened as the SDK's schemas screen it, in the common shape and its near misses", async () => {
    const plain = call(1, "getStore");
    const messages: unknown[] = [
      plain,
      { ...plain, id: "req-7" },
      { ...plain, params: { name: "getStore" } },
      { ...plain, params: { name: "getStore", _meta: { idempotencyKey: "k" } } },
      { ...plain, params: { name: "getStore", arguments: {}, extra: 1 } },
      { ...plain, params: { name: "getStore", arguments: null } },
      { ...plain, params: { name: "getStore", arguments: [] } },
      { ...plain, params: { name: 7 } },
      { ...plain, params: "getStore" },
      { ...plain, id: 1.5 },
      { ...plain, id: 2 ** 53 },
      { ...plain, id: null },
      { ...plain, jsonrpc: "1.0" },
      { ...plain, extra: true },
      JSON.parse(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getStore","__proto__":{}}}',
      ),
      JSON.parse(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getStore","arguments":{"__proto__":{"a":1},"b":2}}}',
      ),
    ];
    for (const message of messages) {
      // What the schemas alone decide: a JSON-RPC request, and a valid tools/call.
      const parsed = JSONRPCMessageSchema.safeParse(message);
      const toolCall = CallToolRequestSchema.safeParse(parsed.success ? parsed.data : undefined);
      const bySchemas: { kind: string; id?: unknown; params?: unknown } =
        parsed.success && isJSONRPCRequest(parsed.data) && toolCall.success
          ? { kind: "call", id: parsed.data.id, params: toolCall.data.params }
          : { kind: "sdk" };
      const screened = await screen(mcpRequest("direct", message), LIMIT, alwaysKnown);
      const got: { kind: string; id?: unknown; params?: unknown } =
        screened.kind === "call"
          ? { kind: "call", id: screened.id, params: screened.params }
          : { kind: screened.kind };
      expect({ message, ...got }).toEqual({ message, ...bySchemas });
    }
  });

  test("a declared length over the limit and an unknown tool are left to the SDK", async () => {
    expect((await screen(mcpRequest("direct", call(1, "getStore")), 10, alwaysKnown)).kind).toBe("sdk");
    expect((await screen(mcpRequest("direct", call(1, "getStore")), LIMIT, () => false)).kind).toBe("sdk");
  });

  test("through the service these get the SDK's answers: -32700, batch array, 202, -32601, -32602, 406, 415, 400", async () => {
    const answer = async (request: Request) => {
      const response = await t.app.fetch(request);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    const parseError = await answer(mcpRequest("direct", "{not json"));
    expect(parseError).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null },
    });
    const batch = await answer(mcpRequest("direct", [call(1, "getStore"), call(2, "getStore")]));
    expect(batch.status).toBe(200);
    expect(batch.body.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(batch.body[0].result.structuredContent.data).toBeDefined();
    expect(
      await answer(mcpRequest("direct", { jsonrpc: "2.0", method: "notifications/initialized" })),
    ).toEqual({
      status: 202,
      body: null,
    });
    const unknownMethod = await answer(
      mcpRequest("direct", { jsonrpc: "2.0", id: 3, method: "resources/list" }),
    );
    expect(unknownMethod.body.error.code).toBe(-32601);
    const unknownTool = await answer(mcpRequest("direct", call(4, "noSuchTool")));
    expect(unknownTool.body.error).toEqual({
      code: -32602,
      message: "MCP error -32602: Unknown tool: noSuchTool",
    });
    const notAcceptable = await answer(
      mcpRequest("direct", call(5, "getStore"), { accept: "application/json" }),
    );
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.body.error.code).toBe(-32000);
    const mediaType = await answer(
      mcpRequest("direct", call(6, "getStore"), { "content-type": "text/plain" }),
    );
    expect(mediaType.status).toBe(415);
    const version = await answer(
      mcpRequest("direct", call(7, "getStore"), { "mcp-protocol-version": "1999-01-01" }),
    );
    expect(version.status).toBe(400);
    expect(version.body.error.code).toBe(-32000);
    expect(version.body.error.message).toContain("Unsupported protocol version: 1999-01-01");
  });
});
