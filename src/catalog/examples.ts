import type { Static } from "@sinclair/typebox";
import type { StorefrontProduct } from "./schema.ts";

// Examples shown in the OpenAPI document, taken from a real answer of the service (checked against
// the schemas by test/http/openapi.test.ts and by the type annotations).

export const productExample: Static<typeof StorefrontProduct> = {
  id: "prod_0VbsQ4jiETTgI3pgLfV8yjuj",
  slug: "linen-shirt",
  status: "active",
  name: {
    en: "Linen shirt",
    pt: "Camisa de linho",
  },
  description: {
    en: "Washed linen, relaxed fit.",
  },
  categoryIds: [],
  tags: [],
  images: [],
  options: [],
  variants: [
    {
      id: "var_0VbsQ4jjVDb4LNNmYP9hh0ec",
      sku: "LIN-SHIRT-M",
      title: "Default",
      options: {},
      price: {
        amount: 4500,
        currency: "EUR",
      },
      compareAtPrice: null,
      available: true,
      lowStock: false,
    },
  ],
  priceRange: {
    min: {
      amount: 4500,
      currency: "EUR",
    },
    max: {
      amount: 4500,
      currency: "EUR",
    },
  },
  inStock: true,
  lowStock: false,
  taxRate: null,
  requiresShipping: true,
  createdAt: "2026-11-24T08:19:14.771Z",
  updatedAt: "2026-11-24T08:19:14.771Z",
};
