import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { retryDelay } from "../../src/core/outbox.ts";
import { outboxTestModule, ranMarkers } from "../fixtures/outbox-module.ts";
import { jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";

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

async function setup() {
  const t = makeTestApp();
  const log = join(t.dataDir, "runs.log");
  t.close();
  const app = makeTestApp({ dataDir: t.dataDir, modules: [outboxTestModule(log)] });
  cleanups.push(() => app.cleanup());
  const org = await app.org("Outbox");
  const send = (body: Record<string, unknown>) =>
    app.json("/v1/test/outbox", jsonBody(body, { "x-api-key": org.key }));
  return { t: app, log, org, send };
}

describe("work after commit", () => {
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
