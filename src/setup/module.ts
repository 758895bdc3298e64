import type { Module } from "../core/module.ts";
import { setupOperations } from "./routes.ts";

export { storeReadiness } from "./readiness.ts";

/**
 * A store's set-up as a whole: what still blocks selling, read across the catalog, shipping,
 * payments and the organization's domains (so it comes after all of them).
 */
export const setupModule: Module = { name: "setup", operations: setupOperations };
