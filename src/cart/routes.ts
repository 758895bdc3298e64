import { Type } from "@sinclair/typebox";
import { getStore } from "../catalog/store-settings.ts";
import { defineOperation } from "../core/operation.ts";
import { listCountries } from "./countries.ts";
import { addCartItemExample, cartExample, createCartExample } from "./examples.ts";
import {
  AddItemBody,
  AddressInput,
  ApplyCouponBody,
  Cart,
  CartItemParams,
  CartParams,
  CartShippingMethod,
  Country,
  CreateCartBody,
  cartIdempotencyScope,
  ListCountriesQuery,
  SetShippingMethodBody,
  UpdateItemBody,
} from "./schema.ts";
import {
  addItem,
  applyCoupon,
  cartShippingMethods,
  createCart,
  getCart,
  removeCoupon,
  removeItem,
  setAddress,
  setShippingMethod,
  updateItem,
} from "./service.ts";
import { shippingCountries } from "./shipping-methods.ts";

const TAG = "Carts";
/** An anonymous shopper's idempotency keys are scoped by the cart they act on. */
const cartOp = {
  tag: TAG,
  access: "storefront" as const,
  response: Cart,
  idempotencyScope: cartIdempotencyScope,
};

// Countries live beside shipping, whose methods decide `shipsTo`; the API reference keeps them
// under Catalog with the other reads a storefront makes before it has a cart.
const listCountriesOp = defineOperation({
  method: "GET",
  path: "/v1/countries",
  operationId: "listCountries",
  cacheable: true,
  summary: "Every country, for address forms",
  description:
    "Names in the store's default locale or `?locale=`, whether a postal code is required, and `shipsTo` " +
    "where an active shipping method serves the country.",
  tag: "Catalog",
  access: "storefront",
  autoGrant: true,
  query: ListCountriesQuery,
  response: Type.Array(Country),
  handler: ({ tenant, query }) => {
    const served = shippingCountries(tenant);
    return listCountries(
      query.locale ?? getStore(tenant).defaultLocale,
      (code) => served === "all" || served.has(code),
    );
  },
});

const createCartOp = defineOperation({
  ...cartOp,
  method: "POST",
  path: "/v1/carts",
  operationId: "createCart",
  summary: "Create a cart",
  description: "Optionally with an email and items. A signed-in customer (customer session) owns the cart.",
  customerSession: "optional",
  autoGrant: true,
  status: 201,
  errors: ["NOT_FOUND", "INSUFFICIENT_STOCK", "UNPROCESSABLE"],
  idempotencyScope: undefined, // a new cart has nothing to scope by: the client's own key
  body: CreateCartBody,
  examples: createCartExample,
  handler: ({ tenant, body, customer }) => createCart(tenant, body, customer),
});

const getCartOp = defineOperation({
  ...cartOp,
  method: "GET",
  path: "/v1/carts/{id}",
  operationId: "getCart",
  summary: "Get a cart with items, fresh totals and messages",
  description:
    "Prices, stock, the coupon and the shipping method are checked again on every read; `messages` say what changed (an item removed or unavailable, a new price, too little stock, a coupon or shipping method dropped).",
  autoGrant: true,
  params: CartParams,
  examples: { response: cartExample },
  handler: ({ tenant, params }) => getCart(tenant, params.id),
});

const addCartItemOp = defineOperation({
  ...cartOp,
  method: "POST",
  path: "/v1/carts/{id}/items",
  operationId: "addCartItem",
  summary: "Add an item (the same variant merges)",
  description:
    "`variantId`, or `productId` of a single-variant product; quantity 1–999. More than the stock " +
    "available is a 409 INSUFFICIENT_STOCK, unless the variant is untracked or allows backorder. " +
    "A new line beyond 100 lines, or a cart subtotal or total above 10^13 minor units, is a 422 UNPROCESSABLE.",
  errors: ["CONFLICT", "INSUFFICIENT_STOCK", "UNPROCESSABLE"],
  params: CartParams,
  body: AddItemBody,
  examples: addCartItemExample,
  handler: ({ tenant, params, body }) => addItem(tenant, params.id, body),
});

