// The floors of the write benchmarks of bench/purchase.ts: plain Bun.serve on its own temp SQLite
// file, configured like a tenant file (WAL, synchronous=NORMAL). Nothing else: no caller, no
// validation, no cart read, no pricing, no envelope, no request log. FLOOR_DB names the file;
// FLOOR_VARIANTS is a JSON array of `{id, productId, price}` rows put into its variants table.
//
// - `POST /v1/carts/{id}/items` (add-to-cart) parses the JSON body and runs ONE raw prepared INSERT
//   into a cart_items-like table inside one BEGIN IMMEDIATE transaction, then answers 200 with a
//   small JSON.
//   With `FLOOR_ADD=merge` it is "+1" on an existing cart instead: in one BEGIN IMMEDIATE
//   transaction it looks up the variant's price, raises the quantity of the cart's line of that
//   variant (or inserts the line when there is none) and sets the cart's `updated_at`.
// - `POST /v1/carts` (create cart with item) parses `{items: [{variantId, quantity}]}` and in one
//   BEGIN IMMEDIATE transaction looks up the variant's price, inserts the cart and its line, then
//   answers 201 with a small JSON. Request headers (an `Idempotency-Key`) are ignored.
import { Database } from "bun:sqlite";

const file = process.env.FLOOR_DB;
if (!file) throw new Error("FLOOR_DB (the SQLite file of the floor) is required");
const merge = process.env.FLOOR_ADD === "merge";
const variants = JSON.parse(process.env.FLOOR_VARIANTS ?? "[]") as {
  id: string;
  productId: string;
  price: number;
}[];

const sqlite = new Database(file, { create: true, readwrite: true, strict: true });
sqlite.run("PRAGMA busy_timeout = 5000");
sqlite.run("PRAGMA journal_mode = WAL");
sqlite.run("PRAGMA synchronous = NORMAL");
sqlite.run(`CREATE TABLE IF NOT EXISTS cart_items (
  id TEXT PRIMARY KEY NOT NULL,
  cart_id TEXT NOT NULL,
  variant_id TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  product_id TEXT,
  unit_price INTEGER
)`);
sqlite.run("CREATE INDEX IF NOT EXISTS cart_items_cart_idx ON cart_items (cart_id, created_at)");
// The columns of the service's carts table (src/cart/tables.ts).
sqlite.run(`CREATE TABLE IF NOT EXISTS carts (
  id TEXT PRIMARY KEY NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  email TEXT,
  customer_id TEXT,
  coupon_code TEXT,
  shipping_address TEXT,
  billing_address TEXT,
  shipping_method_id TEXT,
  order_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
)`);
sqlite.run(
  "CREATE TABLE IF NOT EXISTS variants (id TEXT PRIMARY KEY NOT NULL, product_id TEXT NOT NULL, price INTEGER NOT NULL)",
);
const putVariant = sqlite.prepare("INSERT OR REPLACE INTO variants (id, product_id, price) VALUES (?, ?, ?)");
for (const v of variants) putVariant.run(v.id, v.productId, v.price);

const insert = sqlite.prepare(
  "INSERT INTO cart_items (id, cart_id, variant_id, quantity, created_at) VALUES (?, ?, ?, ?, ?)",
);
const add = sqlite.transaction((id: string, cartId: string, variantId: string, quantity: number) => {
  insert.run(id, cartId, variantId, quantity, Date.now());
});

const variantPrice = sqlite.prepare("SELECT product_id, price FROM variants WHERE id = ?");
const insertCart = sqlite.prepare(
  "INSERT INTO carts (id, status, currency, created_at, updated_at) VALUES (?, 'active', 'EUR', ?, ?)",
);
const insertLine = sqlite.prepare(
  "INSERT INTO cart_items (id, cart_id, product_id, variant_id, quantity, unit_price, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
);
const create = sqlite.transaction((cartId: string, itemId: string, variantId: string, quantity: number) => {
  const variant = variantPrice.get(variantId) as { product_id: string; price: number } | null;
  if (!variant) return null;
  const now = Date.now();
  insertCart.run(cartId, now, now);
  insertLine.run(itemId, cartId, variant.product_id, variantId, quantity, variant.price, now);
  return variant.price;
});
const raiseLine = sqlite.prepare(
  "UPDATE cart_items SET quantity = quantity + ?, unit_price = ? WHERE cart_id = ? AND variant_id = ?",
);
const touchCart = sqlite.prepare("UPDATE carts SET updated_at = ? WHERE id = ?");
const plusOne = sqlite.transaction((id: string, cartId: string, variantId: string, quantity: number) => {
  const variant = variantPrice.get(variantId) as { product_id: string; price: number } | null;
  if (!variant) return false;
  const now = Date.now();
  if (raiseLine.run(quantity, variant.price, cartId, variantId).changes === 0) {
    insertLine.run(id, cartId, variant.product_id, variantId, quantity, variant.price, now);
  }
  touchCart.run(now, cartId);
  return true;
});

const CARTS = "/v1/carts";
const PREFIX = "/v1/carts/";
const SUFFIX = "/items";
const JSON_HEADERS = { "content-type": "application/json" };
let seq = 0;

Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  async fetch(request) {
    if (request.method === "GET") return new Response("ok"); // readiness probe
    if (request.method !== "POST") return new Response(null, { status: 404 });
    const url = request.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    if (path === CARTS) {
      const body = (await request.json()) as { items: { variantId: string; quantity: number }[] };
      const line = body.items[0]!;
      const cartId = `cart_${process.pid}_${++seq}`;
      const itemId = `item_${process.pid}_${seq}`;
      const price = create.immediate(cartId, itemId, line.variantId, line.quantity);
      if (price === null) return new Response(null, { status: 404 });
      return new Response(
        JSON.stringify({
          data: { id: cartId, items: [{ id: itemId, variantId: line.variantId, unitPrice: price }] },
        }),
        { status: 201, headers: JSON_HEADERS },
      );
    }
    const end = path.lastIndexOf(SUFFIX);
    if (!path.startsWith(PREFIX) || end <= PREFIX.length) return new Response(null, { status: 404 });
    const cartId = path.slice(PREFIX.length, end);
    const body = (await request.json()) as { variantId: string; quantity: number };
    const id = `item_${process.pid}_${++seq}`;
    if (!merge) add.immediate(id, cartId, body.variantId, body.quantity);
    else if (!plusOne.immediate(id, cartId, body.variantId, body.quantity)) {
      return new Response(null, { status: 404 });
    }
    return new Response(JSON.stringify({ data: { id, cartId, variantId: body.variantId } }), {
      headers: JSON_HEADERS,
    });
  },
});
