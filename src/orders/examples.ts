import type { Static } from "@sinclair/typebox";
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
  items: [
    {
      productId: "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
      variantId: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
      productName: {
        en: "Linen shirt",
        pt: "Camisa de linho",
      },
      variantTitle: "Default",
      sku: "LIN-SHIRT-M",
      unitPrice: {
        amount: 4500,
        currency: "EUR",
      },
      quantity: 2,
      subtotal: {
        amount: 9000,
        currency: "EUR",
      },
      discount: {
        amount: 0,
        currency: "EUR",
      },
      taxRate: 2300,
      tax: {
        amount: 1683,
        currency: "EUR",
      },
      total: {
        amount: 9000,
        currency: "EUR",
      },
    },
  ],
  shippingAddress: {
    firstName: "Ana",
    lastName: "Silva",
    line1: "Rua Augusta 10",
    city: "Lisboa",
    country: "PT",
    postalCode: "1100-053",
  },
  billingAddress: {
    firstName: "Ana",
    lastName: "Silva",
    line1: "Rua Augusta 10",
    city: "Lisboa",
    country: "PT",
    postalCode: "1100-053",
  },
  shippingMethod: {
    id: "shp_0VbsQ4jWFrb8RKDbEf9Szr9e",
    name: {
      en: "Portugal",
    },
    price: {
      amount: 0,
      currency: "EUR",
    },
  },
  coupon: null,
  paymentMethod: null,
  totals: {
    subtotal: {
      amount: 9000,
      currency: "EUR",
    },
    discount: {
      amount: 0,
      currency: "EUR",
    },
    shipping: {
      amount: 0,
      currency: "EUR",
    },
    tax: {
      amount: 1683,
      currency: "EUR",
    },
    total: {
      amount: 9000,
      currency: "EUR",
    },
    refunded: {
      amount: 0,
      currency: "EUR",
    },
  },
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
