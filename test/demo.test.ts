import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { DEMO_OWNER_EMAIL, ensureDemoTenant } from "../src/demo.ts";
import { cookieFrom } from "./helpers/app.ts";
import { spawnServer } from "./helpers/server-process.ts";

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

/** Starts `bun src/server.ts` as a developer does (no NODE_ENV=production) and returns, once stopped, what it printed. */
async function startAndStop(dataDir: string, use: (url: string) => Promise<void>) {
  const server = await spawnServer({
    ...process.env,
    NODE_ENV: undefined,
    DEMO_TENANT: undefined,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
  });
  try {
    await use(server.url);
  } finally {
    server.child.kill("SIGTERM");
    await server.child.exited;
  }
  return server.stdout;
}

const SIGN_IN_LINE = /Dashboard sign-in: (\S+) \/ (\S+)/;

test("the first start prints the demo owner's sign-in once, beside the admin key: it signs in and its session reaches the demo store's readiness; a second start prints no password", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "commerce-demo-owner-"));
  try {
    // The start's output is read once it stopped; the credentials are used on the next start.
    const first = await startAndStop(dataDir, async () => {});
    const line = SIGN_IN_LINE.exec(first);
    expect(line).not.toBeNull();
    expect(first).toMatch(/Demo admin API key \(shown only now, keep it\): ck_/);
    const [, email, password] = line!;
    expect(email).toBe(DEMO_OWNER_EMAIL);
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    const demoOrg = /Demo store "Demo Store" \((org_\w+)\)/.exec(first)?.[1];
    expect(demoOrg).toMatch(/^org_/);

    let signedIn: { status: number; orgId: string; readiness: number } | undefined;
    const second = await startAndStop(dataDir, async (url) => {
      const response = await fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      const session = (await response.json()) as { data: { session: { activeOrganizationId: string } } };
      const readiness = await fetch(`${url}/v1/admin/readiness`, {
        headers: { cookie: cookieFrom(response) },
      });
      signedIn = {
        status: response.status,
        orgId: session.data.session.activeOrganizationId,
        readiness: readiness.status,
      };
    });
    expect(signedIn).toEqual({ status: 200, orgId: demoOrg!, readiness: 200 });
    expect(second).toContain("listening on");
    expect(second).not.toContain("Dashboard sign-in");
    expect(second).not.toContain(password!);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
