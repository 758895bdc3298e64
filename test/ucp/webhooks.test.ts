import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";
import { until } from "../webhooks/helpers.ts";
import { type ReceivedRequest, type Receiver, startReceiver } from "../webhooks/receivers.ts";
import {
  type PlatformServer,
  platformServer,
  schemaValidators,
  shippingTo,
  ucpAnswerErrors,
} from "./helpers.ts";

// UCP's order webhooks as a platform receives them: a real receiver at the URL the platform's profile
// names, each message verified as the platform would, on its own (RFC 9421 with the key the shop's
// profile publishes, RFC 9530's digest), and each body held to the release's order schema.

const HOST = "ucp-hooks.example";
const OTHER_HOST = "ucp-hooks-other.example";

let t: TestApp;
let platforms: PlatformServer;
let inbox: Receiver;
let elsewhere: Receiver;
let flaky: Receiver;
let shop: Shop;
let other: Shop;

/** A receiver acknowledging each message as UCP's order_event_webhook does. */
const acknowledging = () =>
  startReceiver({
    answer: (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"ucp":{"version":"2026-04-08"}}');
    },
  });

beforeAll(async () => {
  inbox = await acknowledging();
  elsewhere = await acknowledging();
  // Refuses its first message: the shop must try it again.
  let refused = 0;
  flaky = await startReceiver({
    answer: (_request, response) => {
      if (refused++ === 0) response.writeHead(503).end();
      else response.writeHead(200).end("{}");
    },
  });
  platforms = platformServer({
    webhooks: {
      platform: `http://127.0.0.1:${inbox.port}/webhooks/ucp/orders`,
      elsewhere: `http://127.0.0.1:${elsewhere.port}/orders`,
      flaky: `http://127.0.0.1:${flaky.port}/orders?source=ucp`,
    },
  });
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" }, start: true });
  shop = await makeShop(t, "UCP Hooks", HOST);
  other = await makeShop(t, "UCP Hooks Other", OTHER_HOST);
  for (const s of [shop, other]) {
    await s.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  }
});
afterAll(async () => {
  t.cleanup();
  await Promise.all([platforms.stop(), inbox.close(), elsewhere.close(), flaky.close()]);
});

let keys = 0;
/** A UCP request on `host`, as the platform `platform` sends it. */
async function ucp(host: string, platform: string, method: string, path: string, body?: unknown) {
  const answer = await t.json(path, {
    method,
    headers: {
      host,
      "ucp-agent": platforms.agent(platform),
      ...(method === "GET"
        ? {}
        : { "idempotency-key": `hook-${++keys}`, "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(ucpAnswerErrors(answer.status, answer.body)).toEqual([]);
  return answer;
}

/** A UCP checkout of one shirt of `s`, completed by bank transfer for `platform`: its order id. */
async function orderThroughUcp(s: Shop, host: string, platform: string): Promise<string> {
  const created = await ucp(host, platform, "POST", "/ucp/v1/checkout-sessions", {
    line_items: [{ item: { id: s.shirt.variants[0].id }, quantity: 1 }],
    buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva" },
    fulfillment: shippingTo(s.ptShipping.id),
  });
  expect(created.status).toBe(201);
  const completed = await ucp(
    host,
    platform,
    "POST",
    `/ucp/v1/checkout-sessions/${created.body.id}/complete`,
    {
      payment: {
        instruments: [{ id: "i1", handler_id: "manual_bank_transfer", type: "offline", selected: true }],
      },
    },
  );
  expect(completed.body.status).toBe("completed");
  return completed.body.order.id;
}

const webhooksOf = (receiver: Receiver, orderId: string) =>
  receiver.requests.filter((r) => JSON.parse(r.body).id === orderId);

/** The signature's parts: its components, its parameters as sent, its key id and its bytes. */
function signatureOf(request: ReceivedRequest) {
  const input = /^sig1=\(([^)]*)\)(.*)$/.exec(String(request.headers["signature-input"]));
  const value = /^sig1=:([A-Za-z0-9+/=]+):$/.exec(String(request.headers.signature));
  if (!input || !value) throw new Error("no sig1 signature");
  return {
    components: input[1]!.split(" ").map((c) => JSON.parse(c) as string),
    params: input[2]!,
    keyid: /;keyid="([^"]+)"/.exec(input[2]!)?.[1],
    created: Number(/;created=(\d+)/.exec(input[2]!)?.[1]),
    bytes: Buffer.from(value[1]!, "base64"),
  };
}

/**
 * Verifies a received webhook as a platform does, from the request alone: the signer's profile from
 * `UCP-Agent`, the key its `keyid` names in the profile's `signing_keys`, the body's digest, then the
 * RFC 9421 signature base rebuilt from the request and checked with ES256.
 */
async function verifies(request: ReceivedRequest): Promise<boolean> {
  const header = (name: string) => String(request.headers[name] ?? "").trim();
  const profileUrl = new URL(/profile="([^"]+)"/.exec(header("ucp-agent"))![1]!);
  const profile = await t.json(profileUrl.pathname, { headers: { host: profileUrl.host } });
  const signature = signatureOf(request);
  const jwk = profile.body.signing_keys.find((k: { kid: string }) => k.kid === signature.keyid);
  if (!jwk) return false;
  const digest = `sha-256=:${createHash("sha256").update(request.body).digest("base64")}:`;
  if (header("content-digest") !== digest) return false;
  const target = new URL(request.url, `http://${header("host")}`);
  const derived: Record<string, string> = {
    "@method": request.method,
    "@authority": header("host"),
    "@path": target.pathname,
    "@query": target.search,
  };
  const list = signature.components.map((c) => `"${c}"`).join(" ");
  const base = [
    ...signature.components.map((c) => `"${c}": ${derived[c] ?? header(c)}`),
    `"@signature-params": (${list})${signature.params}`,
  ].join("\n");
  const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  return crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    signature.bytes,
    new TextEncoder().encode(base),
  );
}

