// In-process storage measurements with the project's own code: tenant file create+migrate and open
// (TenantPool), and commit throughput of single-row transactions, WAL with synchronous=FULL vs NORMAL.
// Usage: bun bench/storage.ts
import type { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { durably, openSqlite } from "../src/db/sqlite.ts";
import { TenantPool } from "../src/db/tenant-pool.ts";
import { newId } from "../src/lib/ids.ts";
import { envInt, fmt, makeTempDir, median, percentile, printTable, saveResults } from "./lib.ts";

const TENANTS = envInt("BENCH_TENANTS", 50);
const COMMIT_SECONDS = envInt("BENCH_COMMIT_SECONDS", 3);
const ROUNDS = envInt("BENCH_ROUNDS", 3);

const dir = makeTempDir("storage");
const fsType = Bun.spawnSync(["stat", "-f", "-c", "%T", dir]).stdout.toString().trim() || "unknown";
console.log(`storage benchmark in ${dir} (file system: ${fsType})`);
if (fsType === "tmpfs")
  console.warn("warning: tmpfs never syncs to disk; set TMPDIR to a disk-backed directory");

interface Stats {
  median: number;
  p90: number;
  min: number;
  max: number;
}
const stats = (values: number[]): Stats => ({
  median: median(values),
  p90: percentile(values, 90),
  min: Math.min(...values),
  max: Math.max(...values),
});

function tenantFiles() {
  const dataDir = join(dir, "tenants-data");
  const ids = Array.from({ length: TENANTS }, () => newId("org"));

  // Create + migrate: TenantPool.create (open with create, migrate, write tenant_meta, close).
  const creator = new TenantPool(dataDir, TENANTS + 1);
  const create: number[] = [];
  for (const id of ids) {
    const t0 = performance.now();
    creator.create(id);
    create.push(performance.now() - t0);
  }
  creator.close();

  // Open an existing file: the first acquire on a fresh pool (open, pragmas, version check, owner check).
  const pool = new TenantPool(dataDir, TENANTS + 1);
  const open: number[] = [];
  for (const id of ids) {
    const t0 = performance.now();
    const tenant = pool.acquire(id);
    pool.release(tenant);
    open.push(performance.now() - t0);
  }
  pool.close();
  return { create: stats(create), open: stats(open) };
}

type Mode = "FULL" | "NORMAL" | "NORMAL+durably";

/** Single-row insert transactions (BEGIN IMMEDIATE … COMMIT) for `seconds`; returns commits per second. */
function commitRate(sqlite: Database, mode: Mode, seconds: number): number {
  const insert = sqlite.prepare("INSERT INTO bench_rows (payload, created_at) VALUES (?, ?)");
  const tx = sqlite.transaction((payload: string) => insert.run(payload, Date.now()));
  const payload = "x".repeat(100);
  const end = performance.now() + seconds * 1000;
  let commits = 0;
  const t0 = performance.now();
  while (performance.now() < end) {
    if (mode === "NORMAL+durably") durably(sqlite, () => tx(payload));
    else tx.immediate(payload);
    commits++;
  }
  return commits / ((performance.now() - t0) / 1000);
}

function commits() {
  const modes: Mode[] = ["FULL", "NORMAL", "NORMAL+durably"];
  const handles = new Map<Mode, Database>();
  for (const [i, mode] of modes.entries()) {
    const sqlite = openSqlite(join(dir, `commits-${i}.sqlite`), {
      create: true,
      synchronous: mode === "FULL" ? "FULL" : "NORMAL",
    });
    sqlite.run(
      "CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL, created_at INTEGER NOT NULL)",
    );
    const journal = (sqlite.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
    const sync = (sqlite.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    console.log(`  ${mode}: journal_mode=${journal}, synchronous=${sync} (1 NORMAL, 2 FULL)`);
    handles.set(mode, sqlite);
  }
  const rates = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? modes : [...modes].reverse();
    for (const mode of order) {
      const rate = commitRate(handles.get(mode)!, mode, COMMIT_SECONDS);
      rates.get(mode)!.push(rate);
      console.log(`  round ${round}/${ROUNDS} ${mode.padEnd(15)} ${fmt(rate, 0).padStart(8)} commits/s`);
    }
  }
  for (const sqlite of handles.values()) sqlite.close();
  return Object.fromEntries(modes.map((m) => [m, { median: median(rates.get(m)!), runs: rates.get(m)! }]));
}

try {
  console.log(`\ntenant files: ${TENANTS} tenants`);
  const tenants = tenantFiles();
  printTable(
    ["tenant file", "median ms", "p90 ms", "min ms", "max ms"],
    [
      ["create+migrate (TenantPool.create)", tenants.create],
      ["open existing (fresh pool acquire+release)", tenants.open],
    ].map(([label, s]) => {
      const v = s as Stats;
      return [label as string, fmt(v.median, 3), fmt(v.p90, 3), fmt(v.min, 3), fmt(v.max, 3)];
    }),
  );

  console.log(
    `\ncommit throughput: single-row insert transactions, WAL, ${COMMIT_SECONDS}s per run, ${ROUNDS} rounds`,
  );
  const rates = commits();
  printTable(
    ["synchronous", "median commits/s", "runs"],
    Object.entries(rates).map(([mode, r]) => [
      mode,
      fmt(r.median, 0),
      r.runs.map((x) => fmt(x, 0)).join(" "),
    ]),
  );
  const full = rates.FULL?.median ?? Number.NaN;
  const normal = rates.NORMAL?.median ?? Number.NaN;
  console.log(`NORMAL/FULL: ${fmt(normal / full, 1)}×`);
  const file = saveResults("storage", { fsType, tenants: TENANTS, tenantFiles: tenants, commits: rates });
  console.log(`results saved to ${file}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
