import type { Address } from "../cart/tables.ts";
import {
  delegatedCredential,
  escalationUrl,
  obj,
  orderCancelled,
  paymentDeclined,
  paymentInstructions,
  policyLinksOf,
  type ShopView,
  str,
  titleOf,
} from "../checkout/adapter.ts";
import type { SessionInput, SessionProblem, SessionView } from "../checkout/sessions.ts";

// Translation between UCP's checkout (version below, with the fulfillment extension) and a checkout
// session: field names, statuses, totals, messages. Nothing else: what a session is and does is
// the checkout module's.

export const UCP_VERSION = "2026-04-08";
export const CHECKOUT = "dev.ucp.shopping.checkout";
export const ORDER = "dev.ucp.shopping.order";
export const FULFILLMENT = "dev.ucp.shopping.fulfillment";
/** The one shipping method, destination and group of a session (our cart ships to one address). */
const METHOD_ID = "shipping";
const DESTINATION_ID = "destination";
const GROUP_ID = "parcel";

type Json = Record<string, unknown>;

/** The session's status as UCP names it. */
const STATUS: Record<SessionView["status"], string> = {
  open: "incomplete",
  ready: "ready_for_complete",
  completed: "completed",
  canceled: "canceled",
  expired: "canceled",
};

/** Where in the UCP checkout a problem is fixed (RFC 9535 JSONPath), and its UCP code. */
const PROBLEM_AT: Record<SessionProblem["field"], { path: string; code: string }> = {
  lines: { path: "$.line_items", code: "item_unavailable" },
  coupon: { path: "$.discounts", code: "discount_code_invalid" },
  "buyer.email": { path: "$.buyer.email", code: "missing" },
  "buyer.phone": { path: "$.buyer.phone_number", code: "missing" },
  shippingAddress: { path: `$.fulfillment.methods[0].destinations`, code: "missing" },
  shippingMethod: { path: `$.fulfillment.methods[0].groups[0].selected_option_id`, code: "missing" },
  paymentMethod: { path: "$.payment.instruments", code: "missing" },
  totals: { path: "$.totals", code: "total_changed" },
  session: { path: "$", code: "invalid" },
};

/** Place-order's refusals at completion that have a UCP code of their own. */
const UCP_CODES: Record<string, string> = {
  INSUFFICIENT_STOCK: "out_of_stock",
  COUPON_INVALID: "discount_code_invalid",
};

/** The payment handler registry name of a shop: its host reversed (`shop.example` → `example.shop.payments`). */
export function handlerName(host: string): string {
  const labels = host
    .toLowerCase()
    .split(".")
    .reverse()
    .map((label) => label.replace(/[^a-z0-9_]/g, "_"))
    .filter((label) => label !== "");
  const first = (labels.shift() ?? "shop").replace(/_/g, "");
  return [/^[a-z]/.test(first) ? first : `h${first}`, ...labels, "payments"].join(".");
}

const postalAddress = (address: Address | null): Json | null =>
  address && {
    first_name: address.firstName,
    last_name: address.lastName,
    street_address: address.line1,
    ...(address.line2 ? { extended_address: address.line2 } : {}),
    address_locality: address.city,
    ...(address.region ? { address_region: address.region } : {}),
    ...(address.postalCode ? { postal_code: address.postalCode } : {}),
    address_country: address.country,
    ...(address.phone ? { phone_number: address.phone } : {}),
  };

function totalsOf(cart: SessionView["cart"]): Json[] {
  const { subtotal, discount, shipping, tax, total } = cart.totals;
  const totals: Json[] = [{ type: "subtotal", amount: subtotal.amount }];
  if (discount.amount > 0) totals.push({ type: "items_discount", amount: -discount.amount });
  if (cart.shippingMethod) totals.push({ type: "fulfillment", amount: shipping.amount });
  // Prices that include VAT have it in every amount already: a `tax` line would be added again.
  if (!cart.pricesIncludeTax) totals.push({ type: "tax", amount: tax.amount });
  totals.push({ type: "total", amount: total.amount });
  return totals;
}

