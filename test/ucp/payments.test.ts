import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Server } from "bun";
import { UCP_OPERATIONS, type UcpOperationName } from "../../src/ucp/checkout.ts";
import type { Shop } from "../helpers/shop.ts";
import {
  deliverCardPaid,
  IFTHENPAY,
  makeWorld,
  type PaymentsWorld,
  paymentShop,
  providerShop,
  putIntegration,
  STRIPE,
  stockOf,
} from "../payments/helpers.ts";
import { type PlatformServer, platformServer, readyCheckoutBody, ucpAnswerErrors } from "./helpers.ts";

// Whole UCP purchases through the shop's own providers (fakes over HTTP), the same over both
// bindings (REST, and MCP through the official SDK client): Multibanco and MB WAY answered with
// what the buyer does next, a Stripe Shared Payment Token charged at once (or declined), a card
// escalated to the provider's page, the last unit sold meanwhile, a replay and a reused key, a
// cancel, another shop's checkout. Every answer is held to the release's schemas.

const HOST = "ucp-pay.example";
const OTHER = "ucp-pay-other.example";

let w: PaymentsWorld;
let server: Server<unknown>;
let platforms: PlatformServer;
let shop: Shop;
let other: Shop;

/** One UCP operation as a platform calls it: `{status, body}` as the REST binding answers it. */
type Call = (
  name: UcpOperationName,
  input: { id?: string; body?: unknown; key?: string },
  host?: string,
) => Promise<{ status: number; body: Record<string, any> }>;

const PATHS: Record<UcpOperationName, (id: string) => [string, string]> = {
  create_checkout: () => ["POST", "/ucp/v1/checkout-sessions"],
  get_checkout: (id) => ["GET", `/ucp/v1/checkout-sessions/${id}`],
  update_checkout: (id) => ["PUT", `/ucp/v1/checkout-sessions/${id}`],
  complete_checkout: (id) => ["POST", `/ucp/v1/checkout-sessions/${id}/complete`],
  cancel_checkout: (id) => ["POST", `/ucp/v1/checkout-sessions/${id}/cancel`],
  get_order: (id) => ["GET", `/ucp/v1/orders/${id}`],
  search_catalog: () => ["POST", "/ucp/v1/catalog/search"],
  lookup_catalog: () => ["POST", "/ucp/v1/catalog/lookup"],
  get_product: () => ["POST", "/ucp/v1/catalog/product"],
};

let keys = 0;
const newKey = () => `pay-${++keys}-${crypto.randomUUID()}`;

