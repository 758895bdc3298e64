import type { Module } from "../core/module.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import { checkoutOperations } from "./routes.ts";

/**
 * Checkout sessions (docs/checkout.md): the one model of a checkout that the agentic-commerce
 * protocols translate, over a cart and place-order, also served on `/v1` as it is. Its table is in
 * each shop's file. `payments` starts provider payments at completion (as place-order's).
 */
export function createCheckoutModule(payments: CheckoutPayments): Module {
  return {
    name: "checkout",
    tables: { file: "src/checkout/tables.ts", database: "tenant" },
    operations: checkoutOperations(payments),
  };
}
