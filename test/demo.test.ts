import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { ensureDemoTenant } from "../src/demo.ts";

const dir = mkdtempSync(join(tmpdir(), "commerce-demo-"));
const app = createApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" }));
afterAll(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) => {
  const response = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        host: "demo.localhost:3000",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
};

test("first run: the demo store sells end to end, as the README walks through", async () => {
  const demo = await ensureDemoTenant(app.ctx);
  expect(demo?.apiKey).toMatch(/^ck_/);
  expect(await ensureDemoTenant(app.ctx)).toBeUndefined(); // once only

  const products = await call("/v1/products?query=mug&sort=price&limit=50");
  expect(products.status).toBe(200);
  // The storefront shows whether a variant can be bought, never its stock count.
  const product = products.body.data.find((p: any) => p.variants.length === 1 && p.variants[0].available);
  expect(product).toBeDefined();
  expect(product.variants[0].inventory).toBeUndefined();

  const cart = await call("/v1/carts", { body: { email: "shopper@example.com" } });
  expect(cart.status).toBe(201);
  const id = cart.body.data.id;
  expect(
    (await call(`/v1/carts/${id}/items`, { body: { variantId: product.variants[0].id, quantity: 1 } }))
      .status,
  ).toBe(200);
  const address = {
    firstName: "Rui",
    lastName: "Costa",
    line1: "Rua do Ouro 1",
    city: "Lisboa",
    postalCode: "1100-060",
    country: "PT",
  };
  expect((await call(`/v1/carts/${id}/shipping-address`, { body: address })).status).toBe(200);
  const methods = await call(`/v1/carts/${id}/shipping-methods`);
  expect(methods.body.data.map((m: any) => m.name.en)).toEqual(["Portugal (CTT)", "Rest of the world"]);
  expect(
    (await call(`/v1/carts/${id}/shipping-method`, { body: { shippingMethodId: methods.body.data[0].id } }))
      .status,
  ).toBe(200);
  const withCoupon = await call(`/v1/carts/${id}/coupon`, { body: { code: "welcome10" } });
  expect(withCoupon.body.data.totals.discount.amount).toBeGreaterThan(0);
  const payment = await call(`/v1/carts/${id}/payment-methods`);
  expect(payment.body.data.map((m: any) => m.id)).toEqual(["manual_bank_transfer"]);

  const order = await call(`/v1/carts/${id}/place-order`, {
    body: { paymentMethodId: "manual_bank_transfer" },
  });
  expect(order.status).toBe(201);
  expect(order.body.data).toMatchObject({
    number: 1001,
    paymentStatus: "pending",
    coupon: { code: "WELCOME10" },
  });

  const admin = { "x-api-key": demo!.apiKey };
  const paid = await call(`/v1/admin/orders/${order.body.data.id}/mark-paid`, { body: {}, headers: admin });
  expect(paid.status).toBe(200);
  expect(paid.body.data.paymentStatus).toBe("paid");
  const guest = await call(`/v1/orders/${order.body.data.id}?token=${order.body.data.accessToken}`);
  expect(guest.body.data.paymentStatus).toBe("paid");
});
