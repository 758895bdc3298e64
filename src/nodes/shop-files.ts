import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AppContext, ShopRows } from "../app-context.ts";
import { deleteOrganization } from "../auth/service.ts";
import { ApiError } from "../core/errors.ts";
import { markOrganizationDue } from "../db/due-times.ts";
import { openPlatformDb, organizationExists } from "../db/platform.ts";
import { TenantPool } from "../db/tenant-pool.ts";

// A shop is one SQLite file plus its rows in the control plane (docs/scaling.md). These move it as
// one archive: `export` is a consistent copy of the file (VACUUM INTO, safe while the server
// writes) holding, in two extra tables, the shop's control-plane rows; `import` adopts such an
// archive into another data directory (refused when any id, slug, host or account collides);
// `erase` removes the file and every row; `restore` brings one shop back from a backup.

/** The archive's format: bumped when what it holds changes. */
const FORMAT = 1;
const META_TABLE = "_shop_export";
const ROWS_TABLE = "_shop_export_rows";

/**
 * The control-plane rows of one shop, as the modules that own them declare them
 * (`Module.shopRows`), in module order, parents first: an import inserts them in this order. This
 * module moves them as data, as a backup copies a file; the owners' own rules for them still hold
 * where they change them (an erase is the auth module's `deleteOrganization`, whose foreign keys
 * cascade to every other row).
 */
const shopRowsOf = (ctx: Pick<AppContext, "tenantSetup">): readonly ShopRows[] =>
  ctx.tenantSetup.flatMap((module) => module.shopRows ?? []);

type Row = Record<string, unknown>;

/** Every control-plane row of a shop, by table, read in one transaction. */
export function shopRows(
  ctx: Pick<AppContext, "tenantSetup">,
  platform: Database,
  orgId: string,
): Map<string, Row[]> {
  return platform.transaction(() => {
    const rows = new Map<string, Row[]>();
    for (const { table, where } of shopRowsOf(ctx)) {
      rows.set(table, platform.query(`SELECT * FROM ${table} WHERE ${where}`).all(orgId) as Row[]);
    }
    return rows;
  })();
}

const missing = (orgId: string) => new ApiError("NOT_FOUND", `organization ${orgId} not found`);

/** Writes the archive of a shop to `out` (a new file): its database, and its control-plane rows inside it. */
export async function exportShop(ctx: AppContext, orgId: string, out: string) {
  if (existsSync(out)) throw new ApiError("CONFLICT", `${out} already exists`);
  const rows = shopRows(ctx, ctx.platform.sqlite, orgId);
  if (rows.get("organizations")!.length === 0) throw missing(orgId);
  await ctx.tenants.with(orgId, (tenant) => tenant.sqlite.query("VACUUM INTO ?").run(out));
  writeRows(out, orgId, rows);
  const counted = [...rows.values()].reduce((sum, list) => sum + list.length, 0);
  return { orgId, file: out, controlPlaneRows: counted };
}

