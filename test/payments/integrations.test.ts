import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { addMember, createUser } from "../../src/auth/service.ts";
import {
  decryptSecret,
  deriveKey,
  encryptSecret,
  IntegrationDecryptError,
  makeKeyring,
} from "../../src/payments/crypto.ts";
import { jsonBody, makeTestApp, signUp } from "../helpers/app.ts";
import { makeShop } from "../helpers/shop.ts";
import {
  CHECKOUT_SECRET,
  deliverStripe,
  EASYPAY,
  ENCRYPTION_KEY,
  fakeStripe,
  IFTHENPAY,
  makeWorld,
  OLD_ENCRYPTION_KEY,
  type PaymentsWorld,
  putIntegration,
  STRIPE,
  STRIPE_ENV,
  stripeEvent,
} from "./helpers.ts";

let w: PaymentsWorld;
let org: { id: string; key: string };
let other: { id: string; key: string };

beforeAll(async () => {
  w = makeWorld(STRIPE_ENV);
  org = await w.t.org("Integrations");
  other = await w.t.org("Other tenant");
});
afterAll(() => w.close());

const get = (key: string, provider: string) =>
  w.t.json(`/v1/admin/integrations/${provider}`, { headers: { "x-api-key": key } });
const del = (key: string, provider: string) =>
  w.t.json(`/v1/admin/integrations/${provider}`, { method: "DELETE", headers: { "x-api-key": key } });

function rawRow(orgId: string, provider: string) {
  const sqlite = new Database(join(w.t.dataDir, "tenants", `${orgId}.sqlite`), { readonly: true });
  try {
    return sqlite.query("SELECT * FROM integration_configs WHERE provider = ?").get(provider) as {
      settings: string;
      secrets: string;
      enabled: number;
    } | null;
  } finally {
    sqlite.close();
  }
}

function writeSecrets(orgId: string, provider: string, secrets: Record<string, string>) {
  const sqlite = new Database(join(w.t.dataDir, "tenants", `${orgId}.sqlite`));
  try {
    sqlite
      .query("UPDATE integration_configs SET secrets = ? WHERE provider = ?")
      .run(JSON.stringify(secrets), provider);
  } finally {
    sqlite.close();
  }
}

describe("encryption of secret fields", () => {
  const ring = makeKeyring(Buffer.from(ENCRYPTION_KEY, "hex"));
  const where = { orgId: "org_a", provider: "stripe", field: "secretKey" };

  test("v1.<kid>.<iv>.<ciphertext‖tag>, a fresh IV per value, kid from the derived key", () => {
    const a = encryptSecret(ring, where, "sk_test_x");
    const b = encryptSecret(ring, where, "sk_test_x");
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a.split(".")[1]).toBe(deriveKey(Buffer.from(ENCRYPTION_KEY, "hex")).kid);
    expect(decryptSecret(ring, where, a)).toBe("sk_test_x");
  });

  test("another org, provider or field, a changed byte, an unknown kid or version: IntegrationDecryptError", () => {
    const stored = encryptSecret(ring, where, "sk_test_x");
    for (const elsewhere of [
      { ...where, orgId: "org_b" },
      { ...where, provider: "easypay" },
      { ...where, field: "webhookSecret" },
    ]) {
      expect(() => decryptSecret(ring, elsewhere, stored)).toThrow(IntegrationDecryptError);
    }
    const [v, kid, iv, body] = stored.split(".") as [string, string, string, string];
    const flipped = `${body.slice(0, 2)}${body[2] === "A" ? "B" : "A"}${body.slice(3)}`;
    for (const bad of [
      `${v}.${kid}.${iv}.${flipped}`,
      `${v}.zzzzzzzz.${iv}.${body}`,
      `v2.${kid}.${iv}.${body}`,
      "plain",
    ]) {
      expect(() => decryptSecret(ring, where, bad)).toThrow(IntegrationDecryptError);
    }
  });

  test("a value written under a previous key decrypts while that key is listed", () => {
    const old = makeKeyring(Buffer.from(OLD_ENCRYPTION_KEY, "hex"));
    const stored = encryptSecret(old, where, "kept");
    expect(() => decryptSecret(ring, where, stored)).toThrow(IntegrationDecryptError);
    const rotated = makeKeyring(Buffer.from(ENCRYPTION_KEY, "hex"), [Buffer.from(OLD_ENCRYPTION_KEY, "hex")]);
    expect(decryptSecret(rotated, where, stored)).toBe("kept");
  });
});

