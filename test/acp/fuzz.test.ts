import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { mangle, random } from "../helpers/fuzz-bodies.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { acpClient, addPlatform, paymentWith, readyBody, shippingChoice } from "./helpers.ts";

// ACP bodies mangled at random (fixed seed): every answer is a 2xx or a 4xx in ACP's shapes (the
// client holds each to the published documents), never a server error.

const HOST = "acp-fuzz.example";
let t: TestApp;
let shop: Shop;

beforeAll(async () => {
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "ACP Fuzz", HOST);
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
});
afterAll(() => t.cleanup());

test("300 mangled create, update and complete bodies: no server error, every answer in ACP's shapes", async () => {
  const acp = acpClient(t, HOST, (await addPlatform(shop)).token);
  const next = random(20261127);
  const variant = shop.shirt.variants[0].id;
  const open = await acp("POST", "/acp/checkout_sessions", readyBody([{ id: variant }]));
  expect(open.status).toBe(201);
  const valid = [
    () => readyBody([{ id: variant }]),
    () => ({ ...shippingChoice(shop, [variant]), buyer: { email: "ana@example.com" } }),
    () => paymentWith("manual_bank_transfer"),
  ];
  const paths = [
    "/acp/checkout_sessions",
    `/acp/checkout_sessions/${open.body.id}`,
    `/acp/checkout_sessions/${open.body.id}/complete`,
  ];
  const statuses = new Map<number, number>();
  for (let i = 1; i <= 300; i++) {
    const answer = await acp("POST", paths[i % 3]!, mangle(valid[i % 3]!(), next));
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect(answer.status).toBeLessThan(500);
  }
  // Both kinds of answer were seen: the mangling reaches past validation.
  expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
});
