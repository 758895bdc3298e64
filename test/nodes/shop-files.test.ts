import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addMember } from "../../src/auth/service.ts";
import { CREDENTIAL_CACHE_MS } from "../../src/db/platform.ts";
import { modules } from "../../src/modules.ts";
import { shopRows } from "../../src/nodes/shop-files.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";
import { tenantRows } from "../helpers/tenant-rows.ts";

// A shop as a file, through the command line as an operator runs it, while the service that holds
// the shop keeps running: export → import into a fresh node (every row equal), erase (nothing of
// the shop left, backups included), restore of a whole data directory and of one shop.

let source: TestApp;
let shop: Shop;
let neighbour: Shop;
const dirs: string[] = [];

const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `commerce-nodes-${label}-`));
  dirs.push(dir);
  return dir;
};

/** A `--json` run of the command line on `dataDir`: its exit code and answer. */
async function cli(dataDir: string, ...args: string[]) {
  const run = await runCli([...args, "--json"], { DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const line = run.stdout.trim() || run.stderr.trim();
  // A usage error is text (with the usage), never JSON.
  return { code: run.code, answer: line.startsWith("{") ? JSON.parse(line) : null, stderr: run.stderr };
}

/**
 * The control-plane rows of a shop in the data directory's platform file; the organization without
 * its due times, which an import sets to "now" (the node opens the file once to learn its own).
 */
function controlPlane(dataDir: string, orgId: string) {
  const platform = new Database(join(dataDir, "platform.sqlite"), { readonly: true });
  try {
    const rows = Object.fromEntries(shopRows({ tenantSetup: modules }, platform, orgId));
    rows.organizations = rows.organizations!.map(
      ({ outbox_due_at: _, next_payment_deadline: __, ...org }) => org,
    );
    return rows;
  } finally {
    platform.close();
  }
}

/** Every row of every table of the control plane that mentions `needle` in any column. */
function mentions(platformFile: string, needle: string): string[] {
  const platform = new Database(platformFile, { readonly: true });
  try {
    const tables = platform.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return tables.flatMap(({ name }) =>
      (platform.query(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
        .filter((row) =>
          Object.values(row).some((value) => typeof value === "string" && value.includes(needle)),
        )
        .map((row) => `${name}: ${JSON.stringify(row)}`),
    );
  } finally {
    platform.close();
  }
}

beforeAll(async () => {
  source = makeTestApp();
  shop = await makeShop(source, "Exported Shop", "exported.example");
  neighbour = await makeShop(source, "Neighbour", "neighbour.example");
  await placeBankTransferOrder(shop);
  await shop.admin.post("/v1/admin/webhook-endpoints", {
    url: "http://localhost:9/hooks",
    events: ["order.paid"],
  });
  const cookie = await signUp(source, "owner@exported.example", "a long password");
  const owner = (await source.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  addMember(source.app.ctx.platform, shop.org.id, owner, "owner");
});
afterAll(() => {
  source.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("a shop as a file", () => {
  test("export while the service runs → import into a fresh node: every row of the file and of the control plane equal, and the shop answers there", async () => {
    const archive = join(tempDir("archive"), "shop.sqlite");
    const exported = await cli(source.dataDir, "shop", "export", "--org", shop.org.id, "--out", archive);
    expect(exported.code).toBe(0);
    // Writes go on meanwhile; the archive is the shop as it was.
    await placeBankTransferOrder(shop, "later@example.com");

    const node = tempDir("node");
    const imported = await cli(node, "shop", "import", "--file", archive);
    expect(imported.code).toBe(0);
    expect(imported.answer.orgId).toBe(shop.org.id);
    const there = tenantRows(node, shop.org.id);
    const expected = new Database(archive, { readonly: true });
    try {
      for (const [table, rows] of Object.entries(there)) {
        const archived = expected.query(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
        expect({ table, rows }).toEqual({ table, rows: archived });
      }
    } finally {
      expected.close();
    }
    expect(Object.keys(there)).not.toContain("_shop_export_rows");
    expect(there.orders).toHaveLength(1);
    // The control plane: the shop's rows as the source had them when exported (the shop took no new ones since).
    expect(controlPlane(node, shop.org.id)).toEqual(controlPlane(source.dataDir, shop.org.id));
    expect(controlPlane(node, shop.org.id).members).toHaveLength(1);

    const served = makeTestApp({ dataDir: node });
    try {
      const products = await served.json("/v1/products", { headers: { host: "exported.example" } });
      expect(products.status).toBe(200);
      expect(products.body.data.map((p: { id: string }) => p.id)).toContain(shop.shirt.id);
      const orders = await served.json("/v1/admin/orders", { headers: { "x-api-key": shop.org.key } });
      expect(orders.body.meta.total).toBe(1);
    } finally {
      served.app.close();
    }

    // Imported again, or over a node where its host is another shop's: refused, nothing changed.
    const again = await cli(node, "shop", "import", "--file", archive);
    expect(again.code).toBe(1);
    expect(again.answer.error).toContain(`organization ${shop.org.id} exists`);
    const taken = await cli(source.dataDir, "shop", "import", "--file", archive);
    expect(taken.code).toBe(1);
    expect(taken.answer.error).toContain(`organization ${shop.org.id} exists`);
  });

  test("erase: the file, every control-plane row and the copies in a backup are gone; the neighbour is untouched", async () => {
    const victim = await makeShop(source, "Erased Shop", "erased.example");
    await placeBankTransferOrder(victim);
    const backupDir = join(tempDir("backup"), "snap");
    expect((await cli(source.dataDir, "backup", "--out", backupDir)).code).toBe(0);
    expect(existsSync(join(backupDir, "tenants", `${victim.org.id}.sqlite`))).toBe(true);

    const refused = await cli(source.dataDir, "shop", "erase", "--org", victim.org.id);
    expect(refused.code).toBe(2);
    const erased = await cli(
      source.dataDir,
      "shop",
      "erase",
      "--org",
      victim.org.id,
      "--yes",
      "--backup",
      backupDir,
    );
    expect(erased.code).toBe(0);

    expect(existsSync(join(source.dataDir, "tenants", `${victim.org.id}.sqlite`))).toBe(false);
    expect(existsSync(join(backupDir, "tenants", `${victim.org.id}.sqlite`))).toBe(false);
    for (const platformFile of [
      join(source.dataDir, "platform.sqlite"),
      join(backupDir, "platform.sqlite"),
    ]) {
      expect(mentions(platformFile, victim.org.id)).toEqual([]);
      expect(mentions(platformFile, "erased.example")).toEqual([]);
    }
    // The running service sees another process's change of the control plane within its credential cache's life.
    await Bun.sleep(CREDENTIAL_CACHE_MS + 100);
    const gone = await source.json("/v1/products", { headers: { "x-api-key": victim.org.key } });
    expect(gone.status).toBe(401);
    expect((await source.json("/v1/products", { headers: { host: "erased.example" } })).status).toBe(401);
    expect((await neighbour.storefront("/v1/products")).status).toBe(200);
    expect(mentions(join(backupDir, "platform.sqlite"), neighbour.org.id).length).toBeGreaterThan(0);
  });

  test("restore: a whole data directory from a backup equals it; one shop comes back from a backup over the one here", async () => {
    const backupDir = join(tempDir("backup"), "snap");
    expect((await cli(source.dataDir, "backup", "--out", backupDir)).code).toBe(0);

    const node = tempDir("restored");
    const restored = await cli(node, "restore", "--from", backupDir);
    expect(restored.code).toBe(0);
    for (const org of [shop.org.id, neighbour.org.id]) {
      expect(tenantRows(node, org)).toEqual(tenantRows(backupDir, org));
      expect(controlPlane(node, org)).toEqual(controlPlane(backupDir, org));
    }
    // A directory that holds shops is never restored over.
    const over = await cli(node, "restore", "--from", backupDir);
    expect(over.code).toBe(1);

    // One shop back as the backup had it, over the one here that took an order since.
    await placeBankTransferOrder(neighbour, "after-backup@example.com");
    expect(tenantRows(source.dataDir, neighbour.org.id).orders).toHaveLength(1);
    expect(tenantRows(backupDir, neighbour.org.id).orders).toHaveLength(0);
    const one = await cli(
      source.dataDir,
      "shop",
      "restore",
      "--org",
      neighbour.org.id,
      "--from",
      backupDir,
      "--replace",
    );
    expect(one.code).toBe(0);
    expect(tenantRows(source.dataDir, neighbour.org.id)).toEqual(tenantRows(backupDir, neighbour.org.id));
    // The running service, which had the replaced file open, serves the restored one once its pool checks the path.
    await Bun.sleep(CREDENTIAL_CACHE_MS + 100);
    expect((await neighbour.admin.get("/v1/admin/orders")).body.meta.total).toBe(0);
  });
});
