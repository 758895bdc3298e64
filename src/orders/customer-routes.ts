import type { Operation } from "../http/operation.ts";

/** Admin customers, storefront accounts and dashboard statistics (DOMAIN §7, §9). */
export const customerOperations: Operation[] = [];
