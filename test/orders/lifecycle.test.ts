import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiError } from "../../src/core/errors.ts";
import { moveAllowed, moveOrder, ORDER_MOVES, type OrderMove } from "../../src/orders/lifecycle.ts";
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES } from "../../src/orders/tables.ts";
import { findOrderRow } from "../../src/orders/view.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import { insertOrder } from "../helpers/orders.ts";

// The order state machine (src/orders/lifecycle.ts): every pair of states of every field, tried on a
// real order in a real tenant file. A move the table lists happens; any other is a 409 naming the
// order's state, and the row is left exactly as it was.

let t: TestApp;
let shop: { id: string; key: string };
let variantId: string;

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Lifecycle");
  const created = await adminClient(t, shop.key).post("/v1/admin/products", simpleProduct("mug", 1200));
  variantId = created.body.data.variants[0].id;
});
afterAll(() => t.cleanup());

const FIELDS = [
  ["status", "status", ORDER_STATUSES],
  ["paymentStatus", "payment_status", PAYMENT_STATUSES],
  ["fulfillmentStatus", "fulfillment_status", FULFILLMENT_STATUSES],
] as const;

/** An order whose `column` is `from` (set directly: this test is about the moves, not how it got there). */
async function orderIn(column: string, from: string) {
  const { id } = await insertOrder(t, shop.id, { lines: [{ variantId, quantity: 1 }] });
  await t.app.ctx.tenants.with(shop.id, (tenant) =>
    tenant.sqlite.query(`UPDATE orders SET ${column} = ? WHERE id = ?`).run(from, id),
  );
  return id;
}

describe("every order move is refused unless ORDER_MOVES allows it", () => {
  for (const [field, column, states] of FIELDS) {
    test(`${column}: each allowed move happens, every other pair is a 409 that changes nothing`, async () => {
      const outcomes: string[] = [];
      for (const from of states) {
        for (const to of states) {
          if (from === to) continue;
          const id = await orderIn(column, from);
          const outcome = await t.app.ctx.tenants.with(shop.id, (tenant) => {
            const before = findOrderRow(tenant, id);
            try {
              const after = moveOrder(tenant, before, { action: "test", [field]: to } as OrderMove);
              return `${from}→${to}: moved to ${after[column]}`;
            } catch (error) {
              if (!(error instanceof ApiError) || error.code !== "CONFLICT") throw error;
              expect(findOrderRow(tenant, id)).toEqual(before);
              expect(error.message).toContain(`cannot go from ${from} to ${to}`);
              return `${from}→${to}: refused`;
            }
          });
          outcomes.push(outcome);
        }
      }
      const expected = states.flatMap((from) =>
        states
          .filter((to) => to !== from)
          .map((to) => `${from}→${to}: ${moveAllowed(field, from, to) ? `moved to ${to}` : "refused"}`),
      );
      expect(outcomes).toEqual(expected);
      // The table is not "anything goes": some moves of each field are refused.
      expect(outcomes.some((o) => o.endsWith("refused"))).toBe(true);
    });
  }

  test("the table's dead ends: a completed order and a fulfilled one move no further, a refunded payment only back when a refund fails", () => {
    expect(ORDER_MOVES.status.completed).toEqual([]);
    expect(ORDER_MOVES.fulfillmentStatus.fulfilled).toEqual([]);
    expect(ORDER_MOVES.paymentStatus.paid).toEqual(["partially_refunded", "refunded"]);
    expect(ORDER_MOVES.paymentStatus.refunded).toEqual(["paid", "partially_refunded"]);
  });

  test("a move read against a state that changed since is a 409 and writes nothing", async () => {
    const id = await orderIn("payment_status", "pending");
    await t.app.ctx.tenants.with(shop.id, (tenant) => {
      const stale = findOrderRow(tenant, id);
      moveOrder(tenant, stale, { action: "first", paymentStatus: "paid" });
      expect(() => moveOrder(tenant, stale, { action: "second", paymentStatus: "failed" })).toThrow(
        "it changed while this request was handled",
      );
      expect(findOrderRow(tenant, id).payment_status).toBe("paid");
    });
  });
});
