import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { activeAgent, type Merchant, newKeyPair, newMerchant, TestHost } from "./helpers.ts";

// 22. Each limit answers 429 with Retry-After one request past its number (fixed 60 s windows per
// process; every request here comes from the same address).

let t: TestApp;
let merchant: Merchant;

beforeAll(async () => {
  t = makeTestApp();
  merchant = await newMerchant(t, "limits@example.com");
});
afterAll(() => t.cleanup());

async function expectLimit(
  limit: number,
  send: (i: number) => Promise<{ status: number; body: any; response: Response }>,
) {
  for (let i = 0; i < limit; i++) {
    const res = await send(i);
    if (res.status === 429) throw new Error(`limited after ${i} requests, expected ${limit}`);
  }
  const over = await send(limit);
  expect(over.status).toBe(429);
  expect(Number(over.response.headers.get("retry-after"))).toBeGreaterThan(0);
  return over.body;
}

describe("22. Each Agent Auth rate limit answers 429 with Retry-After one request past its number", () => {
  test("discovery: 120 per address", async () => {
    const body = await expectLimit(120, () => t.json("/.well-known/agent-configuration"));
    expect(body.error).toBe("rate_limited");
  });

  test("register: 10 per address", async () => {
    const hosts = await Promise.all(Array.from({ length: 11 }, () => TestHost.create(t)));
    const body = await expectLimit(10, (i) => hosts[i]!.register({ name: `agent ${i}` }));
    expect(body.error).toBe("rate_limited");
  });

  test("capability list and describe: 60 per address", async () => {
    expect((await expectLimit(60, () => t.json("/api/auth/capability/list?limit=1"))).error).toBe(
      "rate_limited",
    );
    expect((await t.json("/api/auth/capability/describe?name=listProducts")).status).toBe(429);
  });

  test("authorize: 5 per host; revoke: 10 per host; host key changes: 5 per host; token: 60 per address; request-capability: 10 and /v1 + execute: 120 per agent", async () => {
    // A fresh app: the register limit of this file's app is used up.
    const other = makeTestApp();
    try {
      const m = await newMerchant(other, "limits2@example.com");
      const host = await TestHost.create(other);
      const reg = await host.register({ name: "Pending" });
      expect(
        (await expectLimit(5, () => host.call("POST", "/agent/authorize", { agent_id: reg.body.agent_id })))
          .error,
      ).toBe("rate_limited");
      expect(
        (await expectLimit(10, () => host.call("POST", "/agent/revoke", { agent_id: "agt_none" }))).error,
      ).toBe("rate_limited");
      const bad = (await newKeyPair()).jwk;
      expect(
        (
          await expectLimit(5, () =>
            host.call("POST", "/host/rotate-key", { public_key: { ...bad, d: "x" } }),
          )
        ).error,
      ).toBe("rate_limited");
      expect((await expectLimit(60, () => host.poll("apr_none"))).error).toBe("rate_limited");

      const agent = await activeAgent(other, m, { name: "Asker", capabilities: ["listProducts"] });
      expect(
        (
          await expectLimit(10, () =>
            agent.auth("POST", "/agent/request-capability", { capabilities: ["placeOrder"] }),
          )
        ).error,
      ).toBe("rate_limited");
      // /v1 with an agent JWT: 120 per agent, in the API's envelope.
      const v1 = await expectLimit(120, () => agent.v1("/v1/me"));
      expect(v1).toMatchObject({ code: "RATE_LIMITED", status: 429 });
      // Execute shares the agent's budget.
      const executed = await agent.execute("listProducts");
      expect(executed.status).toBe(429);
      expect(executed.body.error).toBe("rate_limited");
    } finally {
      other.cleanup();
    }
  });

  test("failed approval look-ups: 10 per session", async () => {
    const body = await expectLimit(10, () =>
      t.json("/api/auth/agent/approval?code=AAAA-AAAA", { headers: { cookie: merchant.cookie } }),
    );
    expect(body.error).toBe("rate_limited");
  });
});
