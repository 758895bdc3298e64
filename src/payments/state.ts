import type { AppContext } from "../app-context.ts";
import { RateLimiter } from "../core/rate-limit.ts";

// What the payments module keeps in memory per service instance (one process serves every tenant):
// - the clock (tests move it for signature tolerances and the sweep);
// - the ingress rate limiter;
// - the expiry sweep's timer and the round in progress.
// The routes of `_` notifications and each tenant's next expiry deadline are not kept here: they
// are control-plane records (`payment_routes`, `organizations.next_payment_deadline`) every process
// shares.

interface PaymentsState {
  now(): number;
  limiter: RateLimiter;
  /** Resolves once the sweep in progress (if any) ended. */
  sweeping?: Promise<unknown>;
  /** The expiry sweep's timer while the service runs (sweep.ts). */
  sweepTimer?: ReturnType<typeof setInterval>;
}

const states = new WeakMap<AppContext, PaymentsState>();

export function paymentsState(ctx: AppContext): PaymentsState {
  let state = states.get(ctx);
  if (!state) {
    state = {
      now: () => Date.now(),
      limiter: new RateLimiter(ctx.config.payments.webhookRateLimitPerMin, 60_000),
    };
    states.set(ctx, state);
  }
  return state;
}

/** Replaces the payments clock of a service (tests). */
export function setPaymentsClock(ctx: AppContext, now: () => number): void {
  paymentsState(ctx).now = now;
}

export const nowOf = (ctx: AppContext) => paymentsState(ctx).now();
