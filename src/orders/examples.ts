import type { Static } from "@sinclair/typebox";
import {
  eur,
  freeShippingMethod,
  lisbonAddress,
  shirts,
  shirtsAmounts,
  shirtsTotals,
} from "../cart/examples.ts";
import type { Order, PlacedOrder, PlaceOrderBody } from "./schema.ts";

// Examples shown in the OpenAPI document, taken from a real answer of the service (checked against
// the schemas by test/http/openapi.test.ts and by the type annotations).

export const orderExample: Static<typeof Order> = {
  id: "ord_0VbsQ4kPBABCVxkvGqRJzntQ",
  number: 1001,
  status: "open",
  paymentStatus: "pending",
  fulfillmentStatus: "unfulfilled",
  email: "ana@example.com",
  customerId: "cus_0VbsQ4kP9sY3cfIIZWe77EGh",
  currency: "EUR",
  items: [{ ...shirts, ...shirtsAmounts, taxRate: 2300, tax: eur(1683), total: eur(9000) }],
  shippingAddress: lisbonAddress,
  billingAddress: lisbonAddress,
  shippingMethod: freeShippingMethod,
  coupon: null,
  paymentMethod: null,
  totals: { ...shirtsTotals, refunded: eur(0) },
  payment: null,
  payments: [],
  paymentFlags: [],
  refunds: [],
  fulfillments: [],
  events: [
    {
      type: "placed",
      message: "Order #1001 placed",
      createdAt: "2026-11-24T08:19:14.813Z",
    },
  ],
  note: "Please leave it with the neighbour.",
  placedAt: "2026-11-24T08:19:14.813Z",
  paidAt: null,
  cancelledAt: null,
  updatedAt: "2026-11-24T08:19:14.813Z",
};

export const placeOrderExample: {
  body: Static<typeof PlaceOrderBody>;
  response: Static<typeof PlacedOrder>;
} = {
  body: {
    note: "Please leave it with the neighbour.",
  },
  response: { ...orderExample, accessToken: "3FDheAJ23MXJs2PuyRO9vEvOXIewNVg6WqM1i90JfcO" },
};
