import type { AppContext } from "../app-context.ts";
import { retryDelay } from "../core/outbox.ts";
import type { PlatformDb } from "../db/platform.ts";
import { newId } from "../lib/ids.ts";
import { type AccountEmail, sealAccountEmail, unsealAccountEmail } from "./account-email.ts";

// The control plane's own email (a dashboard user's password reset link): no shop's outbox exists
// for a user who may belong to no organization, so the control plane keeps one. A row is written in
// the transaction of the change that sends it; a started service drains the rows after the commit
// and at each row's due time. Before a send the row is leased (its due time moved past the lease,
// its attempt counted), so a crash between the commit and the send, or during the send, leaves a
// row that the next start sends; a failed attempt is retried with the tenant outbox's back-off
// (1 s, 2 s, 4 s … an hour; `failed` after 12 attempts); a server's permanent refusal is `failed`
// at once. The message id is the row's, so a retried send is recognised as the same message.

/** Sends one message; `refused` when the server refused it for good (an unknown address). */
export type MailSender = (id: string, email: AccountEmail) => Promise<"sent" | "refused">;

interface MailRow {
  id: string;
  message: string;
  attempts: number;
}

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;
const BATCH = 20;
const KEEP_FINISHED_MS = 7 * 24 * 3600 * 1000;

/**
 * Queues an email in the caller's control-plane transaction; a started service sends it after the
 * commit. A null is queued alike and sends nothing (see src/auth/account-email.ts).
 */
export function queueMail(ctx: AppContext, email: AccountEmail | null): string {
  const id = newId("mail");
  const now = Date.now();
  ctx.platform.sqlite
    .query(
      `INSERT INTO mail_outbox (id, status, message, attempts, next_attempt_at, created_at, updated_at)
       VALUES (?1, 'pending', ?2, 0, ?3, ?3, ?3)`,
    )
    .run(id, sealAccountEmail(ctx, email).sealed, now);
  // A timer, not a call: it runs once the caller's transaction has committed.
  drainers.get(ctx)?.schedule(now);
  return id;
}

class MailDrainer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private draining: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly send: MailSender,
  ) {}

  /** Drains at `at` (or now), unless a drain is already planned sooner. */
  schedule(at: number): void {
    if (this.stopped || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.drain(), Math.max(0, at - Date.now()));
  }

  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.draining ?? Promise.resolve();
  }

  /** Sends what is due, then plans the next drain at the earliest row still pending. */
  drain(): Promise<void> {
    this.timerAt = Number.POSITIVE_INFINITY;
    this.draining ??= this.sendDue().finally(() => {
      this.draining = undefined;
      if (this.stopped) return; // the databases may be closed; the next start plans from the rows
      const next = nextDue(this.ctx.platform);
      if (next !== null) this.schedule(next);
    });
    return this.draining;
  }

  private async sendDue(): Promise<void> {
    const { platform } = this.ctx;
    const now = Date.now();
    platform.sqlite
      .query("DELETE FROM mail_outbox WHERE status != 'pending' AND updated_at < ?")
      .run(now - KEEP_FINISHED_MS);
    for (const row of leaseDue(platform, now)) {
      if (this.stopped) return;
      await this.attempt(row);
    }
  }

  private async attempt(row: MailRow) {
    const { platform, log } = this.ctx;
    const finish = (status: "sent" | "failed" | "pending", nextAt: number, error: string | null) =>
      platform.sqlite
        .query(
          "UPDATE mail_outbox SET status = ?, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?",
        )
        .run(status, nextAt, error, Date.now(), row.id);
    try {
      const email = unsealAccountEmail(this.ctx, { sealed: row.message });
      const outcome = email ? await this.send(row.id, email) : "sent";
      // Stopped meanwhile (the databases may be closed): the lease runs out and the next start resends.
      if (this.stopped) return;
      finish(outcome === "sent" ? "sent" : "failed", Date.now(), outcome === "sent" ? null : "refused");
    } catch (error) {
      if (this.stopped) return;
      const message = error instanceof Error ? error.message : String(error);
      if (row.attempts >= MAX_ATTEMPTS) {
        log.error("control-plane email failed for good", {
          id: row.id,
          attempts: row.attempts,
          error: message,
        });
        finish("failed", Date.now(), message);
        return;
      }
      log.warn("control-plane email not sent; retrying", {
        id: row.id,
        attempt: row.attempts,
        error: message,
      });
      finish("pending", Date.now() + retryDelay(row.attempts), message);
    }
  }
}

/** Takes the due rows: each one's attempt is counted and its due time moved past the lease. */
function leaseDue(platform: PlatformDb, now: number) {
  return platform.sqlite.transaction(() => {
    const rows = platform.sqlite
      .query(
        `SELECT id, message, attempts FROM mail_outbox
          WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`,
      )
      .all(now, BATCH) as MailRow[];
    const lease = platform.sqlite.query(
      "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ? WHERE id = ?",
    );
    for (const row of rows) {
      row.attempts++;
      lease.run(now + LEASE_MS, now, row.id);
    }
    return rows;
  })();
}

function nextDue(platform: PlatformDb): number | null {
  const row = platform.sqlite
    .query("SELECT min(next_attempt_at) AS at FROM mail_outbox WHERE status = 'pending'")
    .get() as { at: number | null };
  return row.at;
}

const drainers = new WeakMap<AppContext, MailDrainer>();

/** Starts sending the control plane's queued email with `send` (the email module's, at the service's start). */
export function startMailOutbox(ctx: AppContext, send: MailSender): void {
  if (drainers.has(ctx)) return;
  const drainer = new MailDrainer(ctx, send);
  drainers.set(ctx, drainer);
  drainer.schedule(Date.now());
}

/** Stops the drainer; a send under way finishes (the promise), a row not sent waits for the next start. */
export function stopMailOutbox(ctx: AppContext): Promise<void> {
  const drainer = drainers.get(ctx);
  drainers.delete(ctx);
  return drainer?.stop() ?? Promise.resolve();
}
