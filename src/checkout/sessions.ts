import {
  addItem,
  cartView,
  createCart,
  readPricedCart,
  removeItem,
  setAddress,
  setCartEmail,
  setShippingMethod,
  shippingMethodsFor,
  updateItem,
} from "../cart/service.ts";
import type { Address } from "../cart/tables.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { Row } from "../db/rows.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import type { CheckoutPayments, DelegatedCredential, PaymentWrite } from "../orders/checkout-payments.ts";
import { placeableProblems, placeOrder } from "../orders/place-order.ts";
import { orderView } from "../orders/view.ts";
import type { checkoutSessions } from "./tables.ts";

// Checkout sessions: the one model both agentic-commerce protocols translate. A session is a cart
// plus a buyer, a fulfilment choice and a payment choice; its status is derived, never stored, from
// the cart and from what place-order would refuse (`placeableProblems`), so "ready" means exactly
// that placing the order would succeed now. Completing it is place-order, in the caller's
// transaction. Every function runs inside the caller's transaction (an operation's).

type SessionRow = Row<typeof checkoutSessions>;

export type SessionStatus = "open" | "ready" | "completed" | "canceled" | "expired";

/** What the session still lacks or refuses, by the part of it a client changes to fix it. */
export interface SessionProblem {
  /** The service's error code (`UNPROCESSABLE`, `COUPON_INVALID`, …). */
  code: string;
  field:
    | "lines"
    | "coupon"
    | "buyer.email"
    | "buyer.phone"
    | "shippingAddress"
    | "shippingMethod"
    | "paymentMethod"
    | "totals"
    | "session";
  message: string;
}

export interface SessionLine {
  variantId?: string;
  productId?: string;
  quantity: number;
}

/** A session's writable parts; an absent part is left as it is (lines, when given, replace all lines). */
export interface SessionInput {
  lines?: SessionLine[];
  buyer?: { email?: string; firstName?: string; lastName?: string; phone?: string };
  shippingAddress?: Address;
  billingAddress?: Address;
  shippingMethodId?: string;
  paymentMethodId?: string;
}

/** Where a place-order refusal points, as the part of the session to change. */
const FIELD_OF_PATH: Record<string, SessionProblem["field"]> = {
  "/body": "lines",
  "/items": "lines",
  "/coupon": "coupon",
  "/body/email": "buyer.email",
  "/body/phone": "buyer.phone",
  "/shippingAddress": "shippingAddress",
  "/shippingMethod": "shippingMethod",
  "/body/paymentMethodId": "paymentMethod",
  "/totals/total": "totals",
};

/** A place-order refusal as the session problem it is. */
export function problemOf(error: ApiError): SessionProblem {
  const path = error.details?.[0]?.path ?? "/body";
  return {
    code: error.code,
    // A line refused by its id (`/items/<line id>`) is one of the lines.
    field: FIELD_OF_PATH[path.startsWith("/items/") ? "/items" : path] ?? "session",
    message: error.message,
  };
}

function sessionRow(write: PaymentWrite, id: string, protocol: string, caller: string): SessionRow {
  const row = write.tenant.sqlite
    .query("SELECT * FROM checkout_sessions WHERE id = ?")
    .get(id) as SessionRow | null;
  // Another protocol's or another caller's session does not exist for this one.
  if (!row || row.protocol !== protocol || row.caller !== caller) throw notFound("Checkout session");
  return row;
}

/** A session that can still change: not completed, canceled or expired (else a 409 saying which). */
function openRow(write: PaymentWrite, id: string, protocol: string, caller: string): SessionRow {
  const row = sessionRow(write, id, protocol, caller);
  const cart = write.tenant.sqlite.query("SELECT status FROM carts WHERE id = ?").get(row.cart_id) as {
    status: string;
  };
  const status = statusOf(row, cart.status, []);
  if (status !== "open" && status !== "ready") {
    throw new ApiError("CONFLICT", `The checkout session is ${status}: it can no longer change`);
  }
  return row;
}

function statusOf(row: SessionRow, cartStatus: string, problems: SessionProblem[]): SessionStatus {
  if (row.canceled_at !== null) return "canceled";
  if (cartStatus === "completed") return "completed";
  if (row.expires_at <= Date.now()) return "expired";
  return problems.length > 0 ? "open" : "ready";
}

