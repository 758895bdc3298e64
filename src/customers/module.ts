import type { Module } from "../core/module.ts";
import { customerOperations } from "./routes.ts";

/**
 * Storefront accounts and admin customers. The `customers` and `customer_sessions` tables are
 * declared in src/orders/tables.ts: orders reference customers, and a module imports only from
 * the modules before it.
 */
export const customersModule: Module = {
  name: "customers",
  operations: customerOperations,
};