const rest: Call = async (name, { id = "", body, key }, host = HOST) => {
  const [method, path] = PATHS[name](id);
  const response = await w.t.request(path, {
    method,
    headers: {
      host,
      "ucp-agent": platforms.agent(),
      ...(method === "GET" ? {} : { "idempotency-key": key ?? newKey(), "content-type": "application/json" }),
    },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const clients = new Map<string, Client>();
async function mcpClient(host: string): Promise<Client> {
  let client = clients.get(host);
  if (!client) {
    client = new Client({ name: "ucp-platform", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
        requestInit: { headers: { host } },
      }),
    );
    clients.set(host, client);
  }
  return client;
}

/** The MCP binding: a result is the REST answer's body (with its status); a protocol error carries the REST status. */
const mcp: Call = async (name, { id, body, key }, host = HOST) => {
  const spec = UCP_OPERATIONS[name];
  const client = await mcpClient(host);
  const meta = {
    "ucp-agent": { profile: platforms.profile() },
    ...(spec.needsKey ? { "idempotency-key": key ?? newKey() } : {}),
  };
  try {
    const result = await client.callTool({
      name,
      arguments: { meta, ...(spec.needsId ? { id } : {}), ...(spec.body ? { [spec.body]: body ?? {} } : {}) },
    });
    return { status: spec.status, body: result.structuredContent as Record<string, any> };
  } catch (error) {
    const data = (error as { data?: { code: string; content: string; status: number } }).data;
    if (!data) throw error;
    return { status: data.status, body: { code: data.code, content: data.content } };
  }
};

beforeAll(async () => {
  platforms = platformServer();
  w = makeWorld({ WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" });
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request, srv) => w.t.app.fetch(request, srv),
  });
  shop = await providerShop(w.t, "UCP Pay", HOST, { provider: "ifthenpay", fields: IFTHENPAY }, 50);
  other = await paymentShop(w.t, "UCP Pay Other", OTHER);
  expect((await putIntegration(w.t, shop.org.key, "stripe", { fields: STRIPE })).status).toBe(201);
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await server.stop(true);
  w.close();
  await platforms.stop();
});

const instrument = (handler: string, credential?: { type: string; token: string }) => ({
  payment: {
    instruments: [
      {
        id: "i1",
        handler_id: handler,
        type: credential ? "card" : "offline",
        selected: true,
        ...(credential && { credential }),
      },
    ],
  },
});

for (const [binding, send] of [
  ["REST", rest],
  ["MCP", mcp],
] as const) {
  /** The call, its answer held to the schemas. */
  const ucp: Call = async (name, input, host) => {
    const answer = await send(name, input, host);
    expect(ucpAnswerErrors(answer.status, answer.body)).toEqual([]);
    return answer;
  };

  /** A checkout ready but for its payment: a shirt, a buyer with a phone, a PT destination and option. */
  async function readyCheckout(variant = shop.shirt.variants[0].id) {
    const created = await ucp("create_checkout", { body: readyCheckoutBody(variant, shop.ptShipping.id) });
    expect(created.status).toBe(201);
    return created.body;
  }

  const complete = (id: string, payment: unknown, key?: string) =>
    ucp("complete_checkout", { id, body: payment, key });

  describe(`UCP purchases over ${binding}`, () => {
    test("the handlers are the shop's payment methods, the card among them", async () => {
      const checkout = await readyCheckout();
      const handlers = checkout.ucp.payment_handlers["example.ucp_pay.payments"].map(
        (h: { id: string }) => h.id,
      );
      expect(handlers).toEqual(
        expect.arrayContaining(["ifthenpay_multibanco", "ifthenpay_mbway", "stripe_card"]),
      );
    });

    test("Multibanco: the order awaits payment and the answer carries the entity and reference", async () => {
      const checkout = await readyCheckout();
      const completed = await complete(checkout.id, instrument("ifthenpay_multibanco"));
      expect(completed.status).toBe(200);
      expect(completed.body.status).toBe("completed");
      const info = completed.body.messages.find((m: { code?: string }) => m.code === "payment_instructions");
      expect(info.type).toBe("info");
      expect(info.content).toMatch(
        /^Pay by Multibanco before .+: entity \d+, reference [\d ]+, amount 24\.89 EUR\.$/,
      );
      const order = (await shop.admin.get(`/v1/admin/orders/${completed.body.order.id}`)).body.data;
      expect(order).toMatchObject({ paymentStatus: "pending", payment: { method: "multibanco" } });
      expect(info.content).toContain(order.payment.action.reference);
    });

    test("MB WAY: the answer says which phone approves it", async () => {
      const completed = await complete((await readyCheckout()).id, instrument("ifthenpay_mbway"));
      expect(completed.body.status).toBe("completed");
      const info = completed.body.messages.find((m: { code?: string }) => m.code === "payment_instructions");
      expect(info.content).toMatch(/^Approve the payment in the MB WAY app of .+ before .+\.$/);
    });

    test("a Stripe Shared Payment Token: charged at once, the checkout completed and its order paid; declined, canceled with payment_failed and the stock back", async () => {
      const token = `spt_${binding.toLowerCase()}_ok`;
      const completed = await complete(
        (await readyCheckout()).id,
        instrument("stripe_card", { type: "spt", token }),
      );
      expect(completed.status).toBe(200);
      expect(completed.body.status).toBe("completed");
      const order = (await shop.admin.get(`/v1/admin/orders/${completed.body.order.id}`)).body.data;
      expect(order).toMatchObject({
        paymentStatus: "paid",
        payment: { provider: "stripe", status: "succeeded" },
      });
      expect([...w.stripe.intents.values()].at(-1)).toMatchObject({
        shared_payment_granted_token: token,
        amount: String(order.totals.total.amount),
        confirm: "true",
      });

      const stock = await stockOf(shop);
      const declined = await complete(
        (await readyCheckout()).id,
        instrument("stripe_card", { type: "spt", token: `spt_${binding.toLowerCase()}_declined` }),
      );
      expect(declined.status).toBe(200);
      expect(declined.body.status).toBe("canceled");
      expect(declined.body.messages).toContainEqual(
        expect.objectContaining({ type: "error", code: "payment_failed", severity: "unrecoverable" }),
      );
      expect(await stockOf(shop)).toBe(stock);
    });

    test("a card without a token: the checkout requires escalation to the provider's page, and completes once paid", async () => {
      const checkout = await readyCheckout();
      const escalated = await complete(checkout.id, instrument("stripe_card"));
      expect(escalated.status).toBe(200);
      expect(escalated.body.status).toBe("requires_escalation");
      const order = (await shop.admin.get(`/v1/admin/orders/${escalated.body.order.id}`)).body.data;
      expect(escalated.body.continue_url).toBe(order.payment.action.url);
      expect(escalated.body.messages).toContainEqual(
        expect.objectContaining({ code: "payment_required", severity: "requires_buyer_input" }),
      );
      expect((await deliverCardPaid(w, shop.org.id, order)).status).toBe(200);
      // The platform completes again (or reads): the checkout is completed, without a second order.
      const again = await complete(checkout.id, instrument("stripe_card"));
      expect(again.body.status).toBe("completed");
      expect(again.body.continue_url).toBeUndefined();
      expect(again.body.order.id).toBe(order.id);
    });

    test("the same key answers the first completion again; with another body it is 409 idempotency_conflict", async () => {
      const checkout = await readyCheckout();
      const key = newKey();
      const first = await complete(checkout.id, instrument("ifthenpay_multibanco"), key);
      const replay = await complete(checkout.id, instrument("ifthenpay_multibanco"), key);
      expect(replay.body).toEqual(first.body);
      const reused = await ucp("update_checkout", {
        id: (await readyCheckout()).id,
        key,
        body: { line_items: [{ item: { id: shop.shirt.variants[0].id }, quantity: 2 }] },
      });
      // A key names one request of one platform: used for another, it is refused, nothing changed.
      expect([reused.status, reused.body.code]).toEqual([409, "idempotency_conflict"]);
    });

    test("the last unit sold meanwhile: completing is the checkout with out_of_stock, nothing sold", async () => {
      const variant = shop.shirt.variants[1].id;
      await shop.admin.patch(`/v1/admin/inventory/${variant}`, { onHand: 1 });
      const checkout = await readyCheckout(variant);
      await shop.admin.patch(`/v1/admin/inventory/${variant}`, { onHand: 0 });
      const orders = (await shop.admin.get("/v1/admin/orders")).body.meta.total;
      const refused = await complete(checkout.id, instrument("ifthenpay_multibanco"));
      expect(refused.status).toBe(200);
      expect(refused.body.order).toBeUndefined();
      expect(refused.body.messages).toContainEqual(
        expect.objectContaining({ type: "error", code: "out_of_stock", path: "$.line_items" }),
      );
      expect((await shop.admin.get("/v1/admin/orders")).body.meta.total).toBe(orders);
      await shop.admin.patch(`/v1/admin/inventory/${variant}`, { onHand: 50 });
    });

    test("cancel: canceled; completing it afterwards is UCP's invalid_state", async () => {
      const checkout = await readyCheckout();
      const canceled = await ucp("cancel_checkout", { id: checkout.id });
      expect(canceled.body.status).toBe("canceled");
      const late = await complete(checkout.id, instrument("ifthenpay_multibanco"));
      expect([late.status, late.body.code]).toEqual([409, "invalid_state"]);
    });

    test("another shop's checkout is UCP's not-found outcome there", async () => {
      const checkout = await readyCheckout();
      const elsewhere = await ucp("get_checkout", { id: checkout.id }, OTHER);
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body.ucp.status).toBe("error");
      expect(elsewhere.body.messages[0].code).toBe("not_found");
      expect(other.org.id).not.toBe(shop.org.id);
    });
  });
}
