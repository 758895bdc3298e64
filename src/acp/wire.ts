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

// Translation between ACP's checkout session (version below) and a checkout session: field names,
// statuses, totals, messages, orders. Nothing else: what a session is and does is the checkout
// module's.

export const ACP_VERSION = "2026-04-17";

type Json = Record<string, unknown>;
type Order = NonNullable<SessionView["order"]>;

const STATUS: Record<SessionView["status"], string> = {
  open: "not_ready_for_payment",
  ready: "ready_for_payment",
  completed: "completed",
  canceled: "canceled",
  expired: "expired",
};

/** Where in ACP's session a problem is fixed (RFC 9535 JSONPath), and its ACP error code. */
export const PROBLEM_AT: Record<SessionProblem["field"], { param: string; code: string }> = {
  lines: { param: "$.line_items", code: "invalid" },
  coupon: { param: "$.discounts", code: "coupon_invalid" },
  "buyer.email": { param: "$.buyer.email", code: "missing" },
  "buyer.phone": { param: "$.buyer.phone_number", code: "missing" },
  shippingAddress: { param: "$.fulfillment_details.address", code: "missing" },
  shippingMethod: { param: "$.selected_fulfillment_options", code: "missing" },
  paymentMethod: { param: "$.payment_data", code: "missing" },
  totals: { param: "$.totals", code: "price_changed" },
  session: { param: "$", code: "invalid" },
};

/** Service refusals with an ACP error code of their own. */
export const ACP_CODES: Record<string, string> = {
  INSUFFICIENT_STOCK: "out_of_stock",
  COUPON_INVALID: "coupon_invalid",
};

/** ACP's `Total`: every entry has a `display_text`. */
const total = (type: string, display_text: string, amount: number): Json => ({ type, display_text, amount });

/** A session's or an order's totals. A discount is a positive amount taken off (ACP gives no sign rule). */
function totalsOf(
  totals: SessionView["cart"]["totals"],
  shipped: boolean,
  pricesIncludeTax: boolean,
): Json[] {
  return [
    total("subtotal", "Subtotal", totals.subtotal.amount),
    ...(totals.discount.amount > 0 ? [total("discount", "Discount", totals.discount.amount)] : []),
    ...(shipped ? [total("fulfillment", "Shipping", totals.shipping.amount)] : []),
    // Prices that include VAT have it in every amount already: a `tax` line would be added again.
    ...(pricesIncludeTax ? [] : [total("tax", "VAT", totals.tax.amount)]),
    total("total", "Total", totals.total.amount),
  ];
}

const lineTitle = (item: { productName: Record<string, string>; variantTitle: string }, locale: string) =>
  `${titleOf(item.productName, locale)} ${item.variantTitle}`.trim();

function lineItems(cart: SessionView["cart"], locale: string): Json[] {
  return cart.items.map((item) => ({
    id: item.id,
    item: { id: item.variantId },
    quantity: item.quantity,
    name: lineTitle(item, locale),
    unit_amount: item.unitPrice.amount,
    product_id: item.productId,
    variant_id: item.variantId,
    ...(item.sku ? { sku: item.sku } : {}),
    totals: [
      total("subtotal", "Subtotal", item.subtotal.amount),
      ...(item.discount.amount > 0 ? [total("discount", "Discount", item.discount.amount)] : []),
      total("total", "Total", item.total.amount),
    ],
  }));
}

/** Our address as ACP's (which requires `state` and `postal_code`: empty where the country has none). */
const acpAddress = (address: Address): Json => ({
  name: `${address.firstName} ${address.lastName}`.trim(),
  line_one: address.line1,
  ...(address.line2 ? { line_two: address.line2 } : {}),
  city: address.city,
  state: address.region ?? "",
  country: address.country,
  postal_code: address.postalCode ?? "",
});

