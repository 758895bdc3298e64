import { Type } from "@sinclair/typebox";
import { defineOperation, type Operation, Paged } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import {
  Coupon,
  CouponIdParams,
  CreateCouponBody,
  CreateShippingMethodBody,
  ListCouponsQuery,
  ShippingMethod,
  ShippingMethodIdParams,
  UpdateCouponBody,
  UpdateShippingMethodBody,
} from "./admin-schema.ts";
import { createCoupon, deleteCoupon, getCoupon, listCoupons, updateCoupon } from "./coupons.ts";
import {
  createShippingMethod,
  deleteShippingMethod,
  getShippingMethod,
  listShippingMethods,
  updateShippingMethod,
} from "./shipping-methods.ts";

const ADMIN_COUPONS = "Admin: coupons";
const ADMIN_SHIPPING = "Admin: shipping";

// ---------------------------------------------------------------- coupons

const adminListCouponsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/coupons",
  operationId: "adminListCoupons",
  summary: "List coupons, newest first",
  description: "`query` matches part of the code, case-insensitively.",
  tag: ADMIN_COUPONS,
  access: "admin",
  list: true,
  query: ListCouponsQuery,
  response: Coupon,
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { items, total } = listCoupons(tenant, query, page);
    return new Paged(items, page, total);
  },
});

const adminCreateCouponOp = defineOperation({
  method: "POST",
  path: "/v1/admin/coupons",
  operationId: "adminCreateCoupon",
  summary: "Create a coupon",
  description:
    "The code is stored upper-case and must be unique whatever its case (409). `value` is a whole percent " +
    "1–100 for `percentage`, minor units ≥ 1 for `fixed`, and absent or 0 for `free_shipping`. " +
    "`minSubtotal` is in minor units; `endsAt` must be after `startsAt`. Active by default.",
  tag: ADMIN_COUPONS,
  access: "admin",
  status: 201,
  errors: ["CONFLICT", "IDEMPOTENCY_CONFLICT"],
  body: CreateCouponBody,
  response: Coupon,
  handler: ({ tenant, body }) => createCoupon(tenant, body),
});

const adminGetCouponOp = defineOperation({
  method: "GET",
  path: "/v1/admin/coupons/{id}",
  operationId: "adminGetCoupon",
  summary: "Get a coupon",
  description: "With its rules, validity dates and how many times it was used.",
  tag: ADMIN_COUPONS,
  access: "admin",
  params: CouponIdParams,
  response: Coupon,
  handler: ({ tenant, params }) => getCoupon(tenant, params.id),
});

const adminUpdateCouponOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/coupons/{id}",
  operationId: "adminUpdateCoupon",
  summary: "Update a coupon",
  description:
    "Any subset of the fields; `null` clears an optional one. Changing `type` to percentage or fixed needs " +
    "a `value`. `usageCount` is read-only.",
  tag: ADMIN_COUPONS,
  access: "admin",
  errors: ["CONFLICT", "IDEMPOTENCY_CONFLICT"],
  params: CouponIdParams,
  body: UpdateCouponBody,
  response: Coupon,
  handler: ({ tenant, params, body }) => updateCoupon(tenant, params.id, body),
});

const adminDeleteCouponOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/coupons/{id}",
  operationId: "adminDeleteCoupon",
  summary: "Delete a coupon",
  description: "Carts holding its code find it unknown from then on; placed orders keep their copy.",
  tag: ADMIN_COUPONS,
  access: "admin",
  status: 204,
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: CouponIdParams,
  handler: ({ tenant, params }) => {
    deleteCoupon(tenant, params.id);
    return undefined;
  },
});

// ---------------------------------------------------------------- shipping methods

const adminListShippingMethodsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/shipping-methods",
  operationId: "adminListShippingMethods",
  summary: "List shipping methods by position",
  description: "Every method, active or not, by position, then name in the default locale. Not paginated.",
  tag: ADMIN_SHIPPING,
  access: "admin",
  response: Type.Array(ShippingMethod),
  handler: ({ tenant }) => listShippingMethods(tenant),
});

const adminCreateShippingMethodOp = defineOperation({
  method: "POST",
  path: "/v1/admin/shipping-methods",
  operationId: "adminCreateShippingMethod",
  summary: "Create a shipping method",
  description:
    "`price` and `freeOver` are minor units (shipping is free once the subtotal after discount reaches " +
    "`freeOver`). `countries` lists ISO alpha-2 codes served (empty = every country). `minDays` ≤ " +
    "`maxDays`, each 0–365. Active by default, position 0.",
  tag: ADMIN_SHIPPING,
  access: "admin",
  status: 201,
  errors: ["IDEMPOTENCY_CONFLICT"],
  body: CreateShippingMethodBody,
  response: ShippingMethod,
  handler: ({ tenant, body }) => createShippingMethod(tenant, body),
});

const adminGetShippingMethodOp = defineOperation({
  method: "GET",
  path: "/v1/admin/shipping-methods/{id}",
  operationId: "adminGetShippingMethod",
  summary: "Get a shipping method",
  description: "With its price, the countries it serves and whether it is active.",
  tag: ADMIN_SHIPPING,
  access: "admin",
  params: ShippingMethodIdParams,
  response: ShippingMethod,
  handler: ({ tenant, params }) => getShippingMethod(tenant, params.id),
});

const adminUpdateShippingMethodOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/shipping-methods/{id}",
  operationId: "adminUpdateShippingMethod",
  summary: "Update a shipping method",
  description: "Any subset of the fields; `null` clears an optional one. `countries` replaces the list.",
  tag: ADMIN_SHIPPING,
  access: "admin",
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: ShippingMethodIdParams,
  body: UpdateShippingMethodBody,
  response: ShippingMethod,
  handler: ({ tenant, params, body }) => updateShippingMethod(tenant, params.id, body),
});

const adminDeleteShippingMethodOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/shipping-methods/{id}",
  operationId: "adminDeleteShippingMethod",
  summary: "Delete a shipping method",
  description:
    "Carts that had chosen it lose it on their next read (message `SHIPPING_METHOD_CLEARED`) and must choose again; placed orders keep their copy.",
  tag: ADMIN_SHIPPING,
  access: "admin",
  status: 204,
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: ShippingMethodIdParams,
  handler: ({ tenant, params }) => {
    deleteShippingMethod(tenant, params.id);
    return undefined;
  },
});

/** Admin coupons and shipping methods. */
export const shippingAndCouponOperations: Operation[] = [
  adminListCouponsOp,
  adminCreateCouponOp,
  adminGetCouponOp,
  adminUpdateCouponOp,
  adminDeleteCouponOp,
  adminListShippingMethodsOp,
  adminCreateShippingMethodOp,
  adminGetShippingMethodOp,
  adminUpdateShippingMethodOp,
  adminDeleteShippingMethodOp,
];
