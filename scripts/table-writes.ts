#!/usr/bin/env bun
/**
 * Which module writes which table. Each table has one owner: the module whose `tables.ts` declares
 * it (the kernel's own tables, declared under src/db, belong to `core`). A write is an
 * `INSERT INTO`, `REPLACE INTO`, `UPDATE` or `DELETE FROM` in SQL text, or a Drizzle `.insert(t)`,
 * `.update(t)` or `.delete(t)` of a declared table. `test/architecture.test.ts` fails on a write by
 * a module that does not own the table; another module changes it through the owner's functions.
 *
 *   bun scripts/table-writes.ts            # every write by another module than the owner
 */
import { Glob } from "bun";

/**
 * The kernel (`src/core`, `src/db`) is no module: it writes only its own tables, except the
 * control-plane columns it keeps for scheduling (the due times of db/due-times.ts on organizations).
 */
const KERNEL_MAY_WRITE = new Set(["organizations"]);

/** The module a file under `src/` belongs to: its folder; `src/db` and `src/core` are the kernel. */
export function moduleOf(file: string): string {
  const folder = file.split("/")[1]!;
  return folder === "db" || folder === "core" || folder.endsWith(".ts") ? "core" : folder;
}

export interface Declared {
  table: string;
  owner: string;
  /** The exported Drizzle constant (`export const orders = sqliteTable("orders", …)`). */
  constant: string;
}

const read = async (file: string) => Bun.file(file).text();

/** Block and line comments out, string contents kept: SQL lives in strings. */
const withoutComments = (source: string) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

async function declaredTables(): Promise<Declared[]> {
  const declared: Declared[] = [];
  for await (const file of new Glob("src/**/*.ts").scan(".")) {
    if (file.includes("/migrations/")) continue;
    const source = await read(file);
    for (const match of source.matchAll(/export const (\w+) = sqliteTable\(\s*"([a-z_]+)"/g)) {
      const table = match[2]!;
      declared.push({ table, constant: match[1]!, owner: moduleOf(file) });
    }
  }
  return declared;
}

export interface ForeignWrite {
  file: string;
  line: number;
  table: string;
  owner: string;
  writer: string;
}

const SQL_WRITE =
  /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?([a-z_]+)/gi;
const DRIZZLE_WRITE = /\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g;

/** The writes in one file's source of tables `declared` owns elsewhere. */
export function foreignWritesIn(file: string, text: string, declared: Declared[]): ForeignWrite[] {
  const byTable = new Map(declared.map((d) => [d.table, d]));
  const byConstant = new Map(declared.map((d) => [d.constant, d]));
  const writer = moduleOf(file);
  const source = withoutComments(text);
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  const hits = [
    ...[...source.matchAll(SQL_WRITE)].map((m) => ({ at: m.index, table: byTable.get(m[1]!) })),
    ...[...source.matchAll(DRIZZLE_WRITE)].map((m) => ({ at: m.index, table: byConstant.get(m[1]!) })),
  ];
  const found: ForeignWrite[] = [];
  for (const { at, table } of hits) {
    if (!table || table.owner === writer) continue;
    if (writer === "core" && KERNEL_MAY_WRITE.has(table.table)) continue;
    found.push({ file, line: lineOf(at), table: table.table, owner: table.owner, writer });
  }
  return found;
}

/** Every write under `src/` of a table by a module that does not own it. */
export async function foreignTableWrites(): Promise<ForeignWrite[]> {
  const declared = await declaredTables();
  const found: ForeignWrite[] = [];
  for await (const file of new Glob("src/**/*.{ts,tsx}").scan(".")) {
    if (!file.includes("/migrations/")) found.push(...foreignWritesIn(file, await read(file), declared));
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export const describeForeignWrite = (w: ForeignWrite) =>
  `${w.file}:${w.line}  ${w.writer} writes ${w.table} (owned by ${w.owner})`;

if (import.meta.main) {
  const found = await foreignTableWrites();
  for (const write of found) console.log(describeForeignWrite(write));
  console.log(`${found.length} write(s) of a table by a module that does not own it`);
}
