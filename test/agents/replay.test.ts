import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
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

  test("the same jti signed into two different tokens is still used once", async () => {
    const jti = crypto.randomUUID();
    const [first, second] = await Promise.all([
      agent.jwt(BASE, {}, { jti }),
      agent.jwt(BASE, { x: 1 }, { jti }),
    ]);
    const answers = await Promise.all([get(first!), get(second!)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
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
