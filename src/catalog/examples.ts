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

/** The start of a catalog export (`GET /v1/admin/products/export`) of a store in English and Portuguese. */
export const catalogCsvExample =
  "\uFEFFslug,status,name.en,name.pt,description.en,description.pt,categories,tags,images,taxRate,requiresShipping," +
  "option1.name,option1.value,option2.name,option2.value,option3.name,option3.value,sku,title,price,compareAtPrice," +
  "currency,tracked,onHand,allowBackorder\r\n" +
  'linen-shirt,active,Linen shirt,Camisa de linho,"Washed linen, relaxed fit.","Linho lavado, corte solto.",' +
  "shirts,linen|summer,https://cdn.example/linen-shirt.jpg,,true,Size,S,,,,,LIN-S,S,45.00,59.00,EUR,true,12,false\r\n" +
  'linen-shirt,active,Linen shirt,Camisa de linho,"Washed linen, relaxed fit.","Linho lavado, corte solto.",' +
  "shirts,linen|summer,https://cdn.example/linen-shirt.jpg,,true,Size,M,,,,,LIN-M,M,45.00,,EUR,true,0,true\r\n";
