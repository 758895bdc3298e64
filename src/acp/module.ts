import type { Module } from "../core/module.ts";
import { acpAdminOperations } from "./admin-routes.ts";
import { acpRoutes } from "./routes.ts";
import { deliverOrderEvent, ORDER_EVENT_JOB, queueOrderEvent } from "./webhooks.ts";

/**
 * The Agentic Commerce Protocol on each shop's host (docs/acp.md): the checkout session endpoints,
 * translated to and from checkout sessions (the checkout module), for the agent platforms the
 * merchant lets in (their tokens and webhook secrets are this module's table in the shop's file),
 * and the order webhooks those platforms receive.
 */
export const acpModule: Module = {
  name: "acp",
  operations: acpAdminOperations,
  tables: { file: "src/acp/tables.ts", database: "tenant" },
  routes: acpRoutes,
  jobs: { [ORDER_EVENT_JOB]: deliverOrderEvent },
  onEvent: queueOrderEvent,
};
