import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { makeTestApp } from "../helpers/app.ts";
import { until } from "../webhooks/helpers.ts";
import { type ReceivedRequest, type Receiver, startReceiver } from "../webhooks/receivers.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

// A SIGKILL between the commit of a change and the delivery of what it sends out: the webhook and
// the email are outbox rows committed with the change, so the service started again on the same
// files delivers them, the webhook with the same webhook-id, the email exactly once.

const LEASE_MS = 400;
let dataDir: string;
let org: { id: string; key: string };
let server: ServerProcess | undefined;
let receiver: Receiver;
let smtp: TestSmtpServer | undefined;
let smtpPort: number;
/** The receiver holds its first request open (the service is killed while it waits), then answers 204. */
let holdFirst = true;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const start = () =>
  startServer(dataDir, {
    WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true",
    OUTBOX_LEASE_MS: String(LEASE_MS),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: "Shops <mail@shops.example>",
  });

const admin = (path: string, body?: unknown) =>
  fetch(`${server!.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-api-key": org.key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "commerce-events-kill-"));
  const setup = makeTestApp({ dataDir });
  org = await setup.org("Kill Shop", { host: "kill-shop.example" });
  setup.close();
  receiver = await startReceiver({
    answer: async (_request, response) => {
      if (holdFirst) {
        holdFirst = false;
        return new Promise(() => {}); // never answered: the service dies waiting
      }
      response.writeHead(204).end();
    },
  });
  smtpPort = await freePort();
  server = await start();
});
afterAll(async () => {
  if (server && !server.killed) await server.kill();
  await receiver.close();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("SIGKILL between a change's commit and what it sends out", () => {
  test("the webhook in flight when the service died is delivered after the restart, with the same webhook-id and a valid signature; the email the SMTP server could not take yet is sent once", async () => {
    const endpoint = (await (
      await admin("/v1/admin/webhook-endpoints", {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        events: ["*"],
      })
    ).json()) as { data: { secret: string } };
    const lowStock = await fetch(`${server!.url}/v1/admin/store`, {
      method: "PATCH",
      headers: { "x-api-key": org.key, "content-type": "application/json" },
      body: JSON.stringify({ contactEmail: "team@kill-shop.example", lowStockThreshold: 5 }),
    });
    expect(lowStock.status).toBe(200);
    const created = (await (
      await admin("/v1/admin/products", { name: { en: "Kettle" }, variants: [{ price: 3000 }] })
    ).json()) as { data: { variants: { id: string }[] } };
    // A stock that falls to the threshold: `inventory.low_stock`, which emails the shop (SMTP is down).
    const variantId = created.data.variants[0]!.id;
    for (const change of [{ onHand: 9, tracked: true }, { adjust: -4 }]) {
      const res = await fetch(`${server!.url}/v1/admin/inventory/${variantId}`, {
        method: "PATCH",
        headers: { "x-api-key": org.key, "content-type": "application/json" },
        body: JSON.stringify(change),
      });
      expect(res.status).toBe(200);
    }

    await until(() => receiver.requests.length >= 1, "the first delivery to reach the receiver", 15_000);
    const first = receiver.requests[0]!;
    await server!.kill();

    smtp = await startSmtpServer(smtpPort);
    server = await start();
    const messageId = first.headers["webhook-id"];
    await until(
      () =>
        receiver.requests.filter((r: ReceivedRequest) => r.headers["webhook-id"] === messageId).length >= 2,
      "the same delivery again after the restart",
      15_000,
    );
    const again = receiver.requests.filter((r) => r.headers["webhook-id"] === messageId)[1]!;
    const payload = new Webhook(endpoint.data.secret).verify(
      again.body,
      again.headers as Record<string, string>,
    ) as {
      type: string;
    };
    expect(payload.type).toBe("product.created");

    await until(() => smtp!.received.length >= 1, "the low-stock email after the restart", 15_000);
    await Bun.sleep(1500);
    expect(smtp.received.map((m) => [m.to, m.headers.subject])).toEqual([
      [["team@kill-shop.example"], expect.stringContaining("Kettle")],
    ]);
  }, 60_000);
});