function fulfillmentDetails(session: SessionView): Json | null {
  const address = session.cart.shippingAddress as Address | null;
  if (!address) return null;
  const phone = address.phone ?? session.buyer.phone;
  return {
    name: `${address.firstName} ${address.lastName}`.trim(),
    ...(phone ? { phone_number: phone } : {}),
    ...(session.buyer.email ? { email: session.buyer.email } : {}),
    address: acpAddress(address),
  };
}

/** ACP's tokenized card handler (a Stripe Shared Payment Token), at the version its specification names. */
const TOKENIZED_CARD = {
  name: "dev.acp.tokenized.card",
  version: "2026-01-22",
  spec: "https://acp.dev/handlers/tokenized.card",
  config_schema: "https://acp.dev/schemas/handlers/tokenized.card/config.json",
  instrument_schemas: ["https://acp.dev/schemas/handlers/tokenized.card/instrument.json"],
};

/**
 * The shop's payment handlers an agent can finish a session with: a Stripe card as ACP's tokenized
 * card (a delegated token), the others our own, named under the shop's host.
 */
export function paymentHandlers(
  session: Pick<SessionView, "paymentMethods">,
  shop: ShopView,
  origin: string,
) {
  const registry = shop.host.toLowerCase().split(".").reverse().join(".");
  return session.paymentMethods.map((method) => {
    const display_name = titleOf(method.name as Record<string, string>, shop.locale);
    if (method.provider === "stripe" && method.type === "card") {
      return {
        id: method.id,
        ...TOKENIZED_CARD,
        display_name,
        requires_delegate_payment: true,
        requires_pci_compliance: false,
        psp: "stripe",
        config: { psp: "stripe", supports_3ds: true },
      };
    }
    const schema = `${origin}/acp/handlers/${method.id}.json`;
    return {
      id: method.id,
      name: `${registry}.${method.id}`,
      display_name,
      version: ACP_VERSION,
      spec: schema,
      requires_delegate_payment: false,
      requires_pci_compliance: false,
      psp: method.provider,
      config_schema: schema,
      instrument_schemas: [schema],
      config: { flow: method.flow, requires: method.requires },
    };
  });
}

/**
 * The problems ACP shows: all but the missing payment method, which ACP takes at completion only
 * (a session wanting nothing else is `ready_for_payment`).
 */
const problemsOf = (session: SessionView) => session.problems.filter((p) => p.field !== "paymentMethod");

function messagesOf(session: SessionView, shop: ShopView, continueUrl: string | null): Json[] {
  const messages: Json[] = problemsOf(session).map((problem) => ({
    type: "error",
    code: ACP_CODES[problem.code] ?? PROBLEM_AT[problem.field].code,
    param: PROBLEM_AT[problem.field].param,
    content_type: "plain",
    content: problem.message,
    resolution: "recoverable",
  }));
  if (paymentDeclined(session)) {
    messages.push({
      type: "error",
      code: "payment_declined",
      content_type: "plain",
      content: "The card was declined: the order was cancelled. Open a new session to pay another way.",
    });
  }
  const instructions = session.order && paymentInstructions(session.order, shop.locale);
  if (instructions) messages.push({ type: "info", content_type: "plain", content: instructions });
  if (continueUrl) {
    messages.push({
      type: "error",
      code: "intervention_required",
      content_type: "plain",
      content: "The buyer pays on the payment page at continue_url; the session completes once paid.",
      resolution: "requires_buyer_input",
    });
  }
  return messages;
}

/** ACP's order: created → confirmed once paid → shipped once fulfilled; canceled. */
function orderStatus(order: Order): string {
  if (order.status === "cancelled") return "canceled";
  if (order.fulfillmentStatus === "fulfilled") return "shipped";
  return order.paymentStatus === "paid" ? "confirmed" : "created";
}

