import type { Module } from "../core/module.ts";
import { metricsRoute } from "./metrics-route.ts";
import { systemOperations } from "./routes.ts";

/** The service itself: its health, who it takes the caller to be, and its metrics for operators. */
export const systemModule: Module = {
  name: "system",
  operations: systemOperations,
  routes: (service) => [metricsRoute(service.ctx)],
};
