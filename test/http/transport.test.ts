import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import type { LogFields } from "../../src/lib/log.ts";
import { BUN_MAX_REQUEST_BODY_SIZE } from "../../src/server.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { collectLog } from "../helpers/log.ts";
import { probeOperations } from "../helpers/probe-operations.ts";

// Real sockets against a listening server with the body limit `startServer` gives Bun: what Bun does
// before and while `fetch` runs cannot be seen through `app.fetch` alone.
let t: TestApp;
let key: string;
let server: ReturnType<typeof Bun.serve>;
const lines: (LogFields & { msg: string })[] = [];

beforeAll(async () => {
  t = makeTestApp({ operations: probeOperations });
  key = (await t.org("Transport")).key;
  collectLog(t.app.ctx.log, lines);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: BUN_MAX_REQUEST_BODY_SIZE,
    fetch: (request, srv) => t.app.fetch(request, srv),
  });
});
afterAll(() => {
  server.stop(true);
  t.cleanup();
});

/** Writes `payload` on a fresh connection (then half-closes it if `end`); resolves with all the bytes read. */
function raw(payload: string, end = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(server.port), "127.0.0.1", () => {
      socket.write(payload);
      if (end) socket.end();
    });
    let out = "";
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on("data", (chunk) => {
      out += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

const head = (extra: string) =>
  `POST /v1/admin/echo/thing_1 HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\n` +
  `Content-Type: application/json\r\n${extra}\r\n`;

/** The log line of a request id, once the server has written it. */
async function logLine(requestId: string) {
  for (let i = 0; i < 100; i++) {
    const line = lines.find((l) => l.msg === "request" && l.requestId === requestId);
    if (line) return line;
    await Bun.sleep(10);
  }
  throw new Error(`no log line for ${requestId}`);
}

const noServerError = () => expect(lines.filter((l) => l.msg === "unhandled error")).toEqual([]);

describe("bodies over the limit on a real socket", () => {
  test("a declared 100 GB body → our 413 with the envelope, request id and log line; the connection closes", async () => {
    const response = await raw(`${head("x-request-id: huge-1\r\nContent-Length: 100000000000\r\n")}{`);
    expect(response).toStartWith("HTTP/1.1 413");
    expect(response.toLowerCase()).toContain("x-request-id: huge-1");
    expect(response.toLowerCase()).toContain("connection: close");
    const body = JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4));
    expect(body).toEqual({ error: expect.any(String), code: "PAYLOAD_TOO_LARGE", status: 413 });
    expect((await logLine("huge-1")).status).toBe(413);
  });

  test("a declared body just above MAX_BODY_BYTES, on any route (even an unknown one) → the same 413", async () => {
    const limit = t.app.ctx.config.maxBodyBytes;
    for (const [id, path] of [
      ["over-1", "/v1/admin/echo/thing_1"],
      ["over-2", "/v1/nothing-here"],
    ] as const) {
      const request =
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-request-id: ${id}\r\n` +
        `Content-Length: ${limit + 1}\r\n\r\n{`;
      const response = await raw(request);
      expect(response).toStartWith("HTTP/1.1 413");
      expect(response).toContain('"code":"PAYLOAD_TOO_LARGE"');
      expect((await logLine(id)).status).toBe(413);
    }
  });

  test("a chunked body growing past the limit → 413 with the envelope", async () => {
    const limit = t.app.ctx.config.maxBodyBytes;
    const chunk = "a".repeat(64 * 1024);
    let body = "";
    for (let sent = 0; sent <= limit; sent += chunk.length)
      body += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const response = await raw(head("x-request-id: chunked-big\r\nTransfer-Encoding: chunked\r\n") + body);
    expect(response).toStartWith("HTTP/1.1 413");
    expect(response).toContain('"code":"PAYLOAD_TOO_LARGE"');
    expect((await logLine("chunked-big")).status).toBe(413);
  });
});

describe("bodies that cannot be read are a logged 400, never a 500", () => {
  test("malformed chunked encoding → logged 400 VALIDATION_ERROR", async () => {
    await raw(
      head("x-request-id: bad-chunk\r\nTransfer-Encoding: chunked\r\n") +
        '5\r\n{"a":\r\nzz\r\nxx\r\n0\r\n\r\n',
    );
    const line = await logLine("bad-chunk");
    expect(line.status).toBe(400);
    expect(line.route).toBe("/v1/admin/echo/{id}");
    noServerError();
  });

  test("a client that closes mid-body (declared length) → logged 400", async () => {
    await raw(`${head("x-request-id: early-close\r\nContent-Length: 100\r\n")}{"name":`, true);
    expect((await logLine("early-close")).status).toBe(400);
    noServerError();
  });

  test("a client that closes mid-body (chunked) → logged 400", async () => {
    await raw(
      `${head("x-request-id: early-close-chunked\r\nTransfer-Encoding: chunked\r\n")}8\r\n{"name":\r\n`,
      true,
    );
    expect((await logLine("early-close-chunked")).status).toBe(400);
    noServerError();
  });

  test("a JSON body led by a byte-order mark reads alike with a declared length and chunked", async () => {
    const json = '\ufeff{"name":"marked","quantity":2}';
    const bytes = Buffer.byteLength(json);
    const declared = await raw(`${head(`Content-Length: ${bytes}\r\nConnection: close\r\n`)}${json}`);
    const chunked = await raw(
      `${head("Transfer-Encoding: chunked\r\nConnection: close\r\n")}${bytes.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    );
    for (const response of [declared, chunked]) {
      expect(response).toStartWith("HTTP/1.1 201");
      expect(response).toContain('"name":"marked","quantity":2');
    }
    noServerError();
  });

  test("a complete body on the same server still works", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/admin/echo/thing_1`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ name: "ok", quantity: 1 }),
    });
    expect(res.status).toBe(201);
  });
});
