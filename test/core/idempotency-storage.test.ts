import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../src/db/migrations/tenant/index.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { withTenant } from "../helpers/seed-orders.ts";
import { makeShop } from "../helpers/shop.ts";

// Idempotency records live in the tenant file: a replay answers the first answer byte for byte
// after the service restarted, and after the file was migrated to the record's current layout.

const HOST = "records.example";
const dataDir = mkdtempSync(join(tmpdir(), "commerce-idempotency-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const open = () => makeTestApp({ dataDir });

/** A storefront POST of a cart with `key`, answered as the raw text the client receives. */
async function createCart(app: TestApp, key: string, items: unknown[]) {
  const response = await app.request("/v1/carts", {
    method: "POST",
    headers: { host: HOST, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ items }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** What of an answer a replay must give back as it was: status, body bytes, the headers that matter. */
const answerOf = (a: Awaited<ReturnType<typeof createCart>>) => ({
  status: a.status,
  text: a.text,
  contentType: a.headers.get("content-type"),
  location: a.headers.get("location"),
  setCookie: a.headers.get("set-cookie"),
});

const tenantFile = (orgId: string) => join(dataDir, "tenants", `${orgId}.sqlite`);
const cartCount = (app: TestApp, orgId: string) =>
  withTenant(
    app,
    orgId,
    (tenant) => tenant.sqlite.query("SELECT count(*) AS n FROM carts").get() as { n: number },
  ).n;

let orgId: string;
let items: unknown[];

describe("idempotency records at rest", () => {
  test("a cart created with an Idempotency-Key replays byte for byte after a restart; another body with the key is still a 409", async () => {
    const first = open();
    const shop = await makeShop(first, "Records", HOST);
    orgId = shop.org.id;
    const variants = shop.shirt.variants as { id: string }[];
    items = [
      { variantId: variants[0]!.id, quantity: 2 },
      { variantId: variants[1]!.id, quantity: 1 },
    ];
    const created = await createCart(first, "restart-1", items);
    expect(created.status).toBe(201);
    const carts = cartCount(first, orgId);
    first.close();

    const second = open();
    const replay = await createCart(second, "restart-1", items);
    expect(answerOf(replay)).toEqual(answerOf(created));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(created.headers.get("idempotent-replayed")).toBeNull();
    expect(cartCount(second, orgId)).toBe(carts);

    const reused = await createCart(second, "restart-1", items.slice(0, 1));
    expect(reused.status).toBe(409);
    expect(JSON.parse(reused.text)).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", status: 409 });
    expect(cartCount(second, orgId)).toBe(carts);

    second.close();
  });

  test("a record written before the migration that drops the created_at index replays after it", async () => {
    const before = open();
    const created = await createCart(before, "migrated-1", items);
    expect(created.status).toBe(201);
    const carts = cartCount(before, orgId);
    before.close();

    // Put the file back as the schema before that migration left it: the records with their
    // created_at index, that migration and the ones after it (checkout sessions, ACP platforms, UCP
    // signing keys, the store's policy links) not yet applied.
    const sqlite = new Database(tenantFile(orgId));
    const { entries } = migrations.journal;
    const previous = entries.findIndex((e) => e.tag === "0014_idempotency_without_created_index");
    sqlite.transaction(() => {
      sqlite.run("CREATE INDEX idempotency_created_idx ON idempotency_records (created_at)");
      sqlite.run("DROP TABLE checkout_sessions");
      sqlite.run("DROP TABLE acp_platforms");
      sqlite.run("DROP TABLE ucp_signing_keys");
      sqlite.run("ALTER TABLE store_settings DROP COLUMN policy_links");
      sqlite.query("DELETE FROM __drizzle_migrations WHERE created_at >= ?").run(entries[previous]!.when);
      sqlite.run(`PRAGMA user_version = ${previous}`);
    })();
    sqlite.close();

    const after = open();
    const replay = await createCart(after, "migrated-1", items);
    expect(answerOf(replay)).toEqual(answerOf(created));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(cartCount(after, orgId)).toBe(carts);
    // The record of the first test came across too, and the new layout is in place.
    const older = await createCart(after, "restart-1", items);
    expect(older.headers.get("idempotent-replayed")).toBe("true");
    const layout = withTenant(after, orgId, ({ sqlite: file }) => ({
      version: file.query("PRAGMA user_version").get(),
      indexes: file.query("PRAGMA index_list(idempotency_records)").all() as { origin: string }[],
    }));
    expect(layout.version).toEqual({ user_version: entries.length });
    expect(layout.indexes.map((i) => i.origin)).toEqual(["pk"]);
    after.close();
  });

  test("a record older than 24 h answers nothing and is swept by a later keyed write", async () => {
    const app = open();
    const dayAndMore = Date.now() - 25 * 3600 * 1000;
    withTenant(app, orgId, (tenant) => {
      const age = tenant.sqlite.query("UPDATE idempotency_records SET created_at = ? WHERE key = ?");
      age.run(dayAndMore, "restart-1");
      age.run(dayAndMore, "migrated-1");
    });
    const carts = cartCount(app, orgId);
    const again = await createCart(app, "restart-1", items);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(cartCount(app, orgId)).toBe(carts + 1);
    const keys = withTenant(app, orgId, (tenant) =>
      tenant.sqlite.query("SELECT key FROM idempotency_records ORDER BY key").all(),
    );
    expect(keys).toEqual([{ key: "restart-1" }]);
    app.close();
  });
});
