import type { TenantDb } from "../db/tenant-pool.ts";

// Storefront catalog reads (operations marked `cacheable`) are the same for every caller of a
// tenant, so their rendered bodies are kept per tenant handle, operation and input. Any tenant write made
// through this process bumps the handle's generation (the executor calls `tenantWritten` after
// each commit); a write by another process (the CLI) shows in SQLite's `PRAGMA data_version`.
// Either empties the tenant's cache, so a body is never served after the data behind it changed.
// A kept body is answered as the same object until then, so the transport keys what it derives
// from it once (the ETag, the compressed forms: src/http/caching.ts) on that object.

const MAX_ENTRIES = 1000;

interface TenantCache {
  generation: number;
  dataVersion: number;
  bodies: Map<string, KeptBody>;
}

/** A rendered body kept for reuse: one object per rendering, answered until the data changes. */
export interface KeptBody {
  readonly text: string;
}

const caches = new WeakMap<TenantDb, TenantCache>();
const generations = new WeakMap<TenantDb, number>();

export function tenantWritten(tenant: TenantDb): void {
  generations.set(tenant, (generations.get(tenant) ?? 0) + 1);
}

/** The tenant's cache, emptied first when its data changed since the bodies were rendered. */
function cacheOf(tenant: TenantDb): TenantCache {
  const generation = generations.get(tenant) ?? 0;
  const { data_version: dataVersion } = tenant.sqlite.query("PRAGMA data_version").get() as {
    data_version: number;
  };
  let cache = caches.get(tenant);
  if (!cache || cache.generation !== generation || cache.dataVersion !== dataVersion) {
    cache = { generation, dataVersion, bodies: new Map() };
    caches.set(tenant, cache);
  }
  return cache;
}

export interface CacheSlot {
  /** The kept body, if any. */
  kept: KeptBody | undefined;
  /** Keeps a body rendered after this lookup (dropped with the rest when the data changed since). */
  keep(text: string): KeptBody;
}

/** The cached body for `key` (if any) and a way to keep a freshly rendered one: one freshness check per request. */
export function cacheSlot(tenant: TenantDb, key: string): CacheSlot {
  const { bodies } = cacheOf(tenant);
  return {
    kept: bodies.get(key),
    keep(text: string) {
      if (bodies.size >= MAX_ENTRIES) bodies.clear();
      const kept = { text };
      bodies.set(key, kept);
      return kept;
    },
  };
}
