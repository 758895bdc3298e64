import { expect, test } from "bun:test";
import { UsedTokens } from "../../src/agents/used-tokens.ts";

// The in-memory set of used tokens behind the replay check (src/agents/runtime.ts, ReplayCache).

const keyOf = (expiresAt: number, i: number) => `${expiresAt} agt_${i % 7} jti-${i}-${crypto.randomUUID()}`;

test("every token added is found again, a token never added is not, and adding one twice is refused", () => {
  const used = new UsedTokens();
  const expiresAt = 1_800_000_000_000;
  // Far past the first table's 1 024 slots: it grows many times over.
  const keys = Array.from({ length: 50_000 }, (_, i) => keyOf(expiresAt + (i % 3) * 1000, i));
  keys.forEach((key, i) => {
    expect(used.add(key, expiresAt + (i % 3) * 1000)).toBe(true);
  });
  let found = 0;
  keys.forEach((key, i) => {
    if (used.has(key, expiresAt + (i % 3) * 1000)) found++;
  });
  expect(found).toBe(keys.length);
  expect(used.add(keys[123]!, expiresAt)).toBe(false);
  let strangers = 0;
  for (let i = 0; i < 50_000; i++) if (used.has(keyOf(expiresAt, i), expiresAt)) strangers++;
  expect(strangers).toBe(0);
});

test("a removed token can be added again; the others stay", () => {
  const used = new UsedTokens();
  const expiresAt = 1_800_000_000_000;
  const keys = Array.from({ length: 2_000 }, (_, i) => keyOf(expiresAt, i));
  for (const key of keys) used.add(key, expiresAt);
  for (const key of keys.slice(0, 1_000)) used.remove(key, expiresAt);
  expect(keys.filter((key) => used.has(key, expiresAt)).length).toBe(1_000);
  expect(keys.slice(1_000).every((key) => used.has(key, expiresAt))).toBe(true);
  // Removal marks are skipped by lookups and reused by additions, through growth too.
  for (const key of keys.slice(0, 1_000)) expect(used.add(key, expiresAt)).toBe(true);
  const more = Array.from({ length: 5_000 }, (_, i) => keyOf(expiresAt, 10_000 + i));
  for (const key of more) used.add(key, expiresAt);
  expect([...keys, ...more].every((key) => used.has(key, expiresAt))).toBe(true);
});

test("tokens are forgotten once their 10 s table of expiries has passed, and not before", () => {
  const used = new UsedTokens();
  const base = 1_800_000_000_000; // a multiple of 10 s
  const early = keyOf(base + 2_000, 1);
  const late = keyOf(base + 12_000, 2);
  used.add(early, base + 2_000);
  used.add(late, base + 12_000);
  used.dropExpired(base + 9_999);
  expect(used.has(early, base + 2_000)).toBe(true);
  used.dropExpired(base + 10_000);
  expect(used.has(early, base + 2_000)).toBe(false);
  expect(used.has(late, base + 12_000)).toBe(true);
});
