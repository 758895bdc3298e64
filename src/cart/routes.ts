import type { Operation } from "../http/operation.ts";

/** Carts and place-order (DOMAIN §3, §5). */
export const cartOperations: Operation[] = [];
