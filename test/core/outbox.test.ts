import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { deleteOrganization } from "../../src/auth/service.ts";
import type { Module } from "../../src/core/module.ts";
import { retryDelay } from "../../src/core/outbox.ts";
import { migrations as platformMigrations } from "../../src/db/migrations/platform/index.ts";
import { paymentsState } from "../../src/payments/state.ts";
import { outboxTestModule, ranMarkers } from "../fixtures/outbox-module.ts";
import { jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the outbox");
    await Bun.sleep(10);
  }
}

function outboxRow(t: TestApp, orgId: string, id: string) {
  return t.app.ctx.tenants.acquire(orgId).sqlite.query("SELECT * FROM outbox WHERE id = ?").get(id) as {
    status: string;
    attempts: number;
    last_error: string | null;
  } | null;
}

async function setup({ start = true } = {}) {
  const t = makeTestApp();
  const log = join(t.dataDir, "runs.log");
  t.close();
  const app = makeTestApp({ dataDir: t.dataDir, modules: [outboxTestModule(log)], start });
  cleanups.push(() => app.cleanup());
  const org = await app.org("Outbox");
  const send = (body: Record<string, unknown>) =>
    app.json("/v1/test/outbox", jsonBody(body, { "x-api-key": org.key }));
  return { t: app, log, org, send };
}

