import type { Module } from "../core/module.ts";
import { authAdminOperations } from "./admin-routes.ts";
import { authOperations } from "./routes.ts";

/**
 * Dashboard users, organizations, API keys and `/v1/me`, and the organization's domains and members
 * under `/v1/admin`; its tables are the control plane's.
 */
export const authModule: Module = {
  name: "auth",
  tables: { file: "src/auth/tables.ts", database: "platform" },
  operations: [...authOperations, ...authAdminOperations],
};
