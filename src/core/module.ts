import type { TenantDb } from "../db/tenant-pool.ts";
import type { Operation } from "./operation.ts";
import type { JobHandler } from "./outbox.ts";

/**
 * A domain as the service composes it (src/modules.ts): its operations, the work it runs after
 * commits, what it writes into a new organization's file, and its demo data. Its tables, if any,
 * live in its `tables.ts`, listed in the Drizzle config of the database they belong to.
 */
export interface Module {
  name: string;
  operations: Operation[];
  /** Outbox job handlers by kind (see core/outbox.ts). */
  jobs?: Record<string, JobHandler>;
  /** Runs in the transaction that creates a new organization's file. */
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  /** Fills the demo store on its first start (in its own transaction, in module order). */
  seedDemo?: (tenant: TenantDb) => void;
}
