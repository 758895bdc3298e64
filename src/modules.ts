import { authModule } from "./auth/module.ts";
import { cartModule } from "./cart/module.ts";
import { catalogModule } from "./catalog/module.ts";
import type { Module } from "./core/module.ts";
import { customersModule } from "./customers/module.ts";
import { ordersModule } from "./orders/module.ts";
import { systemModule } from "./system/module.ts";

/**
 * Every module of the service, in dependency order (each imports only from those before it) and in
 * the order of the OpenAPI document. Adding a domain is adding its module here.
 */
export const modules: readonly Module[] = [
  systemModule,
  authModule,
  catalogModule,
  cartModule,
  ordersModule,
  customersModule,
];