function lineItems(cart: SessionView["cart"], locale: string): Json[] {
  return cart.items.map((item) => {
    const totals: Json[] = [{ type: "subtotal", amount: item.subtotal.amount }];
    if (item.discount.amount > 0) totals.push({ type: "items_discount", amount: -item.discount.amount });
    totals.push({ type: "total", amount: item.total.amount });
    return {
      id: item.id,
      item: {
        id: item.variantId,
        title: `${titleOf(item.productName, locale)} ${item.variantTitle}`.trim(),
        price: item.unitPrice.amount,
      },
      quantity: item.quantity,
      totals,
    };
  });
}

function fulfillmentOf(session: SessionView, locale: string): Json {
  const { cart } = session;
  const destination = postalAddress(cart.shippingAddress as Address | null);
  const lineIds = cart.items.map((item) => item.id);
  return {
    methods: [
      {
        id: METHOD_ID,
        type: "shipping",
        line_item_ids: lineIds,
        destinations: destination ? [{ id: DESTINATION_ID, ...destination }] : [],
        selected_destination_id: destination ? DESTINATION_ID : null,
        groups: [
          {
            id: GROUP_ID,
            line_item_ids: lineIds,
            options: session.shippingMethods.map((method) => ({
              id: method.id,
              title: titleOf(method.name, locale),
              totals: [{ type: "fulfillment", amount: method.price.amount }],
            })),
            selected_option_id: cart.shippingMethod?.id ?? null,
          },
        ],
      },
    ],
  };
}

/** The payment handlers a session may be completed with (its payment methods), under the shop's registry name. */
export const paymentHandlers = (session: Pick<SessionView, "paymentMethods">, host: string): Json => ({
  [handlerName(host)]: session.paymentMethods.map((method) => ({ id: method.id, version: UCP_VERSION })),
});

/** What the buyer does to pay a completed checkout's order, as an `info` message. */
function paymentMessages(order: NonNullable<SessionView["order"]>, locale: string): Json[] {
  const content = paymentInstructions(order, locale);
  return content ? [{ type: "info", code: "payment_instructions", content }] : [];
}

/** UCP's link type of each policy page (a contact page has none). */
const LINK_TYPES = {
  terms: "terms_of_service",
  privacy: "privacy_policy",
  returns: "refund_policy",
  shipping: "shipping_policy",
  faq: "faq",
} as const;

/** The UCP checkout of a session, as its shop answers it. */
export function checkoutOf(session: SessionView, shop: ShopView): Json {
  const { cart, problems } = session;
  const continueUrl = escalationUrl(session.order);
  const checkout: Json = {
    ucp: {
      version: UCP_VERSION,
      capabilities: {
        [CHECKOUT]: [{ version: UCP_VERSION }],
        [FULFILLMENT]: [{ version: UCP_VERSION, extends: CHECKOUT }],
      },
      payment_handlers: paymentHandlers(session, shop.host),
    },
    id: session.id,
    status: continueUrl
      ? "requires_escalation"
      : orderCancelled(session)
        ? "canceled"
        : STATUS[session.status],
    currency: cart.currency,
    line_items: lineItems(cart, shop.locale),
    buyer: {
      ...(session.buyer.email ? { email: session.buyer.email } : {}),
      ...(session.buyer.firstName ? { first_name: session.buyer.firstName } : {}),
      ...(session.buyer.lastName ? { last_name: session.buyer.lastName } : {}),
      ...(session.buyer.phone ? { phone_number: session.buyer.phone } : {}),
    },
    totals: totalsOf(cart),
    messages: [
      ...problems.map((problem) => ({
        type: "error",
        code: UCP_CODES[problem.code] ?? PROBLEM_AT[problem.field].code,
        path: PROBLEM_AT[problem.field].path,
        content: problem.message,
        severity: "recoverable",
      })),
      ...(session.order ? paymentMessages(session.order, shop.locale) : []),
      ...(paymentDeclined(session)
        ? [
            {
              type: "error",
              code: "payment_failed",
              content:
                "The card was declined: the order was cancelled. Start a new checkout to pay another way.",
              severity: "unrecoverable",
            },
          ]
        : []),
      ...(continueUrl
        ? [
            {
              type: "error",
              code: "payment_required",
              content:
                "The buyer pays by card on the payment page at continue_url; the checkout completes once paid.",
              severity: "requires_buyer_input",
            },
          ]
        : []),
    ],
    links: policyLinksOf(shop, LINK_TYPES),
    expires_at: session.expiresAt,
    fulfillment: fulfillmentOf(session, shop.locale),
    ...(continueUrl ? { continue_url: continueUrl } : {}),
  };
  if (session.paymentMethodId) {
    checkout.payment = {
      instruments: [
        { id: "instrument", handler_id: session.paymentMethodId, type: "offline", selected: true },
      ],
    };
  }
  if (session.order) {
    checkout.order = {
      id: session.order.id,
      label: `#${session.order.number}`,
      permalink_url: shop.orderUrl(session.order.id),
    };
  }
  return checkout;
}

