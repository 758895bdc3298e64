import { createHash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../lib/ids.ts";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** An opaque bearer secret of 256 bits. */
export const newToken = (prefix = ""): string => `${prefix}${randomBase62(43)}`;