describe("work after commit", () => {
  test("a job that waits (a receiver that never answers) holds up neither the jobs queued beside it nor other shops", async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = makeTestApp();
    const log = join(t.dataDir, "runs.log");
    t.close();
    const hold = (marker: string) => (marker.startsWith("slow") ? slow : undefined);
    // Not started: the rows wait until start() finds them all due at once.
    const app = makeTestApp({ dataDir: t.dataDir, modules: [outboxTestModule(log, { hold })] });
    cleanups.push(() => app.cleanup());
    const [waiting, other] = [await app.org("Waiting"), await app.org("Other")];
    for (const [key, marker] of [
      [waiting.key, "slow-1"],
      [waiting.key, "slow-2"],
      [waiting.key, "same-shop"],
      [other.key, "other-shop"],
    ] as const) {
      expect(
        (await app.json("/v1/test/outbox", jsonBody({ marker, kind: "queued" }, { "x-api-key": key })))
          .status,
      ).toBe(201);
    }
    app.app.start();
    await until(() => ranMarkers(log).includes("same-shop") && ranMarkers(log).includes("other-shop"));
    expect(ranMarkers(log).filter((m) => m.startsWith("slow"))).toEqual([]);
    release();
    await until(() => ranMarkers(log).filter((m) => m.startsWith("slow")).length === 2);
    expect(ranMarkers(log).toSorted()).toEqual(["other-shop", "same-shop", "slow-1", "slow-2"]);
  });

  test("work registered in a transaction that rolls back never runs", async () => {
    const { t, log, org, send } = await setup();
    const rolledBack = await send({ marker: "rolled-back", kind: "queued", rollback: true });
    expect(rolledBack.status).toBe(422);
    const awaitedRolledBack = await send({ marker: "awaited-rolled-back", kind: "awaited", rollback: true });
    expect(awaitedRolledBack.status).toBe(422);
    // A committed job afterwards shows the drainer ran in the meantime.
    const committed = await send({ marker: "committed", kind: "queued" });
    expect(committed.status).toBe(201);
    await until(() => ranMarkers(log).includes("committed"));
    expect(ranMarkers(log)).toEqual(["committed"]);
    const rows = t.app.ctx.tenants.acquire(org.id).sqlite.query("SELECT COUNT(*) AS n FROM outbox").get() as {
      n: number;
    };
    expect(rows.n).toBe(1);
  });

  test("queued work runs once after the commit and its row is done", async () => {
    const { t, log, org, send } = await setup();
    const { status, body } = await send({ marker: "queued-1", kind: "queued" });
    expect(status).toBe(201);
    await until(() => outboxRow(t, org.id, body.data.job)?.status === "done");
    await Bun.sleep(50);
    expect(ranMarkers(log)).toEqual(["queued-1"]);
    expect(outboxRow(t, org.id, body.data.job)?.attempts).toBe(1);
  });

  test("awaited work runs before the answer, which is rendered again from committed data", async () => {
    const { t, log, org, send } = await setup();
    const { status, body } = await send({ marker: "awaited-1", kind: "awaited" });
    expect(status).toBe(201);
    expect(body.data.ran).toBe(true);
    expect(ranMarkers(log)).toEqual(["awaited-1"]);
    expect(outboxRow(t, org.id, body.data.job)?.status).toBe("done");
  });

  test("a failed awaited step leaves its row to be retried with back-off, and the answer still comes", async () => {
    const { t, log, org, send } = await setup();
    const { status, body } = await send({ marker: "retried", kind: "awaited", failFirst: true });
    expect(status).toBe(201);
    expect(body.data.ran).toBe(false);
    const row = outboxRow(t, org.id, body.data.job)!;
    expect(row.status).toBe("pending");
    expect(row.last_error).toBe("provider unavailable");
    await until(() => outboxRow(t, org.id, body.data.job)?.status === "done", retryDelay(1) + 3000);
    expect(ranMarkers(log)).toEqual(["retried"]);
    expect(outboxRow(t, org.id, body.data.job)?.attempts).toBe(2);
  });

  test("a replayed write answers from its record and registers no second job", async () => {
    const { t, log, org } = await setup();
    const init = jsonBody(
      { marker: "once", kind: "awaited" },
      { "x-api-key": org.key, "idempotency-key": "k-1" },
    );
    const first = await t.json("/v1/test/outbox", init);
    const again = await t.json(
      "/v1/test/outbox",
      jsonBody(
        { marker: "once", kind: "awaited" },
        {
          "x-api-key": org.key,
          "idempotency-key": "k-1",
        },
      ),
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    // The stored answer is the one rendered after the awaited work.
    expect(again.body).toEqual(first.body);
    expect(first.body.data.ran).toBe(true);
    expect(ranMarkers(log)).toEqual(["once"]);
  });

  test("a handler throwing RetryAt is run again after the delay it chose, and those attempts do not count", async () => {
    const { t, log, org, send } = await setup();
    const { body } = await send({ marker: "own-schedule", kind: "queued", retryTimes: 1, retryInMs: 400 });
    await until(() => outboxRow(t, org.id, body.data.job)?.last_error === "retry 1 asked");
    const waiting = t.app.ctx.tenants
      .acquire(org.id)
      .sqlite.query("SELECT status, attempts, next_attempt_at FROM outbox WHERE id = ?")
      .get(body.data.job) as { status: string; attempts: number; next_attempt_at: number };
    expect(waiting.status).toBe("pending");
    expect(waiting.attempts).toBe(0);
    // Its own delay (400 ms), not the outbox's back-off (1 s after a first failure).
    expect(waiting.next_attempt_at - Date.now()).toBeGreaterThan(200);
    expect(waiting.next_attempt_at - Date.now()).toBeLessThanOrEqual(400);
    expect(ranMarkers(log)).toEqual([]);
    await until(() => outboxRow(t, org.id, body.data.job)?.status === "done");
    expect(ranMarkers(log)).toEqual(["own-schedule"]);
    expect(outboxRow(t, org.id, body.data.job)?.attempts).toBe(1);
  });

  test("RetryAt more times than MAX_ATTEMPTS never fails the row: the handler bounds its own schedule", async () => {
    const { t, log, org, send } = await setup();
    const { body } = await send({ marker: "many-retries", kind: "queued", retryTimes: 15, retryInMs: 5 });
    await until(() => outboxRow(t, org.id, body.data.job)?.status === "done");
    expect(ranMarkers(log)).toEqual(["many-retries"]);
    expect(outboxRow(t, org.id, body.data.job)?.attempts).toBe(1);
  });

  test("back-off doubles from one second and is capped at an hour", () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(30)).toBe(3600 * 1000);
  });
});

describe("work after commit survives SIGKILL", () => {
  async function start(dataDir: string, log: string, hold: boolean) {
    const child = Bun.spawn(["bun", join(import.meta.dir, "../fixtures/outbox-server.ts")], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
        DEMO_TENANT: "false",
        OUTBOX_LEASE_MS: "300",
        TEST_OUTBOX_LOG: log,
        TEST_OUTBOX_HOLD: String(hold),
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = child.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("fixture server exited before listening");
      text += new TextDecoder().decode(value);
    }
    const { port } = JSON.parse(text.split("\n")[0]!) as { port: number };
    return { child, url: `http://127.0.0.1:${port}` };
  }

  test("a job committed but not finished when the process is killed runs once after the restart", async () => {
    const setupApp = makeTestApp();
    const org = await setupApp.org("Crash");
    setupApp.close();
    const { dataDir } = setupApp;
    cleanups.push(() => setupApp.cleanup());
    const log = join(dataDir, "runs.log");

    // The first process commits the write and starts the job, which never finishes: then SIGKILL.
    const first = await start(dataDir, log, true);
    const response = await fetch(`${first.url}/v1/test/outbox`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": org.key },
      body: JSON.stringify({ marker: "survivor", kind: "queued" }),
    });
    expect(response.status).toBe(201);
    await Bun.sleep(100);
    first.child.kill("SIGKILL");
    await first.child.exited;
    expect(ranMarkers(log)).toEqual([]);

    // The restarted process finds the row once its lease ran out and runs it.
    const second = await start(dataDir, log, false);
    await until(() => ranMarkers(log).length > 0, 5000);
    await Bun.sleep(200);
    second.child.kill("SIGKILL");
    await second.child.exited;
    expect(ranMarkers(log)).toEqual(["survivor"]);

    // A third start finds nothing left to run.
    const third = await start(dataDir, log, false);
    await Bun.sleep(700);
    third.child.kill("SIGKILL");
    await third.child.exited;
    expect(ranMarkers(log)).toEqual(["survivor"]);
  }, 20_000);
});