// ---------------------------------------------------------------- requests

/** A UCP postal address as ours; fields UCP lacks are left out (validation says what is missing). */
function addressOf(postal: Json, buyer: Json): Address {
  const address: Record<string, unknown> = {
    firstName: str(postal.first_name) ?? str(buyer.first_name),
    lastName: str(postal.last_name) ?? str(buyer.last_name),
    line1: str(postal.street_address),
    line2: str(postal.extended_address),
    city: str(postal.address_locality),
    region: str(postal.address_region),
    postalCode: str(postal.postal_code),
    country: str(postal.address_country)?.toUpperCase(),
    phone: str(postal.phone_number),
  };
  for (const key of Object.keys(address)) if (address[key] === undefined) delete address[key];
  return address as unknown as Address;
}

/** The selected (else the first) payment instrument. */
function chosenInstrument(payment: Json): Json {
  const instruments = Array.isArray(payment.instruments) ? payment.instruments.map(obj) : [];
  return instruments.find((i) => i.selected === true) ?? instruments[0] ?? {};
}

const chosenHandler = (payment: Json): string | undefined => str(chosenInstrument(payment).handler_id);

/** The delegated card credential of the chosen instrument (`credential: {type: "spt", token}`), if any. */
export const paymentCredentialOf = (payment: unknown): Json | undefined =>
  delegatedCredential(chosenInstrument(obj(payment)).credential);

/**
 * A UCP create or update body as the session's parts. Shapes are checked by the session operation
 * it is handed to (unknown ids, wrong types, missing address fields are its 4xx), so this only renames.
 */
export function sessionInputOf(body: Json): SessionInput {
  const input: SessionInput = {};
  if (Array.isArray(body.line_items)) {
    input.lines = body.line_items.map((raw) => {
      const line = obj(raw);
      const id = str(obj(line.item).id) ?? "";
      return {
        ...(id.startsWith("prod_") ? { productId: id } : { variantId: id }),
        quantity: line.quantity as number,
      };
    });
  }
  const buyer = obj(body.buyer);
  if (body.buyer !== undefined) {
    input.buyer = {};
    if (buyer.email !== undefined) input.buyer.email = buyer.email as string;
    if (buyer.first_name !== undefined) input.buyer.firstName = buyer.first_name as string;
    if (buyer.last_name !== undefined) input.buyer.lastName = buyer.last_name as string;
    if (buyer.phone_number !== undefined) input.buyer.phone = buyer.phone_number as string;
  }
  const method = obj(
    Array.isArray(obj(body.fulfillment).methods)
      ? (obj(body.fulfillment).methods as unknown[])[0]
      : undefined,
  );
  const destinations = Array.isArray(method.destinations) ? method.destinations.map(obj) : [];
  const destination =
    destinations.find((d) => d.id !== undefined && d.id === method.selected_destination_id) ??
    destinations[0];
  if (destination) input.shippingAddress = addressOf(destination, buyer);
  const group = obj(Array.isArray(method.groups) ? method.groups[0] : undefined);
  const option = str(group.selected_option_id);
  if (option) input.shippingMethodId = option;
  const handler = chosenHandler(obj(body.payment));
  if (handler) input.paymentMethodId = handler;
  return input;
}

