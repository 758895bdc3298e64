import type { Config } from "./config.ts";
import { openPlatformDb, type PlatformDb } from "./db/platform.ts";
import { TenantPool } from "./db/tenant-pool.ts";
import { createLogger, type Logger } from "./lib/log.ts";

/** What every operation handler (and the CLI) can reach: configuration, the control plane, the tenant pool, the log. */
export interface AppContext {
  config: Config;
  platform: PlatformDb;
  tenants: TenantPool;
  log: Logger;
}

export function createContext(config: Config): AppContext {
  return {
    config,
    platform: openPlatformDb(config.dataDir),
    tenants: new TenantPool(config.dataDir, config.tenantPoolSize),
    log: createLogger(config.logLevel),
  };
}

export function closeContext(ctx: AppContext): void {
  ctx.tenants.close();
  ctx.platform.sqlite.close();
}
