import type { AppContext } from "../app-context.ts";
import type { ClientInfo } from "../core/operation.ts";
import { RateLimiter } from "../core/rate-limit.ts";

// Limits on password sign-ups and sign-ins, shared by dashboard users and storefront customers:
// each attempt costs an argon2id hash (tens of milliseconds of a core), so the per-address limits
// bound what one client can spend, and the per-email one stops guessing one account's password.
// The cap on hashes running at once is `passwordHashing` in crypto.ts.

const HOUR = 60 * 60 * 1000;
const FAILED_SIGN_INS_PER_EMAIL = 10;
const FAILED_SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
// A reset request sends an email: few per account (the inbox of its owner is what is at stake), a
// few more per client address.
const RESET_REQUESTS_PER_EMAIL = 5;
const RESET_REQUESTS_PER_ADDRESS = 20;

interface AuthLimiters {
  signUpsPerAddress: RateLimiter;
  signInsPerAddress: RateLimiter;
  failedSignInsPerEmail: RateLimiter;
  resetRequestsPerEmail: RateLimiter;
  resetRequestsPerAddress: RateLimiter;
}

const limitersByApp = new WeakMap<AppContext, AuthLimiters>();

function limitersOf(ctx: AppContext): AuthLimiters {
  let limiters = limitersByApp.get(ctx);
  if (!limiters) {
    const { signUpsPerHour, signInsPerHour } = ctx.config.authLimits;
    limiters = {
      signUpsPerAddress: new RateLimiter(signUpsPerHour, HOUR),
      signInsPerAddress: new RateLimiter(signInsPerHour, HOUR),
      failedSignInsPerEmail: new RateLimiter(FAILED_SIGN_INS_PER_EMAIL, FAILED_SIGN_IN_WINDOW_MS),
      resetRequestsPerEmail: new RateLimiter(RESET_REQUESTS_PER_EMAIL, HOUR),
      resetRequestsPerAddress: new RateLimiter(RESET_REQUESTS_PER_ADDRESS, HOUR),
    };
    limitersByApp.set(ctx, limiters);
  }
  return limiters;
}

// Without a socket address (an in-process request) every such client shares one bucket.
const addressOf = (client: ClientInfo) => client.ip() ?? "unknown";

/** Counts a sign-up attempt of this client address; 429 `RATE_LIMITED` past the hourly limit. */
export function countSignUp(ctx: AppContext, client: ClientInfo): void {
  limitersOf(ctx).signUpsPerAddress.hit(addressOf(client));
}

/**
 * Runs a sign-in attempt under both limits: every attempt counts against the client address
 * (whatever the email), and a failed one against the address and account (`scope`: the store, or
 * the dashboard, and the email); success clears the latter. `check` resolves null on wrong credentials.
 */
export async function limitedSignIn<T>(
  ctx: AppContext,
  client: ClientInfo,
  scope: string,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const limiters = limitersOf(ctx);
  const address = addressOf(client);
  limiters.signInsPerAddress.hit(address);
  const accountKey = `${address}|${scope}`;
  limiters.failedSignInsPerEmail.hit(accountKey);
  const result = await check();
  if (result !== null) limiters.failedSignInsPerEmail.reset(accountKey);
  return result;
}

/**
 * Counts a password reset request, whether or not the email has an account (the answer must not
 * tell): 429 `RATE_LIMITED` past 20 an hour per client address, or 5 an hour per account (`scope`:
 * the store, or the dashboard, and the email).
 */
export function countPasswordResetRequest(ctx: AppContext, client: ClientInfo, scope: string): void {
  const limiters = limitersOf(ctx);
  limiters.resetRequestsPerAddress.hit(addressOf(client));
  limiters.resetRequestsPerEmail.hit(scope);
}
