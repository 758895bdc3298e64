import type { Module } from "../core/module.ts";

/**
 * Checkout sessions (sessions.ts): the one model of a checkout an agentic-commerce protocol drives,
 * over a cart and place-order. No operations of its own: the protocol modules declare theirs and
 * translate. Its table is in each shop's file.
 */
export const checkoutModule: Module = {
  name: "checkout",
  tables: { file: "src/checkout/tables.ts", database: "tenant" },
  operations: [],
};
