import { type Caller, defineOperation } from "../core/operation.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import {
  CheckoutSession,
  CompletedSession,
  CompleteSessionBody,
  OpenSessionBody,
  SessionOfOrderQuery,
  SessionParams,
  UpdateSessionBody,
} from "./schema.ts";
import {
  cancelSession,
  completeSession,
  openSession,
  readSession,
  readSessionOfOrder,
  updateSession,
} from "./sessions.ts";

const TAG = "Checkout sessions";
/** UCP's default, and long enough for a buyer an agent asks to confirm. */
const SESSION_LIFETIME_MS = 6 * 3600_000;

/**
 * Who a session belongs to: the caller's id, and the surface it came through (a protocol adapter
 * calls these operations as `ucp:<profile>` or `acp:<platform>`; anyone else is the API).
 */
function ownerOf(caller: Caller) {
  const prefix = caller.id.slice(0, caller.id.indexOf(":"));
  return { protocol: prefix === "ucp" || prefix === "acp" ? prefix : "api", caller: caller.id };
}

const sessionOp = {
  tag: TAG,
  access: "storefront" as const,
  response: CheckoutSession,
  idempotencyScope: (input: Record<string, unknown>) => `checkout:${String(input.id)}`,
};

/** The session operations; completing one starts a provider payment through `payments`. */
export function checkoutOperations(payments: CheckoutPayments) {
  return [
    defineOperation({
      ...sessionOp,
      method: "POST",
      path: "/v1/checkout-sessions",
      operationId: "openCheckoutSession",
      summary: "Open a checkout session",
      description:
        "A new cart with the lines, plus the buyer and the choices given. The answer says whether it is " +
        "`ready` to complete, or `open` with the `problems` to fix, and the shipping and payment methods to choose from.",
      status: 201,
      idempotencyScope: undefined,
      errors: ["NOT_FOUND", "INSUFFICIENT_STOCK", "UNPROCESSABLE"],
      body: OpenSessionBody,
      handler: (call) =>
        openSession(call, { ...ownerOf(call.caller), lifetimeMs: SESSION_LIFETIME_MS }, call.body, payments),
    }),
    defineOperation({
      ...sessionOp,
      method: "GET",
      path: "/v1/checkout-sessions/{id}",
      operationId: "getCheckoutSession",
      summary: "Get a checkout session",
      description: "Fresh status, totals and problems. Another caller's session is a 404.",
      params: SessionParams,
      handler: (call) => {
        const owner = ownerOf(call.caller);
        return readSession(call, call.params.id, owner.protocol, owner.caller, payments);
      },
    }),
    defineOperation({
      ...sessionOp,
      method: "PATCH",
      path: "/v1/checkout-sessions/{id}",
      operationId: "updateCheckoutSession",
      summary: "Change a checkout session",
      description:
        "Applies the parts given; `lines` replace all lines. A completed, canceled or expired session is a 409.",
      errors: ["NOT_FOUND", "CONFLICT", "INSUFFICIENT_STOCK", "UNPROCESSABLE"],
      params: SessionParams,
      body: UpdateSessionBody,
      handler: (call) => updateSession(call, call.params.id, ownerOf(call.caller), call.body, payments),
    }),
    defineOperation({
      ...sessionOp,
      method: "POST",
      path: "/v1/checkout-sessions/{id}/cancel",
      operationId: "cancelCheckoutSession",
      summary: "Cancel a checkout session",
      description:
        "Its cart stays unused; canceling a canceled session answers it again. A completed one is a 409.",
      errors: ["NOT_FOUND", "CONFLICT"],
      params: SessionParams,
      handler: (call) => cancelSession(call, call.params.id, ownerOf(call.caller), payments),
    }),
    completeOperation(payments),
    sessionOfOrderOperation(payments),
  ];
}

/** Completing places the order: durable, its answer holding the order's access token. */
function completeOperation(payments: CheckoutPayments) {
  return defineOperation({
    ...sessionOp,
    method: "POST",
    path: "/v1/checkout-sessions/{id}/complete",
    operationId: "completeCheckoutSession",
    summary: "Complete a checkout session: place its order",
    description:
      "Place-order with the session's payment method and phone; its refusals otherwise (422 naming what is " +
      "missing, 409 INSUFFICIENT_STOCK), nothing changed. The answer holds the order and its `accessToken`. " +
      "With `paymentCredential` (a Stripe Shared Payment Token) the card is charged at once: the order answers " +
      "paid, or its payment `action` is the bank's 3-D Secure page, or, declined, the order is cancelled and " +
      "its stock released.",
    status: 200,
    durable: true,
    answerHoldsSecret: true,
    errors: ["NOT_FOUND", "CONFLICT", "INSUFFICIENT_STOCK", "UNPROCESSABLE", "COUPON_INVALID"],
    params: SessionParams,
    body: CompleteSessionBody,
    response: CompletedSession,
    handler: (call) =>
      completeSession(call, call.params.id, ownerOf(call.caller), payments, call.body.paymentCredential),
    // The provider answered after the commit (awaited work): show its reference or payment page.
    reload: (call, completed) => {
      const owner = ownerOf(call.caller);
      const session = readSession(call, call.params.id, owner.protocol, owner.caller, payments);
      return { ...session, accessToken: completed.accessToken };
    },
  });
}

/** A protocol that knows the order (UCP's get_order) finds the session that placed it. */
function sessionOfOrderOperation(payments: CheckoutPayments) {
  return defineOperation({
    ...sessionOp,
    method: "GET",
    path: "/v1/checkout-sessions/of-order",
    operationId: "getCheckoutSessionOfOrder",
    summary: "The checkout session that placed an order",
    description: "The caller's completed session whose `order` is `orderId`; any other order is a 404.",
    errors: ["NOT_FOUND"],
    query: SessionOfOrderQuery,
    handler: (call) => readSessionOfOrder(call, call.query.orderId, ownerOf(call.caller), payments),
  });
}
