import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { TokenJournal, usedTokensDir } from "../../src/agents/token-journal.ts";
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

// The jti of every agent JWT is recorded in the used-token journal (docs/agents.md, "For operators"): the
// jtis of requests in flight together are appended in one write, and each request is answered only
// once that write returned.

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

/** Every token line of a data directory's journal, as [expiresAt, principal, jti]. */
function journalLines(dataDir = t.dataDir): [number, string, string][] {
  const dir = usedTokensDir(dataDir);
  return readdirSync(dir).flatMap((name) =>
    readFileSync(join(dir, name), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line)),
  );
}

/** How many lines of the journal hold each jti (of this agent). */
const storedCounts = (jtis: string[]): number[] => {
  const lines = journalLines();
  return jtis.map((jti) => lines.filter(([, principal, j]) => principal === agent.id && j === jti).length);
};

/** The journal file of the tokens whose verifiable-until instant is `expiresAt` (30 s windows). */
const windowFile = (expiresAt: number, dataDir = t.dataDir) =>
  join(usedTokensDir(dataDir), `${Math.floor(expiresAt / 30_000)}.jsonl`);

describe("single-use agent JWTs, recorded in the journal", () => {
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
    const expiries = journalLines()
      .filter(([, principal, j]) => principal === agent.id && j === jti)
      .map(([expiresAt]) => expiresAt)
      .sort();
    expect(expiries).toEqual([(iat + 89) * 1000, (iat + 90) * 1000]);
  });

  test("a journal file is removed once every token in it has expired, and its tokens forgotten", async () => {
    const rt = agentRuntime(t.app.ctx)!;
    const realNow = rt.now;
    let clock = Date.now();
    rt.now = () => clock;
    const recordAt = async (at: number, jti?: string) => {
      clock = at;
      const iat = Math.floor(at / 1000);
      const token = await agent.jwt(BASE, {}, { iat, exp: iat + 60, ...(jti ? { jti } : {}) });
      expect((await get(token)).status).toBe(200);
      return (iat + 90) * 1000;
    };
    try {
      const jti = crypto.randomUUID();
      const expiresAt = await recordAt(clock, jti);
      const file = windowFile(expiresAt);
      expect(existsSync(file)).toBe(true);
      // Until it expires, the token is kept; up to the end of its file's window, the file too
      // (another token in it may still verify).
      await recordAt(expiresAt - 1);
      expect(rt.replay.seen(agent.id, jti, expiresAt)).toBe(true);
      const windowEnd = (Math.floor(expiresAt / 30_000) + 1) * 30_000;
      await recordAt(windowEnd - 1);
      expect(existsSync(file)).toBe(true);
      await recordAt(windowEnd);
      expect(existsSync(file)).toBe(false);
      expect(rt.replay.seen(agent.id, jti, expiresAt)).toBe(false);
    } finally {
      rt.now = realNow;
    }
  });

  test("a storage failure while writing a turn's tokens fails every request of it with 503, answers none, and uses no jti", async () => {
    // The journal is read (its first use) before its file is made to fail.
    expect((await get(await agent.jwt())).status).toBe(200);
    const iat = Math.floor(Date.now() / 1000);
    const tokens = await Promise.all(
      Array.from({ length: 8 }, () => agent.jwt(BASE, {}, { iat, exp: iat + 60 })),
    );
    const file = windowFile((iat + 90) * 1000);
    const before = existsSync(file) ? readFileSync(file) : undefined;
    rmSync(file, { force: true });
    // Every write to /dev/full fails with ENOSPC, as on a full disk.
    symlinkSync("/dev/full", file);
    let answers: Awaited<ReturnType<typeof get>>[];
    try {
      // The first token twice: the second request waits for the first's write, which fails, then
      // tries its own, which fails too.
      answers = await Promise.all([...tokens, tokens[0]!].map(get));
    } finally {
      rmSync(file);
      if (before) writeFileSync(file, before);
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
    expect(storedCounts([jtiOf(tokens[0]!)])).toEqual([1]);
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

describe("the journal read at a start", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "commerce-journal-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("tokens that can still verify are refused; expired ones and a line cut off by a crash are not kept, and files of windows past are removed", () => {
    const now = Date.now();
    const live = now + 60_000;
    mkdirSync(usedTokensDir(dataDir), { recursive: true });
    const pastFile = windowFile(now - 60_000, dataDir);
    writeFileSync(pastFile, `\n${JSON.stringify([now - 60_000, "agt_x", "jti-of-a-window-past"])}`);
    writeFileSync(
      windowFile(now - 1, dataDir),
      `\n${JSON.stringify([now - 1, "agt_x", "jti-just-expired"])}`,
      {
        flag: "a",
      },
    );
    // A write cut short by a crash: the second line has no end.
    writeFileSync(
      windowFile(live, dataDir),
      `\n${JSON.stringify([live, "agt_x", "jti-live"])}\n[${live},"agt_x","jti-cut`,
    );
    const started = makeTestApp({ dataDir });
    try {
      const rt = agentRuntime(started.app.ctx)!;
      expect(rt.replay.seen("agt_x", "jti-live", live)).toBe(true);
      expect(rt.replay.seen("agt_x", "jti-just-expired", now - 1)).toBe(false);
      expect(rt.replay.seen("agt_x", "jti-cut", live)).toBe(false);
      expect(existsSync(pastFile)).toBe(false);
    } finally {
      started.close();
    }
    // The next write starts on a line of its own: the token after the cut is read back whole.
    new TokenJournal(usedTokensDir(dataDir)).append([[live, "agt_x", "jti-after-the-cut"]]);
    const jtis = new TokenJournal(usedTokensDir(dataDir)).read(now).map(([, , jti]) => jti);
    expect(jtis).toContain("jti-live");
    expect(jtis).toContain("jti-after-the-cut");
    expect(jtis).not.toContain("jti-cut");
  });

  test("a file larger than one read, with characters of several bytes, is read back token for token", () => {
    const journal = new TokenJournal(join(dataDir, "large"));
    const expiresAt = Date.now() + 60_000;
    const tokens = Array.from(
      { length: 15_000 },
      (_, i) => [expiresAt, "agt_é", `jti-${"é€😀".repeat(10)}-${i}`] as [number, string, string],
    );
    journal.append(tokens);
    expect(new TokenJournal(join(dataDir, "large")).read(Date.now())).toEqual(tokens);
  });
});

