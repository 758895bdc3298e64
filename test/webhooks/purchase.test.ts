import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { AnswerChecker } from "../helpers/openapi-conformance.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";
import { until, verify } from "./helpers.ts";
import { type Receiver, startReceiver } from "./receivers.ts";

// A whole purchase as the merchant's systems see it: one signed delivery per event and endpoint,
// each endpoint getting only the types it asked for; and an endpoint the service gives up on tells
// the shop by email and the shop's other endpoints by `webhook_endpoint.disabled`.

let t: TestApp;
let smtp: TestSmtpServer;
let shop: Shop;
const receivers: Receiver[] = [];

async function receiver(status = 204): Promise<Receiver> {
  const started = await startReceiver({
    answer: (_request, response) => {
      response.writeHead(status).end();
    },
  });
  receivers.push(started);
  return started;
}

async function addEndpoint(r: Receiver, events: string[]) {
  const created = await shop.admin.post("/v1/admin/webhook-endpoints", {
    url: `http://127.0.0.1:${r.port}/hooks`,
    events,
  });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = makeTestApp({
    env: {
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Shops <mail@shops.example>",
    },
    start: true,
  });
  shop = await makeShop(t, "Hooked Shop", "hooked-shop.example");
  await shop.admin.patch("/v1/admin/store", { contactEmail: "team@hooked-shop.example" });
});
afterAll(async () => {
  t.cleanup();
  await smtp.close();
  await Promise.all(receivers.map((r) => r.close()));
});

describe("a purchase delivered to the merchant's systems", () => {
  test("placed → paid → fulfilled → refunded: every order event once to the endpoint taking all, only order.paid to the accounting one, each signed", async () => {
    const all = await receiver();
    const accounting = await receiver();
    const everything = await addEndpoint(all, ["*"]);
    const paidOnly = await addEndpoint(accounting, ["order.paid"]);

    const order = await placeBankTransferOrder(shop, "hook-buyer@example.com");
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/mark-paid`, {})).status).toBe(200);
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/fulfill`, {})).status).toBe(200);
    expect((await shop.admin.post(`/v1/admin/orders/${order.id}/refund`, { amount: 150 })).status).toBe(200);

    const orderEvents = () =>
      all.requests
        .map(
          (request) =>
            verify(request, everything.secret) as { type: string; data: { object: { id: string } } },
        )
        .filter((event) => event.type.startsWith("order."));
    await until(
      () => orderEvents().length >= 4 && accounting.requests.length >= 1,
      "the purchase's deliveries",
    );
    await Bun.sleep(200); // nothing more arrives
    expect(orderEvents().map((e) => [e.type, e.data.object.id])).toEqual([
      ["order.placed", order.id],
      ["order.paid", order.id],
      ["order.fulfilled", order.id],
      ["order.refunded", order.id],
    ]);
    expect(new Set(all.requests.map((r) => r.headers["webhook-id"])).size).toBe(all.requests.length);
    expect(accounting.requests.map((r) => (verify(r, paidOnly.secret) as { type: string }).type)).toEqual([
      "order.paid",
    ]);
    // Each body is what the OpenAPI document's `webhooks` entry of its type declares.
    const checker = new AnswerChecker((await t.json("/v1/openapi.json")).body);
    expect(all.requests.map((r) => checker.webhookProblem(r.body)).filter(Boolean)).toEqual([]);
  });

  test("an endpoint answering 410 is disabled; the shop is told by email and the shop's other endpoints by webhook_endpoint.disabled", async () => {
    const gone = await receiver(410);
    const watcher = await receiver();
    const goneEndpoint = await addEndpoint(gone, ["product.created"]);
    const watching = await addEndpoint(watcher, ["webhook_endpoint.disabled"]);
    expect(
      (await shop.admin.post("/v1/admin/products", { name: { en: "Gone" }, variants: [{ price: 100 }] }))
        .status,
    ).toBe(201);

    await until(() => watcher.requests.length >= 1, "webhook_endpoint.disabled");
    const disabled = verify(watcher.requests[0]!, watching.secret) as {
      type: string;
      data: { object: { id: string; enabled: boolean; disabledReason: string; lastStatusCode: number } };
    };
    expect(disabled.type).toBe("webhook_endpoint.disabled");
    const checker = new AnswerChecker((await t.json("/v1/openapi.json")).body);
    for (const request of [...watcher.requests, ...gone.requests]) {
      expect(checker.webhookProblem(request.body)).toBeUndefined();
    }
    expect(disabled.data.object).toMatchObject({
      id: goneEndpoint.id,
      enabled: false,
      disabledReason: "the endpoint answered 410 Gone",
      lastStatusCode: 410,
    });

    // The purchase above sent the shop a new-order notice too: this one names the endpoint.
    const failingNotice = () => smtp.received.find((m) => m.text.includes(`127.0.0.1:${gone.port}`));
    await until(() => failingNotice() !== undefined, "the shop's email");
    const notice = failingNotice()!;
    expect(notice.to).toEqual(["team@hooked-shop.example"]);
    expect(notice.text).toContain(`http://127.0.0.1:${gone.port}/hooks`);
    expect(notice.text).toContain("410");
  });

  test("settled deliveries older than the 30 days events are kept are dropped by a later fan-out", async () => {
    // A shop with no event yet: its first fan-out is the one that tidies.
    const org = await t.org("Tidy Shop");
    const fresh = { org, admin: adminClient(t, org.key) };
    const r = await receiver();
    const created = await fresh.admin.post("/v1/admin/webhook-endpoints", {
      url: `http://127.0.0.1:${r.port}/hooks`,
      events: ["product.created"],
    });
    const old = Date.now() - 31 * 24 * 3600 * 1000;
    const rows = () =>
      t.app.ctx.tenants.with(fresh.org.id, (tenant) =>
        tenant.sqlite.query("SELECT id, status FROM webhook_deliveries ORDER BY created_at").all(),
      );
    await t.app.ctx.tenants.with(fresh.org.id, (tenant) =>
      tenant.sqlite
        .query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, message_id, status, attempts,
             job_id, created_at, updated_at) VALUES ('whd_old', ?, 'evt_old', 'product.created', 'msg_old', 'succeeded', 1, 'job_old', ?, ?)`,
        )
        .run(created.body.data.id, old, old),
    );
    expect(await rows()).toEqual([{ id: "whd_old", status: "succeeded" }]);
    await fresh.admin.post("/v1/admin/products", { name: { en: "Tidy" }, variants: [{ price: 100 }] });
    const after = (await rows()) as { id: string }[];
    expect(after.map((row) => row.id)).not.toContain("whd_old");
    expect(after).toHaveLength(1);
  });
});
