// The floor for bench/agents.ts's MCP reads: one bare Bun.serve that reads a POST's body and sends
// the bytes the service answers `tools/call listProducts` with (fetched once, as the same content
// type). No JSON-RPC parsing, no caller, no tool call: what sending that answer costs on its own,
// beside the REST read that sends the listing alone (the MCP result carries it twice: as escaped
// text and as `structuredContent`).
// Environment: BODY_FILE (the answer's bytes).
import { readFileSync } from "node:fs";

const body = new Uint8Array(readFileSync(process.env.BODY_FILE ?? ""));
const headers = { "content-type": "application/json" };

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    if (request.method === "GET") return new Response("ok"); // the readiness probe
    await request.arrayBuffer();
    return new Response(body, { headers });
  },
});
