import { ApiError } from "./errors.ts";

/**
 * Fixed-window counter kept in memory (one process serves a tenant). `hit` counts an attempt and
 * throws 429 `RATE_LIMITED` with `Retry-After` once the window holds more than `limit`.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  hit(key: string, now = Date.now()): void {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > this.limit) {
      const retryAfter = Math.ceil((window.resetAt - now) / 1000);
      throw new ApiError("RATE_LIMITED", `Too many attempts; retry in ${retryAfter} s`, undefined, {
        "retry-after": String(retryAfter),
      });
    }
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
