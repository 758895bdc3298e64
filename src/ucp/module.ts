import type { Module } from "../core/module.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import { ucpRoutes } from "./routes.ts";

/**
 * The Universal Commerce Protocol on each shop's host (docs/ucp.md): its business profile and the
 * REST binding of checkout, translated to and from checkout sessions (the checkout module). No
 * tables and no operations of its own. `payments` lists the handlers a shop's profile offers.
 */
export function createUcpModule(payments: CheckoutPayments): Module {
  return { name: "ucp", operations: [], routes: (service) => ucpRoutes(service, payments) };
}
