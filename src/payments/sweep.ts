import type { AppContext } from "../app-context.ts";
import { immediately } from "../db/sqlite.ts";
import {
  type AttemptRow,
  dueOrganizations,
  findAttempt,
  nextDeadline,
  overdueAttempts,
  storeDeadline,
} from "./attempts.ts";
import { resolveCredentials } from "./integrations.ts";
import { isOpened } from "./provider.ts";
import { type PaymentOutcome, reconcile } from "./reconcile.ts";
import { providerOf } from "./registry.ts";
import { nowOf, paymentsState } from "./state.ts";

// The expiry sweep: unpaid (`created`) attempts past their expiry plus a grace (Multibanco 15 min,
// MB WAY 1 min, Stripe 24 h as a net for a lost `checkout.session.expired`) are expired through the
// same reconciliation as a notification, with event id `sweep:<attemptId>`, which cancels the order
// and releases its stock and coupon use when nothing else can pay it. Processing and authorized
// attempts are never swept. Attempts of a provider that can be asked (`poll`: Easypay) are asked
// first: one the provider says is paid is applied as paid instead. Only tenants whose
// `organizations.next_payment_deadline` (control plane) has passed are opened; after a tenant's
// round its deadline is recomputed from its file.

interface SweepResult {
  expired: number;
  paid: number;
  skipped: number;
}

async function sweepAttempt(
  ctx: AppContext,
  orgId: string,
  attempt: AttemptRow,
  result: SweepResult,
): Promise<void> {
  const tenant = ctx.tenants.acquire(orgId);
  try {
    let outcome: PaymentOutcome = { kind: "EXPIRED", reason: "sweep" };
    let eventId = `sweep:${attempt.id}`;
    const provider = providerOf(attempt.provider);
    if (provider.poll && isOpened(attempt)) {
      try {
        const creds = resolveCredentials(
          ctx,
          attempt.credential_source === "tenant" ? tenant : null,
          attempt.provider,
          "webhooks",
        );
        const polled = await provider.poll(ctx, creds.fields, attempt);
        if (polled.outcome && polled.outcome.kind !== "AUTHORIZED") {
          outcome = polled.outcome;
          eventId = `sweep:${attempt.id}:${polled.state}`;
        }
      } catch (error) {
        // The provider could not say: the attempt waits for the next round.
        ctx.log.warn(`payment sweep: ${attempt.provider} re-fetch failed`, {
          org: orgId,
          attempt: attempt.id,
          error: error instanceof Error ? error.message : String(error),
        });
        result.skipped++;
        return;
      }
    }
    const applied = reconcile(ctx, tenant, {
      provider: attempt.provider,
      eventId,
      kind: "sweep",
      payloadSha256: "",
      source: attempt.credential_source,
      find: (tenant) => findAttempt(tenant, attempt.id),
      outcome,
    });
    if (applied.outcome === "applied" || applied.outcome === "flagged") {
      if (outcome.kind === "SUCCEEDED") result.paid++;
      else result.expired++;
    }
  } finally {
    ctx.tenants.release(tenant);
  }
}

/** One round of the sweep at the payments clock's now. */
export async function sweepPayments(ctx: AppContext): Promise<SweepResult> {
  const result: SweepResult = { expired: 0, paid: 0, skipped: 0 };
  const now = nowOf(ctx);
  for (const orgId of dueOrganizations(ctx, now)) {
    const overdue = ctx.tenants.with(orgId, (tenant) => overdueAttempts(tenant, now));
    for (const attempt of await overdue) await sweepAttempt(ctx, orgId, attempt, result);
    // Read and stored inside a write transaction of the tenant: an attempt created meanwhile (which
    // lowers the deadline inside its own transaction) is either seen here or lowers it afterwards.
    // An attempt skipped this round (its provider could not be asked) is still overdue, so the next
    // round, whenever it runs, looks at it again.
    await ctx.tenants.with(orgId, (tenant) =>
      immediately(tenant.sqlite, () => storeDeadline(ctx, orgId, nextDeadline(tenant))),
    );
  }
  return result;
}

/** Runs the sweep every PAYMENT_SWEEP_INTERVAL_S until {@link stopPaymentSweep}. */
export function startPaymentSweep(ctx: AppContext): void {
  const state = paymentsState(ctx);
  if (state.sweepTimer) return;
  const tick = () => {
    if (state.sweeping) return;
    state.sweeping = sweepPayments(ctx)
      .catch((error) => {
        // A round cut short by the shutdown (its databases closed) is not worth a log line; failing
        // storage is told once by its episode, and the next round tries again.
        if (state.sweepTimer && !ctx.storage.failure(error))
          ctx.log.error("payment sweep failed", {
            error: error instanceof Error ? error.message : String(error),
          });
      })
      .finally(() => {
        state.sweeping = undefined;
      });
  };
  state.sweepTimer = setInterval(tick, ctx.config.payments.sweepIntervalS * 1000);
  state.sweepTimer.unref?.();
}

/** Stops the timer; a round in progress finishes (or fails quietly once the databases close). */
export function stopPaymentSweep(ctx: AppContext): void {
  const state = paymentsState(ctx);
  clearInterval(state.sweepTimer);
  state.sweepTimer = undefined;
}
