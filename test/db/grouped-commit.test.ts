import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { durablyGrouped, inGroupCommit, openSqlite } from "../../src/db/sqlite.ts";

// `durablyGrouped`: calls made together share one commit at synchronous=FULL, each in its own
// savepoint, and settle only once that commit is done. Checked from a second connection on the file.

const dir = mkdtempSync(join(tmpdir(), "commerce-grouped-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(name: string) {
  const path = join(dir, name);
  const sqlite = openSqlite(path, { create: true, synchronous: "NORMAL" });
  sqlite.run("CREATE TABLE t (n INTEGER PRIMARY KEY)");
  const other = new Database(path, { readonly: true });
  const seen = () => (other.query("SELECT n FROM t ORDER BY n").all() as { n: number }[]).map((r) => r.n);
  const close = () => {
    other.close();
    sqlite.close();
  };
  return { sqlite, seen, close };
}

test("calls made together run in one transaction at synchronous=FULL and settle after its commit, when another connection sees every row", async () => {
  const { sqlite, seen, close } = files("together.sqlite");
  const inside: { synchronous: number; inTransaction: boolean }[] = [];
  const write = (n: number) =>
    durablyGrouped(sqlite, () => {
      sqlite.run("INSERT INTO t VALUES (?)", [n]);
      inside.push({
        ...(sqlite.query("PRAGMA synchronous").get() as { synchronous: number }),
        inTransaction: sqlite.inTransaction,
      });
      return n * 10;
    });
  const calls = [write(1), write(2), write(3)];
  // Nothing has run yet: the group commits after this turn of the event loop.
  expect(seen()).toEqual([]);
  const settled = await Promise.all(calls.map((call) => call.then((value) => ({ value, rows: seen() }))));
  expect(settled).toEqual([
    { value: 10, rows: [1, 2, 3] },
    { value: 20, rows: [1, 2, 3] },
    { value: 30, rows: [1, 2, 3] },
  ]);
  expect(inside).toEqual(Array(3).fill({ synchronous: 2, inTransaction: true }));
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
  close();
});

test("a call that throws is rolled back alone and rejects alone; the others of its group commit", async () => {
  const { sqlite, seen, close } = files("one-fails.sqlite");
  const write = (n: number, fail = false) =>
    durablyGrouped(sqlite, () => {
      sqlite.run("INSERT INTO t VALUES (?)", [n]);
      if (fail) throw new Error(`refused ${n}`);
      return n;
    });
  const results = await Promise.allSettled([write(1), write(2, true), write(3)]);
  expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
    1,
    "refused 2",
    3,
  ]);
  expect(seen()).toEqual([1, 3]);
  close();
});

test("a group whose commit fails rejects every call, and none of its writes is in the file", async () => {
  const { sqlite, seen, close } = files("commit-fails.sqlite");
  // A deferred foreign key is checked at COMMIT: the second call's row makes the whole commit fail.
  sqlite.run("CREATE TABLE child (parent INTEGER REFERENCES t (n) DEFERRABLE INITIALLY DEFERRED)");
  const results = await Promise.allSettled([
    durablyGrouped(sqlite, () => sqlite.run("INSERT INTO t VALUES (1)")),
    durablyGrouped(sqlite, () => sqlite.run("INSERT INTO child VALUES (99)")),
  ]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  expect(seen()).toEqual([]);
  expect(sqlite.inTransaction).toBe(false);
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
  close();
});

test("an error that ended the whole transaction (as SQLite does on a full disk) fails every call of the group, and none of its writes is in the file", async () => {
  const { sqlite, seen, close } = files("transaction-ended.sqlite");
  const results = await Promise.allSettled([
    durablyGrouped(sqlite, () => sqlite.run("INSERT INTO t VALUES (1)")),
    durablyGrouped(sqlite, () => {
      sqlite.run("ROLLBACK");
      throw new Error("database or disk is full");
    }),
    durablyGrouped(sqlite, () => sqlite.run("INSERT INTO t VALUES (3)")),
  ]);
  expect(results.map((r) => (r.status === "rejected" ? (r.reason as Error).message : r.status))).toEqual(
    Array(3).fill("database or disk is full"),
  );
  expect(seen()).toEqual([]);
  expect(sqlite.inTransaction).toBe(false);
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
  close();
});

test("calls made in different turns of the event loop each get a commit of their own", async () => {
  const { sqlite, seen, close } = files("apart.sqlite");
  const first = await durablyGrouped(sqlite, () => {
    sqlite.run("INSERT INTO t VALUES (1)");
    return seen();
  });
  const second = await durablyGrouped(sqlite, () => {
    sqlite.run("INSERT INTO t VALUES (2)");
    return seen();
  });
  // Each ran before its own commit (the other connection did not see its row yet) but after the earlier one.
  expect([first, second]).toEqual([[], [1]]);
  expect(seen()).toEqual([1, 2]);
  close();
});

test("inGroupCommit: a group commits at the connection's own level; one call asking FULL makes its whole group FULL", async () => {
  const { sqlite, seen, close } = files("mixed.sqlite");
  const synchronousInside: number[] = [];
  const write = (n: number, durable: boolean) =>
    inGroupCommit(
      sqlite,
      () => {
        sqlite.run("INSERT INTO t VALUES (?)", [n]);
        synchronousInside.push(
          (sqlite.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous,
        );
        return n;
      },
      durable ? "FULL" : "connection",
    );
  expect(await Promise.all([write(1, false), write(2, false)])).toEqual([1, 2]);
  expect(synchronousInside).toEqual([1, 1]);
  expect(await Promise.all([write(3, false), write(4, true), write(5, false)])).toEqual([3, 4, 5]);
  expect(synchronousInside).toEqual([1, 1, 2, 2, 2]);
  expect(seen()).toEqual([1, 2, 3, 4, 5]);
  expect(sqlite.query("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
  close();
});