/** The cart's lines become `lines`: matching variants keep their line (quantity set), the rest are added or removed. */
function replaceLines(write: PaymentWrite, cartId: string, lines: SessionLine[]): void {
  const { tenant } = write;
  const current = readPricedCart(tenant, cartId).lines;
  const wanted = new Map<string, SessionLine>();
  for (const line of lines) {
    const key = line.variantId ?? line.productId ?? "";
    const same = wanted.get(key);
    wanted.set(key, same ? { ...line, quantity: same.quantity + line.quantity } : line);
  }
  for (const item of current) {
    const line = wanted.get(item.variantId) ?? wanted.get(item.productId);
    if (!line) removeItem(tenant, cartId, item.id);
    else {
      if (line.quantity !== item.quantity) updateItem(tenant, cartId, item.id, line.quantity);
      wanted.delete(line.variantId ?? line.productId ?? "");
    }
  }
  for (const line of wanted.values()) addItem(tenant, cartId, line);
}

/** Applies the given parts to the cart and the session row (`opening`: the session is new, its total quoted). */
function applyInput(write: PaymentWrite, row: SessionRow, input: SessionInput, opening = false): void {
  const { tenant } = write;
  if (input.lines) replaceLines(write, row.cart_id, input.lines);
  if (input.buyer?.email) setCartEmail(tenant, row.cart_id, input.buyer.email);
  if (input.shippingAddress) setAddress(tenant, row.cart_id, "shipping", input.shippingAddress);
  if (input.billingAddress) setAddress(tenant, row.cart_id, "billing", input.billingAddress);
  if (input.shippingMethodId) setShippingMethod(tenant, row.cart_id, input.shippingMethodId);
  const buyer = input.buyer ?? {};
  // Changing what is bought or where it goes quotes the total that completing takes; the buyer's
  // details and the payment method do not (given at completion, they must not accept a new total).
  const buying = opening || (input.lines ?? input.shippingAddress ?? input.shippingMethodId) !== undefined;
  const quote = buying ? readPricedCart(tenant, row.cart_id).priced.totals.total : null;
  const { paymentMethodId } = input;
  tenant.sqlite
    .query(
      `UPDATE checkout_sessions SET buyer_first_name = coalesce(?1, buyer_first_name),
         buyer_last_name = coalesce(?2, buyer_last_name), buyer_phone = coalesce(?3, buyer_phone),
         payment_method_id = coalesce(?4, payment_method_id), quoted_total = coalesce(?5, quoted_total),
         updated_at = ?6
       WHERE id = ?7`,
    )
    .run(
      buyer.firstName ?? null,
      buyer.lastName ?? null,
      buyer.phone ?? null,
      paymentMethodId ?? null,
      quote,
      Date.now(),
      row.id,
    );
}

/** The total the session was quoted at must still be its total (prices, shipping or tax may have moved since). */
function assertQuotedTotal(write: PaymentWrite, row: SessionRow): void {
  if (row.quoted_total === null) return;
  const total = readPricedCart(write.tenant, row.cart_id).priced.totals.total;
  if (total !== row.quoted_total) {
    throw new ApiError(
      "UNPROCESSABLE",
      `The total changed from ${row.quoted_total} to ${total} since it was quoted: update the session to accept it`,
      [{ path: "/totals/total", message: "changed since quoted" }],
    );
  }
}

export interface SessionOpening {
  protocol: string;
  caller: string;
  /** How long the session may be completed, from now. */
  lifetimeMs: number;
}

/** A new session on a new cart with the given parts. */
export function openSession(
  write: PaymentWrite,
  opening: SessionOpening,
  input: SessionInput,
  payments: CheckoutPayments,
) {
  const cart = createCart(write.tenant, { email: input.buyer?.email, items: input.lines }, null);
  const now = Date.now();
  const id = newId("chk");
  write.tenant.sqlite
    .query(
      `INSERT INTO checkout_sessions (id, cart_id, protocol, caller, expires_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)`,
    )
    .run(id, cart.id, opening.protocol, opening.caller, now + opening.lifetimeMs, now);
  const row = sessionRow(write, id, opening.protocol, opening.caller);
  applyInput(write, row, { ...input, lines: undefined }, true);
  return readSession(write, id, opening.protocol, opening.caller, payments);
}

