import type { Module } from "../core/module.ts";
import { shippingAndCouponOperations } from "./admin-routes.ts";
import { cartOperations } from "./routes.ts";
import { seedDemoCheckout } from "./seed.ts";

export const cartModule: Module = {
  name: "cart",
  tables: { file: "src/cart/tables.ts", database: "tenant" },
  operations: [...cartOperations, ...shippingAndCouponOperations],
  seedDemo: seedDemoCheckout,
};