describe("UCP order webhooks", () => {
  test("the business profile publishes the shop's ES256 signing key, valid by the release's profile schema", async () => {
    const r = await t.json("/.well-known/ucp", { headers: { host: HOST } });
    expect(r.status).toBe(200);
    expect(schemaValidators().profile(r.body)).toEqual([]);
    expect(r.body.signing_keys).toEqual([
      {
        kid: expect.stringMatching(/^ucpk_/),
        kty: "EC",
        crv: "P-256",
        x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        y: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        alg: "ES256",
        use: "sig",
      },
    ]);
    // The same key on every read; another shop has its own.
    const again = await t.json("/.well-known/ucp", { headers: { host: HOST } });
    expect(again.body.signing_keys).toEqual(r.body.signing_keys);
    const theirs = await t.json("/.well-known/ucp", { headers: { host: OTHER_HOST } });
    expect(theirs.body.signing_keys[0].kid).not.toBe(r.body.signing_keys[0].kid);
    expect(theirs.body.signing_keys[0].x).not.toBe(r.body.signing_keys[0].x);
  });

  test("an order placed through UCP is posted to the platform on creation and again when cancelled, signed under RFC 9421 with the profile's key", async () => {
    const orderId = await orderThroughUcp(shop, HOST, "platform");
    await until(() => webhooksOf(inbox, orderId).length === 1, "the order's creation webhook");
    const created = webhooksOf(inbox, orderId)[0]!;
    expect(created.method).toBe("POST");
    expect(created.url).toBe("/webhooks/ucp/orders");
    expect(created.headers["content-type"]).toBe("application/json");
    expect(created.headers["ucp-agent"]).toBe(`profile="https://${HOST}/.well-known/ucp"`);
    expect(String(created.headers["webhook-id"])).toStartWith("job_");
    const timestamp = Number(created.headers["webhook-timestamp"]);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const signature = signatureOf(created);
    expect(signature.components).toEqual([
      "@method",
      "@authority",
      "@path",
      "ucp-agent",
      "webhook-id",
      "webhook-timestamp",
      "content-digest",
      "content-type",
    ]);
    expect(signature.bytes.length).toBe(64); // raw r‖s, not DER
    expect(Math.abs(signature.created - Date.now() / 1000)).toBeLessThan(60);
    expect(await verifies(created)).toBe(true);

    // The body is the order as get_order answers it (its permalink on the shop's https origin).
    const body = JSON.parse(created.body);
    expect(ucpAnswerErrors(200, body)).toEqual([]);
    const read = await ucp(HOST, "platform", "GET", `/ucp/v1/orders/${orderId}`);
    const link = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;
    expect(new URL(body.permalink_url).origin).toBe(`https://${HOST}`);
    expect(link(body.permalink_url)).toBe(link(read.body.permalink_url));
    expect({ ...body, permalink_url: "" }).toEqual({ ...read.body, permalink_url: "" });
    expect(body.line_items[0].status).toBe("processing");

    const canceled = await shop.admin.post(`/v1/admin/orders/${orderId}/cancel`, {});
    expect(canceled.status).toBe(200);
    await until(() => webhooksOf(inbox, orderId).length === 2, "the order's update webhook");
    const updated = webhooksOf(inbox, orderId)[1]!;
    expect(await verifies(updated)).toBe(true);
    expect(updated.headers["webhook-id"]).not.toBe(created.headers["webhook-id"]);
    const update = JSON.parse(updated.body);
    expect(ucpAnswerErrors(200, update)).toEqual([]);
    expect(update.line_items[0].status).toBe("removed");
  });

  test("a webhook whose body was changed fails verification, even with its digest recomputed", async () => {
    const orderId = await orderThroughUcp(shop, HOST, "platform");
    await until(() => webhooksOf(inbox, orderId).length === 1, "the creation webhook");
    const received = webhooksOf(inbox, orderId)[0]!;
    expect(await verifies(received)).toBe(true);
    const body = received.body.replace(orderId, "ord_other");
    expect(await verifies({ ...received, body })).toBe(false);
    const digest = `sha-256=:${createHash("sha256").update(body).digest("base64")}:`;
    const redigested = { ...received, body, headers: { ...received.headers, "content-digest": digest } };
    expect(await verifies(redigested)).toBe(false);
    // Nor does another shop's key verify it.
    const theirs = await t.json("/.well-known/ucp", { headers: { host: OTHER_HOST } });
    const impostor = {
      ...received,
      headers: {
        ...received.headers,
        "signature-input": String(received.headers["signature-input"]).replace(
          /keyid="[^"]+"/,
          `keyid="${theirs.body.signing_keys[0].kid}"`,
        ),
      },
    };
    expect(await verifies(impostor)).toBe(false);
  });

  test("a delivery the platform refuses is tried again with the same Webhook-Id and a fresh signature", async () => {
    const orderId = await orderThroughUcp(shop, HOST, "flaky");
    await until(() => webhooksOf(flaky, orderId).length === 2, "the retried webhook", 12_000);
    const [first, second] = webhooksOf(flaky, orderId) as [ReceivedRequest, ReceivedRequest];
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(second.body).toBe(first.body);
    expect(signatureOf(second).created).toBeGreaterThan(signatureOf(first).created);
    expect(second.url).toBe("/orders?source=ucp");
    expect(signatureOf(second).components).toContain("@query");
    expect(await verifies(second)).toBe(true);
  }, 20_000);

  test("another shop's orders reach only its own platform, and an order not placed through UCP is posted to none", async () => {
    const theirs = await orderThroughUcp(other, OTHER_HOST, "elsewhere");
    await until(() => webhooksOf(elsewhere, theirs).length === 1, "the other platform's webhook");
    const received = webhooksOf(elsewhere, theirs)[0]!;
    expect(received.headers["ucp-agent"]).toBe(`profile="https://${OTHER_HOST}/.well-known/ucp"`);
    expect(await verifies(received)).toBe(true);

    const storefront = await placeBankTransferOrder(shop);
    // The storefront order's events queue nothing; a UCP order after it is posted, and it alone.
    const ours = await orderThroughUcp(shop, HOST, "platform");
    await until(() => webhooksOf(inbox, ours).length === 1, "the UCP order's webhook");
    const queued = await t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      tenant.sqlite.query("SELECT payload FROM outbox WHERE kind = 'ucp.order_webhook'").all(),
    );
    const orders = (queued as { payload: string }[]).map((row) => JSON.parse(row.payload).orderId);
    expect(orders).toContain(ours);
    expect(orders).not.toContain(storefront.id);
    for (const receiver of [inbox, elsewhere, flaky]) {
      expect(webhooksOf(receiver, storefront.id)).toEqual([]);
    }
    expect(webhooksOf(inbox, theirs)).toEqual([]);
    expect(webhooksOf(flaky, theirs)).toEqual([]);
  });
});
