import type { Module } from "../core/module.ts";
import { deliverJob, fanOut } from "./deliveries.ts";
import { eventOperations } from "./event-routes.ts";
import { webhookOperations } from "./routes.ts";

/**
 * Events out: the shop's events (core/events.ts) listed for admins, and sent to the merchant's
 * systems as signed webhooks (docs/events.md, docs/webhooks.md).
 */
export const webhooksModule: Module = {
  name: "webhooks",
  operations: [...eventOperations, ...webhookOperations],
  tables: { file: "src/webhooks/tables.ts", database: "tenant" },
  jobs: { "webhooks.deliver": deliverJob },
  onEvent: fanOut,
};
