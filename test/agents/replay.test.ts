import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { migrations } from "../../src/db/migrations/platform/index.ts";
import { migrate, openSqlite } from "../../src/db/sqlite.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import {
  activeAgent,
  BASE,
  type Merchant,
  newMerchant,
  relaxRegisterLimit,
  type TestAgent,
} from "./helpers.ts";

// The jti of every agent JWT is recorded by group commit (docs/agents.md, "Tokens"): the jtis of
// requests in flight together are written in one transaction, and each request is answered only
// once its own row is committed.

let t: TestApp;
let merchant: Merchant;
let agent: TestAgent;

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "replay@example.com", "Replay shop");
  agent = await activeAgent(t, merchant);
});
afterAll(() => t.cleanup());

const get = (token: string) => t.json("/v1/products", { headers: { authorization: `Bearer ${token}` } });

const jtiOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).jti;

/** How many rows of the control plane's replay table hold each jti (of this agent). */
function storedCounts(jtis: string[]): number[] {
  const sqlite = t.app.ctx.platform.sqlite;
  return jtis.map(
    (jti) =>
      (
        sqlite
          .query("SELECT COUNT(*) AS n FROM agent_jwt_replay WHERE principal = ? AND jti = ?")
          .get(agent.id, jti) as { n: number }
      ).n,
  );
}

