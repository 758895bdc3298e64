import type { Module } from "../core/module.ts";
import { customerOperations } from "./customer-routes.ts";
import { orderOperations } from "./routes.ts";

export const ordersModule: Module = {
  name: "orders",
  operations: [...orderOperations, ...customerOperations],
};