/** The order a session placed, as ACP's `Order` (also the data of its webhooks). */
export function orderOf(sessionId: string, order: Order, pricesIncludeTax: boolean, shop: ShopView): Json {
  const units = order.items.map((item) => ({ id: item.variantId, quantity: item.quantity }));
  const fulfilled = order.fulfillmentStatus === "fulfilled";
  const shippingAddress = order.shippingAddress as Address | null;
  return {
    type: "order",
    id: order.id,
    checkout_session_id: sessionId,
    order_number: String(order.number),
    permalink_url: shop.orderUrl(order.id),
    status: orderStatus(order),
    line_items: order.items.map((item) => ({
      id: item.variantId,
      title: lineTitle(item, shop.locale),
      product_id: item.productId,
      quantity: { ordered: item.quantity, current: item.quantity, fulfilled: fulfilled ? item.quantity : 0 },
      unit_price: item.unitPrice.amount,
      subtotal: item.subtotal.amount,
    })),
    fulfillments: order.fulfillments.map((f) => ({
      id: f.id,
      type: "shipping",
      status: "shipped",
      line_items: units,
      ...(f.carrier ? { carrier: f.carrier } : {}),
      ...(f.trackingNumber ? { tracking_number: f.trackingNumber } : {}),
      ...(f.trackingUrl ? { tracking_url: f.trackingUrl } : {}),
      ...(shippingAddress ? { destination: acpAddress(shippingAddress) } : {}),
    })),
    adjustments: order.refunds.map((r) => ({
      id: r.id,
      type: "refund",
      occurred_at: r.createdAt,
      status: r.status === "succeeded" ? "completed" : r.status,
      amount: r.amount.amount,
      currency: order.currency.toLowerCase(),
    })),
    totals: totalsOf(order.totals, order.shippingMethod !== null, pricesIncludeTax),
  };
}

function statusOf(session: SessionView, continueUrl: string | null): string {
  if (continueUrl) return "requires_escalation";
  if (orderCancelled(session)) return "canceled";
  if (session.status === "open" && problemsOf(session).length === 0) return "ready_for_payment";
  return STATUS[session.status];
}

/** ACP's link type of each policy page. */
const LINK_TYPES = {
  terms: "terms_of_use",
  privacy: "privacy_policy",
  returns: "return_policy",
  shipping: "shipping_policy",
  faq: "faq",
  contact: "contact_us",
} as const;

/** The ACP checkout session of a session, as its shop answers it. */
export function checkoutSessionOf(session: SessionView, shop: ShopView, origin: string): Json {
  const { cart } = session;
  const continueUrl = escalationUrl(session.order);
  const details = fulfillmentDetails(session);
  const body: Json = {
    id: session.id,
    protocol: { version: ACP_VERSION },
    capabilities: { payment: { handlers: paymentHandlers(session, shop, origin) } },
    ...(session.buyer.email
      ? {
          buyer: {
            email: session.buyer.email,
            ...(session.buyer.firstName ? { first_name: session.buyer.firstName } : {}),
            ...(session.buyer.lastName ? { last_name: session.buyer.lastName } : {}),
            ...(session.buyer.phone ? { phone_number: session.buyer.phone } : {}),
          },
        }
      : {}),
    status: statusOf(session, continueUrl),
    currency: cart.currency.toLowerCase(),
    line_items: lineItems(cart, shop.locale),
    ...(details ? { fulfillment_details: details } : {}),
    fulfillment_options: session.shippingMethods.map((method) => ({
      type: "shipping",
      id: method.id,
      title: titleOf(method.name, shop.locale),
      totals: [total("fulfillment", titleOf(method.name, shop.locale), method.price.amount)],
    })),
    ...(cart.shippingMethod
      ? {
          selected_fulfillment_options: [
            {
              type: "shipping",
              option_id: cart.shippingMethod.id,
              item_ids: cart.items.map((item) => item.variantId),
            },
          ],
        }
      : {}),
    totals: totalsOf(cart.totals, cart.shippingMethod !== null, cart.pricesIncludeTax),
    messages: messagesOf(session, shop, continueUrl),
    links: policyLinksOf(shop, LINK_TYPES),
    expires_at: session.expiresAt,
    ...(continueUrl ? { continue_url: continueUrl } : {}),
  };
  if (session.order) body.order = orderOf(session.id, session.order, cart.pricesIncludeTax, shop);
  return body;
}