describe("background work runs only in a started service", () => {
  test("an app built without serving drains no queued work until it is started", async () => {
    const { t, log, org, send } = await setup({ start: false });
    const { status, body } = await send({ marker: "waits", kind: "queued" });
    expect(status).toBe(201);
    await Bun.sleep(300);
    expect(ranMarkers(log)).toEqual([]);
    expect(outboxRow(t, org.id, body.data.job)?.status).toBe("pending");
    t.app.start();
    await until(() => outboxRow(t, org.id, body.data.job)?.status === "done");
    expect(ranMarkers(log)).toEqual(["waits"]);
  });

  test("start runs the modules' start hooks in module order, once; close stops them in reverse order; the payments sweep timer exists only in between", () => {
    const calls: string[] = [];
    const hooks = (name: string): Module => ({
      name,
      operations: [],
      start: () => void calls.push(`start ${name}`),
      stop: () => void calls.push(`stop ${name}`),
    });
    const t = makeTestApp({ modules: [hooks("first"), hooks("second")] });
    cleanups.push(() => t.cleanup());
    expect(paymentsState(t.app.ctx).sweepTimer).toBeUndefined();
    t.app.start();
    t.app.start();
    expect(calls).toEqual(["start first", "start second"]);
    expect(paymentsState(t.app.ctx).sweepTimer).toBeDefined();
    t.close();
    expect(calls).toEqual(["start first", "start second", "stop second", "stop first"]);
    expect(paymentsState(t.app.ctx).sweepTimer).toBeUndefined();
  });
});

