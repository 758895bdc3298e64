import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { setRetrySchedule } from "../../src/webhooks/deliveries.ts";
import { jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { withTenant } from "../helpers/seed-orders.ts";
import { emit, until, verify, webhookShop } from "./helpers.ts";
import { type Receiver, startReceiver } from "./receivers.ts";

// The webhooks module through the whole service: endpoints managed by admin operations, every event
// fanned out in its own transaction, and each delivery POSTed by the started outbox to a real
// receiver on this machine and verified there with the standardwebhooks library.

let t: TestApp;
/** The retry schedule of this app: 40 ms between attempts, the real number of attempts. */
let schedule = (attempts: number): number | null => (attempts < 11 ? 40 : null);
const receivers: Receiver[] = [];

async function receiver(statuses: number[] = []): Promise<Receiver> {
  let answered = 0;
  const started = await startReceiver({
    answer: (_request, response) => {
      response.writeHead(statuses[answered++] ?? 204).end();
    },
  });
  receivers.push(started);
  return started;
}
const urlOf = (r: Receiver, path = "/hooks") => `http://127.0.0.1:${r.port}${path}`;

beforeAll(() => {
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" }, start: true });
  setRetrySchedule(t.app.ctx, (attempts) => schedule(attempts));
});
afterAll(async () => {
  t.cleanup();
  await Promise.all(receivers.map((r) => r.close()));
});

describe("endpoints", () => {
  test("create answers the secret once; get, list and update never show it; delete removes the endpoint", async () => {
    const shop = await webhookShop(t, "Endpoints");
    const created = await shop.admin.post("/v1/admin/webhook-endpoints", {
      url: "http://localhost:9/a",
      events: ["order.paid", "order.refunded"],
      description: "Accounting",
    });
    expect(created.status).toBe(201);
    const { id, secret, ...endpoint } = created.body.data;
    expect(id).toStartWith("we_");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    expect(endpoint).toMatchObject({
      url: "http://localhost:9/a",
      events: ["order.paid", "order.refunded"],
      description: "Accounting",
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
    });

    const got = await shop.admin.get(`/v1/admin/webhook-endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ id, ...endpoint });
    const listed = await shop.admin.get("/v1/admin/webhook-endpoints");
    expect(listed.body.data).toEqual([{ id, ...endpoint }]);
    expect(listed.body.meta).toEqual({ page: 1, limit: 20, total: 1 });

    const updated = await shop.admin.patch(`/v1/admin/webhook-endpoints/${id}`, {
      url: "http://127.0.0.1:9/b",
      events: ["*"],
      description: null,
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      url: "http://127.0.0.1:9/b",
      events: ["*"],
      description: null,
      enabled: false,
      disabledReason: "disabled by the merchant",
    });
    expect(updated.body.data).not.toHaveProperty("secret");

    expect((await shop.admin.delete(`/v1/admin/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await shop.admin.get(`/v1/admin/webhook-endpoints/${id}`)).status).toBe(404);
  });

  test("a shop has at most 20 endpoints: the 21st is a 422 and is not stored", async () => {
    const shop = await webhookShop(t, "Twenty");
    for (let i = 0; i < 20; i++) await shop.addEndpoint(`http://localhost:9/${i}`);
    const refused = await shop.admin.post("/v1/admin/webhook-endpoints", {
      url: "http://localhost:9/21",
      events: ["*"],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("UNPROCESSABLE");
    expect((await shop.admin.get("/v1/admin/webhook-endpoints")).body.meta.total).toBe(20);
  });

  test("bad input is refused with the field named and nothing stored", async () => {
    const shop = await webhookShop(t, "Bad input");
    const create = (body: unknown) => shop.admin.post("/v1/admin/webhook-endpoints", body);
    const unknownType = await create({ url: "http://localhost:9/", events: ["order.teleported"] });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.code).toBe("VALIDATION_ERROR");
    expect(unknownType.body.details[0].path).toStartWith("/body/events");
    const mixed = await create({ url: "http://localhost:9/", events: ["*", "order.paid"] });
    expect(mixed.status).toBe(422);
    expect(mixed.body.details).toEqual([{ path: "/body/events", message: expect.any(String) }]);
    for (const url of [
      "not a url",
      "ftp://hooks.example.com/",
      "https://user:pw@localhost/",
      "http://10.0.0.1/",
    ]) {
      const refused = await create({ url, events: ["*"] });
      expect(refused.status).toBe(422);
      expect(refused.body.details[0].path).toBe("/body/url");
    }
    const tooLong = await create({ url: `http://localhost:9/${"a".repeat(2000)}`, events: ["*"] });
    expect(tooLong.status).toBe(400);
    const longNote = await create({
      url: "http://localhost:9/",
      events: ["*"],
      description: "d".repeat(201),
    });
    expect(longNote.status).toBe(400);
    expect((await shop.admin.get("/v1/admin/webhook-endpoints")).body.meta.total).toBe(0);

    const endpoint = await shop.addEndpoint("http://localhost:9/kept");
    const badUpdate = await shop.admin.patch(`/v1/admin/webhook-endpoints/${endpoint.id}`, {
      url: "http://192.168.1.10/",
    });
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.body.details[0].path).toBe("/body/url");
    const kept = await shop.admin.get(`/v1/admin/webhook-endpoints/${endpoint.id}`);
    expect(kept.body.data.url).toBe("http://localhost:9/kept");
  });

  test("without a key the operations are a 401; a storefront key is a 403", async () => {
    const shop = await webhookShop(t, "Auth");
    const endpoint = await shop.addEndpoint("http://localhost:9/auth");
    const storefrontOnly = await t.org("Auth storefront", { scopes: ["storefront"] });
    const calls: [string, string][] = [
      ["GET", "/v1/admin/webhook-endpoints"],
      ["POST", "/v1/admin/webhook-endpoints"],
      ["GET", `/v1/admin/webhook-endpoints/${endpoint.id}`],
      ["PATCH", `/v1/admin/webhook-endpoints/${endpoint.id}`],
      ["DELETE", `/v1/admin/webhook-endpoints/${endpoint.id}`],
      ["POST", `/v1/admin/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["POST", `/v1/admin/webhook-endpoints/${endpoint.id}/ping`],
      ["GET", `/v1/admin/webhook-endpoints/${endpoint.id}/deliveries`],
    ];
    for (const [method, path] of calls) {
      const anonymous = await t.json(path, { method });
      expect([path, anonymous.status]).toEqual([path, 401]);
      const storefront = await t.json(path, { method, headers: { "x-api-key": storefrontOnly.key } });
      expect([path, storefront.status, storefront.body.code]).toEqual([path, 403, "FORBIDDEN"]);
    }
    expect((await shop.admin.get(`/v1/admin/webhook-endpoints/${endpoint.id}`)).status).toBe(200);
  });

  test("another shop's endpoint is a 404 everywhere and never receives this shop's events", async () => {
    const inbox = await receiver();
    const mine = await webhookShop(t, "Mine");
    const theirs = await webhookShop(t, "Theirs");
    const their = await theirs.addEndpoint(urlOf(inbox, "/theirs"));
    const base = `/v1/admin/webhook-endpoints/${their.id}`;
    for (const call of [
      mine.admin.get(base),
      mine.admin.patch(base, { enabled: false }),
      mine.admin.delete(base),
      mine.admin.post(`${base}/rotate-secret`, {}),
      mine.admin.post(`${base}/ping`, {}),
      mine.admin.get(`${base}/deliveries`),
    ]) {
      const answer = await call;
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe("NOT_FOUND");
    }
    const own = await mine.addEndpoint(urlOf(inbox, "/mine"));
    emit(t, mine.org.id);
    await until(() => inbox.requests.length >= 1, "my delivery");
    await Bun.sleep(100);
    expect(inbox.requests.map((r) => r.url)).toEqual(["/mine"]);
    expect(await theirs.deliveries(their.id)).toEqual([]);
    expect((await mine.deliveries(own.id)).length).toBe(1);
  });
});

describe("deliveries", () => {
  test("an event reaches each enabled endpoint taking its type, signed, with the body GET /v1/admin/events/{id} answers", async () => {
    const inbox = await receiver();
    const shop = await webhookShop(t, "Fan-out");
    const all = await shop.addEndpoint(urlOf(inbox, "/all"), ["*"]);
    const products = await shop.addEndpoint(urlOf(inbox, "/products"), ["product.deleted"]);
    const orders = await shop.addEndpoint(urlOf(inbox, "/orders"), ["order.paid"]);
    const off = await shop.addEndpoint(urlOf(inbox, "/off"), ["*"]);
    await shop.admin.patch(`/v1/admin/webhook-endpoints/${off.id}`, { enabled: false });

    const eventId = emit(t, shop.org.id, "product.deleted", { id: "prod_gone" });
    await until(() => inbox.requests.length >= 2, "two deliveries");
    await Bun.sleep(100);
    expect(inbox.requests.map((r) => r.url).sort()).toEqual(["/all", "/products"]);
    const event = (await shop.admin.get(`/v1/admin/events/${eventId}`)).body.data;
    expect(event).toMatchObject({
      id: eventId,
      type: "product.deleted",
      data: { object: { id: "prod_gone" } },
    });
    for (const request of inbox.requests) {
      const secret = request.url === "/all" ? all.secret : products.secret;
      expect(verify(request, secret)).toEqual(event);
      expect(request.body).toBe(JSON.stringify(event));
      expect(request.headers["content-type"]).toBe("application/json");
      expect(() => verify(request, orders.secret)).toThrow();
    }
    const [delivery] = await shop.deliveries(all.id);
    expect(delivery).toMatchObject({
      endpointId: all.id,
      eventId,
      eventType: "product.deleted",
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivery.messageId).toBe(inbox.requests.find((r) => r.url === "/all")!.headers["webhook-id"]);
    expect(await shop.deliveries(orders.id)).toEqual([]);
    expect(await shop.deliveries(off.id)).toEqual([]);
  });

  test("an admin change's event is delivered: creating a product sends product.created", async () => {
    const inbox = await receiver();
    const shop = await webhookShop(t, "Catalog change");
    const endpoint = await shop.addEndpoint(urlOf(inbox), ["product.created"]);
    const created = await shop.admin.post("/v1/admin/products", {
      name: { en: "Mug" },
      variants: [{ price: 900 }],
    });
    expect(created.status).toBe(201);
    await until(() => inbox.requests.length >= 1, "the delivery");
    const payload = verify(inbox.requests[0]!, endpoint.secret) as any;
    expect(payload).toMatchObject({
      type: "product.created",
      data: { object: { id: created.body.data.id } },
    });
    expect((await shop.admin.get(`/v1/admin/events/${payload.id}`)).body.data).toEqual(payload);
  });

  test("an event in a shop with no enabled endpoint writes no delivery and no job", async () => {
    const shop = await webhookShop(t, "Quiet");
    emit(t, shop.org.id);
    const counts = withTenant(t, shop.org.id, (tenant) => ({
      deliveries: (tenant.sqlite.query("SELECT count(*) AS n FROM webhook_deliveries").get() as { n: number })
        .n,
      jobs: (tenant.sqlite.query("SELECT count(*) AS n FROM outbox").get() as { n: number }).n,
    }));
    expect(counts).toEqual({ deliveries: 0, jobs: 0 });
  });

  test("a receiver answering 500 twice then 200 gets three attempts of one message, one webhook-id", async () => {
    const inbox = await receiver([500, 500, 200]);
    const shop = await webhookShop(t, "Retries");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    emit(t, shop.org.id);
    await until(() => inbox.requests.length >= 3, "three attempts");
    await until(() => endpointState(shop.org.id, endpoint.id).failing_since === null, "the success recorded");
    expect(new Set(inbox.requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const request of inbox.requests) verify(request, endpoint.secret);
    const [delivery] = await shop.deliveries(endpoint.id);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
    });
  });

  test("a 410 disables the endpoint and fails the delivery; re-enabling clears the reason", async () => {
    const inbox = await receiver([410]);
    const shop = await webhookShop(t, "Gone");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    emit(t, shop.org.id);
    await until(() => endpointState(shop.org.id, endpoint.id).enabled === 0, "the endpoint disabled");
    const got = (await shop.admin.get(`/v1/admin/webhook-endpoints/${endpoint.id}`)).body.data;
    expect(got).toMatchObject({ enabled: false, disabledReason: "the endpoint answered 410 Gone" });
    const [delivery] = await shop.deliveries(endpoint.id);
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatusCode: 410,
      nextAttemptAt: null,
    });
    emit(t, shop.org.id);
    await Bun.sleep(100);
    expect(inbox.requests.length).toBe(1);

    const enabled = await shop.admin.patch(`/v1/admin/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  test("an endpoint failing for 3 days is disabled at its next failed attempt", async () => {
    const inbox = await receiver([503, 503, 503]);
    const shop = await webhookShop(t, "Failing");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    const threeDaysAgo = Date.now() - 3 * 24 * 3600 * 1000;
    withTenant(t, shop.org.id, (tenant) =>
      tenant.sqlite
        .query("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
        .run(threeDaysAgo, endpoint.id),
    );
    emit(t, shop.org.id);
    await until(() => endpointState(shop.org.id, endpoint.id).enabled === 0, "the endpoint disabled");
    expect(inbox.requests.length).toBe(1);
    const got = (await shop.admin.get(`/v1/admin/webhook-endpoints/${endpoint.id}`)).body.data;
    expect(got.disabledReason).toBe("deliveries failed for 3 days");
    expect(Date.parse(got.failingSince)).toBe(threeDaysAgo);
    const [delivery] = await shop.deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: "failed", lastStatusCode: 503, lastError: "HTTP 503" });
  });

  test("a delivery whose schedule is exhausted is failed; retrying it attempts it again with the same webhook-id", async () => {
    const inbox = await receiver([500, 500, 204]);
    const shop = await webhookShop(t, "Exhausted");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    const real = schedule;
    schedule = (attempts) => (attempts < 2 ? 40 : null);
    try {
      emit(t, shop.org.id);
      await until(() => inbox.requests.length >= 2, "two attempts");
      await until(() => deliveryStatus(shop.org.id) === "failed", "the delivery given up");
    } finally {
      schedule = real;
    }
    const [failed] = await shop.deliveries(endpoint.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 2, lastStatusCode: 500, nextAttemptAt: null });

    const retried = await shop.admin.post(
      `/v1/admin/webhook-endpoints/${endpoint.id}/deliveries/${failed.id}/retry`,
      {},
    );
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({
      id: failed.id,
      status: "succeeded",
      attempts: 3,
      lastStatusCode: 204,
    });
    expect(inbox.requests.length).toBe(3);
    expect(inbox.requests[2]!.headers["webhook-id"]).toBe(failed.messageId);
    verify(inbox.requests[2]!, endpoint.secret);
  });

  test("deleting or disabling an endpoint stops its pending deliveries", async () => {
    const inbox = await receiver([500, 500, 500, 500]);
    const shop = await webhookShop(t, "Stopped");
    const deleted = await shop.addEndpoint(urlOf(inbox, "/deleted"));
    const disabled = await shop.addEndpoint(urlOf(inbox, "/disabled"));
    const real = schedule;
    schedule = (attempts) => (attempts < 11 ? 300 : null);
    try {
      emit(t, shop.org.id);
      await until(() => inbox.requests.length >= 2, "the first attempts");
      expect((await shop.admin.delete(`/v1/admin/webhook-endpoints/${deleted.id}`)).status).toBe(204);
      await shop.admin.patch(`/v1/admin/webhook-endpoints/${disabled.id}`, { enabled: false });
      await Bun.sleep(700);
    } finally {
      schedule = real;
    }
    expect(inbox.requests.length).toBe(2);
    const [stopped] = await shop.deliveries(disabled.id);
    expect(stopped).toMatchObject({ status: "failed", lastError: "endpoint disabled", attempts: 1 });
    const retry = await shop.admin.post(
      `/v1/admin/webhook-endpoints/${disabled.id}/deliveries/${stopped.id}/retry`,
      {},
    );
    expect(retry.status).toBe(409);
    withTenant(t, shop.org.id, (tenant) => {
      const left = tenant.sqlite.query("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?");
      expect((left.get(deleted.id) as { n: number }).n).toBe(0);
    });
  });
});

describe("secrets", () => {
  test("after a rotation both secrets verify for 24 hours, then only the new one", async () => {
    const inbox = await receiver();
    const shop = await webhookShop(t, "Rotation");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    const rotated = await shop.admin.post(`/v1/admin/webhook-endpoints/${endpoint.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const { secret } = rotated.body.data;
    expect(secret).not.toBe(endpoint.secret);
    const until24h = Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now();
    expect(until24h).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
    expect(until24h).toBeLessThanOrEqual(24 * 3600 * 1000);

    emit(t, shop.org.id);
    await until(() => inbox.requests.length >= 1, "the delivery during the rotation");
    const during = inbox.requests[0]!;
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(during, endpoint.secret)).toEqual(verify(during, secret));

    // The rotation's end, as the clock would bring it.
    withTenant(t, shop.org.id, (tenant) =>
      tenant.sqlite
        .query("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
        .run(Date.now() - 1, endpoint.id),
    );
    emit(t, shop.org.id);
    await until(() => inbox.requests.length >= 2, "the delivery after the rotation");
    const after = inbox.requests[1]!;
    expect(verify(after, secret)).toMatchObject({ type: "product.deleted" });
    expect(() => verify(after, endpoint.secret)).toThrow();
    const got = (await shop.admin.get(`/v1/admin/webhook-endpoints/${endpoint.id}`)).body.data;
    expect(got.previousSecretExpiresAt).toBeNull();
  });

  test("no signing secret is readable in the tenant file or its WAL, the idempotency record of its answer included", async () => {
    const shop = await webhookShop(t, "Sealed secrets");
    const created = await shop.admin.post("/v1/admin/webhook-endpoints", {
      url: "http://localhost:9/sealed",
      events: ["*"],
    });
    const replayed = await t.json(
      "/v1/admin/webhook-endpoints",
      jsonBody(
        { url: "http://localhost:9/sealed-2", events: ["order.paid"] },
        { "x-api-key": shop.org.key, "idempotency-key": "we-1" },
      ),
    );
    const { id, secret } = created.body.data;
    const rotated = (await shop.admin.post(`/v1/admin/webhook-endpoints/${id}/rotate-secret`, {})).body.data;
    const bytes = tenantBytes(shop.org.id);
    // The scan reads the right bytes: what the same writes stored readably is there.
    expect(bytes.includes(id)).toBe(true);
    expect(bytes.includes("sealed-2")).toBe(true);
    for (const value of [secret, rotated.secret, replayed.body.data.secret]) {
      expect(encodings(value).filter((form) => bytes.includes(form))).toEqual([]);
    }
  });
});

describe("ping", () => {
  test("a ping is signed as deliveries are and answers what the receiver did, success or not", async () => {
    const inbox = await receiver([204, 500]);
    const shop = await webhookShop(t, "Ping");
    const endpoint = await shop.addEndpoint(urlOf(inbox));
    const ok = await shop.admin.post(`/v1/admin/webhook-endpoints/${endpoint.id}/ping`, {});
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ succeeded: true, statusCode: 204, error: null });
    const payload = verify(inbox.requests[0]!, endpoint.secret) as any;
    expect(payload).toMatchObject({ type: "ping", data: { object: { id: endpoint.id, url: urlOf(inbox) } } });
    expect(inbox.requests[0]!.headers["webhook-id"]).toBe(ok.body.data.messageId);

    const failed = await shop.admin.post(`/v1/admin/webhook-endpoints/${endpoint.id}/ping`, {});
    expect(failed.body.data).toMatchObject({ succeeded: false, statusCode: 500, error: "HTTP 500" });
    expect(await shop.deliveries(endpoint.id)).toEqual([]);
  });
});

describe("production", () => {
  test("WEBHOOKS_ALLOW_HTTP_LOCALHOST is refused together with NODE_ENV=production", () => {
    const env = {
      NODE_ENV: "production",
      PLATFORM_DOMAIN: "shops.example.com",
      INTEGRATION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
    };
    expect(loadConfig(env).webhooks.allowHttpLocalhost).toBe(false);
    expect(() => loadConfig({ ...env, WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" })).toThrow(ConfigError);
    expect(loadConfig({ WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" }).webhooks.allowHttpLocalhost).toBe(true);
  });

  test("in production an endpoint on localhost or an internal address is a 422 and nothing is stored", async () => {
    const prod = makeTestApp({
      env: {
        NODE_ENV: "production",
        PLATFORM_DOMAIN: "shops.example.com",
        INTEGRATION_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
      },
    });
    try {
      const org = await prod.org("Production");
      const admin = adminClient(prod, org.key);
      for (const url of [
        "http://localhost:8080/",
        "https://127.0.0.1/",
        "https://[::1]/",
        "https://169.254.169.254/",
      ]) {
        const refused = await admin.post("/v1/admin/webhook-endpoints", { url, events: ["*"] });
        expect([url, refused.status, refused.body.details?.[0]?.path]).toEqual([url, 422, "/body/url"]);
      }
      expect((await admin.get("/v1/admin/webhook-endpoints")).body.meta.total).toBe(0);
    } finally {
      prod.cleanup();
    }
  });
});

function endpointState(orgId: string, id: string) {
  return withTenant(t, orgId, (tenant) =>
    tenant.sqlite.query("SELECT enabled, failing_since FROM webhook_endpoints WHERE id = ?").get(id),
  ) as { enabled: number; failing_since: number | null };
}

function deliveryStatus(orgId: string): string | undefined {
  return (
    withTenant(t, orgId, (tenant) => tenant.sqlite.query("SELECT status FROM webhook_deliveries").get()) as {
      status: string;
    } | null
  )?.status;
}

/** The tenant's database file and its WAL, byte for byte. */
function tenantBytes(orgId: string): Buffer {
  const file = join(t.dataDir, "tenants", `${orgId}.sqlite`);
  const parts = [readFileSync(file)];
  if (existsSync(`${file}-wal`)) parts.push(readFileSync(`${file}-wal`));
  return Buffer.concat(parts);
}

/** The forms of a secret that would give it away: as is, its key bytes in base64 and hex. */
function encodings(secret: string): string[] {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return [secret, secret.slice("whsec_".length), key.toString("base64url"), key.toString("hex")];
}
