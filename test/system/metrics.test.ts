import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { waitForMail } from "../helpers/mail.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";
import { until } from "../webhooks/helpers.ts";
import { type Receiver, startReceiver } from "../webhooks/receivers.ts";

// GET /metrics as Prometheus scrapes it: the token, the text format, and each series an operator
// watches moving with what the service does.

const TOKEN = "m".repeat(40);
let t: TestApp;
let shop: Shop;
let receiver: Receiver;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = makeTestApp({
    env: {
      METRICS_TOKEN: TOKEN,
      WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true",
      TENANT_POOL_SIZE: "2",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Shops <mail@shops.example>",
    },
    start: true,
  });
  shop = await makeShop(t, "Metrics Shop", "metrics.example");
  receiver = await startReceiver();
});
afterAll(async () => {
  t.cleanup();
  await receiver.close();
  await smtp.close();
});

async function scrape(): Promise<Map<string, number>> {
  const response = await t.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/plain");
  const series = new Map<string, number>();
  for (const line of (await response.text()).split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

describe("GET /ready", () => {
  test("the operator's token again; ready while storage holds and no replication is asked for", async () => {
    expect((await t.request("/ready")).status).toBe(401);
    const ready = await t.json("/ready", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      ready: true,
      reasons: [],
      replication: { configured: false },
      directory: { configured: false },
    });
  });
});

describe("GET /metrics", () => {
  test("wants the token: none or another is a 401, and without METRICS_TOKEN the route is not there", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`]) {
      const response = await t.request("/metrics", { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
    }
    const unset = makeTestApp();
    try {
      expect(
        (await unset.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status,
      ).toBe(404);
    } finally {
      unset.cleanup();
    }
  });

  test("without METRICS_TOKEN nothing is counted and prom-client is never loaded (a process of its own)", async () => {
    const script = `
      import { makeTestApp } from ${JSON.stringify(`${import.meta.dir}/../helpers/app.ts`)};
      const t = makeTestApp({ env: process.env.WITH_TOKEN ? { METRICS_TOKEN: "m".repeat(40) } : {} });
      await t.request("/v1/health");
      const loaded = Object.keys(require.cache).some((path) => path.includes("/prom-client/"));
      console.log(JSON.stringify({ loaded, scraped: await t.app.ctx.metrics.scrape() }));
      t.cleanup();`;
    const run = async (env: Record<string, string>) => {
      const child = Bun.spawn([process.execPath, "-e", script], {
        env: { ...process.env, ...env },
        stderr: "pipe",
      });
      const out = await new Response(child.stdout).text();
      expect(await child.exited).toBe(0);
      return JSON.parse(out.trim().split("\n").at(-1)!) as { loaded: boolean; scraped: string };
    };
    const off = await run({});
    expect(off).toEqual({ loaded: false, scraped: "" });
    const on = await run({ WITH_TOKEN: "1" });
    expect(on.loaded).toBe(true);
    expect(on.scraped).toContain(
      'commerce_http_requests_total{method="GET",route="/v1/health",status="200"} 1',
    );
  });

  test("requests by route and status, their latency, open shops, pool evictions, outbox, webhooks and storage series", async () => {
    const before = await scrape();
    await shop.storefront("/v1/products");
    await shop.storefront("/v1/products/prod_nope");
    // Three more shops through a pool of two: files are closed to make room.
    for (const name of ["Pool A", "Pool B", "Pool C"])
      await makeShop(t, name, `${name.replace(" ", "-").toLowerCase()}.example`);
    await shop.admin.post("/v1/admin/webhook-endpoints", {
      url: `http://127.0.0.1:${receiver.port}/hooks`,
      events: ["order.placed"],
    });
    await placeBankTransferOrder(shop, "metrics-buyer@example.com");
    await until(() => receiver.requests.length > 0, "the webhook");
    await waitForMail(smtp, "metrics-buyer@example.com");
    // A storage failure (a full disk) as the service meets one, then a write that succeeds.
    expect(t.app.ctx.storage.failure(Object.assign(new Error("no space"), { code: "ENOSPC" }))).toBeDefined();
    t.app.ctx.storage.wrote();
    await Bun.sleep(50);

    const after = await scrape();
    const listed = 'commerce_http_requests_total{method="GET",route="/v1/products",status="200"}';
    expect((after.get(listed) ?? 0) - (before.get(listed) ?? 0)).toBe(1);
    expect(
      after.get('commerce_http_requests_total{method="GET",route="/v1/products/{id}",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      after.get('commerce_http_request_duration_seconds_count{route="/v1/products"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(after.get("commerce_shops_open")).toBeLessThanOrEqual(2);
    expect(after.get("commerce_shops_open_limit")).toBe(2);
    expect(after.get("commerce_shop_pool_evictions_total")).toBeGreaterThan(
      before.get("commerce_shop_pool_evictions_total") ?? 0,
    );
    expect(
      after.get('commerce_webhook_deliveries_total{kind="endpoint",outcome="succeeded"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(after.has("commerce_outbox_due_shops")).toBe(true);
    expect(after.has("commerce_outbox_oldest_due_seconds")).toBe(true);
    expect(after.get('commerce_emails_total{outcome="sent"}')).toBeGreaterThanOrEqual(1);
    expect(after.get('commerce_storage_failures_total{code="ENOSPC"}')).toBe(1);
  });
});
