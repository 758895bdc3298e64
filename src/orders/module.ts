import type { Module } from "../core/module.ts";
import { orderOperations } from "./routes.ts";

/** Placing orders, the order lifecycle and the dashboard statistics; its tables also hold the customers'. */
export const ordersModule: Module = {
  name: "orders",
  tables: { file: "src/orders/tables.ts", database: "tenant" },
  operations: orderOperations,
};
