import { Type } from "@sinclair/typebox";
import { AddressInput } from "../cart/schema.ts";
import { Localized, Money } from "../catalog/schema.ts";
import { Body, Nullable, named, Text, Timestamp } from "../core/schemas.ts";
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES } from "./tables.ts";

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const OrderStatus = literals(ORDER_STATUSES);
export const PaymentStatus = literals(PAYMENT_STATUSES);
export const FulfillmentStatus = literals(FULFILLMENT_STATUSES);

export const OrderTotals = named(
  "OrderTotals",
  Type.Object({
    subtotal: Money,
    discount: Money,
    shipping: Money,
    tax: Money,
    total: Money,
    refunded: Money,
  }),
);

const PaymentAction = Type.Union([
  Type.Object({
    type: Type.Literal("redirect"),
    url: Type.String({ description: "The provider's payment page" }),
  }),
  Type.Object({
    type: Type.Literal("reference"),
    entity: Type.String(),
    reference: Type.String(),
    amount: Type.Integer({ description: "Minor units" }),
    expiresAt: Timestamp,
  }),
  Type.Object({
    type: Type.Literal("push"),
    phone: Type.String({ description: "Approve the payment in the MB WAY app of this phone" }),
    expiresAt: Timestamp,
  }),
  Type.Object({ type: Type.Literal("offline"), instructions: Localized }),
]);

export const OrderPayment = named(
  "OrderPayment",
  Type.Object({
    attemptId: Type.String(),
    provider: Type.String(),
    method: Type.String({ description: "card, mbway, multibanco" }),
    status: Type.String({
      description: "created, processing, authorized, succeeded, failed, expired, mismatch",
    }),
    amount: Type.Integer({ description: "Minor units, in the order's currency" }),
    expiresAt: Type.Optional(Timestamp),
    action: Type.Optional(PaymentAction),
    error: Type.Optional(
      Type.String({
        description:
          "Present when the provider was asked for this payment and did not open it (it could not be reached " +
          "or refused): nothing was charged and there is no `action`; `retry` says how to ask again. Both are " +
          "withdrawn once the order can no longer be paid (cancelled, or paid another way)",
      }),
    ),
    retry: Type.Optional(
      Type.Object(
        {
          operationId: Type.Literal("retryOrderPayment"),
          method: Type.Literal("POST"),
          path: Type.String({
            description: "`/v1/orders/{id}/payment` (a guest adds `?token=<accessToken>`)",
          }),
        },
        { description: "The operation that asks the provider again; present with `error`" },
      ),
    ),
  }),
);

export const Order = named(
  "Order",
  Type.Object({
    id: Type.String(),
    number: Type.Integer({ description: "Per-store sequence from 1001" }),
    status: OrderStatus,
    paymentStatus: PaymentStatus,
    fulfillmentStatus: FulfillmentStatus,
    email: Type.String(),
    customerId: Type.String(),
    currency: Type.String(),
    items: Type.Array(
      Type.Object({
        productId: Type.String(),
        variantId: Type.String(),
        productName: Localized,
        variantTitle: Type.String(),
        sku: Nullable(Type.String()),
        unitPrice: Money,
        quantity: Type.Integer(),
        subtotal: Money,
        discount: Money,
        taxRate: Type.Integer({ description: "Basis points" }),
        tax: Money,
        total: Money,
      }),
    ),
    shippingAddress: Nullable(AddressInput),
    billingAddress: Nullable(AddressInput),
    shippingMethod: Nullable(Type.Object({ id: Type.String(), name: Localized, price: Money })),
    coupon: Nullable(Type.Object({ code: Type.String(), type: Type.String(), value: Type.Integer() })),
    paymentMethod: Nullable(Type.Object({ id: Type.String(), provider: Type.String(), type: Type.String() })),
    totals: OrderTotals,
    payment: Type.Union([OrderPayment, Type.Null()], {
      description:
        "The latest payment attempt and what the shopper must do next (`action`). When the provider call " +
        "failed, `status` stays `created`, there is no `action`, and `error` and `retry` (POST " +
        "/v1/orders/{id}/payment) say so",
    }),
    payments: Type.Array(OrderPayment, { description: "Every payment attempt, oldest first" }),
    paymentFlags: Type.Array(Type.String(), {
      description:
        "amount_mismatch, duplicate_payment, paid_after_cancel, reopened_after_payment, refund_required, chargeback",
    }),
    refunds: Type.Array(
      Type.Object({
        id: Type.String(),
        amount: Money,
        reason: Nullable(Type.String()),
        status: Type.String(),
        createdAt: Timestamp,
      }),
    ),
    fulfillments: Type.Array(
      Type.Object({
        id: Type.String(),
        carrier: Nullable(Type.String()),
        trackingNumber: Nullable(Type.String()),
        trackingUrl: Nullable(Type.String()),
        createdAt: Timestamp,
      }),
    ),
    events: Type.Array(Type.Object({ type: Type.String(), message: Type.String(), createdAt: Timestamp })),
    note: Nullable(Type.String()),
    placedAt: Timestamp,
    paidAt: Nullable(Timestamp),
    cancelledAt: Nullable(Timestamp),
    updatedAt: Timestamp,
  }),
);

/** Where a redirect payment sends the shopper back to (place-order, and a retried payment). */
export const ReturnUrl = Text({
  min: 1,
  max: 2000,
  pattern: "^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][^\\s]*)?$",
  description:
    "Where a redirect payment (card) sends the shopper back to: on one of the shop's hosts (a verified " +
    "domain or its platform host) or an origin of its `allowedOrigins`, else a 422",
});

export const PlaceOrderBody = Body({
  email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
  paymentMethodId: Type.Optional(Text({ min: 1, max: 64 })),
  phone: Type.Optional(
    Text({
      min: 9,
      max: 20,
      pattern: "^[+0-9][0-9 ]*$",
      description: "For methods that require a phone (MB WAY); default: the billing or shipping address's",
    }),
  ),
  returnUrl: Type.Optional(ReturnUrl),
  note: Type.Optional(Text({ max: 2000, multiline: true })),
});

// The order plus its access token: an intersection, so the document refers to `Order` rather than copying it.
export const PlacedOrder = Type.Intersect([
  Order,
  Type.Object({
    accessToken: Type.String({ description: "Lets a guest read this order: GET /v1/orders/{id}?token=" }),
  }),
]);

export const StatsQuery = Type.Object({
  from: Type.Optional(
    Type.String({ format: "date-time", maxLength: 40, description: "Default: to − 30 days" }),
  ),
  to: Type.Optional(Type.String({ format: "date-time", maxLength: 40, description: "Default: now" })),
});

export const DashboardStats = named(
  "DashboardStats",
  Type.Object({
    from: Timestamp,
    to: Timestamp,
    revenue: Money,
    ordersCount: Type.Integer(),
    averageOrderValue: Money,
    customersCount: Type.Integer(),
    newCustomersCount: Type.Integer(),
    productsCount: Type.Integer(),
    lowStockVariants: Type.Integer(),
    ordersAwaitingPayment: Type.Integer(),
    ordersAwaitingFulfillment: Type.Integer(),
    topProducts: Type.Array(
      Type.Object({ productId: Type.String(), name: Localized, quantity: Type.Integer(), revenue: Money }),
    ),
    salesByDay: Type.Array(
      Type.Object({
        date: Type.String({ description: "YYYY-MM-DD (UTC)" }),
        orders: Type.Integer(),
        revenue: Money,
      }),
    ),
  }),
);