export function updateSession(
  write: PaymentWrite,
  id: string,
  who: { protocol: string; caller: string },
  input: SessionInput,
  payments: CheckoutPayments,
) {
  applyInput(write, openRow(write, id, who.protocol, who.caller), input);
  return readSession(write, id, who.protocol, who.caller, payments);
}

/** Cancels an open session (its cart stays, unused); a canceled one answers as it is. */
export function cancelSession(
  write: PaymentWrite,
  id: string,
  who: { protocol: string; caller: string },
  payments: CheckoutPayments,
) {
  const row = sessionRow(write, id, who.protocol, who.caller);
  if (row.canceled_at === null) {
    openRow(write, id, who.protocol, who.caller);
    const now = Date.now();
    write.tenant.sqlite
      .query("UPDATE checkout_sessions SET canceled_at = ?1, updated_at = ?1 WHERE id = ?2")
      .run(now, id);
  }
  return readSession(write, id, who.protocol, who.caller, payments);
}

/**
 * Places the order of a ready session (place-order's own refusals otherwise, nothing changed): the
 * session is then completed, with the order.
 */
export function completeSession(
  write: PaymentWrite,
  id: string,
  who: { protocol: string; caller: string },
  payments: CheckoutPayments,
  credential?: DelegatedCredential,
) {
  const row = openRow(write, id, who.protocol, who.caller);
  assertQuotedTotal(write, row);
  const placed = placeOrder(
    write,
    row.cart_id,
    { paymentMethodId: row.payment_method_id ?? undefined, phone: row.buyer_phone ?? undefined, credential },
    null,
    payments,
  );
  return { ...readSession(write, id, who.protocol, who.caller, payments), accessToken: placed.accessToken };
}

/** The session as a protocol shows it: cart, buyer, choices offered and made, status and what is missing. */
export function readSession(
  write: PaymentWrite,
  id: string,
  protocol: string,
  caller: string,
  payments: CheckoutPayments,
) {
  const { tenant } = write;
  const row = sessionRow(write, id, protocol, caller);
  // Priced once: the view, the problems, the shipping methods and the payment methods all read it.
  const state = readPricedCart(tenant, row.cart_id);
  const cart = cartView(state);
  const active = cart.status === "active" && row.canceled_at === null;
  const problems = active
    ? placeableProblems(
        write,
        state,
        { paymentMethodId: row.payment_method_id ?? undefined, phone: row.buyer_phone ?? undefined },
        null,
        payments,
      ).map(problemOf)
    : [];
  return {
    id: row.id,
    status: statusOf(row, cart.status, problems),
    expiresAt: iso(row.expires_at),
    cart,
    buyer: {
      email: cart.email,
      firstName: row.buyer_first_name,
      lastName: row.buyer_last_name,
      phone: row.buyer_phone,
    },
    paymentMethodId: row.payment_method_id,
    problems,
    shippingMethods: active ? shippingMethodsFor(tenant, state) : [],
    paymentMethods: active
      ? payments.methods(tenant, write.ctx, {
          store: state.store,
          currency: cart.currency,
          total: state.priced.totals.total,
        })
      : [],
    order: state.cart.order_id ? orderView(tenant, state.cart.order_id) : null,
  };
}

export type SessionView = ReturnType<typeof readSession>;

/** The caller's session that placed `orderId`, read as `readSession` reads it; a 404 for any other order. */
export function readSessionOfOrder(
  write: PaymentWrite,
  orderId: string,
  who: { protocol: string; caller: string },
  payments: CheckoutPayments,
) {
  const row = write.tenant.sqlite
    .query(
      `SELECT s.id FROM checkout_sessions s JOIN carts c ON c.id = s.cart_id
        WHERE c.order_id = ?1 AND s.protocol = ?2 AND s.caller = ?3`,
    )
    .get(orderId, who.protocol, who.caller) as { id: string } | null;
  if (!row) throw notFound("Order");
  return readSession(write, row.id, who.protocol, who.caller, payments);
}
