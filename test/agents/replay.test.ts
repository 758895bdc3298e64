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

  test("expired rows are swept by later recordings, oldest first, never those of a token that can still verify", async () => {
    const rt = agentRuntime(t.app.ctx)!;
    const realNow = rt.now;
    const used = await agent.jwt();
    expect((await get(used)).status).toBe(200);
    const sqlite = t.app.ctx.platform.sqlite;
    const count = () => (sqlite.query("SELECT COUNT(*) AS n FROM agent_jwt_replay").get() as { n: number }).n;
    try {
      // 30 s on, every token recorded so far can still verify: nothing is swept.
      const later = Date.now() + 30_000;
      rt.now = () => later;
      const before = count();
      let iat = Math.floor(later / 1000);
      expect((await get(await agent.jwt(BASE, {}, { iat, exp: iat + 60 }))).status).toBe(200);
      expect(storedCounts([jtiOf(used)])).toEqual([1]);
      expect(count()).toBe(before + 1);
      // Five minutes on, every row recorded so far has expired: each recording sweeps the oldest
      // 10 s of expiries, until only the rows recorded since are left.
      const muchLater = Date.now() + 5 * 60_000;
      rt.now = () => muchLater;
      iat = Math.floor(muchLater / 1000);
      const expiry = () =>
        sqlite
          .query("SELECT min(expires_at) AS oldest, max(expires_at) AS newest FROM agent_jwt_replay")
          .get() as {
          oldest: number;
          newest: number;
        };
      const { oldest, newest } = expiry();
      const expired = count();
      expect((await get(await agent.jwt(BASE, {}, { iat, exp: iat + 60 }))).status).toBe(200);
      const left = sqlite
        .query("SELECT COUNT(*) AS n FROM agent_jwt_replay WHERE expires_at < ?")
        .get(oldest + 10_000) as {
        n: number;
      };
      expect(left.n).toBe(0);
      const recordings = Math.ceil((newest - oldest) / 10_000) + 1;
      for (let i = 0; i < recordings; i++) {
        expect((await get(await agent.jwt(BASE, {}, { iat, exp: iat + 60 }))).status).toBe(200);
      }
      expect(expired).toBeGreaterThan(recordings);
      expect(storedCounts([jtiOf(used)])).toEqual([0]);
      expect(count()).toBe(1 + recordings);
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
      answers = await Promise.all(tokens.map(get));
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

test("replay rows recorded before the table was keyed by expiry are kept, and their tokens stay refused", () => {
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
