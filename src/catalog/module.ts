import type { Module } from "../core/module.ts";
import { catalogOperations } from "./routes.ts";
import { seedDemoCatalog } from "./seed.ts";
import { initializeStore } from "./store-settings.ts";

export const catalogModule: Module = {
  name: "catalog",
  tables: { file: "src/catalog/tables.ts", database: "tenant" },
  operations: catalogOperations,
  initializeTenant: (tenant, org) => initializeStore(tenant, org.name),
  seedDemo: seedDemoCatalog,
};