describe.each([
  [
    "0009_replay_by_expiry",
    "(principal, jti, expires_at, created_at, updated_at) VALUES (?2, ?3, ?1, ?4, ?4)",
  ],
  ["0013_used_tokens_in_files", "(expires_at, principal, jti, created_at) VALUES (?1, ?2, ?3, ?4)"],
])("used tokens in the replay table of a control plane before %s", (tag, insertColumns) => {
  test("are carried into the journal at the upgrade and stay refused; the table is gone", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "commerce-replay-"));
    try {
      const path = join(dataDir, "platform.sqlite");
      const older = openSqlite(path, { create: true, synchronous: "FULL" });
      const previous = migrations.journal.entries.findIndex((entry) => entry.tag === tag);
      migrate(older, drizzle({ client: older }), {
        ...migrations,
        journal: { ...migrations.journal, entries: migrations.journal.entries.slice(0, previous) },
      });
      const now = Date.now();
      const expiresAt = now + 80_000;
      const insert = older.query(`INSERT INTO agent_jwt_replay ${insertColumns}`);
      insert.run(expiresAt, "agt_old", "jti-recorded-in-the-table", now);
      insert.run(now - 1000, "agt_old", "jti-expired-in-the-table", now - 60_000);
      older.close();

      const upgraded = makeTestApp({ dataDir });
      try {
        const table = upgraded.app.ctx.platform.sqlite
          .query("SELECT name FROM sqlite_master WHERE name = 'agent_jwt_replay'")
          .get();
        expect(table).toBeNull();
        expect(journalLines(dataDir)).toEqual([[expiresAt, "agt_old", "jti-recorded-in-the-table"]]);
        const rt = agentRuntime(upgraded.app.ctx)!;
        expect(rt.replay.seen("agt_old", "jti-recorded-in-the-table", expiresAt)).toBe(true);
        expect(rt.replay.seen("agt_old", "another-jti-of-the-same-age", expiresAt)).toBe(false);
        expect(rt.replay.seen("agt_old", "jti-recorded-in-the-table", expiresAt + 1000)).toBe(false);
      } finally {
        upgraded.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
