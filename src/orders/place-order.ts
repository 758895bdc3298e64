import { sha256Hex } from "../auth/crypto.ts";
import { countCouponUse } from "../cart/coupons.ts";
import { completeCart, loadPricedCart } from "../cart/service.ts";
import { takeStock, unitsOnHand } from "../catalog/inventory.ts";
import { ApiError } from "../core/errors.ts";
import { recordEvent } from "../core/events.ts";
import type { SignedInCustomer } from "../core/operation.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import {
  type CheckoutPayments,
  type DelegatedCredential,
  manualPayments,
  type PaymentMethodOffer,
  type PaymentWrite,
} from "./checkout-payments.ts";
import { findOrCreateCustomer } from "./customers.ts";
import { addOrderEvent } from "./lifecycle.ts";
import { assertShopReturnUrl } from "./return-url.ts";
import { orderView } from "./view.ts";

const refuse = (message: string, path = "/body") =>
  new ApiError("UNPROCESSABLE", message, [{ path, message }]);

type PlaceOrderInput = {
  email?: string;
  paymentMethodId?: string;
  note?: string;
  phone?: string;
  returnUrl?: string;
  /** A delegated card credential (a checkout session's completion): charged at once. */
  credential?: DelegatedCredential;
};
type CartToPlace = ReturnType<typeof loadPricedCart>;

/** What the checks before any write settled: who buys, and how the order is paid. */
interface Checkout {
  email: string;
  phone: string | null;
  /** The chosen method; null when none is offered (a total of 0). */
  method: PaymentMethodOffer | null;
}

/**
 * Converts a cart into an order. Runs inside the caller's BEGIN IMMEDIATE transaction (the
 * place-order operation is transactional and durable): stock is taken with conditional UPDATEs,
 * so concurrent buyers of the last units can never oversell; the coupon use is counted against
 * its limit the same way; then the customer, the order with its lines and first event, and the
 * completed cart are written. Any refusal rolls all of it back. A provider payment method then
 * has its payment started by `payments` in the same transaction (the provider is called after the
 * commit).
 */
export function placeOrder(
  write: PaymentWrite,
  cartId: string,
  input: PlaceOrderInput,
  customer: SignedInCustomer | null,
  payments: CheckoutPayments = manualPayments,
) {
  const { tenant } = write;
  const state = loadPricedCart(tenant, cartId);
  if (state.cart.status !== "active")
    throw new ApiError("CONFLICT", "The cart is completed: its order was placed");
  const checkout = checkPlaceable(write, state, input, customer, payments);
  const taken = takeLineStock(tenant, state.lines);
  if (state.coupon) countCoupon(tenant, state.coupon.id);
  const customerId = customer?.id ?? guestCustomerId(tenant, state, checkout.email);
  const now = Date.now();
  const order = insertOrder(tenant, state, checkout, { customerId, note: input.note ?? null, now });
  insertOrderItems(tenant, order.id, state, taken);
  addOrderEvent(tenant, order.id, "placed", `Order #${order.number} placed`, now);
  if (order.paid) addOrderEvent(tenant, order.id, "paid", "Nothing to pay: the total is 0", now);
  const { method } = checkout;
  if (method && method.provider !== "manual") {
    payments.begin(write, {
      orderId: order.id,
      number: order.number,
      total: state.priced.totals.total,
      currency: state.cart.currency,
      email: checkout.email,
      phone: checkout.phone,
      returnUrl: input.returnUrl,
      method,
      credential: input.credential,
    });
  }
  // The session's customer owns the cart: that is what makes the order one of the account's orders.
  completeCart(tenant, state.cart.id, {
    orderId: order.id,
    email: checkout.email,
    customerId: customer?.id ?? null,
    at: now,
  });
  const placed = orderView(tenant, order.id);
  recordEvent(tenant, "order.placed", placed, now);
  if (order.paid) recordEvent(tenant, "order.paid", placed, now);
  return { ...placed, accessToken: order.accessToken };
}

/** The preconditions, before anything is written: each a 422 naming what is missing, nothing changed. */
function checkPlaceable(
  write: PaymentWrite,
  state: CartToPlace,
  input: PlaceOrderInput,
  customer: SignedInCustomer | null,
  payments: CheckoutPayments,
): Checkout {
  const { checkout, problems } = reviewCheckout(write, state, input, customer, payments);
  if (problems[0]) throw problems[0];
  return checkout;
}

