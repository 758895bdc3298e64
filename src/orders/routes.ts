import { timingSafeEqual } from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { CartParams, cartIdempotencyScope } from "../cart/schema.ts";
import { ApiError, notFound } from "../core/errors.ts";
import {
  type Caller,
  defineOperation,
  type Operation,
  type OperationContext,
  Paged,
  type SignedInCustomer,
} from "../core/operation.ts";
import { Body, Id, pageOf, Text } from "../core/schemas.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { type CheckoutPayments, manualPayments } from "./checkout-payments.ts";
import { orderExample, placeOrderExample } from "./examples.ts";
import { orderLinkTokenMatches } from "./link-token.ts";
import {
  ACCOUNT_ORDER_SQL,
  AdminListOrdersQuery,
  ListOrdersQuery,
  listOrders,
  OrderSummary,
} from "./list.ts";
import { placeOrder } from "./place-order.ts";
import { DashboardStats, Order, PlacedOrder, PlaceOrderBody, StatsQuery } from "./schema.ts";
import { cancelOrder, fulfillOrder, markOrderPaid, refundOrder } from "./service.ts";
import { dashboardStats, MAX_RANGE_DAYS, statsRange } from "./stats.ts";
import { findOrderRow, type OrderRow, orderView } from "./view.ts";

const ORDERS = "Orders";
const ADMIN_ORDERS = "Admin: orders";
const ADMIN_DASHBOARD = "Admin: dashboard";

export const OrderIdParams = Type.Object({ id: Id("ord") });

export const GetOrderQuery = Type.Object({
  token: Type.Optional(Text({ min: 1, max: 200, description: "The order's access token (guest checkout)" })),
});

const FulfillBody = Body({
  carrier: Type.Optional(Text({ min: 1, max: 100 })),
  trackingNumber: Type.Optional(Text({ min: 1, max: 100 })),
  trackingUrl: Type.Optional(
    Text({
      min: 1,
      max: 2000,
      pattern: "^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][^\\s]*)?$",
      description: "An http(s) URL",
    }),
  ),
});

const RefundBody = Body({
  amount: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100_000_000_00,
      description: "Minor units; defaults to what is left to refund (total − refunded)",
    }),
  ),
  reason: Type.Optional(Text({ min: 1, max: 500 })),
  restock: Type.Optional(
    Type.Boolean({ description: "Give the order's units back to stock (once per order); default false" }),
  ),
});