describe("admin integration settings", () => {
  test("PUT /v1/admin/integrations/stripe returns 201 then 200; the GET shows {set:true,last4} and never the plaintext; the tenant file holds only v1. ciphertexts for secret fields", async () => {
    const created = await putIntegration(w.t, org.key, "stripe", { fields: STRIPE });
    expect(created.status).toBe(201);
    const replaced = await putIntegration(w.t, org.key, "stripe", { fields: STRIPE });
    expect(replaced.status).toBe(200);
    const read = await get(org.key, "stripe");
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      provider: "stripe",
      source: "tenant",
      enabled: true,
      settings: { publishableKey: STRIPE.publishableKey },
      secrets: {
        secretKey: { set: true, last4: STRIPE.secretKey.slice(-4) },
        webhookSecret: { set: true, last4: STRIPE.webhookSecret.slice(-4) },
      },
      webhookUrl: `http://localhost:3000/api/webhooks/stripe/${org.id}`,
    });
    const text = JSON.stringify([created.body, replaced.body, read.body]);
    expect(text).not.toContain(STRIPE.secretKey);
    expect(text).not.toContain(STRIPE.webhookSecret);
    const row = rawRow(org.id, "stripe")!;
    const secrets = JSON.parse(row.secrets) as Record<string, string>;
    expect(Object.keys(secrets).sort()).toEqual(["secretKey", "webhookSecret"]);
    for (const value of Object.values(secrets)) expect(value).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(STRIPE.secretKey.slice(8));
    expect(JSON.parse(row.settings)).toEqual({ publishableKey: STRIPE.publishableKey });
  });

  test("PUT with an omitted secret keeps it, null clears it, an unknown field or mixed test/live keys → 400 with nothing stored", async () => {
    await putIntegration(w.t, org.key, "stripe", { fields: STRIPE });
    const before = rawRow(org.id, "stripe");
    const kept = await putIntegration(w.t, org.key, "stripe", {
      fields: { publishableKey: STRIPE.publishableKey },
    });
    expect(kept.body.data.secrets.secretKey).toEqual({ set: true, last4: STRIPE.secretKey.slice(-4) });
    expect(JSON.parse(rawRow(org.id, "stripe")!.secrets).secretKey).toBe(
      JSON.parse(before!.secrets).secretKey,
    );

    const cleared = await putIntegration(w.t, org.key, "stripe", {
      fields: { publishableKey: STRIPE.publishableKey, webhookSecret: null },
    });
    expect(cleared.body.data.secrets.webhookSecret).toEqual({ set: false });

    const snapshot = rawRow(org.id, "stripe");
    for (const bad of [
      { fields: { ...STRIPE, colour: "blue" } },
      { fields: { secretKey: "sk_live_abc123", publishableKey: "pk_test_abc123" } },
      { fields: { publishableKey: "pk_live_abc" } }, // the kept secret key is a test key
      { fields: { secretKey: "not-a-key" } },
      { fields: { webhookSecret: "whsec_has spaces" } },
      { fields: { publishableKey: null } },
    ]) {
      const res = await putIntegration(w.t, org.key, "stripe", bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(res.body)).not.toContain("abc123");
      expect(rawRow(org.id, "stripe")).toEqual(snapshot);
    }
    const ifthenpay = await putIntegration(w.t, org.key, "ifthenpay", {
      fields: { multibancoExpiryDays: 32 },
    });
    expect(ifthenpay.status).toBe(400);
    expect(rawRow(org.id, "ifthenpay")).toBeNull();
  });

  test("each provider's fields are checked by its rules; non-secret defaults are shown", async () => {
    const ifthenpay = await putIntegration(w.t, other.key, "ifthenpay", { fields: IFTHENPAY });
    expect(ifthenpay.status).toBe(201);
    expect(ifthenpay.body.data.settings).toEqual({ multibancoExpiryDays: 3 });
    expect(ifthenpay.body.data.secrets.mbKey).toEqual({ set: true, last4: "3456" });
    const easypay = await putIntegration(w.t, other.key, "easypay", {
      fields: { ...EASYPAY, environment: "sandbox" },
    });
    expect(easypay.status).toBe(201);
    expect(easypay.body.data.settings).toEqual({ accountId: EASYPAY.accountId, environment: "sandbox" });
    const bad = await putIntegration(w.t, other.key, "easypay", {
      fields: { accountId: "nope", environment: "staging" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "/body/fields/accountId",
      "/body/fields/environment",
    ]);
    const base = await putIntegration(w.t, other.key, "easypay", {
      fields: { baseUrl: "http://169.254.169.254" },
    });
    expect(base.status).toBe(400);
  });

  test("GET /v1/admin/integrations lists every provider, configured or not; an unknown provider is a 404", async () => {
    const fresh = await w.t.org("Fresh");
    const list = await w.t.json("/v1/admin/integrations", { headers: { "x-api-key": fresh.key } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { provider: string; source: string }) => [e.provider, e.source])).toEqual([
      ["stripe", "environment"],
      ["ifthenpay", "none"],
      ["easypay", "none"],
    ]);
    const stripe = list.body.data[0];
    expect(stripe.secrets.webhookSecret).toEqual({
      set: true,
      last4: STRIPE_ENV.STRIPE_WEBHOOK_SECRET.slice(-4),
    });
    expect(JSON.stringify(list.body)).not.toContain(STRIPE_ENV.STRIPE_SECRET_KEY);
    expect((await get(fresh.key, "paypal")).status).toBe(404);
    expect((await putIntegration(w.t, fresh.key, "paypal", { fields: {} })).status).toBe(404);
  });

  test("DELETE returns 204, then 404; afterwards webhooks for that tenant use the environment set", async () => {
    const shop = await w.t.org("Deleting");
    await putIntegration(w.t, shop.key, "stripe", { fields: STRIPE });
    const event = stripeEvent("checkout.session.expired", { id: "cs_unknown", metadata: {} });
    expect((await deliverStripe(w, shop.id, event)).status).toBe(200);
    expect(
      (await deliverStripe(w, shop.id, event, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET })).status,
    ).toBe(401);

    expect((await del(shop.key, "stripe")).status).toBe(204);
    expect((await del(shop.key, "stripe")).status).toBe(404);
    expect((await get(shop.key, "stripe")).body.data.source).toBe("environment");
    const again = stripeEvent("checkout.session.expired", { id: "cs_unknown", metadata: {} });
    expect((await deliverStripe(w, shop.id, again)).status).toBe(401);
    const env = await deliverStripe(w, shop.id, again, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET });
    expect(env.status).toBe(200);
    expect(env.body.data.outcome).toBe("ignored");
  });

  test("The integration and webhook operations are absent from agent capabilities and MCP tools; a storefront caller gets 403 on the admin routes", async () => {
    const ids = [
      "adminListIntegrations",
      "adminGetIntegration",
      "adminPutIntegration",
      "adminDeleteIntegration",
    ];
    for (const id of ids) {
      const op = w.t.app.operations.find((o) => o.operationId === id);
      expect(op?.agent).toBe(false);
    }
    // The webhook operations are declared (they are in the OpenAPI document) but never offered to agents.
    const webhooks = w.t.app.operations.filter((o) => o.access === "webhook").map((o) => o.operationId);
    expect(webhooks).toEqual(expect.arrayContaining(["paymentWebhook", "paymentWebhookGet"]));
    for (const id of webhooks)
      expect(w.t.app.operations.find((o) => o.operationId === id)?.agent).toBe(false);
    const { toolOf } = await import("../../src/mcp/tools.ts");
    const tools = w.t.app.operations.filter((o) => o.agent !== false).map((o) => toolOf(o).definition.name);
    for (const id of [...ids, ...webhooks]) expect(tools).not.toContain(id);

    const shop = await makeShop(w.t, "Storefront", "integrations-shop.example");
    for (const [method, path] of [
      ["GET", "/v1/admin/integrations"],
      ["GET", "/v1/admin/integrations/stripe"],
      ["PUT", "/v1/admin/integrations/stripe"],
      ["DELETE", "/v1/admin/integrations/stripe"],
    ] as const) {
      const res = await w.t.json(path, {
        method,
        headers: { host: shop.host, "content-type": "application/json" },
        body: method === "PUT" ? JSON.stringify({ fields: STRIPE }) : undefined,
      });
      expect(res.status).toBe(403);
    }
  });

  test("dashboard sessions need the owner or admin role in the organization", async () => {
    const ownerCookie = await signUp(w.t, "owner@integrations.example");
    const created = await w.t.json(
      "/api/auth/organization/create",
      jsonBody({ name: "Session Shop" }, { cookie: ownerCookie }),
    );
    expect(created.status).toBeLessThan(300);
    const orgId = created.body.data.id as string;
    const member = await createUser(w.t.app.ctx.platform, {
      email: "member@integrations.example",
      password: "correct horse battery",
    });
    addMember(w.t.app.ctx.platform, orgId, member.id, "member");
    const signIn = await w.t.request(
      "/api/auth/sign-in/email",
      jsonBody({ email: "member@integrations.example", password: "correct horse battery" }),
    );
    const memberCookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    await w.t.json(
      "/api/auth/organization/set-active",
      jsonBody({ organizationId: orgId }, { cookie: memberCookie }),
    );
    await w.t.json(
      "/api/auth/organization/set-active",
      jsonBody({ organizationId: orgId }, { cookie: ownerCookie }),
    );
    const asMember = await w.t.json("/v1/admin/integrations", { headers: { cookie: memberCookie } });
    expect(asMember.status).toBe(403);
    const asOwner = await w.t.json("/v1/admin/integrations", { headers: { cookie: ownerCookie } });
    expect(asOwner.status).toBe(200);
  });
});