/** Adds the archive's tables to a copy of a shop's file: what it is, and its control-plane rows. */
function writeRows(file: string, orgId: string, rows: Map<string, Row[]>): void {
  const archive = new Database(file);
  try {
    archive.transaction(() => {
      archive.run(`CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      archive.run(
        `CREATE TABLE ${ROWS_TABLE} (position INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row TEXT NOT NULL)`,
      );
      const meta = archive.query(`INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?)`);
      meta.run("format", String(FORMAT));
      meta.run("organization_id", orgId);
      meta.run("exported_at", new Date().toISOString());
      const insert = archive.query(`INSERT INTO ${ROWS_TABLE} (tbl, row) VALUES (?, ?)`);
      for (const [table, list] of rows) for (const row of list) insert.run(table, JSON.stringify(row));
    })();
  } finally {
    archive.close();
  }
}

interface Archive {
  orgId: string;
  rows: { table: string; row: Row }[];
}

/** `name`: what an error calls the file (the operator's path, or what the file is when it is ours). */
function readArchive(file: string, name: string): Archive {
  if (!existsSync(file)) throw new ApiError("NOT_FOUND", `${name} does not exist`);
  const db = new Database(file, { readonly: true });
  try {
    const meta = new Map(
      (db.query(`SELECT key, value FROM ${META_TABLE}`).all() as { key: string; value: string }[]).map(
        (m) => [m.key, m.value],
      ),
    );
    if (meta.get("format") !== String(FORMAT)) throw new Error("unknown format");
    const rows = (
      db.query(`SELECT tbl, row FROM ${ROWS_TABLE} ORDER BY position`).all() as {
        tbl: string;
        row: string;
      }[]
    ).map((r) => ({ table: r.tbl, row: JSON.parse(r.row) as Row }));
    return { orgId: meta.get("organization_id")!, rows };
  } catch (error) {
    throw new ApiError("VALIDATION_ERROR", `${name} is not a shop export (${(error as Error).message})`);
  } finally {
    db.close();
  }
}

/** Why the archive's rows cannot join this control plane: the first id, slug, host or account already taken. */
function collision(specs: readonly ShopRows[], platform: Database, archive: Archive): string | null {
  const taken = (sql: string, ...args: unknown[]) => platform.query(sql).get(...(args as string[])) !== null;
  for (const { table, row } of archive.rows) {
    const spec = specs.find((s) => s.table === table);
    if (table === "organizations") {
      if (taken("SELECT 1 FROM organizations WHERE id = ?", row.id)) return `organization ${row.id} exists`;
      if (taken("SELECT 1 FROM organizations WHERE slug = ?", row.slug)) return `slug ${row.slug} is taken`;
    } else if (table === "domains") {
      if (taken("SELECT 1 FROM domains WHERE host = ?", row.host)) return `host ${row.host} is taken`;
    } else if (table === "users") {
      const same = platform.query("SELECT id FROM users WHERE email = ?").get(row.email as string) as {
        id: string;
      } | null;
      if (same && same.id !== row.id) return `account ${row.email} exists here under another id`;
    } else if (!spec?.shared && "id" in row && taken(`SELECT 1 FROM ${table} WHERE id = ?`, row.id)) {
      return `${table} ${row.id} exists`;
    }
  }
  return null;
}

function insertRow(platform: Database, table: string, row: Row, shared: boolean): void {
  const columns = Object.keys(row);
  const verb = shared ? "INSERT OR IGNORE" : "INSERT";
  platform
    .query(`${verb} INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
    .run(...(columns.map((c) => row[c]) as string[]));
}

/**
 * Adopts an archive into this data directory: its file becomes the shop's (the archive's tables
 * dropped), its rows join the control plane in one transaction. Refused, nothing changed, when the
 * shop, its slug, a host or any row's id is already here. `name`: what an error calls the file.
 */
export async function importShop(ctx: AppContext, file: string, name = file) {
  const archive = readArchive(file, name);
  const specs = shopRowsOf(ctx);
  const why = collision(specs, ctx.platform.sqlite, archive);
  if (why) throw new ApiError("CONFLICT", `cannot import ${archive.orgId}: ${why}`);
  const target = ctx.tenants.fileOf(archive.orgId);
  if (existsSync(target)) throw new ApiError("CONFLICT", `a file for ${archive.orgId} is already here`);
  copyFileSync(file, target);
  try {
    const copy = new Database(target);
    try {
      copy.run(`DROP TABLE ${META_TABLE}`);
      copy.run(`DROP TABLE ${ROWS_TABLE}`);
      copy.run("VACUUM");
    } finally {
      copy.close();
    }
    const platform = ctx.platform.sqlite;
    platform.transaction(() => {
      for (const { table, row } of archive.rows) {
        insertRow(platform, table, row, specs.find((s) => s.table === table)?.shared === true);
      }
      // Its outbox and payment deadlines are looked at on the next start or drain.
      markOrganizationDue(platform, archive.orgId);
      takeShop(platform, archive.orgId, Date.now());
    })();
  } catch (error) {
    ctx.tenants.discard(archive.orgId);
    throw error;
  }
  ctx.platform.cache.hosts.clear();
  ctx.platform.cache.apiKeys.clear();
  return { orgId: archive.orgId, rows: archive.rows.length };
}

/** Records that this node took a shop at `at` (the directory's later taker holds it). */
export function takeShop(platform: Database, orgId: string, at: number): void {
  platform
    .query(
      "INSERT INTO held_shops (org_id, taken_at) VALUES (?1, ?2) ON CONFLICT (org_id) DO UPDATE SET taken_at = ?2",
    )
    .run(orgId, at);
}

/**
 * Erases a shop from this node: its control-plane rows (the auth module's `deleteOrganization`,
 * whose foreign keys take every other row of the shop with them; accounts stay, shared), its file,
 * and the same in each backup named. For an erasure request.
 */
export function eraseShop(ctx: AppContext, orgId: string, backups: readonly string[] = []) {
  const counted = [...shopRows(ctx, ctx.platform.sqlite, orgId).entries()];
  if (counted.find(([table]) => table === "organizations")?.[1].length === 0) throw missing(orgId);
  deleteOrganization(ctx, orgId);
  for (const dir of backups) {
    const platform = openPlatformDb(dir);
    try {
      // A backup without the shop (taken before it existed) has nothing of it to erase.
      if (organizationExists(platform, orgId))
        deleteOrganization({ platform, tenants: new TenantPool(dir, 1) }, orgId);
      else new TenantPool(dir, 1).remove(orgId);
      platform.sqlite.run("VACUUM");
    } finally {
      platform.sqlite.close();
    }
  }
  const rows = counted.reduce((sum, [, list]) => sum + list.length, 0);
  return { orgId, controlPlaneRows: rows, backups: [...backups] };
}

/**
 * One shop back from a `backup` directory (its file and its rows in the backup's control plane),
 * as an import of an archive made from them. With `replace`, the shop now here is erased first.
 */
export async function restoreShop(
  ctx: AppContext,
  orgId: string,
  backupDir: string,
  options: { replace?: boolean } = {},
) {
  const source = join(backupDir, "tenants", `${orgId}.sqlite`);
  if (!existsSync(source)) throw new ApiError("NOT_FOUND", `${backupDir} holds no file of ${orgId}`);
  const backupPlatform = new Database(join(backupDir, "platform.sqlite"), { readonly: true });
  const archiveFile = join(backupDir, `.restore-${orgId}.sqlite`);
  try {
    const rows = shopRows(ctx, backupPlatform, orgId);
    if (rows.get("organizations")!.length === 0) throw missing(orgId);
    copyFileSync(source, archiveFile);
    writeRows(archiveFile, orgId, rows);
  } finally {
    backupPlatform.close();
  }
  try {
    if (options.replace && ctx.platform.sqlite.query("SELECT 1 FROM organizations WHERE id = ?").get(orgId)) {
      eraseShop(ctx, orgId);
    }
    return await importShop(ctx, archiveFile);
  } finally {
    rmSync(archiveFile, { force: true });
  }
}