describe("single-use agent JWTs, recorded by group commit", () => {
  test("concurrent requests with distinct jtis all succeed, and each jti is stored exactly once", async () => {
    const tokens = await Promise.all(Array.from({ length: 40 }, () => agent.jwt()));
    const answers = await Promise.all(tokens.map(get));
    expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 200));
    expect(storedCounts(tokens.map(jtiOf))).toEqual(tokens.map(() => 1));
  });

  test("concurrent requests with the same jti: exactly one succeeds, the others are refused as replays", async () => {
    const token = await agent.jwt();
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(19);
    for (const answer of refused) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
      expect(answer.body.error).toContain("already used");
    }
    expect(storedCounts([jtiOf(token)])).toEqual([1]);
  });

  test("the same jti signed into two different tokens with the same exp is still used once", async () => {
    const jti = crypto.randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    const [first, second] = await Promise.all([
      agent.jwt(BASE, {}, { jti, iat, exp: iat + 60 }),
      agent.jwt(BASE, { x: 1 }, { jti, iat: iat - 5, exp: iat + 60 }),
    ]);
    const answers = await Promise.all([get(first!), get(second!)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  test("a jti signed again with another exp is another token (the replay key is expiry, principal, jti)", async () => {
    const jti = crypto.randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    const first = await agent.jwt(BASE, {}, { jti, iat, exp: iat + 60 });
    const again = await agent.jwt(BASE, {}, { jti, iat, exp: iat + 59 });
    expect((await get(first)).status).toBe(200);
    expect((await get(again)).status).toBe(200);
    expect((await get(first)).status).toBe(401);
    expect((await get(again)).status).toBe(401);
    const expiries = t.app.ctx.platform.sqlite
      .query("SELECT expires_at FROM agent_jwt_replay WHERE principal = ? AND jti = ? ORDER BY expires_at")
      .all(agent.id, jti) as { expires_at: number }[];
    expect(expiries.map((row) => row.expires_at)).toEqual([(iat + 89) * 1000, (iat + 90) * 1000]);
  });

  test("expired rows are swept oldest first, a few times a second and 5 000 at most, never those of a token that can still verify", async () => {
    const rt = agentRuntime(t.app.ctx)!;
    const realNow = rt.now;
    const used = await agent.jwt();
    expect((await get(used)).status).toBe(200);
    const sqlite = t.app.ctx.platform.sqlite;
    const count = () => (sqlite.query("SELECT COUNT(*) AS n FROM agent_jwt_replay").get() as { n: number }).n;
    let clock = Date.now() + 30_000;
    rt.now = () => clock;
    const recordAt = async (at: number) => {
      clock = at;
      const iat = Math.floor(at / 1000);
      expect((await get(await agent.jwt(BASE, {}, { iat, exp: iat + 60 }))).status).toBe(200);
    };
    try {
      // 30 s on, every token recorded so far can still verify: nothing is swept.
      const before = count();
      await recordAt(clock);
      expect(storedCounts([jtiOf(used)])).toEqual([1]);
      expect(count()).toBe(before + 1);

      // Rows appended by earlier runs: 12 000 that expired before one that has not (a token of a
      // longer life), and 10 expired after it.
      const fiveMinutesOn = Date.now() + 5 * 60_000;
      const insert = sqlite.query(
        "INSERT INTO agent_jwt_replay (expires_at, principal, jti, created_at) VALUES (?1, 'agt_earlier', ?2, ?3)",
      );
      sqlite.transaction(() => {
        for (let i = 0; i < 12_000; i++) insert.run(fiveMinutesOn - 100_000, `expired-${i}`, clock);
        insert.run(fiveMinutesOn + 60_000, "still-verifiable", clock);
        for (let i = 0; i < 10; i++) insert.run(fiveMinutesOn - 50_000, `expired-after-${i}`, clock);
      })();
      const earlier = () =>
        (
          sqlite
            .query("SELECT COUNT(*) AS n FROM agent_jwt_replay WHERE principal = 'agt_earlier'")
            .get() as {
            n: number;
          }
        ).n;

      // Five minutes on: the first recording sweeps the oldest 5 000 rows (every row this test's
      // agent had recorded among them), the next one in the same quarter second none.
      const olderRows = count() - 12_011;
      expect(olderRows).toBeLessThan(100);
      await recordAt(fiveMinutesOn);
      expect(storedCounts([jtiOf(used)])).toEqual([0]);
      const afterFirst = earlier();
      expect(afterFirst).toBe(12_011 - (5_000 - olderRows));
      await recordAt(fiveMinutesOn + 100);
      expect(earlier()).toBe(afterFirst);
      // A quarter second later the next 5 000, then what is left up to the row that can still verify.
      await recordAt(fiveMinutesOn + 300);
      expect(earlier()).toBe(afterFirst - 5_000);
      await recordAt(fiveMinutesOn + 600);
      await recordAt(fiveMinutesOn + 900);
      const kept = sqlite
        .query("SELECT jti FROM agent_jwt_replay WHERE principal = 'agt_earlier' ORDER BY rowid")
        .all() as { jti: string }[];
      expect(kept.map((row) => row.jti)).toEqual([
        "still-verifiable",
        ...Array.from({ length: 10 }, (_, i) => `expired-after-${i}`),
      ]);
      // Once that row expired too, the rest goes.
      await recordAt(fiveMinutesOn + 61_000);
      expect(earlier()).toBe(0);
    } finally {
      rt.now = realNow;
    }
  });

  test("a storage failure while writing a group fails every request of the group with 503, answers none, and uses no jti", async () => {
    const platform = t.app.ctx.platform.sqlite;
    // Another connection holds the control plane's write lock past the service's busy timeout (shortened here).
    const other = new Database(join(t.dataDir, "platform.sqlite"));
    platform.run("PRAGMA busy_timeout = 100");
    const tokens = await Promise.all(Array.from({ length: 8 }, () => agent.jwt()));
    let answers: Awaited<ReturnType<typeof get>>[];
    try {
      other.run("BEGIN IMMEDIATE");
      // The first token twice: the second request waits for the first's write, which fails, then
      // tries its own, which fails too.
      answers = await Promise.all([...tokens, tokens[0]!].map(get));
    } finally {
      other.run("ROLLBACK");
      other.close();
      platform.run("PRAGMA busy_timeout = 5000");
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: "UNAVAILABLE", status: 503 });
      expect(answer.response.headers.get("retry-after")).not.toBeNull();
    }
    expect(storedCounts(tokens.map(jtiOf))).toEqual(tokens.map(() => 0));
    // Nothing was answered, so nothing was used: the storage back, the same tokens are accepted once.
    expect((await get(tokens[0]!)).status).toBe(200);
    expect((await get(tokens[0]!)).status).toBe(401);
  });

  test("a token whose header names a critical extension is refused (401) though its signature is valid", async () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    // jose signs no unknown critical extension, so this one is signed by hand.
    const input = `${part({ alg: "EdDSA", typ: "agent+jwt", crit: ["x-extension"], "x-extension": 1 })}.${part(
      {
        iss: agent.host.key.thumbprint,
        sub: agent.id,
        aud: BASE,
        jti: crypto.randomUUID(),
        iat: now,
        exp: now + 60,
      },
    )}`;
    const signature = await crypto.subtle.sign(
      "Ed25519",
      agent.key.privateKey,
      new TextEncoder().encode(input),
    );
    const answer = await get(`${input}.${Buffer.from(signature).toString("base64url")}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect(answer.body.error).toContain("critical");
  });
});

test("replay rows recorded by earlier versions of the table are kept, and their tokens stay refused", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "commerce-replay-"));
  try {
    const path = join(dataDir, "platform.sqlite");
    const older = openSqlite(path, { create: true, synchronous: "FULL" });
    const previous = migrations.journal.entries.findIndex((entry) => entry.tag === "0009_replay_by_expiry");
    migrate(older, drizzle({ client: older }), {
      ...migrations,
      journal: { ...migrations.journal, entries: migrations.journal.entries.slice(0, previous) },
    });
    const expiresAt = Date.now() + 80_000;
    older
      .query(
        "INSERT INTO agent_jwt_replay (principal, jti, expires_at, created_at, updated_at) VALUES ('agt_old', 'jti-recorded-before-0009', ?1, ?2, ?2)",
      )
      .run(expiresAt, Date.now());
    older.close();

    const upgraded = makeTestApp({ dataDir });
    try {
      const rows = upgraded.app.ctx.platform.sqlite
        .query("SELECT expires_at, principal, jti FROM agent_jwt_replay")
        .all();
      expect(rows).toEqual([
        {
          principal: "agt_old",
          jti: "jti-recorded-before-0009",
          expires_at: expiresAt,
        },
      ]);
      const rt = agentRuntime(upgraded.app.ctx);
      expect(rt).toBeDefined();
      expect(rt!.replay.seen("agt_old", "jti-recorded-before-0009", expiresAt)).toBe(true);
      expect(rt!.replay.seen("agt_old", "another-jti-of-the-same-age", expiresAt)).toBe(false);
      expect(rt!.replay.seen("agt_old", "jti-recorded-before-0009", expiresAt + 1000)).toBe(false);
    } finally {
      upgraded.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
