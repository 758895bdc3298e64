import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { agentGrantedOperations } from "../../src/agents/module.ts";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { addMember } from "../../src/auth/service.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import {
  activeAgent,
  approve,
  BASE,
  deny,
  ISSUER,
  type Merchant,
  newKeyPair,
  newMerchant,
  relaxRegisterLimit,
  TestAgent,
  TestHost,
} from "./helpers.ts";

let t: TestApp;
let merchant: Merchant;
const sqlite = () => t.app.ctx.platform.sqlite;
const row = (sql: string, ...args: string[]) =>
  sqlite()
    .query(sql)
    .get(...args) as Record<string, any>;
const AUTO_SET = [
  "createCart",
  "getCart",
  "getProduct",
  "getStore",
  "listCartPaymentMethods",
  "listCartShippingMethods",
  "listCategories",
  "listCountries",
  "listProducts",
];

beforeAll(async () => {
  t = makeTestApp();
  relaxRegisterLimit(t);
  merchant = await newMerchant(t, "merchant@example.com", "Main shop");
});
afterAll(() => t.cleanup());

describe("register", () => {
  test("2. Register with the default set from a new host: agent pending, grants pending, approval with an XXXX-XXXX code, expires_in 300, interval 5; the database holds only the code's HMAC", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Default set", host_name: "Laptop" });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({
      name: "Default set",
      mode: "delegated",
      status: "pending",
      organization_id: null,
    });
    expect(reg.body.agent_id).toMatch(/^agt_/);
    expect(reg.body.host_id).toMatch(/^host_/);
    expect(reg.body.agent_capability_grants.map((g: { capability: string }) => g.capability)).toEqual(
      AUTO_SET,
    );
    for (const grant of reg.body.agent_capability_grants) expect(grant.status).toBe("pending");
    const approval = reg.body.approval;
    expect(approval).toMatchObject({
      method: "device_authorization",
      expires_in: 300,
      interval: 5,
      verification_uri: `${BASE}/device/capabilities`,
    });
    expect(approval.approval_id).toMatch(/^apr_/);
    expect(approval.device_code).toBe(approval.approval_id);
    expect(approval.user_code).toMatch(
      /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}$/,
    );
    expect(approval.verification_uri_complete).toBe(`${BASE}/device/capabilities?code=${approval.user_code}`);

    const stored = row("SELECT * FROM agent_approvals WHERE id = ?", approval.approval_id);
    expect(stored.user_code_hash).toMatch(/^[0-9a-f]{64}$/);
    const plain = approval.user_code.replace("-", "");
    const dump = JSON.stringify(sqlite().query("SELECT * FROM agent_approvals").all());
    expect(dump).not.toContain(plain);
    expect(dump).not.toContain(approval.user_code);
    expect(row("SELECT status, name FROM agent_hosts WHERE id = ?", reg.body.host_id)).toEqual({
      status: "pending",
      name: "Laptop",
    });
  });

  test("the same agent key again while pending → 200 with a new approval; while active → 409 agent_exists; used elsewhere → 409 key_in_use", async () => {
    const host = await TestHost.create(t);
    const key = await newKeyPair();
    const first = await host.register({ name: "Again" }, key);
    const second = await host.register({ name: "Again" }, key);
    expect(second.status).toBe(200);
    expect(second.body.agent_id).toBe(first.body.agent_id);
    expect(second.body.approval.approval_id).not.toBe(first.body.approval.approval_id);
    expect(
      row("SELECT status FROM agent_approvals WHERE id = ?", first.body.approval.approval_id).status,
    ).toBe("expired");
    expect(
      (await approve(t, merchant, second.body.approval, { organization_id: merchant.orgId })).status,
    ).toBe(200);
    const third = await host.register({ name: "Again" }, key);
    expect(third.status).toBe(409);
    expect(third.body.error).toBe("agent_exists");

    const other = await TestHost.create(t);
    const stolen = await other.register({ name: "Thief" }, key);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error).toBe("key_in_use");
    const hostKeyAsAgent = await other.register({ name: "Thief" }, host.key);
    expect(hostKeyAsAgent.status).toBe(409);
    expect(hostKeyAsAgent.body.error).toBe("key_in_use");
  });

  test("bad register bodies: mode, capabilities, constraints, organization fields", async () => {
    const host = await TestHost.create(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: "x", mode: "robot" }, 400, "unsupported_mode"],
      [{ name: "x", capabilities: ["listProducts", "noSuchThing", "getMe"] }, 400, "invalid_capabilities"],
      [
        { name: "x", capabilities: [{ name: "adminRefundOrder", constraints: { amount: { upto: 5 } } }] },
        400,
        "unknown_constraint_operator",
      ],
      [
        { name: "x", capabilities: [{ name: "adminRefundOrder", constraints: { colour: 5 } }] },
        400,
        "invalid_capabilities",
      ],
      [
        { name: "x", capabilities: [{ name: "adminRefundOrder", constraints: { amount: { max: "5" } } }] },
        400,
        "invalid_capabilities",
      ],
      [{ name: "x", organization_id: merchant.orgId }, 400, "invalid_request"],
      [{ name: "x", metadata: { organizationId: merchant.orgId } }, 400, "invalid_request"],
      [{ name: "" }, 400, "invalid_request"],
      [{ name: "x".repeat(101) }, 400, "invalid_request"],
      [{ name: "x", binding_message: "x".repeat(201) }, 400, "invalid_request"],
    ];
    for (const [body, status, error] of cases) {
      const res = await host.register(body);
      if (res.status !== status || res.body.error !== error) {
        throw new Error(`${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    const invalid = await host.register({
      name: "x",
      capabilities: ["listProducts", "noSuchThing", "getMe"],
    });
    expect(invalid.body.invalid_capabilities).toEqual(["noSuchThing", "getMe"]);
    // None of them created anything.
    expect(row("SELECT COUNT(*) AS n FROM agent_hosts WHERE thumbprint = ?", host.key.thumbprint).n).toBe(0);
  });

  test("a body over 64 KiB → 413 payload_too_large", async () => {
    const host = await TestHost.create(t);
    const res = await host.register({ name: "big", reason: "x".repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  test("a host holds at most 10 pending agents → 429 too_many_agents with Retry-After", async () => {
    agentRuntime(t.app.ctx)!.limits.registerHost = new RateLimiter(1000, 60_000);
    const host = await TestHost.create(t);
    for (let i = 0; i < 10; i++) expect((await host.register({ name: `p${i}` })).status).toBe(201);
    const over = await host.register({ name: "p10" });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("too_many_agents");
    expect(over.response.headers.get("retry-after")).toBeTruthy();
  });
});

describe("device authorization", () => {
  test("3. Token polling: before approval authorization_pending; two polls within 5 s → slow_down with a larger interval; after denial access_denied; after 300 s expired_token; after approval 200", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Poller" });
    const code = reg.body.approval.device_code;
    const back = (id: string, ms: number) =>
      sqlite()
        .query("UPDATE agent_approvals SET last_polled_at = last_polled_at - ? WHERE id = ?")
        .run(ms, id);

    const first = await host.poll(code);
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ error: "authorization_pending" });
    expect(first.body.error_description).toBeString();
    const quick = await host.poll(code);
    expect(quick.status).toBe(400);
    expect(quick.body).toMatchObject({ error: "slow_down", interval: 10 });
    back(code, 11_000);
    expect((await host.poll(code)).body.error).toBe("authorization_pending");

    const wrongType = await host.call("POST", "/agent/token", {
      grant_type: "client_credentials",
      device_code: code,
    });
    expect(wrongType.body.error).toBe("unsupported_grant_type");
    const otherHost = await TestHost.create(t);
    await otherHost.register({ name: "other" });
    expect((await otherHost.poll(code)).body.error).toBe("invalid_grant");
    expect((await host.poll("apr_nope")).body.error).toBe("invalid_grant");

    // Approval → 200 with the status object (form encoding works too).
    expect((await approve(t, merchant, reg.body.approval, { organization_id: merchant.orgId })).status).toBe(
      200,
    );
    back(code, 11_000);
    const token = await host.jwt();
    const approved = await t.json("/api/auth/agent/token", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: code,
      }).toString(),
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      agent_id: reg.body.agent_id,
      status: "active",
      organization_id: merchant.orgId,
    });
    expect(approved.body.approval).toMatchObject({ approval_id: code, status: "approved" });

    // Denied.
    const host2 = await TestHost.create(t);
    const reg2 = await host2.register({ name: "Denied" });
    expect((await deny(t, merchant, reg2.body.approval)).status).toBe(200);
    expect((await host2.poll(reg2.body.approval.device_code)).body.error).toBe("access_denied");

    // Expired after 300 s.
    const host3 = await TestHost.create(t);
    const reg3 = await host3.register({ name: "Slow merchant" });
    sqlite()
      .query("UPDATE agent_approvals SET expires_at = ? WHERE id = ?")
      .run(Date.now() - 1, reg3.body.approval.device_code);
    expect((await host3.poll(reg3.body.approval.device_code)).body.error).toBe("expired_token");
  });

  test("authorize restarts device authorization for pending grants; another host's agent → 404 agent_not_found", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Re-auth" });
    const again = await host.call("POST", "/agent/authorize", {
      agent_id: reg.body.agent_id,
      binding_message: "Order #12",
    });
    expect(again.status).toBe(200);
    expect(again.body.agent_id).toBe(reg.body.agent_id);
    expect(again.body.user_code).toBe(again.body.approval.user_code);
    expect(again.body.device_code).toBe(again.body.approval.device_code);
    expect(again.body.approval.binding_message).toBe("Order #12");
    expect(again.body.expires_in).toBe(300);
    expect(row("SELECT status FROM agent_approvals WHERE id = ?", reg.body.approval.approval_id).status).toBe(
      "expired",
    );
    const oldCode = await approve(t, merchant, reg.body.approval, { organization_id: merchant.orgId });
    expect(oldCode.status).toBe(409);

    const other = await TestHost.create(t);
    await other.register({ name: "other" });
    const foreign = await other.call("POST", "/agent/authorize", { agent_id: reg.body.agent_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("agent_not_found");
    const status = await other.call("GET", `/agent/status?agent_id=${reg.body.agent_id}`);
    expect(status.status).toBe(404);
  });

  test("4. Approval: no session → 401; a session older than 5 min → password prompt (401); a member without the admin role → 403; a foreign Origin → 403; none changes state; five wrong codes expire the request", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Guarded" });
    const approval = reg.body.approval;
    const body = {
      approval_id: approval.approval_id,
      user_code: approval.user_code,
      organization_id: merchant.orgId,
    };

    const noSession = await t.json("/api/auth/agent/approve", jsonBody(body));
    expect(noSession.status).toBe(401);
    expect(noSession.body.error).toBe("authentication_required");

    const stale = await signUp(t, "stale@example.com");
    const staleUser = row("SELECT id FROM users WHERE email = ?", "stale@example.com").id;
    addMember(t.app.ctx.platform, merchant.orgId, staleUser, "admin");
    sqlite()
      .query("UPDATE sessions SET authenticated_at = ? WHERE user_id = ?")
      .run(Date.now() - 301_000, staleUser);
    const staleRes = await t.json("/api/auth/agent/approve", jsonBody(body, { cookie: stale }));
    expect(staleRes.status).toBe(401);
    expect(staleRes.body.error).toBe("authentication_required");

    const plainMember = await signUp(t, "member@example.com");
    const memberId = row("SELECT id FROM users WHERE email = ?", "member@example.com").id;
    addMember(t.app.ctx.platform, merchant.orgId, memberId, "member");
    const memberRes = await t.json("/api/auth/agent/approve", jsonBody(body, { cookie: plainMember }));
    expect(memberRes.status).toBe(403);
    expect(memberRes.body.error).toBe("unauthorized");

    const crossSite = await t.json(
      "/api/auth/agent/approve",
      jsonBody(body, { cookie: merchant.cookie, origin: "https://evil.example" }),
    );
    expect(crossSite.status).toBe(403);
    const formPost = await t.json("/api/auth/agent/approve", {
      method: "POST",
      headers: { cookie: merchant.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });
    expect(formPost.status).toBe(400);

    expect(row("SELECT status FROM agent_approvals WHERE id = ?", approval.approval_id).status).toBe(
      "pending",
    );
    expect(row("SELECT status FROM agents WHERE id = ?", reg.body.agent_id).status).toBe("pending");

    // Looking the code up shows the request to an admin.
    const view = await t.json(`/api/auth/agent/approval?code=${approval.user_code.toLowerCase()}`, {
      headers: { cookie: merchant.cookie },
    });
    expect(view.status).toBe(200);
    expect(view.body.agent).toMatchObject({ id: reg.body.agent_id, name: "Guarded", status: "pending" });
    expect(view.body.organizations.map((o: { id: string }) => o.id)).toEqual([merchant.orgId]);
    expect(view.body.capabilities.find((c: { name: string }) => c.name === "listProducts")).toMatchObject({
      method: "GET",
      path: "/v1/products",
      label: "Read-only",
    });
    const miss = await t.json("/api/auth/agent/approval?code=AAAA-AAAA", {
      headers: { cookie: merchant.cookie },
    });
    expect(miss.status).toBe(404);

    for (let i = 1; i <= 5; i++) {
      const wrong = await approve(t, merchant, { approval_id: approval.approval_id, user_code: "ZZZZ-ZZZZ" });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_user_code");
    }
    const stored = row(
      "SELECT status, failed_attempts FROM agent_approvals WHERE id = ?",
      approval.approval_id,
    );
    expect(stored).toEqual({ status: "expired", failed_attempts: 5 });
    const late = await approve(t, merchant, approval, { organization_id: merchant.orgId });
    expect(late.status).toBe(409);
  });

  test("5. Approving a subset activates exactly those grants (granted_by, expires_at), denies the rest, activates the agent and binds agent and host to the chosen organization; denying extra capabilities of an active agent leaves it active", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({
      name: "Subset",
      capabilities: ["listProducts", "addCartItem", "placeOrder"],
    });
    const before = Date.now();
    const decided = await approve(t, merchant, reg.body.approval, {
      organization_id: merchant.orgId,
      capabilities: ["listProducts", "addCartItem"],
      duration: "7d",
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      status: "approved",
      agent_status: "active",
      organization_id: merchant.orgId,
    });
    const grants = Object.fromEntries(
      decided.body.agent_capability_grants.map((g: { capability: string }) => [g.capability, g]),
    );
    expect(grants.listProducts).toMatchObject({ status: "active", granted_by: merchant.userId });
    expect(grants.addCartItem.status).toBe("active");
    const expiresAt = Date.parse(grants.addCartItem.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(expiresAt).toBeLessThan(before + 7 * 86_400_000 + 60_000);
    expect(grants.placeOrder.status).toBe("denied");
    expect(
      row(
        "SELECT denied_by FROM agent_grants WHERE agent_id = ? AND capability = 'placeOrder'",
        reg.body.agent_id,
      ).denied_by,
    ).toBe(merchant.userId);
    expect(
      row("SELECT status, organization_id, user_id FROM agent_hosts WHERE id = ?", reg.body.host_id),
    ).toEqual({
      status: "active",
      organization_id: merchant.orgId,
      user_id: merchant.userId,
    });
    expect(
      row("SELECT status, organization_id, user_id FROM agents WHERE id = ?", reg.body.agent_id),
    ).toEqual({
      status: "active",
      organization_id: merchant.orgId,
      user_id: merchant.userId,
    });

    // Asking again for the denied one, and denying it again: the agent stays active.
    const agent = reg.agent!;
    const more = await agent.auth("POST", "/agent/request-capability", { capabilities: ["placeOrder"] });
    expect(more.status).toBe(200);
    expect(more.body.agent_capability_grants).toMatchObject([
      { capability: "placeOrder", status: "pending" },
    ]);
    const denied = await deny(t, merchant, more.body.approval, { reason: "not yet" });
    expect(denied.status).toBe(200);
    expect(denied.body.agent_status).toBe("active");
    expect(
      row(
        "SELECT status, reason FROM agent_grants WHERE agent_id = ? AND capability = 'placeOrder'",
        agent.id,
      ),
    ).toEqual({
      status: "denied",
      reason: "not yet",
    });
    expect((await agent.v1("/v1/products")).status).toBe(200);
  });

  test("6. Two concurrent decisions: one succeeds, the other gets 409; the grants match the winner", async () => {
    const host = await TestHost.create(t);
    const reg = await host.register({ name: "Race", capabilities: ["listProducts", "addCartItem"] });
    const [a, b] = await Promise.all([
      approve(t, merchant, reg.body.approval, {
        organization_id: merchant.orgId,
        capabilities: ["listProducts"],
      }),
      deny(t, merchant, reg.body.approval),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const grants = sqlite()
      .query("SELECT capability, status FROM agent_grants WHERE agent_id = ? ORDER BY capability")
      .all(reg.body.agent_id);
    expect(grants).toEqual(
      winner.body.agent_capability_grants.map((g: { capability: string; status: string }) => ({
        capability: g.capability,
        status: g.status,
      })),
    );
  });

  test("7. A second agent of a bound host is active at registration with only auto-grant capabilities active, bound to the host's organization", async () => {
    const first = await activeAgent(t, merchant, { name: "First" });
    const second = await first.host.register({
      name: "Second",
      mode: "autonomous",
      capabilities: ["listProducts", "createCart", "addCartItem", "adminGetOrder"],
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      status: "active",
      organization_id: merchant.orgId,
      mode: "autonomous",
    });
    const statuses = Object.fromEntries(
      second.body.agent_capability_grants.map(
        (g: { capability: string; status: string; granted_by?: string }) => [
          g.capability,
          `${g.status}${g.granted_by ? ` ${g.granted_by}` : ""}`,
        ],
      ),
    );
    expect(statuses).toEqual({
      listProducts: "active system:auto",
      createCart: "active system:auto",
      addCartItem: "pending",
      adminGetOrder: "pending",
    });
    expect(second.body.approval.approval_id).toMatch(/^apr_/);
    const me = await second.agent!.v1("/v1/me");
    expect(me.body.data).toEqual({ orgId: merchant.orgId, type: "agent", scopes: ["storefront"] });
  });

  test("8. No endpoint lets an agent or host set its organization; an admin of another organization cannot approve for a bound agent", async () => {
    const first = await activeAgent(t, merchant, { name: "Bound" });
    const reg = await first.host.register({ name: "Needs approval", capabilities: ["addCartItem"] });
    const other = await newMerchant(t, "other-admin@example.com", "Other shop");
    const foreign = await approve(t, other, reg.body.approval, { organization_id: other.orgId });
    expect(foreign.status).toBe(403);
    const foreignNoOrg = await approve(t, { cookie: other.cookie }, reg.body.approval);
    expect(foreignNoOrg.status).toBe(403);
    const own = await approve(t, { cookie: merchant.cookie }, reg.body.approval);
    expect(own.status).toBe(200);
    expect(own.body.organization_id).toBe(merchant.orgId);
    const tries = await first.auth("POST", "/agent/request-capability", {
      capabilities: ["placeOrder"],
      organization_id: other.orgId,
    });
    expect(tries.status).toBe(400);
  });
});

describe("callers, capabilities and keys", () => {
  test("9. GET /v1/me with an agent JWT: type agent, the bound orgId, scopes from grants, userId only for delegated agents", async () => {
    const delegated = await activeAgent(t, merchant, {
      name: "Me",
      capabilities: ["listProducts", "adminGetOrder"],
    });
    const me = await delegated.v1("/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      orgId: merchant.orgId,
      type: "agent",
      scopes: ["storefront", "admin"],
      userId: merchant.userId,
    });
    const autonomous = await activeAgent(t, merchant, {
      name: "Auto",
      mode: "autonomous",
      capabilities: ["adminGetOrder"],
    });
    const me2 = await autonomous.v1("/v1/me");
    expect(me2.body.data).toEqual({ orgId: merchant.orgId, type: "agent", scopes: ["admin"] });
    // A token narrowed by its capabilities claim.
    const narrowed = await t.json("/v1/me", {
      headers: { authorization: `Bearer ${await delegated.jwt(BASE, { capabilities: ["listProducts"] })}` },
    });
    expect(narrowed.body.data.scopes).toEqual(["storefront"]);
    // What `/mcp` lists to this agent: exactly its effective grants.
    const service = {
      ctx: t.app.ctx,
      executor: t.app.executor,
      operations: t.app.operations,
      shopOfHost: () => undefined,
      resolveCaller: () => Promise.reject(new Error("unused")),
    };
    const caller = {
      type: "agent" as const,
      orgId: merchant.orgId,
      scopes: [],
      id: `agent:${delegated.id}`,
      agentId: delegated.id,
    };
    expect(agentGrantedOperations(service, caller).sort()).toEqual(["adminGetOrder", "listProducts"]);
    const refused = await t.json("/v1/admin/orders/ord_x", {
      headers: { authorization: `Bearer ${await delegated.jwt(BASE, { capabilities: ["listProducts"] })}` },
    });
    expect(refused.status).toBe(403);
  });

  test("17. Request-capability for already effective capabilities → 409 already_granted; otherwise a new approval, and the older pending one becomes expired", async () => {
    const agent = await activeAgent(t, merchant, { name: "Asker", capabilities: ["listProducts"] });
    const already = await agent.auth("POST", "/agent/request-capability", { capabilities: ["listProducts"] });
    expect(already.status).toBe(409);
    expect(already.body.error).toBe("already_granted");
    const first = await agent.auth("POST", "/agent/request-capability", {
      capabilities: ["addCartItem"],
      reason: "to shop",
    });
    expect(first.status).toBe(200);
    expect(first.body.approval.user_code).toBeString();
    const auto = await agent.auth("POST", "/agent/request-capability", {
      capabilities: ["getCart", "placeOrder"],
    });
    expect(auto.body.agent_capability_grants).toMatchObject([
      { capability: "getCart", status: "active", granted_by: "system:auto" },
      { capability: "placeOrder", status: "pending" },
    ]);
    expect(
      row("SELECT status FROM agent_approvals WHERE id = ?", first.body.approval.approval_id).status,
    ).toBe("expired");
    const covered = JSON.parse(
      row("SELECT capabilities FROM agent_approvals WHERE id = ?", auto.body.approval.approval_id)
        .capabilities,
    );
    expect(covered).toEqual(["addCartItem", "placeOrder"]);
    const status = await agent.host.call("GET", `/agent/status?agent_id=${agent.id}`);
    expect(status.body).toMatchObject({
      agent_id: agent.id,
      status: "active",
      approval: { status: "pending" },
    });
  });

  test("18. After rotate-key the old agent key is refused and the new one accepted; host revoke revokes all its agents", async () => {
    const agent = await activeAgent(t, merchant, { name: "Rotator" });
    const oldKey = agent.key;
    const newKey = await newKeyPair();
    const rotated = await agent.host.call("POST", "/agent/rotate-key", {
      agent_id: agent.id,
      public_key: newKey.jwk,
    });
    expect(rotated.body).toEqual({ agent_id: agent.id, status: "active" });
    expect((await agent.v1("/v1/products")).status).toBe(401);
    agent.key = newKey;
    expect((await agent.v1("/v1/products")).status).toBe(200);
    agent.key = oldKey;
    const reuse = await agent.host.call("POST", "/agent/rotate-key", {
      agent_id: agent.id,
      public_key: newKey.jwk,
    });
    expect(reuse.body.error).toBe("key_in_use");
    agent.key = newKey;

    // Host key rotation: the agents' iss follows the new thumbprint.
    const sibling = await agent.host.register({ name: "Sibling" });
    const newHostKey = await newKeyPair();
    const hostRotated = await agent.host.call("POST", "/host/rotate-key", { public_key: newHostKey.jwk });
    expect(hostRotated.body).toMatchObject({ status: "active" });
    const oldHost = agent.host;
    expect((await agent.v1("/v1/products")).status).toBe(401);
    const newHost = new TestHost(t, newHostKey);
    const moved = new TestAgent(t, newHost, agent.id, newKey);
    expect((await moved.v1("/v1/products")).status).toBe(200);
    expect((await oldHost.call("GET", `/agent/status?agent_id=${agent.id}`)).status).toBe(401);

    const revoked = await newHost.call("POST", "/host/revoke");
    expect(revoked.body).toEqual({ host_id: sibling.body.host_id, status: "revoked", agents_revoked: 2 });
    expect((await moved.v1("/v1/products")).status).toBe(401);
    expect(row("SELECT status FROM agents WHERE id = ?", sibling.body.agent_id).status).toBe("revoked");
    expect(
      row("SELECT COUNT(*) AS n FROM agent_grants WHERE agent_id = ? AND status = 'active'", agent.id).n,
    ).toBe(0);
  });

  test("18. Introspect without an admin caller → 401/403; with one → active only for its own organization's agents, and the jti stays usable", async () => {
    const agent = await activeAgent(t, merchant, { name: "Inspected" });
    const token = await agent.jwt(BASE);
    const introspect = (headers: Record<string, string>) =>
      t.json("/api/auth/agent/introspect", jsonBody({ token }, headers));

    const none = await introspect({});
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("authentication_required");
    const storefrontKey = (await t.org("Storefront key org", { scopes: ["storefront"] })).key;
    const weak = await introspect({ "x-api-key": storefrontKey });
    expect(weak.status).toBe(403);
    expect(weak.body.error).toBe("unauthorized");
    const asAgent = await introspect({ authorization: `Bearer ${await agent.jwt(BASE)}` });
    expect(asAgent.status).toBe(403);

    const other = await newMerchant(t, "introspector@example.com", "Elsewhere");
    const foreign = await introspect({ "x-api-key": other.apiKey });
    expect(foreign.body).toEqual({ active: false });

    const own = await introspect({ "x-api-key": merchant.apiKey });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      active: true,
      agent_id: agent.id,
      host_id: agent.host.key ? expect.any(String) : undefined,
      organization_id: merchant.orgId,
      mode: "delegated",
      user_id: merchant.userId,
    });
    expect(own.body.agent_capability_grants.length).toBe(AUTO_SET.length);
    expect(Date.parse(own.body.expires_at)).toBeGreaterThan(Date.now());
    const bySession = await introspect({ cookie: merchant.cookie });
    expect(bySession.body.active).toBe(true);

    // The jti was not recorded: the token still works once, then introspection says inactive.
    expect((await t.json("/v1/products", { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    expect((await introspect({ "x-api-key": merchant.apiKey })).body).toEqual({ active: false });
  });

  test("revoke by a dashboard admin of the agent's organization, the agent list, and revoking twice", async () => {
    const agent = await activeAgent(t, merchant, { name: "Listed" });
    const list = await t.json("/api/auth/agent/list", { headers: { cookie: merchant.cookie } });
    expect(list.status).toBe(200);
    const listed = list.body.agents.find((a: { agent_id: string }) => a.agent_id === agent.id);
    expect(listed).toMatchObject({ name: "Listed", status: "active", organization_id: merchant.orgId });
    expect(listed.agent_capability_grants.length).toBe(AUTO_SET.length);

    const other = await newMerchant(t, "not-yours@example.com", "Not yours");
    const foreign = await t.json(
      "/api/auth/agent/revoke",
      jsonBody({ agent_id: agent.id }, { cookie: other.cookie }),
    );
    expect(foreign.status).toBe(404);
    const own = await t.json(
      "/api/auth/agent/revoke",
      jsonBody({ agent_id: agent.id }, { cookie: merchant.cookie }),
    );
    expect(own.body).toEqual({ agent_id: agent.id, status: "revoked" });
    const again = await agent.host.call("POST", "/agent/revoke", { agent_id: agent.id });
    expect(again.body).toEqual({ agent_id: agent.id, status: "revoked" });
    expect((await agent.v1("/v1/products")).status).toBe(401);
  });

  test("agent JWTs on /api/auth are single-use too", async () => {
    const agent = await activeAgent(t, merchant, { name: "Once" });
    const token = await agent.jwt(ISSUER);
    const send = () => t.json("/api/auth/capability/list", { headers: { authorization: `Bearer ${token}` } });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(401);
  });
});
