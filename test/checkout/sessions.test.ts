import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  cancelSession,
  completeSession,
  openSession,
  readSession,
  type SessionInput,
  updateSession,
} from "../../src/checkout/sessions.ts";
import { ApiError } from "../../src/core/errors.ts";
import { immediately } from "../../src/db/sqlite.ts";
import type { PaymentWrite } from "../../src/orders/checkout-payments.ts";
import { checkoutPayments } from "../../src/payments/checkout.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// Checkout sessions over real shop files: a session is a cart plus buyer and choices, its status is
// what place-order would say, and completing it places the order in the same transaction.

let t: TestApp;
let shop: Shop;
const UCP = { protocol: "ucp", caller: "https://platform.example/.well-known/ucp" };
const HOUR = 3_600_000;
/** What a manual bank transfer needs: none of the provider work that runs after a commit. */
const noWorkAfterCommit = {
  enqueue: () => {
    throw new Error("no work after commit is expected");
  },
  await: () => {
    throw new Error("no work after commit is expected");
  },
};

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Session Shop", "session-shop.example");
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
});
afterAll(() => t.cleanup());

/** Runs `fn` in one write transaction of the shop's file, as an operation's handler runs. */
function inWrite<T>(fn: (write: PaymentWrite) => T): T {
  const tenant = t.app.ctx.tenants.acquire(shop.org.id);
  try {
    return immediately(tenant.sqlite, () => fn({ tenant, ctx: t.app.ctx, afterCommit: noWorkAfterCommit }));
  } finally {
    t.app.ctx.tenants.release(tenant);
  }
}

const variant = () => shop.shirt.variants[0].id as string;
const secondVariant = () => shop.shirt.variants[1].id as string;
const open = (input: SessionInput, lifetimeMs = 6 * HOUR) =>
  inWrite((w) => openSession(w, { ...UCP, lifetimeMs }, input, checkoutPayments));
const ready: SessionInput = {
  shippingAddress: PT_ADDRESS,
  shippingMethodId: "",
  paymentMethodId: "manual_bank_transfer",
};
const refusal = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("a checkout session", () => {
  test("opens on a new cart; it is open, naming each part still missing, with the choices offered", () => {
    const session = open({
      lines: [{ variantId: variant(), quantity: 2 }],
      buyer: { email: "Ana@Example.com" },
    });
    expect(session.id).toStartWith("chk_");
    expect(session.status).toBe("open");
    expect(session.cart.items).toHaveLength(1);
    expect(session.cart.items[0]!.quantity).toBe(2);
    expect(session.buyer.email).toBe("ana@example.com");
    expect(session.problems.map((p) => p.field)).toEqual([
      "shippingAddress",
      "shippingMethod",
      "paymentMethod",
    ]);
    expect(session.shippingMethods.map((m) => m.id)).toContain(shop.ptShipping.id);
    expect(session.paymentMethods.map((m) => m.id)).toEqual(["manual_bank_transfer"]);
    expect(session.order).toBeNull();
  });

  test("is ready once place-order would accept it, and completing it places the order", () => {
    const opened = open({
      lines: [{ variantId: variant(), quantity: 1 }],
      buyer: { email: "b@example.com" },
    });
    const updated = inWrite((w) =>
      updateSession(w, opened.id, UCP, { ...ready, shippingMethodId: shop.ptShipping.id }, checkoutPayments),
    );
    expect(updated.problems).toEqual([]);
    expect(updated.status).toBe("ready");
    const completed = inWrite((w) => completeSession(w, opened.id, UCP, checkoutPayments));
    expect(completed.status).toBe("completed");
    expect(completed.order?.id).toStartWith("ord_");
    expect(completed.order?.totals.total.amount).toBe(updated.cart.totals.total.amount);
    expect(completed.accessToken).toBeString();
    // Completed: it cannot change any more, nor be canceled.
    expect(
      refusal(() =>
        inWrite((w) => updateSession(w, opened.id, UCP, { buyer: { firstName: "X" } }, checkoutPayments)),
      ).code,
    ).toBe("CONFLICT");
    expect(refusal(() => inWrite((w) => cancelSession(w, opened.id, UCP, checkoutPayments))).code).toBe(
      "CONFLICT",
    );
  });

  test("lines given on update replace the cart's: quantities set, new variants added, the rest removed", () => {
    const opened = open({ lines: [{ variantId: variant(), quantity: 1 }] });
    const updated = inWrite((w) =>
      updateSession(
        w,
        opened.id,
        UCP,
        { lines: [{ variantId: secondVariant(), quantity: 3 }] },
        checkoutPayments,
      ),
    );
    expect(updated.cart.items.map((i) => [i.variantId, i.quantity])).toEqual([[secondVariant(), 3]]);
    const again = inWrite((w) =>
      updateSession(
        w,
        opened.id,
        UCP,
        {
          lines: [
            { variantId: secondVariant(), quantity: 1 },
            { variantId: variant(), quantity: 2 },
          ],
        },
        checkoutPayments,
      ),
    );
    expect(again.cart.items.map((i) => [i.variantId, i.quantity]).sort()).toEqual(
      [
        [secondVariant(), 1],
        [variant(), 2],
      ].sort(),
    );
  });

  test("completing one that is not ready is place-order's refusal, and changes nothing", () => {
    const opened = open({
      lines: [{ variantId: variant(), quantity: 1 }],
      buyer: { email: "c@example.com" },
    });
    const error = refusal(() => inWrite((w) => completeSession(w, opened.id, UCP, checkoutPayments)));
    expect(error.code).toBe("UNPROCESSABLE");
    const after = inWrite((w) => readSession(w, opened.id, UCP.protocol, UCP.caller, checkoutPayments));
    expect(after.status).toBe("open");
    expect(after.order).toBeNull();
  });

  test("a canceled session stays canceled: reads say so, writes and completion are refused", () => {
    const opened = open({
      lines: [{ variantId: variant(), quantity: 1 }],
      buyer: { email: "d@example.com" },
      ...ready,
      shippingMethodId: shop.ptShipping.id,
    });
    const canceled = inWrite((w) => cancelSession(w, opened.id, UCP, checkoutPayments));
    expect(canceled.status).toBe("canceled");
    expect(canceled.problems).toEqual([]);
    expect(inWrite((w) => cancelSession(w, opened.id, UCP, checkoutPayments)).status).toBe("canceled");
    expect(refusal(() => inWrite((w) => completeSession(w, opened.id, UCP, checkoutPayments))).code).toBe(
      "CONFLICT",
    );
  });

  test("an expired session is expired and can no longer change", () => {
    const opened = open({ lines: [{ variantId: variant(), quantity: 1 }] }, -1);
    expect(opened.status).toBe("expired");
    expect(
      refusal(() =>
        inWrite((w) =>
          updateSession(w, opened.id, UCP, { buyer: { email: "e@example.com" } }, checkoutPayments),
        ),
      ).code,
    ).toBe("CONFLICT");
  });

  test("another caller, or another protocol, is told it does not exist", () => {
    const opened = open({ lines: [{ variantId: variant(), quantity: 1 }] });
    for (const who of [
      { protocol: "ucp", caller: "https://other.example/.well-known/ucp" },
      { protocol: "acp", caller: UCP.caller },
    ]) {
      expect(
        refusal(() => inWrite((w) => readSession(w, opened.id, who.protocol, who.caller, checkoutPayments)))
          .code,
      ).toBe("NOT_FOUND");
      expect(refusal(() => inWrite((w) => cancelSession(w, opened.id, who, checkoutPayments))).code).toBe(
        "NOT_FOUND",
      );
    }
  });
});