/**
 * Everything that stops a cart from being placed, in the order place-order refuses them (it
 * answers the first): what a checkout session shows as its messages, so that "ready" means exactly
 * what place-order accepts. Empty when the cart can be placed now.
 */
export function placeableProblems(
  write: PaymentWrite,
  state: CartToPlace,
  input: PlaceOrderInput,
  customer: SignedInCustomer | null,
  payments: CheckoutPayments = manualPayments,
): ApiError[] {
  if (state.cart.status !== "active")
    return [new ApiError("CONFLICT", "The cart is completed: its order was placed")];
  return reviewCheckout(write, state, input, customer, payments).problems;
}

/** Each precondition checked, its refusal kept (a check that needs an earlier one's answer is skipped when it failed). */
function reviewCheckout(
  write: PaymentWrite,
  state: CartToPlace,
  input: PlaceOrderInput,
  customer: SignedInCustomer | null,
  payments: CheckoutPayments,
): { checkout: Checkout; problems: ApiError[] } {
  const problems = itemProblems(state);
  const email = (input.email ?? state.cart.email ?? customer?.email)?.toLowerCase() ?? "";
  if (!email)
    problems.push(refuse("An email is required: send it in the body or set it on the cart", "/body/email"));
  const needsShipping = state.lines.some((l) => l.product!.requiresShipping);
  if (needsShipping && !state.shippingAddress)
    problems.push(refuse("A shipping address is required", "/shippingAddress"));
  if (needsShipping && !state.shippingMethod)
    problems.push(refuse("A shipping method is required", "/shippingMethod"));
  const phone = input.phone ?? state.billingAddress?.phone ?? state.shippingAddress?.phone ?? null;
  let method: PaymentMethodOffer | null = null;
  const kept = (check: () => void) => {
    try {
      check();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push(error);
    }
  };
  kept(() => {
    method = chosenPaymentMethod(write, state, input.paymentMethodId, payments);
    const chosen = method as PaymentMethodOffer | null;
    if (chosen?.requires.includes("phone") && !phone) {
      throw refuse(`${chosen.id} needs a phone number: send "phone" or set it on the address`, "/body/phone");
    }
    if (input.credential && chosen?.type !== "card") {
      throw refuse(
        "A delegated payment credential pays by card: choose a card payment method",
        "/body/paymentCredential",
      );
    }
  });
  if (input.returnUrl !== undefined)
    kept(() => assertShopReturnUrl(write.ctx, write.tenant, input.returnUrl!));
  return { checkout: { email, phone, method }, problems };
}

/** The cart has items, all still sold, and its coupon still applies. */
function itemProblems(state: CartToPlace): ApiError[] {
  if (state.lines.length === 0) return [refuse("The cart has no items")];
  const problems = state.lines
    .filter((l) => l.product!.status !== "active")
    .map((l) => refuse(`An item is no longer available (${l.id})`, "/items"));
  if (state.couponDropped) {
    problems.push(
      new ApiError("COUPON_INVALID", `The coupon cannot be used: ${state.couponDropped}`, [
        { path: "/coupon", message: state.couponDropped },
      ]),
    );
  }
  return problems;
}

/** The offered method the body names; null when nothing is offered, else a 422 listing what is. */
function chosenPaymentMethod(
  write: PaymentWrite,
  state: CartToPlace,
  paymentMethodId: string | undefined,
  payments: CheckoutPayments,
): PaymentMethodOffer | null {
  const offered = payments.methods(write.tenant, write.ctx, {
    store: state.store,
    currency: state.cart.currency,
    total: state.priced.totals.total,
  });
  if (offered.length === 0) return null;
  const chosen = offered.find((m) => m.id === paymentMethodId);
  if (!chosen) {
    throw refuse(`Choose a payment method: ${offered.map((m) => m.id).join(", ")}`, "/body/paymentMethodId");
  }
  return chosen;
}

/**
 * Takes each line's units through the catalog's inventory; a line that cannot be served refuses the
 * whole order. Returns the units each line took (fewer than its quantity on backorder), by line id.
 */
