// The floor of the add-to-cart benchmark (bench/purchase.ts): plain Bun.serve on its own temp SQLite
// file, configured like a tenant file (WAL, synchronous=NORMAL). Each `POST /v1/carts/{id}/items`
// parses the JSON body and runs ONE raw prepared INSERT into a cart_items-like table inside one
// BEGIN IMMEDIATE transaction, then answers 200 with a small JSON. Nothing else: no caller, no
// validation, no cart read, no pricing, no envelope, no request log. FLOOR_DB names the file.
import { Database } from "bun:sqlite";

const file = process.env.FLOOR_DB;
if (!file) throw new Error("FLOOR_DB (the SQLite file of the floor) is required");

const db = new Database(file, { create: true, readwrite: true, strict: true });
db.run("PRAGMA busy_timeout = 5000");
db.run("PRAGMA journal_mode = WAL");
db.run("PRAGMA synchronous = NORMAL");
db.run(`CREATE TABLE IF NOT EXISTS cart_items (
  id TEXT PRIMARY KEY NOT NULL,
  cart_id TEXT NOT NULL,
  variant_id TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  created_at INTEGER NOT NULL
)`);
db.run("CREATE INDEX IF NOT EXISTS cart_items_cart_idx ON cart_items (cart_id, created_at)");

const insert = db.prepare(
  "INSERT INTO cart_items (id, cart_id, variant_id, quantity, created_at) VALUES (?, ?, ?, ?, ?)",
);
const add = db.transaction((id: string, cartId: string, variantId: string, quantity: number) => {
  insert.run(id, cartId, variantId, quantity, Date.now());
});

const PREFIX = "/v1/carts/";
const SUFFIX = "/items";
const JSON_HEADERS = { "content-type": "application/json" };
let seq = 0;

Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  async fetch(request) {
    if (request.method === "GET") return new Response("ok"); // readiness probe
    const url = request.url;
    const start = url.indexOf(PREFIX, url.indexOf("//") + 2);
    const end = url.lastIndexOf(SUFFIX);
    if (request.method !== "POST" || start === -1 || end <= start) return new Response(null, { status: 404 });
    const cartId = url.slice(start + PREFIX.length, end);
    const body = (await request.json()) as { variantId: string; quantity: number };
    const id = `item_${process.pid}_${++seq}`;
    add.immediate(id, cartId, body.variantId, body.quantity);
    return new Response(JSON.stringify({ data: { id, cartId, variantId: body.variantId } }), {
      headers: JSON_HEADERS,
    });
  },
});
