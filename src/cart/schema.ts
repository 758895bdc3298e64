import { Type } from "@sinclair/typebox";
import { CountryCode, Locale, Localized, Money } from "../catalog/schema.ts";
import { Body, Id, named, Text, Timestamp } from "../core/schemas.ts";

// Shapes of carts, addresses, countries, coupons, shipping and payment methods on the wire.

const Quantity = Type.Integer({ minimum: 1, maximum: 999 });
const CartId = Id("cart");

export const AddressInput = named(
  "Address",
  Type.Object(
    {
      firstName: Text({ min: 1, max: 100 }),
      lastName: Text({ min: 1, max: 100 }),
      company: Type.Optional(Text({ max: 200 })),
      line1: Text({ min: 1, max: 200 }),
      line2: Type.Optional(Text({ max: 200 })),
      city: Text({ min: 1, max: 100 }),
      postalCode: Type.Optional(Text({ max: 20 })),
      region: Type.Optional(Text({ max: 100 })),
      country: CountryCode,
      phone: Type.Optional(Text({ max: 30, pattern: "^[+0-9 ()./-]*$" })),
    },
    { additionalProperties: false },
  ),
);

const CartItem = named(
  "CartItem",
  Type.Object({
    id: Type.String(),
    productId: Type.String(),
    variantId: Type.String(),
    productName: Localized,
    variantTitle: Type.String(),
    sku: Type.Union([Type.String(), Type.Null()]),
    image: Type.Union([Type.Object({ url: Type.String(), alt: Type.Optional(Type.String()) }), Type.Null()]),
    unitPrice: Money,
    quantity: Type.Integer(),
    subtotal: Money,
    discount: Money,
    total: Money,
  }),
);

const Totals = named(
  "CartTotals",
  Type.Object({ subtotal: Money, discount: Money, shipping: Money, tax: Money, total: Money }),
);

const CartMessage = Type.Object({
  code: Type.String(),
  message: Type.String(),
  itemId: Type.Optional(Type.String()),
});

export const Cart = named(
  "Cart",
  Type.Object({
    id: Type.String(),
    status: Type.Union([Type.Literal("active"), Type.Literal("completed")]),
    currency: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    customerId: Type.Union([Type.String(), Type.Null()]),
    items: Type.Array(CartItem),
    itemCount: Type.Integer({ description: "Sum of quantities" }),
    coupon: Type.Union([
      Type.Object({ code: Type.String(), type: Type.String(), value: Type.Integer() }),
      Type.Null(),
    ]),
    shippingAddress: Type.Union([AddressInput, Type.Null()]),
    billingAddress: Type.Union([AddressInput, Type.Null()]),
    shippingMethod: Type.Union([
      Type.Object({ id: Type.String(), name: Localized, price: Money }),
      Type.Null(),
    ]),
    totals: Totals,
    pricesIncludeTax: Type.Boolean(),
    messages: Type.Array(CartMessage),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const CartLineInput = Type.Object(
  {
    variantId: Type.Optional(Id("var")),
    productId: Type.Optional(Id("prod")),
    quantity: Quantity,
  },
  { additionalProperties: false, description: "`variantId`, or `productId` of a single-variant product" },
);

export const CreateCartBody = Body({
  email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
  items: Type.Optional(Type.Array(CartLineInput, { maxItems: 100 })),
});
export const AddItemBody = CartLineInput;
export const UpdateItemBody = Body({
  quantity: Type.Integer({ minimum: 0, maximum: 999, description: "0 removes" }),
});
export const ApplyCouponBody = Body({ code: Text({ min: 1, max: 64 }) });
export const SetShippingMethodBody = Body({ shippingMethodId: Id("shp") });

export const CartParams = Type.Object({ id: CartId });
/**
 * Idempotency scope of an anonymous shopper's writes to a cart (`CartParams`): the cart they act
 * on, so a key cannot replay another cart's answer.
 */
export const cartIdempotencyScope = (input: Record<string, unknown>) => `cart:${String(input.id)}`;
export const CartItemParams = Type.Object({ id: CartId, itemId: Id("item") });

export const CartShippingMethod = named(
  "CartShippingMethod",
  Type.Object({
    id: Type.String(),
    name: Localized,
    description: Type.Union([Localized, Type.Null()]),
    price: Money,
    minDays: Type.Union([Type.Integer(), Type.Null()]),
    maxDays: Type.Union([Type.Integer(), Type.Null()]),
  }),
);

export const PaymentMethod = named(
  "PaymentMethod",
  Type.Object({
    id: Type.String(),
    type: Type.String(),
    provider: Type.String(),
    flow: Type.String(),
    name: Localized,
    requires: Type.Array(Type.String()),
  }),
);

export const Country = named(
  "Country",
  Type.Object({
    code: Type.String(),
    name: Type.String(),
    postalCodeRequired: Type.Boolean(),
    shipsTo: Type.Boolean({ description: "Some active shipping method serves it" }),
  }),
);
export const ListCountriesQuery = Type.Object({ locale: Type.Optional(Locale) });
