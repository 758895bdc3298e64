import type { TenantDb } from "../db/tenant-pool.ts";
import type { Operation } from "./operation.ts";

// Storefront catalog reads (operations marked `cacheable`) are the same for every caller of a
// tenant, so their rendered bodies are kept per tenant handle, operation and input. Any tenant write made
// through this process bumps the handle's generation (the executor calls `tenantWritten` after
// each commit); a write by another process (the CLI) shows in SQLite's `PRAGMA data_version`.
// Either empties the tenant's cache, so a body is never served after the data behind it changed
// in this process, nor later than DATA_VERSION_CHECK_MS after another process's commit: the pragma
// costs ~4 µs (a fifth of a kept read), so it is asked at most that often per tenant.
// A kept body is answered as the same object until then, so the transport keys what it derives
// from it once (the ETag, the compressed forms: src/http/caching.ts) on that object.

const MAX_ENTRIES = 1000;
/** How long a tenant's kept bodies are trusted without asking SQLite whether another process wrote. */
export const DATA_VERSION_CHECK_MS = 5;

interface TenantCache {
  generation: number;
  dataVersion: number;
  /** When `dataVersion` was last read (Date.now()). */
  checkedAt: number;
  bodies: Map<string, KeptBody>;
  /** The same bodies by the request that got them (src/http/adapter.ts answers these before routing). */
  answers: Map<string, KeptAnswer>;
}

/** A rendered body kept for reuse: one object per rendering, answered until the data changes. */
export interface KeptBody {
  readonly text: string;
  /** Its operation and input, as `cacheSlot` was given them. */
  readonly key: string;
}

/** A kept body as the answer to one request (a URL on a shop's Host): the operation it was routed to. */
export interface KeptAnswer {
  readonly operation: Operation;
  readonly kept: KeptBody;
}

const caches = new WeakMap<TenantDb, TenantCache>();
const generations = new WeakMap<TenantDb, number>();

export function tenantWritten(tenant: TenantDb): void {
  generations.set(tenant, (generations.get(tenant) ?? 0) + 1);
}

/** The tenant's cache, emptied first when its data changed since the bodies were rendered. */
function cacheOf(tenant: TenantDb): TenantCache {
  const generation = generations.get(tenant) ?? 0;
  const now = Date.now();
  let cache = caches.get(tenant);
  if (cache && cache.generation === generation && now - cache.checkedAt < DATA_VERSION_CHECK_MS) return cache;
  const { data_version: dataVersion } = tenant.sqlite.query("PRAGMA data_version").get() as {
    data_version: number;
  };
  if (!cache || cache.generation !== generation || cache.dataVersion !== dataVersion) {
    cache = { generation, dataVersion, checkedAt: now, bodies: new Map(), answers: new Map() };
    caches.set(tenant, cache);
  } else cache.checkedAt = now;
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
      const kept = { text, key };
      bodies.set(key, kept);
      return kept;
    },
  };
}

/** The kept answer to a request (its Host and URL) while the tenant's data is unchanged since it was rendered. */
export function keptAnswer(tenant: TenantDb, request: string): KeptAnswer | undefined {
  return cacheOf(tenant).answers.get(request);
}

/** Remembers which body answered a request, unless the data changed since it was rendered (then it is gone). */
export function rememberAnswer(tenant: TenantDb, request: string, answer: KeptAnswer): void {
  const { bodies, answers } = cacheOf(tenant);
  if (bodies.get(answer.kept.key) !== answer.kept) return;
  if (answers.size >= MAX_ENTRIES) answers.clear();
  answers.set(request, answer);
}