const updateCartItemOp = defineOperation({
  ...cartOp,
  method: "PATCH",
  path: "/v1/carts/{id}/items/{itemId}",
  operationId: "updateCartItem",
  summary: "Change an item's quantity (0 removes it)",
  description: "A cart subtotal or total above 10^13 minor units is a 422 UNPROCESSABLE; nothing changes.",
  errors: ["CONFLICT", "INSUFFICIENT_STOCK", "UNPROCESSABLE"],
  params: CartItemParams,
  body: UpdateItemBody,
  handler: ({ tenant, params, body }) => updateItem(tenant, params.id, params.itemId, body.quantity),
});

const removeCartItemOp = defineOperation({
  ...cartOp,
  method: "DELETE",
  path: "/v1/carts/{id}/items/{itemId}",
  operationId: "removeCartItem",
  summary: "Remove an item",
  description: "Totals are computed again. A cart whose order was placed is a 409.",
  errors: ["CONFLICT"],
  params: CartItemParams,
  handler: ({ tenant, params }) => removeItem(tenant, params.id, params.itemId),
});

const applyCouponOp = defineOperation({
  ...cartOp,
  method: "POST",
  path: "/v1/carts/{id}/coupon",
  operationId: "applyCartCoupon",
  summary: "Apply a coupon code (case-insensitive)",
  description:
    "422 COUPON_INVALID with the reason: unknown, inactive, not started, expired, usage limit reached, " +
    "minimum subtotal not met.",
  errors: ["CONFLICT", "COUPON_INVALID"],
  params: CartParams,
  body: ApplyCouponBody,
  handler: ({ tenant, params, body }) => applyCoupon(tenant, params.id, body.code),
});

const removeCouponOp = defineOperation({
  ...cartOp,
  method: "DELETE",
  path: "/v1/carts/{id}/coupon",
  operationId: "removeCartCoupon",
  summary: "Remove the applied coupon",
  description: "Totals are computed again without the discount. A cart whose order was placed is a 409.",
  errors: ["CONFLICT"],
  params: CartParams,
  handler: ({ tenant, params }) => removeCoupon(tenant, params.id),
});

const listShippingMethodsOp = defineOperation({
  method: "GET",
  path: "/v1/carts/{id}/shipping-methods",
  operationId: "listCartShippingMethods",
  summary: "Shipping methods for this cart, with their price for it",
  description: "Active methods serving the shipping country (all active ones before an address is set).",
  tag: TAG,
  access: "storefront",
  autoGrant: true,
  params: CartParams,
  response: Type.Array(CartShippingMethod),
  handler: ({ tenant, params }) => cartShippingMethods(tenant, params.id),
});

const setShippingMethodOp = defineOperation({
  ...cartOp,
  method: "POST",
  path: "/v1/carts/{id}/shipping-method",
  operationId: "setCartShippingMethod",
  summary: "Choose the shipping method",
  description: "422 when the method does not serve the shipping address.",
  errors: ["CONFLICT", "UNPROCESSABLE"],
  params: CartParams,
  body: SetShippingMethodBody,
  handler: ({ tenant, params, body }) => setShippingMethod(tenant, params.id, body.shippingMethodId),
});

const addressOp = (kind: "shipping" | "billing") =>
  defineOperation({
    ...cartOp,
    method: "POST",
    path: `/v1/carts/{id}/${kind}-address`,
    operationId: kind === "shipping" ? "setCartShippingAddress" : "setCartBillingAddress",
    summary: `Set the ${kind} address`,
    description:
      kind === "shipping"
        ? "The country must be one the store ships to; a chosen method that does not serve it is cleared with a message."
        : "Defaults to the shipping address at place-order when not set.",
    errors: ["CONFLICT", "UNPROCESSABLE"],
    params: CartParams,
    body: AddressInput,
    handler: ({ tenant, params, body }) => setAddress(tenant, params.id, kind, body),
  });

export const cartOperations = [
  listCountriesOp,
  createCartOp,
  getCartOp,
  addCartItemOp,
  updateCartItemOp,
  removeCartItemOp,
  applyCouponOp,
  removeCouponOp,
  listShippingMethodsOp,
  setShippingMethodOp,
  addressOp("shipping"),
  addressOp("billing"),
];
