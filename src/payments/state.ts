import type { AppContext } from "../app-context.ts";
import { RateLimiter } from "../core/rate-limit.ts";

// What the payments module keeps in memory per service instance (one process serves every tenant):
// - the clock (tests move it for signature tolerances and the sweep);
// - the ingress rate limiter;
// - the routes of environment-credential payments (provider reference → organization), which let a
//   notification sent to org `_` find its tenant, and the earliest time each tenant has an unpaid
//   attempt to expire. Both are rebuilt from the tenant files on first use (the files are the record)
//   and kept up to date as attempts change in this process.

export interface PaymentsState {
  now(): number;
  limiter: RateLimiter;
  /** `<provider>:<ref>` → org id; undefined until first built. */
  routes?: Map<string, string>;
  /** Org id → earliest expiry + grace of its `created` attempts; undefined until first built. */
  deadlines?: Map<string, number>;
  /** Resolves once the sweep in progress (if any) ended. */
  sweeping?: Promise<unknown>;
}

const states = new WeakMap<AppContext, PaymentsState>();

export function paymentsState(app: AppContext): PaymentsState {
  let state = states.get(app);
  if (!state) {
    state = {
      now: () => Date.now(),
      limiter: new RateLimiter(app.config.payments.webhookRateLimitPerMin, 60_000),
    };
    states.set(app, state);
  }
  return state;
}

/** Replaces the payments clock of a service (tests). */
export function setPaymentsClock(app: AppContext, now: () => number): void {
  paymentsState(app).now = now;
}

export const nowOf = (app: AppContext) => paymentsState(app).now();
