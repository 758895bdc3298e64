import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { nextAttemptDelay, RETRY_JITTER, RETRY_SCHEDULE_MS } from "../../src/webhooks/schedule.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LOWEST = () => 0;
const HIGHEST = () => 1 - Number.EPSILON;

describe("retry schedule", () => {
  test("immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 20 h and a last 24 h later", () => {
    const spoken = (ms: number) =>
      ms % HOUR === 0 && ms > 0
        ? `${ms / HOUR} h`
        : ms % MINUTE === 0 && ms > 0
          ? `${ms / MINUTE} min`
          : `${ms / SECOND} s`;
    expect(RETRY_SCHEDULE_MS.map(spoken)).toEqual([
      "0 s",
      "5 s",
      "5 min",
      "30 min",
      "2 h",
      "5 h",
      "10 h",
      "10 h",
      "14 h",
      "20 h",
      "24 h",
    ]);
    expect(nextAttemptDelay(0, HIGHEST)).toBe(0);
    expect(nextAttemptDelay(1, () => 0.5)).toBe(5 * SECOND);
  });

  test("each delay is within ±20 % of its step, reaching both ends", () => {
    expect(RETRY_JITTER).toBe(0.2);
    for (const [attempt, base] of RETRY_SCHEDULE_MS.entries()) {
      expect(nextAttemptDelay(attempt, LOWEST)).toBe(Math.round(base * 0.8));
      expect(nextAttemptDelay(attempt, HIGHEST)).toBe(Math.round(base * 1.2));
      for (let i = 0; i < 200; i++) {
        const delay = nextAttemptDelay(attempt)!;
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(Math.round(base * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.round(base * 1.2));
      }
    }
  });

  test("there is no attempt after the eleventh", () => {
    expect(nextAttemptDelay(10, LOWEST)).not.toBeNull();
    expect(nextAttemptDelay(11)).toBeNull();
    expect(nextAttemptDelay(50)).toBeNull();
  });

  test("all attempts together span about three and a half days, whatever the jitter", () => {
    const total = (random: () => number) =>
      RETRY_SCHEDULE_MS.reduce((sum, _base, attempt) => sum + nextAttemptDelay(attempt, random)!, 0);
    const exact = RETRY_SCHEDULE_MS.reduce((sum, base) => sum + base, 0);
    expect(exact).toBe(85 * HOUR + 35 * MINUTE + 5 * SECOND);
    expect(total(LOWEST)).toBeGreaterThan(2.8 * DAY);
    expect(total(HIGHEST)).toBeLessThan(4.3 * DAY);
  });

  test("an attempt count that is not a whole number ≥ 0 is a programming error", () => {
    for (const attempt of [-1, 1.5, Number.NaN]) expect(() => nextAttemptDelay(attempt)).toThrow(RangeError);
  });

  test("the table in docs/webhooks.md lists the same delays", () => {
    const doc = readFileSync(join(import.meta.dir, "../../docs/webhooks.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Retry schedule"), doc.indexOf("## Addresses"));
    const unit: Record<string, number> = { second: SECOND, minute: MINUTE, hour: HOUR };
    const rows = [...section.matchAll(/^\| (\d+) \| (immediately|(\d+) (second|minute|hour)s?) \|$/gm)].map(
      ([, attempt, , amount, name]) => [Number(attempt), amount ? Number(amount) * unit[name!]! : 0],
    );
    expect(rows).toEqual(RETRY_SCHEDULE_MS.map((base, i) => [i + 1, base]));
    expect(section).toContain("20 %");
  });
});
