import type { Static } from "@sinclair/typebox";
import type { AddItemBody, Cart, CreateCartBody } from "./schema.ts";

// Examples shown in the OpenAPI document, taken from a real answer of the service (checked against
// the schemas by test/http/openapi.test.ts and by the type annotations).

export const createCartExample: { body: Static<typeof CreateCartBody>; response: Static<typeof Cart> } = {
  body: {
    email: "ana@example.com",
  },
  response: {
    id: "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
    status: "active",
    currency: "EUR",
    email: "ana@example.com",
    customerId: null,
    items: [],
    itemCount: 0,
    coupon: null,
    shippingAddress: null,
    billingAddress: null,
    shippingMethod: null,
    totals: {
      subtotal: {
        amount: 0,
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
        amount: 0,
        currency: "EUR",
      },
      total: {
        amount: 0,
        currency: "EUR",
      },
    },
    pricesIncludeTax: true,
    messages: [],
    createdAt: "2026-11-24T08:19:14.801Z",
    updatedAt: "2026-11-24T08:19:14.801Z",
  },
};

export const addCartItemExample: { body: Static<typeof AddItemBody>; response: Static<typeof Cart> } = {
  body: {
    variantId: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
    quantity: 2,
  },
  response: {
    id: "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
    status: "active",
    currency: "EUR",
    email: "ana@example.com",
    customerId: null,
    items: [
      {
        id: "item_0VbsQ4kG6pDPeiLQAuNT0mz5",
        productId: "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
        variantId: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
        productName: {
          en: "Linen shirt",
          pt: "Camisa de linho",
        },
        variantTitle: "Default",
        sku: "LIN-SHIRT-M",
        image: null,
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
        total: {
          amount: 9000,
          currency: "EUR",
        },
      },
    ],
    itemCount: 2,
    coupon: null,
    shippingAddress: null,
    billingAddress: null,
    shippingMethod: null,
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
    },
    pricesIncludeTax: true,
    messages: [],
    createdAt: "2026-11-24T08:19:14.801Z",
    updatedAt: "2026-11-24T08:19:14.805Z",
  },
};

/** The cart once it has an address and a shipping method, ready to be ordered. */
export const cartExample: Static<typeof Cart> = {
  id: "cart_0VbsQ4kCZakLMA6qr0VeAzPf",
  status: "active",
  currency: "EUR",
  email: "ana@example.com",
  customerId: null,
  items: [
    {
      id: "item_0VbsQ4kG6pDPeiLQAuNT0mz5",
      productId: "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
      variantId: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
      productName: {
        en: "Linen shirt",
        pt: "Camisa de linho",
      },
      variantTitle: "Default",
      sku: "LIN-SHIRT-M",
      image: null,
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
      total: {
        amount: 9000,
        currency: "EUR",
      },
    },
  ],
  itemCount: 2,
  coupon: null,
  shippingAddress: {
    firstName: "Ana",
    lastName: "Silva",
    line1: "Rua Augusta 10",
    city: "Lisboa",
    country: "PT",
    postalCode: "1100-053",
  },
  billingAddress: null,
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
  },
  pricesIncludeTax: true,
  messages: [],
  createdAt: "2026-11-24T08:19:14.801Z",
  updatedAt: "2026-11-24T08:19:14.809Z",
};
