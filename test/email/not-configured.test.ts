import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, placeBankTransferOrder, type Shop } from "../helpers/shop.ts";

// Without SMTP_URL the service sends nothing: no email is queued, and each email that would have
// gone is told once in the log (docs/email.md).

let t: TestApp;
let shop: Shop;
const told: { msg: string; fields: Record<string, unknown> }[] = [];

beforeAll(async () => {
  t = makeTestApp({ start: true });
  const info = t.app.ctx.log.info.bind(t.app.ctx.log);
  t.app.ctx.log.info = (msg, fields = {}) => {
    told.push({ msg, fields });
    info(msg, fields);
  };
  shop = await makeShop(t, "Quiet Shop", "quiet-shop.example");
});
afterAll(() => t.cleanup());

describe("email without SMTP_URL", () => {
  test("an order queues no email; the confirmation, the payment instructions and the shop's notice are each logged once as not sent", async () => {
    told.length = 0;
    const order = await placeBankTransferOrder(shop, "quiet-buyer@example.com");
    const skipped = told.filter((line) => line.msg === "email not sent: SMTP_URL is unset");
    expect(skipped.map((line) => line.fields.template)).toEqual([
      "order_confirmation",
      "payment_instructions",
      "new_order",
    ]);
    const placed = (await shop.admin.get(`/v1/admin/events?type=order.placed&limit=1`)).body.data[0];
    expect(placed.data.object.id).toBe(order.id);
    expect(new Set(skipped.map((line) => line.fields.eventId))).toEqual(new Set([placed.id]));
    const queued = await t.app.ctx.tenants.with(shop.org.id, (tenant) =>
      tenant.sqlite.query("SELECT count(*) AS n FROM outbox WHERE kind = 'email.send'").get(),
    );
    expect(queued).toEqual({ n: 0 });
  });
});
