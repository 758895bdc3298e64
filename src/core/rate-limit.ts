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

/**
 * At most `concurrency` tasks at once; up to `queue` more wait their turn in arrival order, and
 * any beyond that are refused at once with 503 `UNAVAILABLE` and `Retry-After` (the server is
 * busy, not the client at fault). The limits can change while tasks run (a new configuration).
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private concurrency: number,
    private queue: number,
    private readonly busyMessage = "The server is busy; retry shortly",
  ) {}

  configure(concurrency: number, queue: number): void {
    this.concurrency = concurrency;
    this.queue = queue;
    this.admitWaiting();
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.active--;
      this.admitWaiting();
    }
  }

  /** Tasks running and waiting now. */
  stats() {
    return { active: this.active, waiting: this.waiting.length };
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency && this.waiting.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue) {
      return Promise.reject(new ApiError("UNAVAILABLE", this.busyMessage, undefined, { "retry-after": "1" }));
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private admitWaiting(): void {
    while (this.active < this.concurrency && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()?.();
    }
  }
}
