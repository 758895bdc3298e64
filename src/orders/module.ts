import type { Module } from "../core/module.ts";
import { type CheckoutPayments, manualPayments } from "./checkout-payments.ts";
import { orderOperations } from "./routes.ts";

/**
 * Placing orders, the order lifecycle and the dashboard statistics; its tables also hold the
 * customers'. `payments` starts provider payments and refunds (src/modules.ts passes the payments
 * module's); without it only manual methods exist.
 */
export function createOrdersModule(payments: CheckoutPayments = manualPayments): Module {
  return {
    name: "orders",
    tables: { file: "src/orders/tables.ts", database: "tenant" },
    operations: orderOperations(payments),
  };
}
