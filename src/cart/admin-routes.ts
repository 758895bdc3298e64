import type { Operation } from "../http/operation.ts";

/** Admin coupons and shipping methods (DOMAIN §8). */
export const shippingAndCouponOperations: Operation[] = [];
