import type { Module } from "../core/module.ts";
import { Replicator } from "./replication.ts";

// The replicator of a started service, when REPLICA_URL is set.
const replicators = new WeakMap<object, Replicator>();

/**
 * The shops of this node as files (docs/scaling.md): export, import, erase and restore one shop
 * (the command line's), and their continuous replication with Litestream while the service runs.
 */
export const nodesModule: Module = {
  name: "nodes",
  operations: [],
  start(service) {
    const replica = service.ctx.config.replica;
    if (!replica) return;
    const replicator = new Replicator(service.ctx, replica);
    replicator.start();
    replicators.set(service.ctx, replicator);
  },
  stop(service) {
    replicators.get(service.ctx)?.stop();
    replicators.delete(service.ctx);
  },
};
