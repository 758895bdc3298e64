import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Server } from "bun";
import { addMember } from "../../src/auth/service.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { approve } from "./helpers.ts";

// examples/agent.ts run as a separate process against a live server, exactly as docs/agents.md
// tells an agent builder to run it; the merchant approves through the JSON approval endpoint.

const SCRIPT = join(import.meta.dir, "../../examples/agent.ts");

let t: TestApp;
let server: Server<unknown>;
let base: string;
let shop: Shop;
let cookie: string;

beforeAll(async () => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, srv) => t.app.fetch(request, srv) });
  base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base } });
  shop = await makeShop(t, "Example Shop", "example-shop.example");
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  cookie = await signUp(t, "owner@example-shop.example");
  const userId = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  addMember(t.app.ctx.platform, shop.org.id, userId, "owner");
});
afterAll(async () => {
  await server.stop(true);
  t.cleanup();
});

/** Reads a child's stdout line by line, so the test can react while the process runs. */
function lines(stream: ReadableStream<Uint8Array>) {
  const seen: string[] = [];
  const waiters: { match: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const done = (async () => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf("\n");
      while (nl !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        seen.push(line);
        for (const waiter of [...waiters]) {
          const m = line.match(waiter.match);
          if (m) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(m);
          }
        }
        nl = buffer.indexOf("\n");
      }
    }
    if (buffer) seen.push(buffer);
  })();
  return {
    seen,
    done,
    next(match: RegExp): Promise<RegExpMatchArray> {
      for (const line of seen) {
        const m = line.match(match);
        if (m) return Promise.resolve(m);
      }
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

describe("examples/agent.ts", () => {
  test("registers, shows the code, waits for approval, then browses, fills a cart and places an order", async () => {
    const child = Bun.spawn(["bun", SCRIPT, base], {
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, BUYER_EMAIL: "ana@example.com" },
    });
    const out = lines(child.stdout);
    try {
      const code = (await out.next(/^\s+([A-Z2-9]{4}-[A-Z2-9]{4})$/))[1]!;
      const url = (await out.next(/^\s+(http\S+)$/))[1]!;
      expect(url).toBe(`${base}/device/capabilities?code=${code}`);
      // It polls the agent's status at the service's interval while the merchant has not decided yet.
      await out.next(/^Still pending; next check in 5 s$/);

      // The merchant opens the request by its code and approves it for the shop.
      const view = await t.json(`/api/auth/agent/approval?code=${code}`, { headers: { cookie } });
      expect(view.status).toBe(200);
      expect(view.body.agent.name).toBe("Example shopping agent");
      expect(view.body.agent.mode).toBe("delegated");
      const decided = await approve(
        t,
        { cookie, orgId: shop.org.id },
        { approval_id: view.body.approval.approval_id, user_code: code },
      );
      expect(decided.status).toBe(200);

      const exitCode = await child.exited;
      await out.done;
      const stderr = await new Response(child.stderr).text();
      expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
    } finally {
      child.kill();
    }

    const printed = out.seen.join("\n");
    expect(printed).toContain("Approved: 10 capabilities active in");
    expect(printed).toContain(`Acting as agent in ${shop.org.id}`);
    const orderId = /Order placed: (ord_\w+)/.exec(printed)?.[1];
    expect(orderId).toBeDefined();

    // The order is in the shop, for the buyer, with the one item the agent added.
    const order = await shop.admin.get(`/v1/admin/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.data.email).toBe("ana@example.com");
    expect(order.body.data.items).toHaveLength(1);
    expect(order.body.data.items[0].quantity).toBe(1);
  }, 60_000);
});
