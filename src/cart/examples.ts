import type { Static } from "@sinclair/typebox";
import type { AddItemBody, Cart, CreateCartBody } from "./schema.ts";

// Examples shown in the OpenAPI document, taken from a real answer of the service (checked against
// the schemas by test/http/openapi.test.ts and by the type annotations). The order examples build
// on these pieces.

export const eur = (amount: number) => ({ amount, currency: "EUR" });

/** Two linen shirts at 45.00, VAT included (23 %: 16.83 of the 90.00): what a cart line and an order line share. */
export const shirts = {
  productId: "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
  variantId: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
  productName: { en: "Linen shirt", pt: "Camisa de linho" },
  variantTitle: "Default",
  sku: "LIN-SHIRT-M",
};
export const shirtsAmounts = { unitPrice: eur(4500), quantity: 2, subtotal: eur(9000), discount: eur(0) };

export const lisbonAddress = {
  firstName: "Ana",
  lastName: "Silva",
  line1: "Rua Augusta 10",
  city: "Lisboa",
  country: "PT",
  postalCode: "1100-053",
};

export const freeShippingMethod = {
  id: "shp_0VbsQ4jWFrb8RKDbEf9Szr9e",
  name: { en: "Portugal" },
  price: eur(0),
};

export const shirtsTotals = {
  subtotal: eur(9000),
  discount: eur(0),
  shipping: eur(0),
  tax: eur(1683),
  total: eur(9000),
};

const emptyCart: Static<typeof Cart> = {
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
  totals: { subtotal: eur(0), discount: eur(0), shipping: eur(0), tax: eur(0), total: eur(0) },
  pricesIncludeTax: true,
  messages: [],
  createdAt: "2026-11-24T08:19:14.801Z",
  updatedAt: "2026-11-24T08:19:14.801Z",
};

export const createCartExample: { body: Static<typeof CreateCartBody>; response: Static<typeof Cart> } = {
  body: { email: "ana@example.com" },
  response: emptyCart,
};

export const addCartItemExample: { body: Static<typeof AddItemBody>; response: Static<typeof Cart> } = {
  body: { variantId: shirts.variantId, quantity: 2 },
  response: {
    ...emptyCart,
    items: [
      { id: "item_0VbsQ4kG6pDPeiLQAuNT0mz5", ...shirts, image: null, ...shirtsAmounts, total: eur(9000) },
    ],
    itemCount: 2,
    totals: shirtsTotals,
    updatedAt: "2026-11-24T08:19:14.805Z",
  },
};

/** The cart once it has an address and a shipping method, ready to be ordered. */
export const cartExample: Static<typeof Cart> = {
  ...addCartItemExample.response,
  shippingAddress: lisbonAddress,
  shippingMethod: freeShippingMethod,
  updatedAt: "2026-11-24T08:19:14.809Z",
};
