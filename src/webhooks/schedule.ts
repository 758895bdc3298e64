const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How long to wait before each attempt of one message, before jitter: `[0]` before the first
 * (immediately), `[n]` before attempt `n + 1`. Eleven attempts over about three and a half days,
 * so a receiver that is down over a weekend still gets its messages.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Each delay is moved by up to this fraction either way, so endpoints that failed together do not retry together. */
export const RETRY_JITTER = 0.2;

/**
 * Milliseconds to wait before attempt `attempt + 1`, given that `attempt` attempts were made (0: the
 * first, sent at once), or null when the message has had its last attempt.
 */
export function nextAttemptDelay(attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 0)
    throw new RangeError(`attempt must be a whole number ≥ 0: ${attempt}`);
  const base = RETRY_SCHEDULE_MS[attempt];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
}