describe("the control plane knows which organizations have outbox work", () => {
  /** Apps opened one after another on one data directory (a restart); all closed after the test. */
  function restarts() {
    const base = makeTestApp();
    base.close();
    const apps: TestApp[] = [];
    cleanups.push(() => {
      for (const app of apps) app.close();
      base.cleanup();
    });
    return {
      dataDir: base.dataDir,
      log: join(base.dataDir, "runs.log"),
      open(module: Module, env: Record<string, string> = {}, dataDir = base.dataDir) {
        const app = makeTestApp({ dataDir, modules: [module], env, start: true });
        apps.push(app);
        return app;
      },
    };
  }

  function outboxDueAt(t: TestApp, orgId: string): number | null {
    const row = t.app.ctx.platform.sqlite
      .query("SELECT outbox_due_at AS at FROM organizations WHERE id = ?")
      .get(orgId) as { at: number | null };
    return row.at;
  }

  function jobRow(t: TestApp, orgId: string, id: string) {
    const tenant = t.app.ctx.tenants.acquire(orgId);
    try {
      return tenant.sqlite
        .query("SELECT status, attempts, next_attempt_at, finished_at FROM outbox WHERE id = ?")
        .get(id) as {
        status: string;
        attempts: number;
        next_attempt_at: number;
        finished_at: number | null;
      } | null;
    } finally {
      t.app.ctx.tenants.release(tenant);
    }
  }

  const post = (t: TestApp, key: string, body: Record<string, unknown>) =>
    t.json("/v1/test/outbox", jsonBody(body, { "x-api-key": key }));

  test("a restart opens only the tenant with work left, runs its job once and clears its due time", async () => {
    const { log, open } = restarts();
    const lease = { OUTBOX_LEASE_MS: "300" };
    // The first process claims the job and never finishes it; it is closed under it (a crash).
    const first = open(outboxTestModule(log, { hold: true }), lease);
    const idle = [await first.org("Idle A"), await first.org("Idle B")];
    const busy = await first.org("Busy");
    const { status, body } = await post(first, busy.key, { marker: "survivor", kind: "queued" });
    expect(status).toBe(201);
    await until(() => jobRow(first, busy.id, body.data.job)?.status === "running");
    expect(outboxDueAt(first, busy.id)).not.toBeNull();
    for (const org of idle) expect(outboxDueAt(first, org.id)).toBeNull();
    first.close();

    const second = open(outboxTestModule(log), lease);
    // start() has scheduled the busy organization without opening any tenant file.
    expect(second.app.ctx.tenants.size).toBe(0);
    await until(() => ranMarkers(log).includes("survivor"));
    await until(() => outboxDueAt(second, busy.id) === null);
    // Only the busy tenant was ever opened by this process.
    expect(second.app.ctx.tenants.size).toBe(1);
    expect(ranMarkers(log)).toEqual(["survivor"]);
    expect(jobRow(second, busy.id, body.data.job)?.status).toBe("done");
    for (const org of idle) expect(outboxDueAt(second, org.id)).toBeNull();
  });

  test("a job finishing after the service closed under it throws nothing, and runs again after the next start", async () => {
    const { log, open } = restarts();
    const lease = { OUTBOX_LEASE_MS: "300" };
    let finish = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const first = open(outboxTestModule(log, { hold: held }), lease);
    const org = await first.org("Closing");
    const { status, body } = await post(first, org.key, { marker: "in-flight", kind: "queued" });
    expect(status).toBe(201);
    await until(() => jobRow(first, org.id, body.data.job)?.status === "running");
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      first.close();
      finish(); // the job's work ends with every file closed
      await Bun.sleep(50);
    } finally {
      process.off("unhandledRejection", note);
    }
    expect(unhandled).toEqual([]);
    expect(ranMarkers(log)).toEqual(["in-flight"]);

    const second = open(outboxTestModule(log), lease);
    await until(() => jobRow(second, org.id, body.data.job)?.status === "done");
    // Its work was done but never recorded: at least once, as the outbox promises.
    expect(ranMarkers(log)).toEqual(["in-flight", "in-flight"]);
  });

  test("a due time with no row behind it is cleared by the drain without error", async () => {
    const { log, open } = restarts();
    const first = open(outboxTestModule(log));
    const org = await first.org("Empty");
    first.close();
    // The state a crash leaves between the control-plane write and a tenant commit that never came.
    const sqlite = new Database(join(first.dataDir, "platform.sqlite"));
    sqlite.query("UPDATE organizations SET outbox_due_at = ? WHERE id = ?").run(Date.now() - 1000, org.id);
    sqlite.close();

    const second = open(outboxTestModule(log));
    await until(() => outboxDueAt(second, org.id) === null);
    expect(second.app.ctx.tenants.size).toBe(1);
    // The organization's outbox works as before.
    const { status } = await post(second, org.key, { marker: "after-empty", kind: "queued" });
    expect(status).toBe(201);
    await until(() => ranMarkers(log).includes("after-empty"));
    await until(() => outboxDueAt(second, org.id) === null);
  });

  test("a failed job's retry time is kept across a restart: not run earlier, run then", async () => {
    const { log, open } = restarts();
    // One module instance for both processes: the job fails only on its very first attempt.
    const module = outboxTestModule(log);
    const first = open(module);
    const org = await first.org("Retry");
    const { status, body } = await post(first, org.key, {
      marker: "retry",
      kind: "awaited",
      failFirst: true,
    });
    expect(status).toBe(201);
    expect(body.data.ran).toBe(false);
    const failed = jobRow(first, org.id, body.data.job)!;
    expect(failed.status).toBe("pending");
    // The awaited row's due time (its lease, a minute) was lowered to the retry time.
    expect(outboxDueAt(first, org.id)).toBe(failed.next_attempt_at);
    first.close();

    const second = open(module);
    // Its retry is still ahead: start() does not open the tenant.
    expect(second.app.ctx.tenants.size).toBe(0);
    await until(() => ranMarkers(log).includes("retry"), retryDelay(1) + 3000);
    const done = jobRow(second, org.id, body.data.job)!;
    expect(done.status).toBe("done");
    expect(done.attempts).toBe(2);
    // A row is claimed only once due, so it finished no earlier than its retry time.
    expect(done.finished_at!).toBeGreaterThanOrEqual(failed.next_attempt_at);
    await until(() => outboxDueAt(second, org.id) === null);
  });

  test("awaited work keeps its lease as the due time, which a drain clears once the lease passed", async () => {
    const { log, open } = restarts();
    const t = open(outboxTestModule(log), { OUTBOX_LEASE_MS: "300" });
    const org = await t.org("Awaited");
    const before = Date.now();
    const { status, body } = await post(t, org.key, { marker: "awaited-due", kind: "awaited" });
    expect(status).toBe(201);
    expect(body.data.ran).toBe(true);
    // Had the process died while running it, the row would be due when its lease ran out.
    expect(outboxDueAt(t, org.id)).toBeGreaterThanOrEqual(before + 300);
    await until(() => outboxDueAt(t, org.id) === null);
    expect(ranMarkers(log)).toEqual(["awaited-due"]);
  });

  test("a rolled-back write's due time is cleared by the drain", async () => {
    const { log, open } = restarts();
    const t = open(outboxTestModule(log));
    const org = await t.org("Rollback");
    const { status } = await post(t, org.key, { marker: "never", kind: "queued", rollback: true });
    expect(status).toBe(422);
    await until(() => outboxDueAt(t, org.id) === null);
    expect(ranMarkers(log)).toEqual([]);
  });

  test("a backup marks every organization due, so a service started on it finds the work its tenant copies hold", async () => {
    const { dataDir, log, open } = restarts();
    const lease = { OUTBOX_LEASE_MS: "300" };
    const live = open(outboxTestModule(log, { hold: true }), lease);
    const idle = await live.org("Idle");
    const busy = await live.org("Busy");
    const { body } = await post(live, busy.key, { marker: "backed-up", kind: "queued" });
    await until(() => jobRow(live, busy.id, body.data.job)?.status === "running");

    // Taken while the service runs; the tenants are copied after the control plane.
    const out = join(dataDir, "backup");
    const run = await runCli(["backup", "--out", out], { DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    expect(run.code).toBe(0);
    live.close();

    const restored = open(outboxTestModule(log), lease, out);
    expect(outboxDueAt(restored, idle.id)).toBe(0);
    expect(outboxDueAt(restored, busy.id)).toBe(0);
    await until(() => ranMarkers(log).includes("backed-up"));
    await until(() => outboxDueAt(restored, busy.id) === null && outboxDueAt(restored, idle.id) === null);
    expect(ranMarkers(log)).toEqual(["backed-up"]);
  });

  test("the migration adding the column makes every organization due, so rows written before it still run", async () => {
    const { dataDir, log, open } = restarts();
    const lease = { OUTBOX_LEASE_MS: "300" };
    const before = open(outboxTestModule(log, { hold: true }), lease);
    const idle = await before.org("Idle");
    const busy = await before.org("Busy");
    const { body } = await post(before, busy.key, { marker: "pre-upgrade", kind: "queued" });
    await until(() => jobRow(before, busy.id, body.data.job)?.status === "running");
    before.close();

    // The control plane as the release before the column left it, then that migration applied.
    const sqlite = new Database(join(dataDir, "platform.sqlite"));
    sqlite.run("DROP INDEX organizations_outbox_due_idx");
    sqlite.run("ALTER TABLE organizations DROP COLUMN outbox_due_at");
    for (const statement of platformMigrations.files["0003_outbox_due"]!.split("--> statement-breakpoint")) {
      sqlite.run(statement);
    }
    const due = sqlite.query("SELECT outbox_due_at AS at FROM organizations").all() as {
      at: number | null;
    }[];
    sqlite.close();
    expect(due).toEqual([{ at: 0 }, { at: 0 }]);

    const after = open(outboxTestModule(log), lease);
    await until(() => ranMarkers(log).includes("pre-upgrade"));
    await until(() => outboxDueAt(after, busy.id) === null && outboxDueAt(after, idle.id) === null);
    expect(ranMarkers(log)).toEqual(["pre-upgrade"]);
  });

  test("an organization deleted while a drain is scheduled for it breaks nothing: other work still runs", async () => {
    const { log, open } = restarts();
    const t = open(outboxTestModule(log), { OUTBOX_LEASE_MS: "300" });
    const gone = await t.org("Gone");
    const kept = await t.org("Kept");
    // Awaited work leaves a drain scheduled for when its lease runs out.
    const { status } = await post(t, gone.key, { marker: "before-delete", kind: "awaited" });
    expect(status).toBe(201);
    deleteOrganization(t.app.ctx, gone.id);
    await Bun.sleep(500);
    const after = await post(t, kept.key, { marker: "kept", kind: "queued" });
    expect(after.status).toBe(201);
    await until(() => ranMarkers(log).includes("kept"));
    expect(ranMarkers(log)).toEqual(["before-delete", "kept"]);
  });
});
