import { afterAll, beforeAll, expect, test } from "bun:test";
import { activeAgent, BASE, newMerchant, relaxRegisterLimit, type TestAgent } from "../agents/helpers.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

// An agent JWT's jti is written before the request is answered (docs/agents.md, "For operators"): a
// token that got its 200 stays used when the server is killed right after and started again.

// The tokens' audience is the test app's origin; the spawned server is told it is that origin.
const ENV = { BASE_URL: BASE };

let t: TestApp;
let agent: TestAgent;
let server: ServerProcess | undefined;

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  const merchant = await newMerchant(t, "kill@example.com", "Kill shop");
  agent = await activeAgent(t, merchant);
  // The service owns the files from here on.
  t.close();
});
afterAll(async () => {
  if (server && !server.killed) await server.kill();
  t.cleanup();
});

const get = (token: string) =>
  fetch(`${server!.url}/v1/products`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error: string; code: string; status: number },
  }));

test("a token answered 200 is refused as a replay after a SIGKILL and a restart on the same DATA_DIR", async () => {
  server = await startServer(t.dataDir, ENV);
  const used = await agent.jwt();
  // Concurrent requests, so the used token's jti is written in one turn's write with others.
  const others = await Promise.all(Array.from({ length: 10 }, () => agent.jwt()));
  const answers = await Promise.all([used, ...others].map(get));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  const replayBeforeKill = await get(used);
  await server.kill();

  server = await startServer(t.dataDir, ENV);
  for (const token of [used, ...others]) {
    const replay = await get(token);
    expect(replay).toEqual(replayBeforeKill);
  }
  expect(replayBeforeKill.status).toBe(401);
  expect(replayBeforeKill.body).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  expect(replayBeforeKill.body.error).toContain("already used");
  // The agent itself still works: a fresh token is accepted.
  expect((await get(await agent.jwt())).status).toBe(200);
  await server.kill();
});