/** Whether `token` is the order's guest access token (compared by its SHA-256, in constant time). */
function tokenMatches(token: string, hash: string): boolean {
  const given = Buffer.from(sha256Hex(token));
  const stored = Buffer.from(hash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Who may read an order: callers with admin scope, API keys and granted agents of the tenant, the
 * customer session that owns the order, or anyone with its access token or the link token of its
 * emails (link-token.ts). Everyone else learns
 * nothing: the answer is the same 404 as for an order that does not exist.
 */
function mayRead(
  caller: Caller,
  row: OrderRow,
  token: string | undefined,
  linkTokenMatches: (token: string) => boolean,
  customerOwns: () => boolean,
) {
  if (caller.scopes.includes("admin")) return true;
  if (caller.type === "api-key" || caller.type === "agent") return true;
  if (token !== undefined && (tokenMatches(token, row.access_token_hash) || linkTokenMatches(token)))
    return true;
  return customerOwns();
}

/**
 * The order `caller` may read (see `mayRead`), else the same 404 as for an order that does not
 * exist. `customer` is looked up only when needed.
 */
export function findReadableOrder(
  { ctx, tenant }: { ctx: AppContext; tenant: TenantDb },
  caller: Caller,
  orderId: string,
  token: string | undefined,
  customer: () => SignedInCustomer | null,
): OrderRow {
  const row = findOrderRow(tenant, orderId);
  const customerOwns = () => {
    if (customer()?.id !== row.customer_id) return false;
    // Only orders placed from the account's own carts, never guest orders with the same email.
    return (
      tenant.sqlite.query(`SELECT 1 FROM orders o WHERE o.id = ? AND ${ACCOUNT_ORDER_SQL}`).get(row.id) !==
      null
    );
  };
  const linkTokenMatches = (given: string) => orderLinkTokenMatches(ctx, tenant.orgId, row.id, given);
  if (!mayRead(caller, row, token, linkTokenMatches, customerOwns)) throw notFound("Order");
  return row;
}

/** The write a payment step runs inside, from the operation call. */
const paymentWrite = (
  call: Pick<OperationContext<never, never, never>, "tenant" | "ctx" | "afterCommit">,
) => ({
  tenant: call.tenant,
  ctx: call.ctx,
  afterCommit: call.afterCommit,
});

// ---------------------------------------------------------------- storefront

/** Place-order, which starts a provider payment through `payments` when the shopper chose one. */
function placeOrderOperation(payments: CheckoutPayments) {
  return defineOperation({
    method: "POST",
    path: "/v1/carts/{id}/place-order",
    operationId: "placeOrder",
    summary: "Place the order",
    description:
      "Takes the stock, counts the coupon, creates or finds the customer by email, and returns the order with " +
      "`accessToken` (lets a guest read it). 422 names what is missing; 409 INSUFFICIENT_STOCK when an item " +
      "cannot be served, also when a concurrent buyer took the last units.",
    // Listed with the cart it completes.
    tag: "Carts",
    access: "storefront",
    customerSession: "optional",
    status: 201,
    durable: true,
    idempotencyScope: cartIdempotencyScope,
    answerHoldsSecret: true,
    errors: ["CONFLICT", "INSUFFICIENT_STOCK", "UNPROCESSABLE", "COUPON_INVALID"],
    params: CartParams,
    body: PlaceOrderBody,
    response: PlacedOrder,
    examples: placeOrderExample,
    handler: (call) => placeOrder(paymentWrite(call), call.params.id, call.body, call.customer, payments),
    // The provider answered after the commit (awaited work): show its payment page or reference.
    reload: ({ tenant }, placed) => ({ ...orderView(tenant, placed.id), accessToken: placed.accessToken }),
  });
}

const listOrdersOp = defineOperation({
  method: "GET",
  path: "/v1/orders",
  operationId: "listOrders",
  summary: "The signed-in customer's orders, newest first",
  description:
    "Needs a customer session (`customer_session` cookie or `x-customer-session` header); without one, 401. " +
    "Each order is a summary; `GET /v1/orders/{id}` gives the full order.",
  tag: ORDERS,
  access: "storefront",
  customerSession: "required",
  list: true,
  query: ListOrdersQuery,
  response: OrderSummary,
  handler: ({ tenant, customer, query }) => {
    if (!customer) throw new ApiError("UNAUTHORIZED", "Sign in to a customer account to see its orders");
    const page = pageOf(query);
    const { items, total } = listOrders(tenant, { customerId: customer.id }, page);
    return new Paged(items, page, total);
  },
});

const getOrderOp = defineOperation({
  method: "GET",
  path: "/v1/orders/{id}",
  operationId: "getOrder",
  summary: "Get an order",
  description:
    "Readable by callers with admin scope, API keys and granted agents of the store, the customer session " +
    "that owns the order, or anyone with `?token=<accessToken>` (returned when the order was placed) or the " +
    "`?token=ol_…` of the order link its emails carry. Anyone else gets 404.",
  tag: ORDERS,
  access: "storefront",
  customerSession: "optional",
  params: OrderIdParams,
  query: GetOrderQuery,
  response: Order,
  examples: { response: orderExample },
  handler: (call) => {
    const { tenant, caller, params, query } = call;
    const row = findReadableOrder(call, caller, params.id, query.token, () => call.customer);
    return orderView(tenant, row.id);
  },
});

// ---------------------------------------------------------------- admin

const adminListOrdersOp = defineOperation({
  method: "GET",
  path: "/v1/admin/orders",
  operationId: "adminListOrders",
  summary: "List orders, newest first",
  description:
    "Filters: `status`, `paymentStatus`, `fulfillmentStatus`, `query` (order number, or part of the email or " +
    "of the customer's name), `from` (inclusive) and `to` (exclusive) on the time the order was placed. " +
    "Each order is a summary; `GET /v1/admin/orders/{id}` gives the full order.",
  tag: ADMIN_ORDERS,
  access: "admin",
  list: true,
  query: AdminListOrdersQuery,
  response: OrderSummary,
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { page: _page, limit: _limit, ...filter } = query;
    const { items, total } = listOrders(tenant, filter, page);
    return new Paged(items, page, total);
  },
});

const adminGetOrderOp = defineOperation({
  method: "GET",
  path: "/v1/admin/orders/{id}",
  operationId: "adminGetOrder",
  summary: "Get an order with its lines, refunds, fulfillments and events",
  description:
    "Any order of the store, including guest orders; the storefront's access rules do not apply to admin callers.",
  tag: ADMIN_ORDERS,
  access: "admin",
  params: OrderIdParams,
  response: Order,
  handler: ({ tenant, params }) => orderView(tenant, params.id),
});

const adminFulfillOrderOp = defineOperation({
  method: "POST",
  path: "/v1/admin/orders/{id}/fulfill",
  operationId: "adminFulfillOrder",
  summary: "Fulfill an order (ship it)",
  description:
    "Allowed on an open, unfulfilled order that is paid, or whose payment method is a manual one " +
    "(cash on delivery, bank transfer). The order is completed when paid; otherwise it stays open until " +
    "marked paid. Any other state is a 409 naming it.",
  tag: ADMIN_ORDERS,
  access: "admin",
  durable: true,
  errors: ["CONFLICT", "IDEMPOTENCY_CONFLICT"],
  params: OrderIdParams,
  body: FulfillBody,
  response: Order,
  handler: ({ tenant, params, body }) => {
    fulfillOrder(tenant, params.id, body);
    return orderView(tenant, params.id);
  },
});

/** The admin refund, which refunds through `payments` when the order was paid through a provider. */
function adminRefundOrderOperation(payments: CheckoutPayments) {
  return defineOperation({
    method: "POST",
    path: "/v1/admin/orders/{id}/refund",
    operationId: "adminRefundOrder",
    summary: "Refund an order, in full or in part",
    description:
      "Allowed when the payment is paid or partially refunded. `amount` defaults to what is left to refund " +
      "and must be between 1 and that (else 422). `restock: true` gives the order's units back to stock, " +
      "once per order. Orders paid by a manual method (and Ifthenpay payments, which the merchant refunds " +
      "in Ifthenpay's back office) are refunded at once; Stripe and Easypay payments are refunded through " +
      "the provider after the commit (the refund stays `pending` until the provider confirms it). Send an " +
      "`Idempotency-Key` so a retry never refunds twice.",
    tag: ADMIN_ORDERS,
    access: "admin",
    durable: true,
    errors: ["CONFLICT", "UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
    params: OrderIdParams,
    body: RefundBody,
    response: Order,
    handler: (call) => {
      const write = paymentWrite(call);
      refundOrder(call.tenant, call.params.id, call.body, {
        requestProviderRefund: (request) => payments.requestProviderRefund(write, request),
      });
      return orderView(call.tenant, call.params.id);
    },
    reload: ({ tenant, params }) => orderView(tenant, params.id),
  });
}

/** An admin move without a body: a compare-and-set of `move` (service.ts), answered with the order after it. */
function orderMoveOperation(
  declared: { path: string; operationId: string; summary: string; description: string },
  move: (tenant: TenantDb, orderId: string) => void,
) {
  return defineOperation({
    method: "POST",
    ...declared,
    tag: ADMIN_ORDERS,
    access: "admin",
    durable: true,
    errors: ["CONFLICT", "IDEMPOTENCY_CONFLICT"],
    params: OrderIdParams,
    response: Order,
    handler: ({ tenant, params }) => {
      move(tenant, params.id);
      return orderView(tenant, params.id);
    },
  });
}

const adminCancelOrderOp = orderMoveOperation(
  {
    path: "/v1/admin/orders/{id}/cancel",
    operationId: "adminCancelOrder",
    summary: "Cancel an unpaid (or fully refunded), unfulfilled order",
    description:
      "Allowed on an open, unfulfilled order whose payment was not received or was refunded in full. Gives " +
      "its units back to stock (unless a refund already did) and its coupon use back to the coupon; it never " +
      "refunds. A paid or partially refunded order is refunded instead (409).",
  },
  cancelOrder,
);

const adminMarkOrderPaidOp = orderMoveOperation(
  {
    path: "/v1/admin/orders/{id}/mark-paid",
    operationId: "adminMarkOrderPaid",
    summary: "Mark an order paid by a manual payment method",
    description:
      "For bank transfers and cash on delivery: allowed on an open order whose manual payment is pending. " +
      "An order already fulfilled is completed.",
  },
  markOrderPaid,
);

// ---------------------------------------------------------------- admin: dashboard

const adminDashboardStatsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/dashboard/stats",
  operationId: "adminDashboardStats",
  summary: "Dashboard statistics over a date range",
  description:
    `\`from\`/\`to\` (ISO 8601, the range is [from, to)) default to the last 30 days; \`to\` must be after ` +
    `\`from\` and the range at most ${MAX_RANGE_DAYS} days (else 400). Revenue is Σ(total − refunded) of ` +
    "orders placed in the range whose payment was taken; ordersCount counts those not cancelled; " +
    "averageOrderValue = revenue ÷ paid orders (half away from zero). Stock, products, customersCount and " +
    "the awaiting counts are the state now. salesByDay lists every UTC day of the range.",
  tag: ADMIN_DASHBOARD,
  access: "admin",
  query: StatsQuery,
  response: DashboardStats,
  handler: ({ tenant, query }) => dashboardStats(tenant, statsRange(query)),
});

/** Placing orders, storefront and admin orders, and the dashboard statistics drawn from them. */
export function orderOperations(payments: CheckoutPayments = manualPayments): Operation[] {
  return [
    placeOrderOperation(payments),
    listOrdersOp,
    getOrderOp,
    adminListOrdersOp,
    adminGetOrderOp,
    adminFulfillOrderOp,
    adminRefundOrderOperation(payments),
    adminCancelOrderOp,
    adminMarkOrderPaidOp,
    adminDashboardStatsOp,
  ];
}
