import type { Config } from "./config.ts";
import { openPlatformDb, type PlatformDb } from "./db/platform.ts";
import { type TenantDb, TenantPool } from "./db/tenant-pool.ts";
import { createLogger, type Logger } from "./lib/log.ts";

/** What the modules contribute to every organization's file: its first rows and its demo data. */
export interface TenantSetup {
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  seedDemo?: (tenant: TenantDb) => void;
}

/** What every operation handler (and the CLI) can reach: configuration, the control plane, the tenant pool, the log. */
export interface AppContext {
  config: Config;
  platform: PlatformDb;
  tenants: TenantPool;
  log: Logger;
  /** From the module list, in its order (src/modules.ts). */
  tenantSetup: readonly TenantSetup[];
}

export function createContext(config: Config, tenantSetup: readonly TenantSetup[]): AppContext {
  return {
    config,
    platform: openPlatformDb(config.dataDir),
    tenants: new TenantPool(config.dataDir, config.tenantPoolSize),
    log: createLogger(config.logLevel),
    tenantSetup,
  };
}

export function closeContext(ctx: AppContext): void {
  ctx.tenants.close();
  ctx.platform.sqlite.close();
}
