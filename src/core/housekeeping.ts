import type { TenantDb } from "../db/tenant-pool.ts";

// Clean-up that rides on writes: old rows of a shop are dropped by a write that touches the same
// table, at most once per period per open shop, so no timer has to open every shop's file.

const lastRun = new Map<string, WeakMap<TenantDb, number>>();

/** Runs `clean` when the shop's `task` last ran more than `everyMs` before `now` (or never, in this process). */
export function tidyNowAndThen(
  tenant: TenantDb,
  task: string,
  everyMs: number,
  now: number,
  clean: () => void,
): void {
  let runs = lastRun.get(task);
  if (!runs) {
    runs = new WeakMap();
    lastRun.set(task, runs);
  }
  if (now - (runs.get(tenant) ?? 0) <= everyMs) return;
  runs.set(tenant, now);
  clean();
}
