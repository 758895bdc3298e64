#!/usr/bin/env bun
/**
 * A whole purchase as a storefront makes it, with the typed client (openapi-fetch over the types
 * `bun run client:gen` writes): browse, create a cart, add a line, set the address, pick a shipping
 * method, apply a coupon, place the order and read it back with its access token.
 *
 *   COMMERCE_HOST=demo.localhost bun examples/storefront.ts [BASE_URL]
 *
 * Settings (environment): COMMERCE_URL (default http://localhost:3000), COMMERCE_HOST (the shop's
 * Host, when the URL is not the shop's own domain), COMMERCE_STOREFRONT_KEY (optional storefront API
 * key, for a storefront served from a server), BUYER_EMAIL, COUPON (default WELCOME10, empty for none).
 * Prints each step; exits non-zero at the first refused request.
 */
import { connect, log, money, ok, run, type Schemas, text } from "./client.ts";

const BUYER_EMAIL = process.env.BUYER_EMAIL ?? "buyer@example.com";
const COUPON = process.env.COUPON ?? "WELCOME10";
const ADDRESS: Schemas["Address"] = {
  firstName: "Rui",
  lastName: "Costa",
  line1: "Rua do Ouro 1",
  city: "Lisboa",
  postalCode: "1100-060",
  country: "PT",
};

const api = connect({ host: process.env.COMMERCE_HOST, apiKey: process.env.COMMERCE_STOREFRONT_KEY });

run(async () => {
  // Browse: the first product that ships and can be bought now.
  const products = await ok("list products", api.GET("/v1/products", { params: { query: { limit: 20 } } }));
  log(`Products: ${products.meta.total}`);
  const product = products.data.find((p) => p.requiresShipping && p.variants.some((v) => v.available));
  const variant = product?.variants.find((v) => v.available);
  if (!product || !variant) throw new Error("No product that ships can be bought now");
  log(`Picked: ${text(product.name)} / ${variant.title} at ${money(variant.price)}`);

  const cart = (await ok("create cart", api.POST("/v1/carts", { body: { email: BUYER_EMAIL } }))).data;
  const path = { id: cart.id };
  log(`Cart: ${cart.id}`);

  const added = await ok(
    "add item",
    api.POST("/v1/carts/{id}/items", { params: { path }, body: { variantId: variant.id, quantity: 1 } }),
  );
  log(`Added 1 × ${variant.title}; subtotal ${money(added.data.totals.subtotal)}`);

  await ok(
    "shipping address",
    api.POST("/v1/carts/{id}/shipping-address", { params: { path }, body: ADDRESS }),
  );
  log(`Ships to ${ADDRESS.city}, ${ADDRESS.country}`);

  const methods = (
    await ok("shipping methods", api.GET("/v1/carts/{id}/shipping-methods", { params: { path } }))
  ).data;
  const method = methods[0];
  if (!method) throw new Error(`No shipping method serves ${ADDRESS.country}`);
  await ok(
    "shipping method",
    api.POST("/v1/carts/{id}/shipping-method", { params: { path }, body: { shippingMethodId: method.id } }),
  );
  log(`Shipping: ${text(method.name)} (${money(method.price)})`);

  if (COUPON) {
    const discounted = await ok(
      "coupon",
      api.POST("/v1/carts/{id}/coupon", { params: { path }, body: { code: COUPON } }),
    );
    log(`Coupon ${COUPON}: discount ${money(discounted.data.totals.discount)}`);
  }

  const payments = (
    await ok("payment methods", api.GET("/v1/carts/{id}/payment-methods", { params: { path } }))
  ).data;
  // A method that needs nothing more from the shopper (a bank transfer, cash on delivery).
  const payment = payments.find((m) => m.requires.length === 0);
  if (!payment) throw new Error("No payment method can be used without more input");
  log(`Payment: ${text(payment.name)} (${payment.id})`);

  // The Idempotency-Key makes a retry after a lost answer return the same order, never a second one.
  const placed = (
    await ok(
      "place order",
      api.POST("/v1/carts/{id}/place-order", {
        params: { path, header: { "Idempotency-Key": `storefront-${cart.id}` } },
        body: { paymentMethodId: payment.id },
      }),
    )
  ).data;
  log(`Order placed: ${placed.id} (number ${placed.number}), total ${money(placed.totals.total)}`);

  // A guest reads its order with the access token it got once, at placing.
  const order = (
    await ok(
      "read order",
      api.GET("/v1/orders/{id}", {
        params: { path: { id: placed.id }, query: { token: placed.accessToken } },
      }),
    )
  ).data;
  log(
    `Order ${order.number} read back: ${order.items.length} line(s), status ${order.status}, ` +
      `payment ${order.paymentStatus}, coupon ${order.coupon?.code ?? "none"}`,
  );
});
