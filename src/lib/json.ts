import { MAX_JSON_DEPTH, nestedTooDeep } from "../core/body.ts";

/** A nullable JSON column: its parsed value, or null. */
export const parseJsonOrNull = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

/**
 * JSON with object keys sorted at every level: the same value always gives the same text. Client
 * input reaches it (the idempotency hash), so it refuses nesting deeper than `MAX_JSON_DEPTH` with a
 * 400 rather than letting `JSON.stringify` run out of stack.
 */
export function canonicalJson(value: unknown): string {
  // The replacer sees each value with its container as `this`: depths are kept per container.
  const depths = new Map<unknown, number>();
  return JSON.stringify(value, function (this: unknown, _key, inner: unknown) {
    if (inner === null || typeof inner !== "object") return inner;
    const depth = (depths.get(this) ?? 0) + 1;
    if (depth > MAX_JSON_DEPTH) throw nestedTooDeep();
    let out = inner;
    if (!Array.isArray(inner)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
      out = sorted;
    }
    depths.set(out, depth);
    return out;
  });
}
