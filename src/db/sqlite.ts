import { constants, Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import { createHash } from "node:crypto";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";

/** What `scripts/embed-migrations.ts` writes for each migration set: drizzle-kit's journal and SQL, as text. */
export interface EmbeddedMigrations {
  journal: { entries: { idx: number; when: number; tag: string; breakpoints: boolean }[] };
  files: Record<string, string>;
}

/**
 * `query()` keeps every statement prepared for the life of the connection. bun:sqlite's own cache
 * holds only 20, and a checkout touches more distinct statements than that, so they were being
 * prepared again and again (measured: 0.5 µs per query within 20 statements, 4–5 µs beyond).
 * The statements are the program's own SQL texts, a bounded set.
 *
 * A kept statement can still cost a fresh prepare on every run. The SQLite in Bun 1.4.5 (3.54)
 * plans joins and ORDER BY with a planner that looks at the value bound to a bare `?` compared
 * with a column, and such a statement is planned again each time a value is bound: measured, a
 * two-table join or an ordered read with `col = ?` costs 4–6 µs a run (what preparing it costs),
 * with `col = +?` 0.5–1 µs. `+?` is the same value under the same comparison rules (neither has
 * an affinity), so statements on hot paths write `+?`. Single-table reads without ORDER BY and
 * writes are not affected.
 */
class SqliteDatabase extends Database {
  readonly #statements = new Map<string, Statement>();
  /**
   * Statements `prepare` made that are still reachable: Drizzle prepares one per query and never
   * finalizes it. SQLite keeps a connection with a live statement open (its file descriptors and
   * page cache) after `close()` until the garbage collector finalizes the statement, so a pool
   * that closes handles would hold files of closed tenants for as long as no collection ran.
   */
  readonly #prepared = new Set<WeakRef<Statement>>();
  /** Size at which collected statements are dropped from `#prepared` (twice what was left, so O(1) a call). */
  #pruneAt = 64;

  override prepare<ReturnType, ParamsType extends SQLQueryBindings | SQLQueryBindings[]>(
    sql: string,
    params?: ParamsType,
    // biome-ignore lint/suspicious/noExplicitAny: the signature of Database.prepare, which this overrides
  ): Statement<ReturnType, ParamsType extends any[] ? ParamsType : [ParamsType]> {
    const statement = super.prepare<ReturnType, ParamsType>(sql, params);
    this.#prepared.add(new WeakRef(statement));
    if (this.#prepared.size >= this.#pruneAt) {
      for (const ref of this.#prepared) if (!ref.deref()) this.#prepared.delete(ref);
      this.#pruneAt = Math.max(64, this.#prepared.size * 2);
    }
    return statement;
  }

  override query<ReturnType, ParamsType extends SQLQueryBindings | SQLQueryBindings[]>(
    sql: string,
    // biome-ignore lint/suspicious/noExplicitAny: the signature of Database.query, which this overrides
  ): Statement<ReturnType, ParamsType extends any[] ? ParamsType : [ParamsType]> {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = super.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement as never;
  }

  override close(throwOnError?: boolean): void {
    for (const statement of this.#statements.values()) statement.finalize();
    this.#statements.clear();
    for (const ref of this.#prepared) ref.deref()?.finalize();
    this.#prepared.clear();
    super.close(throwOnError);
  }
}

/** The most a kept `-wal` file holds on to between checkpoints: about one automatic checkpoint's worth (1000 pages). */
export const KEPT_WAL_BYTES = 4 * 1024 * 1024;

/**
 * Durability choice (measured in docs/storage.md): WAL with synchronous=NORMAL keeps every commit
 * across a process crash; `durably()` raises a connection to FULL for the commits that must also
 * survive power loss. busy_timeout lets the CLI and the server write the same file. `cacheKib`
 * caps the connection's page cache (SQLite's default: 2000 KiB), which it fills only as it reads.
 * `keepWalFiles`: the last connection to close checkpoints and empties the `-wal` (to 0 bytes)
 * but leaves it and the `-shm` in place instead of removing them, so the next open finds them
 * rather than creating both (a tenant file opened and closed many times: docs/storage.md, "Pool").
 */
export function openSqlite(
  path: string,
  options: { create: boolean; synchronous: "NORMAL" | "FULL"; cacheKib?: number; keepWalFiles?: boolean },
): Database {
  const sqlite = new SqliteDatabase(path, { create: options.create, readwrite: true, strict: true });
  if (options.keepWalFiles) {
    sqlite.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
    // With a limit set, a kept WAL is truncated to 0 bytes at the last close (else it keeps its size).
    sqlite.run(`PRAGMA journal_size_limit = ${KEPT_WAL_BYTES}`);
  }
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run(`PRAGMA synchronous = ${options.synchronous}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  if (options.cacheKib !== undefined) sqlite.run(`PRAGMA cache_size = ${-Math.trunc(options.cacheKib)}`);
  return sqlite;
}

function toMigrationMeta(set: EmbeddedMigrations): MigrationMeta[] {
  return set.journal.entries.map((entry) => {
    const text = set.files[entry.tag];
    if (text === undefined) throw new Error(`embedded migration ${entry.tag} is missing`);
    return {
      sql: text.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(text).digest("hex"),
    };
  });
}

/**
 * Applies the embedded migrations through drizzle's own routine (same `__drizzle_migrations` bookkeeping)
 * and records how many are applied in `user_version`, so reopening a current file costs one pragma read.
 * Foreign keys are off while migrating: drizzle-kit's table rebuilds would otherwise cascade-delete children.
 * `before`: work to do before a migration (by its tag) when it is about to apply, such as carrying
 * rows out of a table it drops.
 */
export function migrate(
  sqlite: Database,
  db: BunSQLiteDatabase<Record<string, unknown>>,
  set: EmbeddedMigrations,
  before: Record<string, () => void> = {},
) {
  const wanted = set.journal.entries.length;
  const current = (sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current === wanted) return;
  if (current > wanted) {
    throw new Error(
      `database ${sqlite.filename} is at schema ${current}, newer than this program (${wanted})`,
    );
  }
  set.journal.entries.forEach((entry, index) => {
    if (index >= current) before[entry.tag]?.();
  });
  sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    const internal = db as unknown as {
      dialect: { migrate(m: MigrationMeta[], session: unknown, config: unknown): void };
      session: unknown;
    };
    internal.dialect.migrate(toMigrationMeta(set), internal.session, { migrationsFolder: "" });
    const broken = sqlite.query("PRAGMA foreign_key_check").all();
    if (broken.length > 0) throw new Error(`migration left ${broken.length} broken foreign keys`);
    sqlite.run(`PRAGMA user_version = ${wanted}`);
  } finally {
    sqlite.run("PRAGMA foreign_keys = ON");
  }
}

type Runner = ReturnType<typeof runnerOf>;
const runnerOf = (sqlite: Database) => sqlite.transaction((fn: () => unknown) => fn());
const runners = new WeakMap<Database, Runner>();

/** The connection's transaction wrapper, made once: `sqlite.transaction(fn)` builds a new one each call, about 1.5 µs. */
function runnerFor(sqlite: Database): Runner {
  let runner = runners.get(sqlite);
  if (!runner) {
    runner = runnerOf(sqlite);
    runners.set(sqlite, runner);
  }
  return runner;
}

/** Runs `fn` in one BEGIN IMMEDIATE transaction (a savepoint inside an open one). */
export function immediately<T>(sqlite: Database, fn: () => T): T {
  return runnerFor(sqlite).immediate(fn) as T;
}

/**
 * Runs `fn`'s reads in one deferred transaction: they share one read lock and see one snapshot,
 * where each statement alone takes and releases its own (two system calls on the WAL's shared memory).
 */
export function readTogether<T>(sqlite: Database, fn: () => T): T {
  return runnerFor(sqlite).deferred(fn) as T;
}

/** How a transaction commits: at the connection's own `synchronous`, or raised to FULL for it. */
type CommitLevel = "connection" | "FULL";

/** Runs `fn` in one BEGIN IMMEDIATE transaction committed at `level`; the connection's own is restored after. */
function committedAt<T>(sqlite: Database, level: CommitLevel, fn: () => T): T {
  if (level === "connection") return immediately(sqlite, fn);
  const { synchronous } = sqlite.query("PRAGMA synchronous").get() as { synchronous: number };
  sqlite.query(`PRAGMA synchronous = ${level}`).run();
  try {
    return immediately(sqlite, fn);
  } finally {
    sqlite.run(`PRAGMA synchronous = ${synchronous}`);
  }
}

/** Runs `fn` in one BEGIN IMMEDIATE transaction committed with synchronous=FULL (orders, payments, refunds). */
export const durably = <T>(sqlite: Database, fn: () => T): T => committedAt(sqlite, "FULL", fn);

interface Grouped {
  fn: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}
interface Group {
  calls: Grouped[];
  /** FULL when any call asked for it (no call commits weaker than it asked). */
  level: CommitLevel;
}
const groups = new WeakMap<Database, Group>();

/**
 * Runs `fn` in a transaction shared by every call on this connection made in the same turn of the
 * event loop (group commit): the first call schedules one transaction for after the I/O of this turn
 * (`setImmediate`), which runs each call's `fn` in its own savepoint (one that throws is rolled back
 * alone and rejects alone) and commits them all at once: pages the calls share (a table's last
 * leaf, its indexes) are written to the WAL once for the group, not once per call. `level`: the
 * commit's `synchronous` (FULL: one fsync for the burst). Each promise settles only after that
 * commit, so whatever a caller answers from it is as durable as a commit of its own. A failed commit
 * rejects them all.
 */
export function inGroupCommit<T>(
  sqlite: Database,
  fn: () => T,
  level: CommitLevel = "connection",
): Promise<T> {
  return new Promise((resolve, reject) => {
    let group = groups.get(sqlite);
    if (!group) {
      const created: Group = { calls: [], level };
      groups.set(sqlite, created);
      setImmediate(() => commitGroup(sqlite, created));
      group = created;
    } else if (level === "FULL") {
      group.level = "FULL";
    }
    group.calls.push({ fn, resolve: resolve as (value: unknown) => void, reject });
  });
}

/** `durably`, with the commit shared by the calls on this connection made together (`inGroupCommit`). */
export const durablyGrouped = <T>(sqlite: Database, fn: () => T): Promise<T> =>
  inGroupCommit(sqlite, fn, "FULL");

function commitGroup(sqlite: Database, { calls, level }: Group): void {
  groups.delete(sqlite);
  const settled: { ok: boolean; value: unknown }[] = [];
  try {
    committedAt(sqlite, level, () => {
      for (const { fn } of calls) {
        try {
          settled.push({ ok: true, value: immediately(sqlite, fn) });
        } catch (error) {
          // SQLite ends the whole transaction on some errors (a full disk, I/O): then the group fails.
          if (!sqlite.inTransaction) throw error;
          settled.push({ ok: false, value: error });
        }
      }
    });
  } catch (error) {
    for (const call of calls) call.reject(error);
    return;
  }
  calls.forEach((call, i) => {
    const { ok, value } = settled[i]!;
    if (ok) call.resolve(value);
    else call.reject(value);
  });
}
