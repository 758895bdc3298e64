import type { Server } from "bun";
import { addMember } from "../../src/auth/service.ts";
import { makeTestApp, signUp, type TestApp } from "./app.ts";
import { adminClient, shirtProduct, simpleProduct } from "./catalog.ts";

export const PT_ADDRESS = {
  firstName: "Ana",
  lastName: "Silva",
  line1: "Rua Augusta 10",
  city: "Lisboa",
  postalCode: "1100-053",
  country: "PT",
};

/**
 * A shop ready to sell: locales en+pt, PT 23 % and ES 21 % tax, a PT shipping method (€4.90,
 * free over €50), a worldwide one, a 10 % coupon, and a product with stock.
 */
export async function makeShop(t: TestApp, name: string, host: string) {
  const org = await t.org(name, { host });
  const admin = adminClient(t, org.key);
  const must = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`shop setup: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  await must(
    admin.patch("/v1/admin/store", {
      locales: ["en", "pt"],
      taxRates: [
        { country: "PT", rate: 2300 },
        { country: "ES", rate: 2100 },
      ],
    }),
  );
  const ptShipping = await must(
    admin.post("/v1/admin/shipping-methods", {
      name: { en: "Portugal" },
      price: 490,
      freeOver: 5000,
      countries: ["PT"],
    }),
  );
  const world = await must(
    admin.post("/v1/admin/shipping-methods", {
      name: { en: "World" },
      price: 1500,
      countries: [],
      position: 1,
    }),
  );
  await must(admin.post("/v1/admin/coupons", { code: "WELCOME10", type: "percentage", value: 10 }));
  const shirt = await must(admin.post("/v1/admin/products", shirtProduct("SHP")));
  const storefront = (
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    t.json(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        host,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  return { org, admin, ptShipping, world, shirt, storefront, host };
}

export type Shop = Awaited<ReturnType<typeof makeShop>>;

/** An active one-variant product of the shop with `onHand` tracked in stock; answers its variant's id. */
export async function stockedVariant(
  shop: Shop,
  name: string,
  price: number,
  onHand: number,
): Promise<string> {
  const product = await shop.admin.post(
    "/v1/admin/products",
    simpleProduct(name, price, { status: "active" }),
  );
  const variantId: string = product.body.data.variants[0].id;
  await shop.admin.patch(`/v1/admin/inventory/${variantId}`, { onHand, tracked: true });
  return variantId;
}

/** One shirt ordered through the storefront API, paid by bank transfer (turned on first); answers the order. */
export async function placeBankTransferOrder(shop: Shop, email = "buyer@example.com") {
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
  const items = [{ variantId: shop.shirt.variants[0].id, quantity: 1 }];
  const cart = (await shop.storefront("/v1/carts", { body: { email, items } })).body.data;
  await shop.storefront(`/v1/carts/${cart.id}/shipping-address`, { body: PT_ADDRESS });
  await shop.storefront(`/v1/carts/${cart.id}/shipping-method`, {
    body: { shippingMethodId: shop.ptShipping.id },
  });
  const placed = await shop.storefront(`/v1/carts/${cart.id}/place-order`, {
    body: { paymentMethodId: "manual_bank_transfer" },
  });
  if (placed.status !== 201) throw new Error(`place order: ${placed.status} ${JSON.stringify(placed.body)}`);
  return placed.body.data;
}

/** A listening service whose BASE_URL is its own address, with one shop (`makeShop`) and its owner's dashboard account. */
export async function listeningShop(
  name: string,
  shopHost: string,
  options: { env: Record<string, string>; password: string },
) {
  let t: TestApp | undefined;
  const server: Server<unknown> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request, srv) => t!.app.fetch(request, srv),
  });
  const base = `http://127.0.0.1:${server.port}`;
  t = makeTestApp({ env: { BASE_URL: base, ...options.env } });
  const app = t;
  const shop = await makeShop(app, name, shopHost);
  const owner = `owner@${shopHost}`;
  const cookie = await signUp(app, owner, options.password);
  const ownerId: string = (await app.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  addMember(app.app.ctx.platform, shop.org.id, ownerId, "owner");
  return {
    t: app,
    server,
    base,
    shop,
    owner,
    ownerId,
    async close() {
      await server.stop(true);
      app.cleanup();
    },
  };
}
