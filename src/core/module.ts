import type { TenantDb } from "../db/tenant-pool.ts";
import type { Operation } from "./operation.ts";
import type { JobHandler } from "./outbox.ts";

/**
 * A domain as the service composes it (src/modules.ts): its operations, its tables, the work it
 * runs after commits, what it writes into a new organization's file, and its demo data.
 */
export interface Module {
  name: string;
  operations: Operation[];
  /**
   * Its Drizzle tables file (from the repository root) and the database it belongs to: the
   * Drizzle configs read these to generate the migrations of each database.
   */
  tables?: { file: string; database: "tenant" | "platform" };
  /** Outbox job handlers by kind (see core/outbox.ts). */
  jobs?: Record<string, JobHandler>;
  /** Runs in the transaction that creates a new organization's file. */
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  /** Fills the demo store on its first start (in its own transaction, in module order). */
  seedDemo?: (tenant: TenantDb) => void;
}