// ---------------------------------------------------------------- requests

/** ACP's address (one `name`: the first word is the first name, the rest the last name). */
function addressOf(address: Json, phone: string | undefined): Address {
  const name = (str(address.name) ?? "").trim();
  const space = name.indexOf(" ");
  const out: Record<string, unknown> = {
    firstName: space > 0 ? name.slice(0, space) : name,
    lastName: space > 0 ? name.slice(space + 1).trim() : name,
    line1: str(address.line_one),
    line2: str(address.line_two) || undefined,
    city: str(address.city),
    region: str(address.state) || undefined,
    postalCode: str(address.postal_code) || undefined,
    country: str(address.country)?.toUpperCase(),
    phone,
  };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as unknown as Address;
}

/**
 * ACP's items as session lines. Its `Item` has no quantity in this version's schema (the RFC's has
 * one): `quantity` is read when given, else 1, and an id given twice counts twice.
 */
function linesOf(items: unknown[]): SessionInput["lines"] {
  const lines = new Map<string, number>();
  for (const raw of items) {
    const item = obj(raw);
    const id = str(item.id) ?? "";
    const quantity = item.quantity === undefined ? 1 : (item.quantity as number);
    lines.set(id, (lines.get(id) ?? 0) + quantity);
  }
  return [...lines].map(([id, quantity]) => ({
    ...(id.startsWith("prod_") ? { productId: id } : { variantId: id }),
    quantity,
  }));
}

/**
 * An ACP create, update or complete body as the session's parts: an absent field leaves that part
 * as it is. Shapes are checked by the session operation it is handed to (unknown ids, wrong types,
 * missing address fields are its 4xx), so this only renames.
 */
export function sessionInputOf(body: Json): SessionInput {
  const input: SessionInput = {};
  if (Array.isArray(body.line_items)) input.lines = linesOf(body.line_items);
  const buyer = obj(body.buyer);
  if (body.buyer !== undefined && body.buyer !== null) {
    input.buyer = {};
    if (buyer.email !== undefined) input.buyer.email = buyer.email as string;
    const [first, ...rest] = (str(buyer.full_name) ?? "").trim().split(/\s+/);
    const firstName = buyer.first_name ?? (first || undefined);
    const lastName = buyer.last_name ?? (rest.length > 0 ? rest.join(" ") : undefined);
    if (firstName !== undefined) input.buyer.firstName = firstName as string;
    if (lastName !== undefined) input.buyer.lastName = lastName as string;
    if (buyer.phone_number !== undefined) input.buyer.phone = buyer.phone_number as string;
  }
  const details = obj(body.fulfillment_details);
  if (details.address !== undefined) {
    input.shippingAddress = addressOf(obj(details.address), str(details.phone_number));
    if (!input.buyer?.email && str(details.email))
      input.buyer = { ...input.buyer, email: str(details.email) };
  }
  const selected = Array.isArray(body.selected_fulfillment_options)
    ? obj(body.selected_fulfillment_options[0])
    : {};
  if (str(selected.option_id)) input.shippingMethodId = str(selected.option_id);
  const payment = obj(body.payment_data);
  if (str(payment.handler_id)) input.paymentMethodId = str(payment.handler_id);
  if (payment.billing_address !== undefined) {
    input.billingAddress = addressOf(obj(payment.billing_address), undefined);
  }
  return input;
}

/** The delegated card credential of a completion's `payment_data` (`instrument.credential: {type: "spt", token}`), if any. */
export const paymentCredentialOf = (body: Json): Json | undefined =>
  delegatedCredential(obj(obj(obj(body.payment_data).instrument).credential));
