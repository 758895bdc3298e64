import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { addMember, createApiKey, createUser } from "../../src/auth/service.ts";
import { cookieFrom, jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";
import { activeAgent, type Merchant, newMerchant, relaxRegisterLimit, TestHost } from "./helpers.ts";

// GET /v1/admin/agents and POST /v1/admin/agents/{id}/revoke: the organization's agents for its
// dashboard and admin keys, agents registered and approved through the real Agent Auth flow.

let t: TestApp;
let merchant: Merchant;
let other: Merchant;
let memberCookie: string;
let storefrontKey: string;

const list = (headers: Record<string, string>) => t.json("/v1/admin/agents", { headers });
const revoke = (headers: Record<string, string>, id: string) =>
  t.json(`/v1/admin/agents/${id}/revoke`, jsonBody({}, headers));
const agentRow = (id: string) =>
  t.app.ctx.platform.sqlite.query("SELECT status, host_id FROM agents WHERE id = ?").get(id) as {
    status: string;
    host_id: string;
  };

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "owner@example.com", "Main shop");
  other = await newMerchant(t, "other@example.com", "Other shop");
  const password = "correct horse battery";
  const member = await createUser(t.app.ctx.platform, {
    email: "member@example.com",
    password,
    name: "Member",
  });
  addMember(t.app.ctx.platform, merchant.orgId, member.id, "member");
  memberCookie = cookieFrom(
    await t.request("/api/auth/sign-in/email", jsonBody({ email: "member@example.com", password })),
  );
  storefrontKey = createApiKey(t.app.ctx.platform, {
    organizationId: merchant.orgId,
    name: "storefront",
    scopes: ["storefront"],
  }).key;
});
afterAll(() => t.cleanup());

describe("GET /v1/admin/agents", () => {
  test("lists the organization's agents by host, newest first, each with its grants; the session and an admin key see the same", async () => {
    const host = await TestHost.create(t);
    const first = await activeAgent(t, merchant, { name: "First", host_name: "Laptop" }, host);
    const second = await activeAgent(t, merchant, { name: "Second" }, host);
    await activeAgent(t, other, { name: "Elsewhere" });

    const listed = await list({ cookie: merchant.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const [laptop] = listed.body.data;
    expect(laptop).toMatchObject({ id: agentRow(first.id).host_id, name: "Laptop", status: "active" });
    expect(laptop.agents.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    expect(laptop.agents[1]).toMatchObject({ name: "First", mode: "delegated", status: "active" });
    expect(laptop.agents[1].grants.length).toBeGreaterThan(0);
    expect(laptop.agents[1].grants).toContainEqual({
      capability: "listProducts",
      description: expect.any(String),
      status: "active",
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect((await list({ "x-api-key": merchant.apiKey })).body).toEqual(listed.body);
  });

  test("refuses a call without a credential (401), a storefront key (403) and an agent (its capabilities never include it)", async () => {
    expect((await list({})).status).toBe(401);
    expect((await list({ "x-api-key": storefrontKey })).status).toBe(403);
    const agent = await activeAgent(t, merchant, { name: "Curious" });
    const asAgent = await agent.v1("/v1/admin/agents");
    expect(asAgent.status).toBe(403);
    expect(asAgent.body).toMatchObject({ code: "FORBIDDEN", status: 403 });
    const catalog = agentRuntime(t.app.ctx)!.catalog;
    expect(catalog.has("listProducts")).toBe(true);
    expect(catalog.has("adminListAgents") || catalog.has("adminRevokeAgent")).toBe(false);
  });
});

describe("POST /v1/admin/agents/{id}/revoke", () => {
  test("revokes the agent and its grants; its next call is refused, and revoking again answers the same", async () => {
    const agent = await activeAgent(t, merchant, { name: "Revoked" });
    expect((await agent.v1("/v1/products")).status).toBe(200);

    const revoked = await revoke({ cookie: merchant.cookie }, agent.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: agent.id, name: "Revoked", status: "revoked" });
    expect(revoked.body.data.grants.every((g: { status: string }) => g.status === "revoked")).toBe(true);
    expect((await agent.v1("/v1/products")).status).toBe(401);

    const again = await revoke({ "x-api-key": merchant.apiKey }, agent.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(revoked.body.data);
  });

  test("a member may list but not revoke (403), and another organization's admin neither sees nor revokes the agent (404); the agent stays active", async () => {
    const agent = await activeAgent(t, merchant, { name: "Kept" });

    expect((await list({ cookie: memberCookie })).status).toBe(200);
    const byMember = await revoke({ cookie: memberCookie }, agent.id);
    expect(byMember.status).toBe(403);
    expect(byMember.body).toMatchObject({ code: "FORBIDDEN", status: 403 });

    const ids = (await list({ cookie: other.cookie })).body.data.flatMap((h: { agents: { id: string }[] }) =>
      h.agents.map((a) => a.id),
    );
    expect(ids).not.toContain(agent.id);
    for (const headers of [{ cookie: other.cookie }, { "x-api-key": other.apiKey }] as Record<
      string,
      string
    >[]) {
      const foreign = await revoke(headers, agent.id);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: "NOT_FOUND", status: 404 });
    }
    expect((await revoke({ "x-api-key": storefrontKey }, agent.id)).status).toBe(403);
    expect((await revoke({}, agent.id)).status).toBe(401);

    expect(agentRow(agent.id).status).toBe("active");
    expect((await agent.v1("/v1/products")).status).toBe(200);
  });

  test("a malformed id is a 400 at /params/id and an unknown one a 404", async () => {
    const malformed = await revoke({ cookie: merchant.cookie }, "not-an-agent");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect(malformed.body.details.map((d: { path: string }) => d.path)).toContain("/params/id");

    const unknown = await revoke({ cookie: merchant.cookie }, "agt_doesnotexist");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
