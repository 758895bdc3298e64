import { describe, expect, test } from "bun:test";
import { newId } from "../../src/lib/ids.ts";

describe("newId", () => {
  test("is the prefix, 8 characters of time and 16 random ones", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId("cart")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^cart_[0-9A-Za-z]{24}$/);
  });

  test("sorts later ids after earlier ones (byte order, as SQLite compares them)", async () => {
    const earlier = newId("item");
    await Bun.sleep(2);
    const later = newId("item");
    expect(Buffer.compare(Buffer.from(earlier), Buffer.from(later))).toBe(-1);
    expect(earlier.slice(5, 13) < later.slice(5, 13)).toBe(true);
  });
});
