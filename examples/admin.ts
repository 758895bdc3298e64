#!/usr/bin/env bun
/**
 * A merchant's back office with the typed client (openapi-fetch over the types `bun run client:gen`
 * writes) and an admin API key: create a product with a variant, set its stock, then take an order
 * through fulfilment and a full refund.
 *
 *   COMMERCE_API_KEY=ck_… bun examples/admin.ts [BASE_URL] [ORDER_ID]
 *
 * Settings (environment): COMMERCE_URL (default http://localhost:3000), COMMERCE_API_KEY (required,
 * `admin` scope; the key names the store), ORDER_ID (default: the newest open, unfulfilled order).
 * An order paid by a manual method (bank transfer, cash on delivery) and still pending is marked paid
 * first, since only a paid order can be refunded. Prints each step; exits non-zero at the first
 * refused request.
 */
import { connect, log, money, ok, run, type Schemas, text } from "./client.ts";

const apiKey = process.env.COMMERCE_API_KEY;
const api = connect({ apiKey });

/** The order to work on: the one named, else the newest open order not shipped yet. */
async function pickOrder(): Promise<Schemas["Order"]> {
  let id = process.argv[3] ?? process.env.ORDER_ID;
  if (!id) {
    const open = await ok(
      "list orders",
      api.GET("/v1/admin/orders", {
        params: { query: { status: "open", fulfillmentStatus: "unfulfilled", limit: 1 } },
      }),
    );
    id = open.data[0]?.id;
    if (!id) throw new Error("No open, unfulfilled order: place one first (examples/storefront.ts)");
  }
  return (await ok("get order", api.GET("/v1/admin/orders/{id}", { params: { path: { id } } }))).data;
}

run(async () => {
  if (!apiKey) throw new Error("Set COMMERCE_API_KEY to an admin API key of the store");

  // A product with one variant; a run id keeps its slug and SKU unique.
  const runId = Date.now().toString(36);
  const product = (
    await ok(
      "create product",
      api.POST("/v1/admin/products", {
        body: {
          name: { en: "Example poster" },
          slug: `example-poster-${runId}`,
          status: "active",
          requiresShipping: true,
          variants: [{ title: "A3", sku: `EX-POSTER-${runId}`, price: 2500 }],
        },
      }),
    )
  ).data;
  const variant = product.variants[0];
  if (!variant) throw new Error("The created product has no variant");
  log(`Product created: ${text(product.name)} (${product.id}), variant ${variant.title} ${variant.id}`);

  const stock = (
    await ok(
      "set inventory",
      api.PATCH("/v1/admin/inventory/{variantId}", {
        params: { path: { variantId: variant.id } },
        body: { tracked: true, onHand: 25 },
      }),
    )
  ).data;
  log(`Inventory of ${stock.sku ?? stock.variantId}: ${stock.onHand} on hand (tracked: ${stock.tracked})`);

  let order = await pickOrder();
  const path = { id: order.id };
  log(`Order ${order.number} (${order.id}): ${order.status}, payment ${order.paymentStatus}`);

  if (order.paymentStatus === "pending" && order.paymentMethod?.provider === "manual") {
    order = (await ok("mark paid", api.POST("/v1/admin/orders/{id}/mark-paid", { params: { path } }))).data;
    log(`Marked paid: payment ${order.paymentStatus}`);
  }

  order = (
    await ok(
      "fulfill",
      api.POST("/v1/admin/orders/{id}/fulfill", {
        params: { path },
        body: { carrier: "CTT", trackingNumber: `EX${runId.toUpperCase()}PT` },
      }),
    )
  ).data;
  log(`Fulfilled: ${order.fulfillmentStatus}, order ${order.status}`);

  // The Idempotency-Key makes a retried refund safe: the same key never refunds twice.
  order = (
    await ok(
      "refund",
      api.POST("/v1/admin/orders/{id}/refund", {
        params: { path, header: { "Idempotency-Key": `refund-${order.id}` } },
        body: { reason: "Example refund", restock: true },
      }),
    )
  ).data;
  const refunded = order.refunds.reduce((sum, refund) => sum + refund.amount.amount, 0);
  log(
    `Refunded: ${money({ amount: refunded, currency: order.currency })}, payment ${order.paymentStatus}, ` +
      `order ${order.status}`,
  );
});
