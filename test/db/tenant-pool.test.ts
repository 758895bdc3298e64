import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../src/db/migrations/tenant/index.ts";
import { KEPT_WAL_BYTES } from "../../src/db/sqlite.ts";
import { TENANT_CACHE_KIB, type TenantDb, TenantPool } from "../../src/db/tenant-pool.ts";
import { tenantMeta } from "../../src/db/tenant-tables.ts";
import { newId } from "../../src/lib/ids.ts";
import { makeTestApp } from "../helpers/app.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "commerce-pool-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("tenant files", () => {
  test("create makes a WAL file migrated to the current schema; a second create of the same org fails", () => {
    const dir = tempDir();
    const pool = new TenantPool(dir, 4);
    const orgId = newId("org");
    pool.create(orgId);
    const sqlite = new Database(join(dir, "tenants", `${orgId}.sqlite`), { readonly: true });
    expect(sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const applied = migrations.journal.entries.length;
    expect(sqlite.query("PRAGMA user_version").get()).toEqual({ user_version: applied });
    expect(sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get()).toEqual({ n: applied });
    sqlite.close();
    expect(() => pool.create(orgId)).toThrow(/already exists/);
    pool.close();
  });

  test("handles are opened with foreign keys on and busy_timeout set", async () => {
    const pool = new TenantPool(tempDir(), 4);
    const orgId = newId("org");
    pool.create(orgId);
    await pool.with(orgId, (tenant) => {
      expect(tenant.sqlite.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
      expect(tenant.sqlite.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
      expect(tenant.sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    });
    pool.close();
  });

  test("a malformed org id never becomes a path; a missing or foreign file is refused", () => {
    const dir = tempDir();
    const pool = new TenantPool(dir, 4);
    for (const bad of ["../platform", "org_../../x", "org_a/b", "", "ORG_abcdefgh1"]) {
      expect(() => pool.acquire(bad)).toThrow(/malformed org id/);
    }
    expect(() => pool.acquire(newId("org"))).toThrow();
    const a = newId("org");
    const b = newId("org");
    pool.create(a);
    copyFileSync(join(dir, "tenants", `${a}.sqlite`), join(dir, "tenants", `${b}.sqlite`));
    expect(() => pool.acquire(b)).toThrow(/does not belong/);
    pool.close();
  });

  test("the pool stays within its bound and never closes a handle still in use", () => {
    const pool = new TenantPool(tempDir(), 2);
    const ids = [newId("org"), newId("org"), newId("org")];
    for (const id of ids) pool.create(id);
    const held = pool.acquire(ids[0]!);
    pool.release(pool.acquire(ids[1]!));
    pool.release(pool.acquire(ids[2]!)); // evicts ids[0], which is still held
    expect(pool.size).toBe(2);
    expect(held.sqlite.query("SELECT value FROM tenant_meta").get()).toEqual({ value: ids[0] });
    pool.release(held);
    expect(() => held.sqlite.query("SELECT 1").get()).toThrow();
    pool.close();
  });
});

/** This process's open descriptors on files under `dir` (Linux /proc). */
const openFilesUnder = (dir: string) =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false; // closed between the listing and the read
    }
  }).length;

/** A pool of `capacity` over `count` created shops, and their ids. */
const poolOf = (capacity: number, count: number) => {
  const dir = tempDir();
  const pool = new TenantPool(dir, capacity);
  const ids = Array.from({ length: count }, () => newId("org"));
  for (const id of ids) pool.create(id);
  return { dir, pool, ids };
};

describe("bounds", () => {
  test("a handle the pool closes gives its files back at once: open descriptors stay within three per pooled handle", async () => {
    const { dir, pool, ids } = poolOf(3, 12);
    expect(openFilesUnder(dir)).toBe(0); // create closes what it opened
    for (const id of ids) {
      // Drizzle queries too: their statements must not keep a closed connection's files open.
      await pool.with(id, (tenant) => tenant.db.select().from(tenantMeta).all());
      expect(openFilesUnder(dir)).toBeLessThanOrEqual(3 * 3);
    }
    expect(pool.size).toBe(3);
    pool.close();
    expect(openFilesUnder(dir)).toBe(0);
  });

  test("a handle evicted or removed while in use keeps working until its last release, then its files close", () => {
    const { dir, pool, ids } = poolOf(1, 3);
    const [a, b, c] = ids as [string, string, string];
    const held = pool.acquire(a);
    const heldTwice = pool.acquire(a);
    expect(heldTwice).toBe(held);
    pool.release(pool.acquire(b)); // evicts a while two requests hold it
    const again = pool.acquire(a); // a fresh handle: the evicted one is not handed out again
    expect(again).not.toBe(held);
    pool.release(held);
    expect(held.sqlite.query("SELECT value FROM tenant_meta").get()).toEqual({ value: a });
    pool.release(heldTwice);
    expect(() => held.sqlite.query("SELECT 1").get()).toThrow();
    const removed = pool.acquire(c); // evicts the fresh handle of a (released below)
    pool.release(again);
    pool.remove(c);
    expect(removed.sqlite.query("SELECT value FROM tenant_meta").get()).toEqual({ value: c });
    pool.release(removed);
    expect(() => removed.sqlite.query("SELECT 1").get()).toThrow();
    expect(openFilesUnder(dir)).toBe(0);
    pool.close();
  });

  test("every file the pool opens, created or opened again after eviction, gets the same pragmas", async () => {
    const { pool, ids } = poolOf(1, 3);
    const pragmas = (tenant: TenantDb) =>
      ["journal_mode", "foreign_keys", "busy_timeout", "synchronous", "cache_size", "journal_size_limit"].map(
        (name) => Object.values(tenant.sqlite.query(`PRAGMA ${name}`).get() as object),
      );
    const expected = [["wal"], [1], [5000], [1], [-TENANT_CACHE_KIB], [KEPT_WAL_BYTES]];
    for (const round of [1, 2]) {
      for (const id of ids) {
        await pool.with(id, (tenant) =>
          expect({ round, id, pragmas: pragmas(tenant) }).toEqual({ round, id, pragmas: expected }),
        );
      }
    }
    pool.create(newId("org"), (tenant) => expect(pragmas(tenant)).toEqual(expected));
    pool.close();
  });
});

describe("WAL files", () => {
  test("a closed handle leaves its writes in the file, its -wal empty and both WAL files in place; the next open reads them", () => {
    const { dir, pool, ids } = poolOf(1, 2);
    const [a, b] = ids as [string, string];
    const file = join(dir, "tenants", `${a}.sqlite`);
    const tenant = pool.acquire(a);
    tenant.sqlite.transaction(() => {
      for (let i = 0; i < 200; i++)
        tenant.sqlite.run("INSERT INTO tenant_meta (key, value) VALUES (?, ?)", [`k${i}`, "x".repeat(500)]);
    })();
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(100_000);
    pool.release(tenant);
    pool.release(pool.acquire(b)); // evicts a: its handle closes
    expect(openFilesUnder(dir)).toBe(3);
    expect(existsSync(`${file}-shm`)).toBe(true);
    expect(statSync(`${file}-wal`).size).toBe(0);
    // Checkpointed: the file alone, copied without its WAL files, holds every row.
    const copy = join(dir, "copy.sqlite");
    copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    expect(alone.query("SELECT count(*) AS n FROM tenant_meta WHERE key LIKE 'k%'").get()).toEqual({
      n: 200,
    });
    alone.close();
    const reopened = pool.acquire(a);
    expect(reopened.sqlite.query("SELECT count(*) AS n FROM tenant_meta WHERE key LIKE 'k%'").get()).toEqual({
      n: 200,
    });
    pool.release(reopened);
    pool.remove(a);
    for (const suffix of ["", "-wal", "-shm"]) expect(existsSync(`${file}${suffix}`)).toBe(false);
    pool.close();
  });
});

describe("restart", () => {
  test("every row survives closing and reopening the service on the same DATA_DIR", async () => {
    const first = makeTestApp();
    const shop = await first.org("Durable", { host: "durable.example" });
    await first.app.ctx.tenants.with(shop.id, (tenant) => {
      tenant.sqlite.run("INSERT INTO tenant_meta (key, value) VALUES ('probe', 'kept')");
    });
    first.close();

    const second = makeTestApp({ dataDir: first.dataDir });
    const me = await second.json("/v1/me", { headers: { "x-api-key": shop.key } });
    expect(me.body.data.orgId).toBe(shop.id);
    expect((await second.json("/v1/me", { headers: { host: "durable.example" } })).body.data.orgId).toBe(
      shop.id,
    );
    const kept = await second.app.ctx.tenants.with(shop.id, (tenant) =>
      tenant.sqlite.query("SELECT value FROM tenant_meta WHERE key = 'probe'").get(),
    );
    expect(kept).toEqual({ value: "kept" });
    second.cleanup();
  });
});