// ---------------------------------------------------------------- orders

type Order = NonNullable<SessionView["order"]>;

const REFUND_STATUS: Record<string, string> = {
  pending: "pending",
  succeeded: "completed",
  failed: "failed",
};

/** Every line of the order, all its units (the order is fulfilled as a whole). */
const allUnits = (order: Order) =>
  order.items.map((item) => ({ id: item.variantId, quantity: item.quantity }));

function orderLines(order: Order, locale: string): Json[] {
  const fulfilled = order.fulfillmentStatus === "fulfilled";
  return order.items.map((item) => ({
    id: item.variantId,
    item: {
      id: item.variantId,
      title: `${titleOf(item.productName, locale)} ${item.variantTitle}`.trim(),
      price: item.unitPrice.amount,
    },
    quantity: { original: item.quantity, total: item.quantity, fulfilled: fulfilled ? item.quantity : 0 },
    totals: [
      { type: "subtotal", amount: item.subtotal.amount },
      ...(item.discount.amount > 0 ? [{ type: "items_discount", amount: -item.discount.amount }] : []),
      { type: "total", amount: item.total.amount },
    ],
    status: order.status === "cancelled" && !fulfilled ? "removed" : fulfilled ? "fulfilled" : "processing",
  }));
}

function orderTotals(order: Order, pricesIncludeTax: boolean): Json[] {
  const { subtotal, discount, shipping, tax, total } = order.totals;
  return [
    { type: "subtotal", amount: subtotal.amount },
    ...(discount.amount > 0 ? [{ type: "items_discount", amount: -discount.amount }] : []),
    ...(order.shippingMethod ? [{ type: "fulfillment", amount: shipping.amount }] : []),
    ...(pricesIncludeTax ? [] : [{ type: "tax", amount: tax.amount }]),
    { type: "total", amount: total.amount },
  ];
}

/** What an order is translated from: the session that placed it, its order, and how its prices count tax. */
export type OrderSession = Pick<SessionView, "id" | "order"> & {
  cart: Pick<SessionView["cart"], "pricesIncludeTax">;
};

/** The order a completed session placed, as UCP's order (its lines, shipping, fulfilments and refunds). */
export function orderOf(session: OrderSession, shop: ShopView): Json {
  const order = session.order!;
  const destination = postalAddress(order.shippingAddress as Address | null);
  return {
    ucp: { version: UCP_VERSION, capabilities: { [ORDER]: [{ version: UCP_VERSION }] } },
    id: order.id,
    label: `#${order.number}`,
    checkout_id: session.id,
    permalink_url: shop.orderUrl(order.id),
    line_items: orderLines(order, shop.locale),
    fulfillment: {
      expectations: destination
        ? [{ id: METHOD_ID, line_items: allUnits(order), method_type: "shipping", destination }]
        : [],
      events: order.fulfillments.map((f) => ({
        id: f.id,
        occurred_at: f.createdAt,
        type: "shipped",
        line_items: allUnits(order),
        ...(f.trackingNumber ? { tracking_number: f.trackingNumber } : {}),
        ...(f.trackingUrl ? { tracking_url: f.trackingUrl } : {}),
        ...(f.carrier ? { carrier: f.carrier } : {}),
      })),
    },
    adjustments: order.refunds.map((r) => ({
      id: r.id,
      type: "refund",
      occurred_at: r.createdAt,
      status: REFUND_STATUS[r.status] ?? "pending",
      totals: [{ type: "total", amount: r.amount.amount }],
    })),
    currency: order.currency,
    totals: orderTotals(order, session.cart.pricesIncludeTax),
  };
}
