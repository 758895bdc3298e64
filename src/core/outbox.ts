import type { AppContext } from "../app-context.ts";
import { dueTimes, lowerDueTime, storeDueTime } from "../db/due-times.ts";
import { organizationExists } from "../db/platform.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { STORAGE_RETRY_AFTER_S } from "./storage.ts";

// Work after commit. A write registers work inside its transaction as a row of the tenant's
// `outbox` table, so the work exists exactly when the write does: a rolled-back write leaves no
// row, a committed one keeps its row across a crash. Rows are run by this process:
// - awaited rows are inserted already leased (`running`) and run by the executor right after the
//   commit, before the answer; if that fails, the row is retried like a queued one;
// - queued rows are picked up by the drainer.
// A failed attempt is retried with exponential back-off; after MAX_ATTEMPTS the row is `failed`
// and logged (a handler with a schedule of its own throws `RetryAt` instead). A row whose lease ran
// out (the process died while running it) is taken again, so a job may run more than once:
// handlers must be idempotent by the row id (provider calls pass it as their idempotency key).
//
// So that a restart opens only the tenants with rows left, the control plane keeps per
// organization the earliest time a row may need running (`organizations.outbox_due_at`, see
// db/due-times.ts). No transaction spans both databases, so the time is lowered before the tenant
// write that adds or re-schedules a row and raised or cleared only by a drain, from what the
// tenant file holds then. A time with no row behind it (a rolled-back write, work done since) only
// costs the drain that clears it.

export interface Job {
  id: string;
  kind: string;
  payload: unknown;
  /** 1 on the first attempt. */
  attempt: number;
}

/**
 * Runs one job; throws to have it retried (or throws `RetryAt` to choose when). It may write to the
 * tenant in its own short transaction.
 */
export type JobHandler = (job: Job, tenant: TenantDb, ctx: AppContext) => Promise<void>;

/**
 * Thrown by a handler that keeps its own retry schedule (webhook deliveries: about 3.5 days): the row
 * is run again after `delayMs`, and the attempt does not count toward MAX_ATTEMPTS nor is it logged
 * as a failure, since the handler recorded its outcome itself. The handler bounds its own attempts.
 */
export class RetryAt extends Error {
  override name = "RetryAt";
  constructor(
    readonly delayMs: number,
    message = "retry scheduled by the handler",
  ) {
    super(message);
  }
}

const MAX_ATTEMPTS = 12;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 3600 * 1000;
const BATCH = 20;
const KEEP_FINISHED_MS = 7 * 24 * 3600 * 1000;
/**
 * Shops drained at once, and jobs of one shop run at once: a job that waits on the network (a
 * webhook receiver that never answers holds a delivery for its 10 s timeout) holds up neither the
 * other shops nor the shop's other jobs. At most TENANTS_AT_ONCE × JOBS_AT_ONCE jobs are in flight.
 */
const TENANTS_AT_ONCE = 4;
const JOBS_AT_ONCE = 4;

/** Back-off before attempt `attempts + 1`: 1 s, 2 s, 4 s … capped at an hour. */
export const retryDelay = (attempts: number) => Math.min(BASE_DELAY_MS * 2 ** (attempts - 1), MAX_DELAY_MS);

interface OutboxRow {
  id: string;
  kind: string;
  payload: string;
  status: "pending" | "running";
  attempts: number;
  next_attempt_at: number;
}

