import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { durably, openSqlite, readTogether } from "../../src/db/sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "commerce-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("durably commits in one transaction at synchronous=FULL, then restores the connection's setting", () => {
  const sqlite = openSqlite(join(dir, "a.sqlite"), { create: true, synchronous: "NORMAL" });
  sqlite.run("CREATE TABLE t (n INTEGER NOT NULL)");
  const seen = durably(sqlite, () => {
    sqlite.run("INSERT INTO t VALUES (1)");
    sqlite.run("INSERT INTO t VALUES (2)");
    return (sqlite.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  });
  expect(seen).toBe(2); // FULL
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 }); // back to NORMAL
  expect(sqlite.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
  sqlite.close();
});

test("durably rolls back every write when the function throws", () => {
  const sqlite = openSqlite(join(dir, "b.sqlite"), { create: true, synchronous: "FULL" });
  sqlite.run("CREATE TABLE t (n INTEGER NOT NULL)");
  expect(() =>
    durably(sqlite, () => {
      sqlite.run("INSERT INTO t VALUES (1)");
      throw new Error("refused");
    }),
  ).toThrow("refused");
  expect(sqlite.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
  sqlite.close();
});

test("readTogether's reads see one snapshot: a write committed by another connection between them is not seen until it ends", () => {
  const file = join(dir, "c.sqlite");
  const reader = openSqlite(file, { create: true, synchronous: "NORMAL" });
  reader.run("CREATE TABLE t (n INTEGER NOT NULL)");
  reader.run("INSERT INTO t VALUES (1)");
  const writer = openSqlite(file, { create: false, synchronous: "NORMAL" });
  const count = () => (reader.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;
  const seen = readTogether(reader, () => {
    const first = count();
    writer.run("INSERT INTO t VALUES (2)");
    return [first, count()];
  });
  expect(seen).toEqual([1, 1]);
  expect(count()).toBe(2);
  writer.close();
  reader.close();
});
