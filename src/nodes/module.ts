import type { Module, Service } from "../core/module.ts";
import { jsonResponse } from "../core/respond.ts";
import { operatorRefusal } from "../system/metrics-route.ts";
import { directoryOf, startDirectory, stopDirectory } from "./directory.ts";
import { forwarded, opsRoutes, yieldedShops, yieldShop } from "./moves.ts";
import { Replicator } from "./replication.ts";

// The replicator of a started service, when REPLICA_URL is set.
const replicators = new WeakMap<object, Replicator>();

/**
 * `GET /ready` for orchestrators (the operator's token, as `/metrics`): 200 when the node can serve
 * and its replicas are current, else 503 with the reasons. `GET /v1/health` stays public and minimal.
 */
function readiness(service: Service): Response {
  const reasons: string[] = service.ctx.storage.degraded().map((reason) => reason.code);
  const replica = service.ctx.config.replica;
  const replication = replica ? (replicators.get(service.ctx)?.status() ?? null) : undefined;
  if (replica && !replication?.running) reasons.push("REPLICATION_NOT_RUNNING");
  else if (replica && !replication?.current) reasons.push("REPLICATION_BEHIND_SHOPS");
  const lease = directoryOf(service.ctx)?.status();
  const directory = lease && { ...lease, yielded: yieldedShops(service.ctx) };
  if (directory && !directory.holdsLease) reasons.push("LEASE_NOT_HELD");
  const body = {
    ready: reasons.length === 0,
    reasons,
    replication: replication === undefined ? { configured: false } : { configured: true, ...replication },
    directory: directory ?? { configured: false },
  };
  return jsonResponse(reasons.length === 0 ? 200 : 503, body);
}

/**
 * The shops of this node as files (docs/scaling.md): export, import, erase and restore one shop
 * (the command line's), their continuous replication with Litestream while the service runs, the
 * node's readiness, and moving a shop to another node (`/ops`, and forwarding what still comes here).
 */
export const nodesModule: Module = {
  name: "nodes",
  operations: [],
  tables: { file: "src/nodes/tables.ts", database: "platform" },
  routes: (service) => [
    {
      method: "GET",
      path: "/ready",
      handle: (request) => operatorRefusal(service.ctx, request) ?? readiness(service),
    },
    ...opsRoutes(service),
  ],
  intercept: (request, service) => forwarded(service.ctx, request),
  start(service) {
    const { ctx } = service;
    // A shop yielded before a restart stays frozen (its requests go where it went).
    for (const orgId of yieldedShops(ctx)) ctx.tenants.freeze(orgId);
    startDirectory(ctx, (orgId, url) => yieldShop(ctx, orgId, url));
    const replica = service.ctx.config.replica;
    if (!replica) return;
    const replicator = new Replicator(service.ctx, replica);
    replicator.start();
    service.ctx.metrics.watchReplication(() => replicator.positions());
    replicators.set(service.ctx, replicator);
  },
  stop(service) {
    stopDirectory(service.ctx);
    replicators.get(service.ctx)?.stop();
    replicators.delete(service.ctx);
  },
};
