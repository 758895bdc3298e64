import type { Operation } from "../http/operation.ts";

/** Storefront and admin orders (DOMAIN §6). */
export const orderOperations: Operation[] = [];