export class Outbox {
  /** Organizations with rows to run, and when the earliest is due. */
  private readonly due = new Map<string, number>();
  /**
   * What the control plane holds in `outbox_due_at` per organization (this process is its only
   * writer): a row due no earlier than that needs no control-plane write.
   */
  private readonly noted = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** Organizations being drained now (each by one drain at a time). */
  private readonly draining = new Set<string>();
  private stopped = true;

  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: ReadonlyMap<string, JobHandler>,
    private readonly leaseMs: number,
  ) {}

  /** Writes a row in the caller's transaction; `leased` rows are the caller's to run now (awaited work). */
  insert(tenant: TenantDb, kind: string, payload: unknown, leased: boolean): string {
    if (!this.handlers.has(kind)) throw new Error(`no outbox handler for "${kind}"`);
    const id = newId("job");
    const now = Date.now();
    // A leased row is due again once its lease ran out (the process died while running it).
    const dueAt = leased ? now + this.leaseMs : now;
    this.note(tenant.orgId, dueAt);
    tenant.sqlite
      .query(
        `INSERT INTO outbox (id, kind, payload, status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        kind,
        JSON.stringify(payload ?? null),
        leased ? "running" : "pending",
        leased ? 1 : 0,
        dueAt,
        now,
      );
    return id;
  }

  /** Runs a row this process leased at insert (awaited work); a failure leaves it to the drainer. */
  async runClaimed(tenant: TenantDb, id: string): Promise<boolean> {
    const row = tenant.sqlite
      .query("SELECT id, kind, payload, status, attempts, next_attempt_at FROM outbox WHERE id = ?")
      .get(id) as OutboxRow | null;
    if (row?.status !== "running") return false;
    return this.run(tenant, row);
  }

  /** Work was queued for this organization: drain it soon. */
  kick(orgId: string): void {
    this.schedule(orgId, Date.now());
  }

  /** Schedules the organizations the control plane says have rows left (a restart); opens no tenant. */
  start(): void {
    this.stopped = false;
    this.noted.clear();
    // Set all, then armed once: a restored backup marks every organization due.
    for (const { id, at } of dueTimes(this.ctx.platform.sqlite, "outbox_due_at")) {
      this.noted.set(id, at);
      this.due.set(id, Math.min(at, this.due.get(id) ?? at));
    }
    this.arm();
  }

  /** Stops draining: no new job starts (one in progress finishes or is retried after its lease). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * A row of the organization may be due at `at`: lowers the control plane's due time first (called
   * before the row's write commits), and schedules a drain then, which keeps or clears it.
   */
  private note(orgId: string, at: number): void {
    const held = this.noted.get(orgId);
    if (held === undefined || at < held) {
      lowerDueTime(this.ctx.platform.sqlite, "outbox_due_at", orgId, at);
      this.noted.set(orgId, at);
    }
    this.schedule(orgId, at);
  }

  /** Sets the control plane's due time to what the tenant holds now (null: nothing left). */
  private store(orgId: string, at: number | null): void {
    if ((this.noted.get(orgId) ?? null) === at) return;
    storeDueTime(this.ctx.platform.sqlite, "outbox_due_at", orgId, at);
    if (at === null) this.noted.delete(orgId);
    else this.noted.set(orgId, at);
  }

  private schedule(orgId: string, at: number): void {
    if (this.stopped) return;
    const current = this.due.get(orgId);
    if (current === undefined || at < current) this.due.set(orgId, at);
    this.arm();
  }

  /**
   * One timer, set for the earliest due organization not being drained, while fewer than
   * TENANTS_AT_ONCE drains run (each re-arms at its end).
   */
  private arm(): void {
    if (this.stopped || this.draining.size >= TENANTS_AT_ONCE) return;
    let next = Number.POSITIVE_INFINITY;
    for (const [orgId, at] of this.due) if (at < next && !this.draining.has(orgId)) next = at;
    if (next === Number.POSITIVE_INFINITY || next >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(() => this.drain(), Math.max(0, next - Date.now()));
    this.timer.unref?.();
  }

  /** Starts a drain of each due organization not being drained, up to TENANTS_AT_ONCE in all. */
  private drain(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    for (const [orgId, at] of this.due) {
      if (this.stopped || this.draining.size >= TENANTS_AT_ONCE) break;
      if (at > now || this.draining.has(orgId)) continue;
      this.due.delete(orgId);
      this.draining.add(orgId);
      void this.drainOrganization(orgId, now).finally(() => {
        this.draining.delete(orgId);
        this.arm();
      });
    }
    this.arm();
  }

  private async drainOrganization(orgId: string, now: number): Promise<void> {
    try {
      await this.drainTenant(orgId, now);
    } catch (error) {
      // Closed under a job in flight (the service stopped): the row keeps its lease and runs again
      // after the next start; the closed files cannot be asked anything more.
      if (this.stopped) return;
      if (!organizationExists(this.ctx.platform, orgId)) {
        // Deleted with its file since the drain was scheduled: nothing is left to run.
        this.noted.delete(orgId);
        return;
      }
      // Failing storage is noted once in its episode and waited out as clients are told to.
      if (this.ctx.storage.failure(error, { org: orgId })) {
        this.schedule(orgId, Date.now() + STORAGE_RETRY_AFTER_S * 1000);
        return;
      }
      this.ctx.log.error("outbox drain failed", { org: orgId, error: String(error) });
      this.schedule(orgId, Date.now() + BASE_DELAY_MS);
    }
  }

  private async drainTenant(orgId: string, now: number): Promise<void> {
    // A shop being handed to another node runs no work here: its file, outbox included, goes there.
    if (this.ctx.tenants.isFrozen(orgId)) return this.schedule(orgId, now + BASE_DELAY_MS);
    const tenant = this.ctx.tenants.acquire(orgId);
    try {
      const rows = tenant.sqlite
        .query(
          `SELECT id, kind, payload, status, attempts, next_attempt_at FROM outbox
            WHERE status IN ('pending', 'running') AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ${BATCH}`,
        )
        .all(now) as OutboxRow[];
      // Up to JOBS_AT_ONCE runners take the rows in due order, each claiming a row just before running it.
      let taken = 0;
      const runner = async () => {
        while (taken < rows.length && !this.stopped) {
          const row = rows[taken++]!;
          if (this.claim(tenant, row)) await this.run(tenant, { ...row, attempts: row.attempts + 1 });
        }
      };
      // Every runner ends before the tenant is released; the first failure is the drain's.
      const ended = await Promise.allSettled(
        Array.from({ length: Math.min(JOBS_AT_ONCE, rows.length) }, runner),
      );
      for (const end of ended) if (end.status === "rejected") throw end.reason;
      if (this.stopped) return;
      tenant.sqlite
        .query("DELETE FROM outbox WHERE status = 'done' AND finished_at < ?")
        .run(now - KEEP_FINISHED_MS);
      // Read and stored with no await between: no row can be written in the meantime.
      const next = nextDue(tenant);
      this.store(orgId, next);
      if (next !== null) this.schedule(orgId, rows.length === BATCH ? Date.now() : next);
    } finally {
      this.ctx.tenants.release(tenant);
    }
  }

  /** Leases a row; false when another attempt took it first. */
  private claim(tenant: TenantDb, row: OutboxRow): boolean {
    const { changes } = tenant.sqlite
      .query(
        `UPDATE outbox SET status = 'running', attempts = attempts + 1, next_attempt_at = ?
          WHERE id = ? AND status = ? AND attempts = ?`,
      )
      .run(Date.now() + this.leaseMs, row.id, row.status, row.attempts);
    return changes === 1;
  }

  private async run(tenant: TenantDb, row: OutboxRow): Promise<boolean> {
    const handler = this.handlers.get(row.kind);
    try {
      if (!handler) throw new Error(`no outbox handler for "${row.kind}"`);
      await handler(
        { id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempt: row.attempts },
        tenant,
        this.ctx,
      );
      tenant.sqlite
        .query("UPDATE outbox SET status = 'done', finished_at = ?, last_error = NULL WHERE id = ?")
        .run(Date.now(), row.id);
      this.ctx.storage.wrote();
      return true;
    } catch (error) {
      try {
        this.recordFailure(tenant, row, error);
      } catch (unrecorded) {
        // Failing storage could not record the failure either: the row keeps its lease and is taken
        // again once it runs out. Awaited work must not fail the write that committed before it.
        if (!this.ctx.storage.failure(unrecorded, { org: tenant.orgId, job: row.id })) throw unrecorded;
      }
      return false;
    }
  }

  /** Schedules the row's next attempt, or marks it failed after MAX_ATTEMPTS, and logs it. */
  private recordFailure(tenant: TenantDb, row: OutboxRow, error: unknown): void {
    if (error instanceof RetryAt) {
      this.reschedule(tenant, row, error);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const failed = row.attempts >= MAX_ATTEMPTS;
    const retryAt = Date.now() + retryDelay(row.attempts);
    // An awaited row's due time was its lease: the earlier retry must be known before it is written.
    if (!failed) this.note(tenant.orgId, retryAt);
    tenant.sqlite
      .query(
        "UPDATE outbox SET status = ?, next_attempt_at = ?, last_error = ?, finished_at = ? WHERE id = ?",
      )
      .run(
        failed ? "failed" : "pending",
        retryAt,
        message.slice(0, 1000),
        failed ? Date.now() : null,
        row.id,
      );
    // A retry because storage failed is already told by the storage episode's one line.
    if (this.ctx.storage.failure(error, { org: tenant.orgId, job: row.id }) && !failed) return;
    const log = failed ? this.ctx.log.error : this.ctx.log.warn;
    log.call(this.ctx.log, failed ? "outbox job failed for good" : "outbox job failed; will retry", {
      org: tenant.orgId,
      job: row.id,
      kind: row.kind,
      attempt: row.attempts,
      error: message,
    });
  }

  /** A handler's own retry: due again after its delay, the attempt given back (the lease counted it). */
  private reschedule(tenant: TenantDb, row: OutboxRow, retry: RetryAt): void {
    const retryAt = Date.now() + Math.max(0, retry.delayMs);
    this.note(tenant.orgId, retryAt);
    tenant.sqlite
      .query(
        `UPDATE outbox SET status = 'pending', attempts = MAX(attempts - 1, 0), next_attempt_at = ?,
            last_error = ? WHERE id = ?`,
      )
      .run(retryAt, retry.message.slice(0, 1000), row.id);
  }
}

/** When the tenant's earliest row is due, or null when nothing is left to run. */
function nextDue(tenant: TenantDb): number | null {
  const row = tenant.sqlite
    .query("SELECT MIN(next_attempt_at) AS at FROM outbox WHERE status IN ('pending', 'running')")
    .get() as { at: number | null };
  return row.at;
}
