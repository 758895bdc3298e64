// Request bodies mangled at random, for protocol fuzz tests: a valid body with one member somewhere
// inside replaced by an odd value, removed, or one added.

/** A small deterministic generator (mulberry32). */
export function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  "",
  "x".repeat(3000),
  "var_x",
  "🙂",
  [],
  {},
  [1, 2],
  { a: {} },
];

/** A copy of `value` with one member, somewhere inside, replaced by an odd value, removed or added. */
export function mangle(value: unknown, next: () => number): unknown {
  if (value === null || typeof value !== "object") return ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as object) };
  const keys = Object.keys(copy);
  const roll = next();
  if (keys.length === 0 || roll < 0.1) {
    (copy as Record<string, unknown>)[`extra${Math.floor(next() * 3)}`] =
      ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
    return copy;
  }
  const key = keys[Math.floor(next() * keys.length)]!;
  if (roll < 0.2) delete (copy as Record<string, unknown>)[key];
  else (copy as Record<string, unknown>)[key] = mangle((copy as Record<string, unknown>)[key], next);
  return copy;
}
