import { Type } from "@sinclair/typebox";
import { AddressInput, Cart, CartLineInput, CartShippingMethod, PaymentMethod } from "../cart/schema.ts";
import { Body, Id, named, Text, Timestamp } from "../core/schemas.ts";
import { Order } from "../orders/schema.ts";

// Checkout sessions on the wire (docs/checkout.md).

const Phone = Text({
  min: 9,
  max: 20,
  pattern: "^[+0-9][0-9 ]*$",
  description: "For payment methods that need one (MB WAY)",
});

const Buyer = Type.Object(
  {
    email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
    firstName: Type.Optional(Text({ min: 1, max: 100 })),
    lastName: Type.Optional(Text({ min: 1, max: 100 })),
    phone: Type.Optional(Phone),
  },
  { additionalProperties: false },
);

const parts = {
  lines: Type.Optional(
    Type.Array(CartLineInput, {
      maxItems: 100,
      description: "All the lines: replaces the cart's (a variant already there keeps its line)",
    }),
  ),
  buyer: Type.Optional(Buyer),
  shippingAddress: Type.Optional(AddressInput),
  billingAddress: Type.Optional(AddressInput),
  shippingMethodId: Type.Optional(Id("shp")),
  paymentMethodId: Type.Optional(Text({ min: 1, max: 64, description: "One of `paymentMethods[].id`" })),
};

export const CompleteSessionBody = Body({
  paymentCredential: Type.Optional(
    Type.Object(
      {
        type: Type.Literal("stripe_shared_payment_token"),
        token: Text({
          min: 1,
          max: 255,
          pattern: "^[A-Za-z0-9_]+$",
          description: "The granted token (`spt_…`)",
        }),
      },
      {
        additionalProperties: false,
        description:
          "A card payment the buyer's agent platform delegated (a Stripe Shared Payment Token for this shop), " +
          "charged at once with the session's card method instead of sending the buyer to a payment page",
      },
    ),
  ),
});

export const OpenSessionBody = Body(parts);
export const UpdateSessionBody = Body(parts);
export const SessionParams = Type.Object({ id: Id("chk") });
export const SessionOfOrderQuery = Type.Object({ orderId: Id("ord") });

const SessionProblem = Type.Object({
  code: Type.String({ description: "What place-order would answer (`UNPROCESSABLE`, `COUPON_INVALID`, …)" }),
  field: Type.Union(
    [
      "lines",
      "coupon",
      "buyer.email",
      "buyer.phone",
      "shippingAddress",
      "shippingMethod",
      "paymentMethod",
      "totals",
      "session",
    ].map((f) => Type.Literal(f)),
    { description: "The part of the session to change" },
  ),
  message: Type.String(),
});

export const CheckoutSession = named(
  "CheckoutSession",
  Type.Object({
    id: Type.String(),
    status: Type.Union(
      ["open", "ready", "completed", "canceled", "expired"].map((s) => Type.Literal(s)),
      {
        description: "`ready`: completing it places the order now; `open`: `problems` says what is missing",
      },
    ),
    expiresAt: Timestamp,
    cart: Cart,
    buyer: Type.Object({
      email: Type.Union([Type.String(), Type.Null()]),
      firstName: Type.Union([Type.String(), Type.Null()]),
      lastName: Type.Union([Type.String(), Type.Null()]),
      phone: Type.Union([Type.String(), Type.Null()]),
    }),
    paymentMethodId: Type.Union([Type.String(), Type.Null()]),
    problems: Type.Array(SessionProblem),
    shippingMethods: Type.Array(CartShippingMethod, { description: "Those serving the cart's address" }),
    paymentMethods: Type.Array(PaymentMethod, { description: "Those offered for the cart's total" }),
    order: Type.Union([Order, Type.Null()]),
  }),
);

export const CompletedSession = Type.Intersect([
  CheckoutSession,
  Type.Object({
    accessToken: Type.String({ description: "Lets a guest read the order: GET /v1/orders/{id}?token=" }),
  }),
]);
