import type { Module } from "../core/module.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import { ucpRoutes } from "./routes.ts";
import { deliverOrderWebhook, ORDER_WEBHOOK_JOB, queueOrderWebhook } from "./webhooks.ts";

/**
 * The Universal Commerce Protocol on each shop's host (docs/ucp.md): its business profile and the
 * REST binding of checkout, translated to and from checkout sessions (the checkout module), and the
 * signed order webhooks its platforms receive. No operations of its own; its table holds the shop's
 * signing keys. `payments` lists the handlers a shop's profile offers.
 */
export function createUcpModule(payments: CheckoutPayments): Module {
  return {
    name: "ucp",
    operations: [],
    tables: { file: "src/ucp/tables.ts", database: "tenant" },
    routes: (service) => ucpRoutes(service, payments),
    jobs: { [ORDER_WEBHOOK_JOB]: deliverOrderWebhook },
    onEvent: queueOrderWebhook,
  };
}
