import type { Module } from "../core/module.ts";
import { customerOperations } from "./routes.ts";

/**
 * Storefront accounts (with their password reset links, `src/customers/tables.ts`) and admin
 * customers. The `customers` and `customer_sessions` tables are declared in src/orders/tables.ts: orders reference customers, and a module imports only from
 * the modules before it.
 */
export const customersModule: Module = {
  name: "customers",
  operations: customerOperations,
  tables: { file: "src/customers/tables.ts", database: "tenant" },
};