function takeLineStock(tenant: TenantDb, lines: CartToPlace["lines"]): Map<string, number> {
  const taken = new Map<string, number>();
  for (const line of lines) {
    const variant = line.variant!;
    const units = takeStock(tenant, { ...variant, id: line.variantId }, line.quantity);
    if (units === null) {
      const available = unitsOnHand(tenant, line.variantId);
      throw new ApiError(
        "INSUFFICIENT_STOCK",
        `Not enough stock of ${variant.sku ?? line.variantId}: ${available} available`,
        [{ path: `/items/${line.id}`, message: `available: ${available}` }],
      );
    }
    taken.set(line.id, units);
  }
  return taken;
}

/** The coupon's use, counted against its limit in the same transaction. */
function countCoupon(tenant: TenantDb, couponId: string): void {
  if (!countCouponUse(tenant, couponId)) {
    throw new ApiError("COUPON_INVALID", "The coupon cannot be used: usage limit reached", [
      { path: "/coupon", message: "usage limit reached" },
    ]);
  }
}

/** Without a signed-in customer: the customer of the email, named after the cart's address. */
function guestCustomerId(tenant: TenantDb, state: CartToPlace, email: string): string {
  const address = state.shippingAddress ?? state.billingAddress;
  return findOrCreateCustomer(tenant, email, {
    firstName: address?.firstName,
    lastName: address?.lastName,
    phone: address?.phone,
  }).id;
}

/** The order row, numbered `max + 1` from 1001, with its access token (kept as a hash). */
function insertOrder(
  tenant: TenantDb,
  state: CartToPlace,
  checkout: Checkout,
  placed: { customerId: string; note: string | null; now: number },
) {
  const { cart, priced, coupon, shippingMethod } = state;
  const { next } = tenant.sqlite
    .query("SELECT coalesce(max(number), 1000) + 1 AS next FROM orders")
    .get() as { next: number };
  const { now } = placed;
  const id = newId("ord");
  const accessToken = randomBase62(43);
  const paid = priced.totals.total === 0;
  const method = checkout.method && {
    id: checkout.method.id,
    provider: checkout.method.provider,
    type: checkout.method.type,
  };
  tenant.sqlite
    .query(
      `INSERT INTO orders (id, number, status, payment_status, fulfillment_status, email, customer_id, cart_id, currency,
         shipping_address, billing_address, shipping_method, coupon, payment_method, subtotal, discount, shipping,
         shipping_tax, tax, total, refunded, coupon_counted, stock_held, note, access_token_hash, placed_at, paid_at,
         cancelled_at, updated_at)
       VALUES (?, ?, 'open', ?, 'unfulfilled', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 1, ?, ?, ?, ?, NULL, ?)`,
    )
    .run(
      id,
      next,
      paid ? "paid" : "pending",
      checkout.email,
      placed.customerId,
      cart.id,
      cart.currency,
      state.shippingAddress && JSON.stringify(state.shippingAddress),
      JSON.stringify(state.billingAddress ?? state.shippingAddress),
      shippingMethod &&
        JSON.stringify({ id: shippingMethod.id, name: shippingMethod.name, price: priced.totals.shipping }),
      coupon && JSON.stringify({ code: coupon.code, type: coupon.type, value: coupon.value }),
      method && JSON.stringify(method),
      priced.totals.subtotal,
      priced.totals.discount,
      priced.totals.shipping,
      priced.shippingTax,
      priced.totals.tax,
      priced.totals.total,
      coupon ? 1 : 0,
      placed.note,
      sha256Hex(accessToken),
      now,
      paid ? now : null,
      now,
    );
  return { id, number: next, accessToken, paid };
}

/** The order's lines as priced, each with the units it took from stock. */
function insertOrderItems(tenant: TenantDb, orderId: string, state: CartToPlace, taken: Map<string, number>) {
  const insertItem = tenant.sqlite.query(
    `INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_title, sku, unit_price,
       quantity, stock_taken, subtotal, discount, tax_rate, tax, total, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  state.priced.lines.forEach((pricedLine, position) => {
    const line = state.lines[position]!;
    insertItem.run(
      newId("oli"),
      orderId,
      line.productId,
      line.variantId,
      JSON.stringify(line.product!.name),
      line.variant!.title,
      line.variant!.sku,
      line.variant!.price,
      line.quantity,
      taken.get(line.id) ?? 0,
      pricedLine.subtotal,
      pricedLine.discount,
      pricedLine.taxRate,
      pricedLine.tax,
      pricedLine.total,
      position,
    );
  });
}
