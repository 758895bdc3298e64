import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { mangle, random } from "../helpers/fuzz-bodies.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { type PlatformServer, platformServer, readyCheckoutBody } from "./helpers.ts";

// UCP bodies mangled at random (fixed seed): every answer is a 2xx or a 4xx with UCP's error body,
// never a server error.

const HOST = "ucp-fuzz.example";
let t: TestApp;
let platforms: PlatformServer;
let shop: Shop;

beforeAll(async () => {
  platforms = platformServer();
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "UCP Fuzz", HOST);
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
});
afterAll(async () => {
  t.cleanup();
  await platforms.stop();
});

test("300 mangled create, update and complete bodies: no server error, every refusal in UCP's shape", async () => {
  const next = random(20261127);
  const valid = () => ({
    ...readyCheckoutBody(shop.shirt.variants[0].id, shop.ptShipping.id),
    payment: {
      instruments: [{ id: "i", handler_id: "manual_bank_transfer", type: "offline", selected: true }],
    },
  });
  const headers = (key: number) => ({
    host: HOST,
    "ucp-agent": platforms.agent(),
    "idempotency-key": `fuzz-${key}`,
    "content-type": "application/json",
  });
  const open = await t.json("/ucp/v1/checkout-sessions", {
    method: "POST",
    headers: headers(0),
    body: JSON.stringify(valid()),
  });
  if (open.status !== 201) throw new Error(JSON.stringify(open.body));
  const statuses = new Map<number, number>();
  for (let i = 1; i <= 300; i++) {
    const body = mangle(valid(), next);
    const [method, path] = [
      ["POST", "/ucp/v1/checkout-sessions"],
      ["PUT", `/ucp/v1/checkout-sessions/${open.body.id}`],
      ["POST", `/ucp/v1/checkout-sessions/${open.body.id}/complete`],
    ][i % 3]!;
    const answer = await t.json(path!, { method, headers: headers(i), body: JSON.stringify(body) });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect(answer.status).toBeLessThan(500);
    if (answer.status >= 400)
      expect(answer.body).toMatchObject({ code: expect.any(String), content: expect.any(String) });
  }
  // Both kinds of answer were seen: the mangling reaches past validation.
  expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
});
