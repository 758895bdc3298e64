// The floor for bench/webhooks.ts: one bare Bun.serve doing what a Stripe notification needs at
// the least: read the bytes, check the signature (the service's own check: HMAC-SHA256, tolerance)
// and insert the event id in SQLite (WAL, committed at synchronous=FULL like a payment), answering
// 200 or 401.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { verifyStripeSignature } from "../src/payments/stripe.ts";

const secret = process.env.STRIPE_WEBHOOK_SECRET ?? "";
const dir = process.env.DATA_DIR ?? "/tmp/webhook-floor";
mkdirSync(dir, { recursive: true });
const sqlite = new Database(join(dir, "floor.sqlite"), { create: true });
sqlite.run("PRAGMA journal_mode = WAL");
sqlite.run("PRAGMA synchronous = FULL");
sqlite.run("CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, received_at INTEGER NOT NULL)");
const insert = sqlite.query("INSERT OR IGNORE INTO events (id, received_at) VALUES (?, ?)");

const ok = JSON.stringify({ data: { received: true, outcome: "applied" } });
Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    if (request.method === "GET") return new Response("ok");
    const body = new Uint8Array(await request.arrayBuffer());
    if (!verifyStripeSignature(request.headers.get("stripe-signature") ?? "", body, secret, Date.now()))
      return new Response("{}", { status: 401 });
    const event = JSON.parse(Buffer.from(body).toString("utf8")) as { id: string };
    insert.run(event.id, Date.now());
    return new Response(ok, { headers: { "content-type": "application/json" } });
  },
});
