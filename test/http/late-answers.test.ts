import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import {
  activeAgent,
  BASE,
  type Merchant,
  newMerchant,
  relaxRegisterLimit,
  type TestAgent,
} from "../agents/helpers.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient, shirtProduct } from "../helpers/catalog.ts";

// An answer finished after its request's turn of the event loop (an agent JWT's signature is
// checked on the thread pool) is sent as a stream of chunks when it is large; one finished in its
// turn keeps its Content-Length. Both carry the same bytes (docs/architecture.md, "Late answers").

let t: TestApp;
let server: Server<unknown>;
let merchant: Merchant;
let agent: TestAgent;
let url: string;
/** Bun's fetch asks for compressed answers unless told otherwise. */
const IDENTITY = { "accept-encoding": "identity" };

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "late@example.com", "Late shop");
  agent = await activeAgent(t, merchant);
  const admin = adminClient(t, merchant.apiKey);
  for (let i = 0; i < 12; i++) {
    const created = await admin.post(
      "/v1/admin/products",
      shirtProduct(`LATE${i}`, { name: { en: `Shirt ${i}` } }),
    );
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request, srv) => t.app.fetch(request, srv) });
  url = `http://127.0.0.1:${server.port}/v1/products?limit=12`;
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

describe("late answers", () => {
  test("a large answer to an agent JWT is chunked and carries the same bytes as the API key's, which keeps its length", async () => {
    const byKey = await fetch(url, { headers: { "x-api-key": merchant.apiKey, ...IDENTITY } });
    const keyBytes = new Uint8Array(await byKey.arrayBuffer());
    expect(byKey.status).toBe(200);
    expect(keyBytes.length).toBeGreaterThan(12 * 1024);
    expect(byKey.headers.get("content-length")).toBe(String(keyBytes.length));
    expect(byKey.headers.get("transfer-encoding")).toBeNull();

    const byAgent = await fetch(url, {
      headers: { authorization: `Bearer ${await agent.jwt(BASE)}`, ...IDENTITY },
    });
    const agentBytes = new Uint8Array(await byAgent.arrayBuffer());
    expect(byAgent.status).toBe(200);
    expect(byAgent.headers.get("transfer-encoding")).toBe("chunked");
    expect(byAgent.headers.get("content-length")).toBeNull();
    expect(byAgent.headers.get("content-type")).toBe(byKey.headers.get("content-type"));
    expect(byAgent.headers.get("x-request-id")).not.toBeNull();
    expect(Buffer.from(agentBytes).equals(Buffer.from(keyBytes))).toBe(true);
  });

  test("a small late answer keeps its Content-Length", async () => {
    const small = `http://127.0.0.1:${server.port}/v1/products?limit=1`;
    const byAgent = await fetch(small, {
      headers: { authorization: `Bearer ${await agent.jwt(BASE)}`, ...IDENTITY },
    });
    const text = await byAgent.text();
    expect(byAgent.status).toBe(200);
    expect(text.length).toBeLessThan(12 * 1024);
    expect(byAgent.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  });

  test("a late compressed answer is sent as it is, and a HEAD has no body", async () => {
    const gzipped = await fetch(url, {
      headers: { authorization: `Bearer ${await agent.jwt(BASE)}`, "accept-encoding": "gzip" },
      decompress: false,
    } as RequestInit);
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    const bytes = new Uint8Array(await gzipped.arrayBuffer());
    const plain = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(bytes)));
    expect(plain.data).toHaveLength(12);

    const head = await fetch(url, {
      method: "HEAD",
      headers: { authorization: `Bearer ${await agent.jwt(BASE)}` },
    });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  test("a large /mcp answer to an agent JWT is chunked and carries the same bytes as the API key's, which keeps its length", async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${server.port}/mcp`, {
        method: "POST",
        headers: {
          ...headers,
          ...IDENTITY,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "listProducts", arguments: { limit: 12 } },
        }),
      });
    // The first call loads the MCP endpoint (a later turn): the ones after it are answered in their own.
    await (await call({ "x-api-key": merchant.apiKey })).arrayBuffer();
    const byKey = await call({ "x-api-key": merchant.apiKey });
    const keyBytes = new Uint8Array(await byKey.arrayBuffer());
    expect(byKey.status).toBe(200);
    expect(keyBytes.length).toBeGreaterThan(12 * 1024);
    expect(byKey.headers.get("content-length")).toBe(String(keyBytes.length));
    const byAgent = await call({ authorization: `Bearer ${await agent.jwt(BASE)}` });
    const agentBytes = new Uint8Array(await byAgent.arrayBuffer());
    expect(byAgent.status).toBe(200);
    expect(byAgent.headers.get("transfer-encoding")).toBe("chunked");
    expect(Buffer.from(agentBytes).equals(Buffer.from(keyBytes))).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(agentBytes)).result.structuredContent.data).toHaveLength(12);
  });

  test("an /mcp answer finished as its body came in, turns after its headers, keeps its Content-Length", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "listProducts", arguments: { limit: 12 } },
    });
    const head = [
      "POST /mcp HTTP/1.1",
      `host: 127.0.0.1:${server.port}`,
      `x-api-key: ${merchant.apiKey}`,
      "content-type: application/json",
      "accept: application/json, text/event-stream",
      `content-length: ${Buffer.byteLength(body)}`,
      "connection: close",
      "",
      "",
    ].join("\r\n");
    const received: Buffer[] = [];
    const closed = Promise.withResolvers<void>();
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port: server.port!,
      socket: {
        data: (_socket, chunk) => void received.push(Buffer.from(chunk)),
        close: () => closed.resolve(),
      },
    });
    socket.write(head);
    // Several turns of the service's event loop pass between the request's headers and its body.
    await Bun.sleep(50);
    socket.write(body);
    await closed.promise;
    const answer = Buffer.concat(received).toString("utf8");
    const [headers = "", content = ""] = answer.split("\r\n\r\n", 2);
    expect(headers.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(headers.toLowerCase()).not.toContain("transfer-encoding");
    expect(headers.toLowerCase()).toContain(`content-length: ${Buffer.byteLength(content)}`);
    expect(Buffer.byteLength(content)).toBeGreaterThan(12 * 1024);
    expect(JSON.parse(content)).toMatchObject({
      id: 8,
      result: { structuredContent: { data: expect.any(Array) } },
    });
  });
});
