import type { Config } from "./config.ts";
import { createMetrics, type Metrics } from "./core/metrics.ts";
import { StorageHealth } from "./core/storage.ts";
import { dueTimes } from "./db/due-times.ts";
import { openPlatformDb, type PlatformDb, type PlatformUpgrade } from "./db/platform.ts";
import { type TenantDb, TenantPool } from "./db/tenant-pool.ts";
import { createLogger, type Logger } from "./lib/log.ts";

/** A table's rows of one shop in the control plane (see `Module.shopRows`). */
export interface ShopRows {
  table: string;
  where: string;
  shared?: true;
}

/**
 * What the modules contribute to every organization (its file's first rows, its demo data, its
 * control-plane rows) and to the control plane's upgrades.
 */
interface ModuleSetup {
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  seedDemo?: (tenant: TenantDb) => void;
  /** The control-plane rows that belong to one shop (`Module.shopRows`). */
  shopRows?: readonly ShopRows[];
  beforePlatformMigration?: Readonly<Record<string, PlatformUpgrade>>;
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
  tenantSetup: readonly ModuleSetup[];
  /** What `GET /metrics` answers (docs/operations.md, "Metrics"). */
  metrics: Metrics;
}

export function createContext(config: Config, tenantSetup: readonly ModuleSetup[]): AppContext {
  const log = createLogger(config.logLevel);
  const metrics = createMetrics(config.metricsToken !== undefined);
  const upgrades: Record<string, PlatformUpgrade> = Object.assign(
    {},
    ...tenantSetup.map((module) => module.beforePlatformMigration),
  );
  const platform = openPlatformDb(config.dataDir, upgrades);
  const tenants = new TenantPool(config.dataDir, config.tenantPoolSize, () => metrics.evicted());
  metrics.watch({
    openShops: () => tenants.size,
    shopCapacity: config.tenantPoolSize,
    outboxDue: () => {
      const due = dueTimes(platform.sqlite, "outbox_due_at", Date.now());
      const oldest = due[0] ? Math.max(0, (Date.now() - due[0].at) / 1000) : 0;
      return { shops: due.length, oldestSeconds: oldest };
    },
  });
  return {
    config,
    platform,
    tenants,
    log,
    storage: new StorageHealth(log, config.dataDir, config.minFreeDiskMb, (code) =>
      metrics.storageFailed(code),
    ),
    tenantSetup,
    metrics,
  };
}

export function closeContext(ctx: AppContext): void {
  ctx.tenants.close();
  ctx.platform.sqlite.close();
}