describe("credentials are checked with the provider before they are saved", () => {
  const openapiResponses = async () =>
    Object.keys(
      (await w.t.json("/v1/openapi.json")).body.paths["/v1/admin/integrations/{provider}"].put.responses,
    );

  /** A PUT the provider refuses: a 422 naming the provider and its HTTP status; the error body. */
  async function refusedPut(key: string, provider: string, fields: unknown, refusal: string) {
    const res = await putIntegration(w.t, key, provider, { fields });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "UNPROCESSABLE", status: 422 });
    expect(res.body.error).toContain(`${refusal}; nothing was saved`);
    return res.body;
  }

  test("a Stripe secret key Stripe refuses is a 422 UNPROCESSABLE naming the refusal at /body/fields/secretKey and saves nothing; an accepted one is checked with an authenticated call, then saved", async () => {
    const shop = await w.t.org("Stripe check");
    const revoked = "sk_test_revokedKey999";
    w.stripe.refusedKeys.add(revoked);
    const refusal = "Stripe refused these credentials (HTTP 401)";
    const refused = await refusedPut(shop.key, "stripe", { ...STRIPE, secretKey: revoked }, refusal);
    expect(refused.details).toEqual([{ path: "/body/fields/secretKey", message: "refused by Stripe" }]);
    expect(JSON.stringify(refused)).not.toContain(revoked);
    expect(rawRow(shop.id, "stripe")).toBeNull();

    const before = w.stripe.calls.length;
    expect((await putIntegration(w.t, shop.key, "stripe", { fields: STRIPE })).status).toBe(201);
    const check = w.stripe.calls.slice(before);
    expect(check.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v1/checkout/sessions"]);
    expect(check[0]!.headers.authorization).toBe(`Bearer ${STRIPE.secretKey}`);

    // Replacing a working key with a refused one keeps the working one.
    const saved = rawRow(shop.id, "stripe");
    await refusedPut(shop.key, "stripe", { ...STRIPE, secretKey: revoked }, refusal);
    expect(rawRow(shop.id, "stripe")).toEqual(saved);
    expect(await openapiResponses()).toEqual(expect.arrayContaining(["422", "503"]));
  });

  test("Easypay credentials Easypay refuses (403) are a 422 with details at the fields sent and save nothing; a kept API key is checked with the accountId sent", async () => {
    const shop = await w.t.org("Easypay check");
    const wrongKey = "0e0f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
    w.easypay.refusedKeys.add(wrongKey);
    const refused = await refusedPut(
      shop.key,
      "easypay",
      { ...EASYPAY, apiKey: wrongKey },
      "Easypay refused these credentials (HTTP 403)",
    );
    expect(refused.details.map((d: { path: string }) => d.path)).toEqual([
      "/body/fields/accountId",
      "/body/fields/apiKey",
    ]);
    expect(rawRow(shop.id, "easypay")).toBeNull();

    expect((await putIntegration(w.t, shop.key, "easypay", { fields: EASYPAY })).status).toBe(201);
    // A new accountId alone: the stored API key is kept, and checked with it.
    const accountId = "7d1c2b3a-4e5f-4a6b-9c8d-7e6f5a4b3c2d";
    const before = w.easypay.calls.length;
    expect((await putIntegration(w.t, shop.key, "easypay", { fields: { accountId } })).status).toBe(200);
    const check = w.easypay.calls.slice(before);
    expect(check.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /2.0/single"]);
    expect(check[0]!.headers).toMatchObject({ accountid: accountId, apikey: EASYPAY.apiKey });
  });

  test("a provider that cannot be reached while credentials are saved is a 503 UPSTREAM_UNAVAILABLE with Retry-After and saves nothing", async () => {
    const shop = await w.t.org("Providers down");
    w.stripe.mode = "down";
    w.easypay.mode = "down";
    try {
      for (const [provider, fields] of [
        ["stripe", STRIPE],
        ["easypay", EASYPAY],
      ] as const) {
        const res = await putIntegration(w.t, shop.key, provider, { fields });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", status: 503 });
        expect(res.response.headers.get("retry-after")).toBe("30");
        expect(rawRow(shop.id, provider)).toBeNull();
      }
    } finally {
      w.stripe.mode = "ok";
      w.easypay.mode = "ok";
    }
    expect((await putIntegration(w.t, shop.key, "stripe", { fields: STRIPE })).status).toBe(201);
  });

  test("Ifthenpay keys, and Stripe settings that send no new secret key, are saved without a provider call", async () => {
    const shop = await w.t.org("No check");
    await putIntegration(w.t, shop.key, "stripe", { fields: STRIPE });
    const calls = [w.stripe.calls.length, w.ifthenpay.calls.length, w.easypay.calls.length];
    expect((await putIntegration(w.t, shop.key, "ifthenpay", { fields: IFTHENPAY })).status).toBe(201);
    const kept = await putIntegration(w.t, shop.key, "stripe", {
      enabled: false,
      fields: { publishableKey: STRIPE.publishableKey, webhookSecret: STRIPE.webhookSecret },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data.enabled).toBe(false);
    expect([w.stripe.calls.length, w.ifthenpay.calls.length, w.easypay.calls.length]).toEqual(calls);
  });
});

describe("which credentials verify a webhook", () => {
  test("A tenant with a config row is never verified with environment secrets, even when a field is missing (→ 503 PROVIDER_NOT_CONFIGURED)", async () => {
    const shop = await w.t.org("Row without secret");
    await putIntegration(w.t, shop.key, "stripe", { fields: { secretKey: STRIPE.secretKey } });
    const event = stripeEvent("checkout.session.expired", { id: "cs_x", metadata: {} });
    const res = await deliverStripe(w, shop.id, event, { secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("PROVIDER_NOT_CONFIGURED");
    const viaApi = await deliverStripe(w, shop.id, event, {
      secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
      via: "api",
    });
    expect(viaApi.body.code).toBe("PROVIDER_NOT_CONFIGURED");
  });

  test("A tenant secret whose ciphertext was altered makes the webhook return 500 and log INTEGRATION_DECRYPT_FAILED; the environment secret is not tried", async () => {
    const shop = await w.t.org("Altered");
    await putIntegration(w.t, shop.key, "stripe", { fields: STRIPE });
    const secrets = JSON.parse(rawRow(shop.id, "stripe")!.secrets) as Record<string, string>;
    const body = secrets.webhookSecret!.split(".");
    body[3] = `${body[3]![0] === "A" ? "B" : "A"}${body[3]!.slice(1)}`;
    writeSecrets(shop.id, "stripe", { ...secrets, webhookSecret: body.join(".") });
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const log = w.t.app.ctx.log;
    const original = log.error;
    log.error = (msg, fields) => lines.push([msg, fields]);
    try {
      const event = stripeEvent("checkout.session.expired", { id: "cs_x", metadata: {} });
      for (const secret of [STRIPE.webhookSecret, STRIPE_ENV.STRIPE_WEBHOOK_SECRET]) {
        const res = await deliverStripe(w, shop.id, event, { secret });
        expect(res.status).toBe(500);
        expect(res.body.code).toBe("INTERNAL");
      }
    } finally {
      log.error = original;
    }
    expect(lines.filter(([msg]) => msg === "INTEGRATION_DECRYPT_FAILED")).toHaveLength(2);
    expect(lines[0]![1]).toMatchObject({ org: shop.id, provider: "stripe" });
    expect(JSON.stringify(lines)).not.toContain(STRIPE.webhookSecret);
  });

  test("A ciphertext copied from tenant A's row into tenant B's row fails to decrypt (AAD binds org, provider, field)", async () => {
    const a = await w.t.org("Tenant A");
    const b = await w.t.org("Tenant B");
    await putIntegration(w.t, a.key, "stripe", { fields: STRIPE });
    await putIntegration(w.t, b.key, "stripe", {
      fields: { ...STRIPE, webhookSecret: "whsec_otherTenantSecret000" },
    });
    const copied = JSON.parse(rawRow(a.id, "stripe")!.secrets) as Record<string, string>;
    writeSecrets(b.id, "stripe", copied);
    const event = stripeEvent("checkout.session.expired", { id: "cs_x", metadata: {} });
    const res = await deliverStripe(w, b.id, event, { secret: STRIPE.webhookSecret });
    expect(res.status).toBe(500);
    expect((await get(b.key, "stripe")).body.data.secrets.webhookSecret).toEqual({ set: true, last4: null });
    // Tenant A's own row still works.
    expect((await deliverStripe(w, a.id, event, { secret: STRIPE.webhookSecret })).status).toBe(200);
  });
});

describe("key material", () => {
  test("without INTEGRATION_ENCRYPTION_KEY outside production, a key file is created once with mode 0600", async () => {
    // Saving a Stripe key asks Stripe: a local fake answers.
    const stripe = fakeStripe();
    const t = makeTestApp({ env: { CHECKOUT_API_SECRET: CHECKOUT_SECRET, STRIPE_API_BASE: stripe.url } });
    try {
      const shop = await t.org("Keyless");
      expect((await putIntegration(t, shop.key, "stripe", { fields: STRIPE })).status).toBe(201);
      const file = join(t.dataDir, "secrets", "integration.key");
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(file).size).toBe(32);
      const read = await t.json("/v1/admin/integrations/stripe", { headers: { "x-api-key": shop.key } });
      expect(read.body.data.secrets.secretKey.last4).toBe(STRIPE.secretKey.slice(-4));
    } finally {
      t.cleanup();
      stripe.stop();
    }
  });

  test("After `cli integrations rekey` with the old key in INTEGRATION_ENCRYPTION_PREVIOUS_KEYS, every value carries the new kid and still verifies webhooks", async () => {
    const old = makeWorld({ INTEGRATION_ENCRYPTION_KEY: OLD_ENCRYPTION_KEY });
    const dataDir = old.t.dataDir;
    const shop = await old.t.org("Rotating");
    await putIntegration(old.t, shop.key, "stripe", { fields: STRIPE });
    old.t.close();
    const oldKid = deriveKey(Buffer.from(OLD_ENCRYPTION_KEY, "hex")).kid;
    const newKid = deriveKey(Buffer.from(ENCRYPTION_KEY, "hex")).kid;
    const kids = () => {
      const sqlite = new Database(join(dataDir, "tenants", `${shop.id}.sqlite`), { readonly: true });
      try {
        const row = sqlite.query("SELECT secrets FROM integration_configs").get() as { secrets: string };
        return Object.values(JSON.parse(row.secrets) as Record<string, string>).map((v) => v.split(".")[1]);
      } finally {
        sqlite.close();
      }
    };
    expect(kids()).toEqual([oldKid, oldKid]);

    const proc = Bun.spawn([process.execPath, "src/cli.ts", "integrations", "rekey", "--json"], {
      cwd: resolve(import.meta.dir, "../.."),
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
        INTEGRATION_ENCRYPTION_PREVIOUS_KEYS: OLD_ENCRYPTION_KEY,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stdout] = await Promise.all([proc.exited, new Response(proc.stdout).text()]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ tenants: 1, values: 2, rekeyed: 2, kid: newKid });
    expect(kids()).toEqual([newKid, newKid]);

    // The new key alone now reads them: webhooks verify, the admin view shows last4.
    const next = makeWorld({});
    try {
      next.t.close();
      const reopened = makeTestApp({
        dataDir,
        env: { CHECKOUT_API_SECRET: CHECKOUT_SECRET, INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY },
      });
      const event = stripeEvent("checkout.session.expired", { id: "cs_x", metadata: {} });
      const res = await deliverStripe({ ...next, t: reopened }, shop.id, event, {
        secret: STRIPE.webhookSecret,
      });
      expect(res.status).toBe(200);
      const view = await reopened.json("/v1/admin/integrations/stripe", {
        headers: { "x-api-key": shop.key },
      });
      expect(view.body.data.secrets.secretKey.last4).toBe(STRIPE.secretKey.slice(-4));
      reopened.cleanup();
    } finally {
      next.close();
      old.stripe.stop();
      old.ifthenpay.stop();
      old.easypay.stop();
    }
  });
});
