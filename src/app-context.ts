import type { Config } from "./config.ts";
import { StorageHealth } from "./core/storage.ts";
import { openPlatformDb, type PlatformDb } from "./db/platform.ts";
import { type TenantDb, TenantPool } from "./db/tenant-pool.ts";
import { createLogger, type Logger } from "./lib/log.ts";

/** What the modules contribute to every organization: its file's first rows, its demo data, its control-plane rows. */
interface TenantSetup {
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  seedDemo?: (tenant: TenantDb) => void;
  /** The control-plane rows that belong to one shop (`Module.shopRows`). */
  shopRows?: readonly { table: string; where: string; shared?: true }[];
}

/** What every operation handler (and the CLI) can reach: configuration, the control plane, the tenant pool, the log. */
export interface AppContext {
  config: Config;
  platform: PlatformDb;
  tenants: TenantPool;
  log: Logger;
  /** Failing storage (the current episode) and the data directory's free space, for errors and health. */
  storage: StorageHealth;
  /** From the module list, in its order (src/modules.ts). */
  tenantSetup: readonly TenantSetup[];
}

export function createContext(config: Config, tenantSetup: readonly TenantSetup[]): AppContext {
  const log = createLogger(config.logLevel);
  return {
    config,
    platform: openPlatformDb(config.dataDir),
    tenants: new TenantPool(config.dataDir, config.tenantPoolSize),
    log,
    storage: new StorageHealth(log, config.dataDir, config.minFreeDiskMb),
    tenantSetup,
  };
}

export function closeContext(ctx: AppContext): void {
  ctx.tenants.close();
  ctx.platform.sqlite.close();
}
