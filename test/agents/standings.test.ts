import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { standingOf } from "../../src/agents/grants.ts";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { activeAgent, type Merchant, newMerchant, relaxRegisterLimit } from "./helpers.ts";

// An agent's rows, host and standing are kept in memory between its requests; any change to them,
// by this process or another one writing the control plane (the CLI), counts from the next request.

let t: TestApp;
let merchant: Merchant;
/** A second connection to the control plane, as another process would write it. */
let other: Database;

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "standings@example.com");
  other = new Database(join(t.dataDir, "platform.sqlite"));
  other.run("PRAGMA busy_timeout = 5000");
});

afterAll(() => {
  other.close();
  t.cleanup();
});

const version = () =>
  (other.query("SELECT version FROM agent_standing_version WHERE id = 1").get() as { version: number })
    .version;

/** An active agent that has made one request already, so its standing is kept. */
async function warmAgent(name: string) {
  const agent = await activeAgent(t, merchant, { name });
  expect((await agent.v1("/v1/products")).status).toBe(200);
  const rt = agentRuntime(t.app.ctx)!;
  const kept = standingOf(rt, agent.id);
  expect(kept?.agent.status).toBe("active");
  expect(standingOf(rt, agent.id)).toBe(kept!);
  return agent;
}

describe("agent standings kept between requests", () => {
  test("kept while nothing changes; read again after any change to an agent, host, grant or member", async () => {
    const agent = await warmAgent("Kept");
    const rt = agentRuntime(t.app.ctx)!;
    const kept = standingOf(rt, agent.id);
    expect((await agent.v1("/v1/products")).status).toBe(200);
    expect(standingOf(rt, agent.id)).toBe(kept!);

    const changes: [string, string][] = [
      ["agents", `UPDATE agents SET name = 'Renamed' WHERE id = '${agent.id}'`],
      ["agent_hosts", "UPDATE agent_hosts SET name = 'Renamed host'"],
      ["agent_grants", `UPDATE agent_grants SET updated_at = updated_at + 1 WHERE agent_id = '${agent.id}'`],
      ["members", `UPDATE members SET created_at = created_at + 1 WHERE user_id = '${merchant.userId}'`],
      [
        "agents",
        "INSERT INTO agents SELECT 'agt_copy', host_id, name, mode, public_key, 'copy', status, credential, organization_id, user_id, activated_at, last_used_at, created_at, updated_at FROM agents LIMIT 1",
      ],
      ["agents", "DELETE FROM agents WHERE id = 'agt_copy'"],
    ];
    for (const [table, sql] of changes) {
      const before = version();
      other.run(sql);
      expect({ table, moved: version() > before }).toEqual({ table, moved: true });
      const read = standingOf(rt, agent.id);
      expect(read).not.toBe(kept!);
      expect(standingOf(rt, agent.id)).toBe(read!);
    }
    expect(standingOf(rt, agent.id)?.agent.name).toBe("Renamed");
    expect(standingOf(rt, agent.id)?.host.name).toBe("Renamed host");
  });

  test("a revocation written by another process is refused on the agent's next request", async () => {
    const agent = await warmAgent("Revoked elsewhere");
    other.run("UPDATE agents SET status = 'revoked' WHERE id = ?", [agent.id]);
    const next = await agent.v1("/v1/products");
    expect(next.status).toBe(401);
    expect(next.body.code).toBe("UNAUTHORIZED");
  });

  test.each([
    [
      "a host revoked by another process: its agent is refused on its next request",
      "UPDATE agent_hosts SET status = 'revoked' WHERE id = (SELECT host_id FROM agents WHERE id = ?)",
      401,
    ],
    [
      "a grant withdrawn by another process: the capability is refused on the next request",
      "UPDATE agent_grants SET status = 'revoked' WHERE agent_id = ? AND capability = 'listProducts'",
      403,
    ],
  ])("%s", async (name, change, status) => {
    const agent = await warmAgent(name);
    other.run(change, [agent.id]);
    expect((await agent.v1("/v1/products")).status).toBe(status);
  });

  test("the user of a delegated agent demoted by another process: refused on the next request", async () => {
    const agent = await warmAgent("User demoted elsewhere");
    other.run("UPDATE members SET role = 'member' WHERE user_id = ?", [merchant.userId]);
    try {
      const next = await agent.v1("/v1/products");
      expect(next.status).toBe(403);
    } finally {
      other.run("UPDATE members SET role = 'owner' WHERE user_id = ?", [merchant.userId]);
    }
    expect((await agent.v1("/v1/products")).status).toBe(200);
  });

  test("an agent revoked through the API is refused on its next request", async () => {
    const agent = await warmAgent("Revoked here");
    const revoked = await agent.host.call("POST", "/agent/revoke", { agent_id: agent.id });
    expect(revoked.body.status).toBe("revoked");
    expect((await agent.v1("/v1/products")).status).toBe(401);
  });

  test("the last use is written once a minute, not on every request of a kept agent", async () => {
    const agent = await warmAgent("Last used");
    const lastUsed = () =>
      (other.query("SELECT last_used_at FROM agents WHERE id = ?").get(agent.id) as { last_used_at: number })
        .last_used_at;
    const first = lastUsed();
    const before = version();
    for (let i = 0; i < 5; i++) expect((await agent.v1("/v1/products")).status).toBe(200);
    expect(lastUsed()).toBe(first);
    expect(version()).toBe(before);
  });
});
