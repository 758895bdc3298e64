// The floor for bench/agents.ts's agent-JWT reads: one bare Bun.serve doing what a signed agent
// request needs at the least: take the token from `Authorization: Bearer`, check its Ed25519
// signature with `crypto.subtle` (on Bun's thread pool, as the service does), and send the bytes
// the service answers the same read with (fetched once, as the same content type), in 8 KiB chunks
// since the answer is finished after the check (docs/architecture.md, "Late answers"). No claims,
// no replay record, no lookup. 401 when the signature does not verify.
// Environment: AGENT_PUBLIC_JWK (the agent's public key as a JWK), BODY_FILE (the answer's bytes).
import type { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";

const jwk = JSON.parse(process.env.AGENT_PUBLIC_JWK ?? "{}") as webcrypto.JsonWebKey;
const key = await crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, ["verify"]);
const body = new Uint8Array(readFileSync(process.env.BODY_FILE ?? ""));
const encoder = new TextEncoder();
const headers = { "content-type": "application/json" };

const chunks = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < body.length; at += 8192) controller.enqueue(body.subarray(at, at + 8192));
      controller.close();
    },
  });

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const token = request.headers.get("authorization")?.slice("Bearer ".length) ?? "";
    const dot = token.lastIndexOf(".");
    if (request.method === "GET" && dot < 0) return new Response("ok"); // the readiness probe
    const signature = Buffer.from(token.slice(dot + 1), "base64url");
    const signed = await crypto.subtle.verify("Ed25519", key, signature, encoder.encode(token.slice(0, dot)));
    if (!signed) return new Response("{}", { status: 401, headers });
    return new Response(chunks(), { headers });
  },
});
