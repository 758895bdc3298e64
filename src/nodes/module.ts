import type { Module } from "../core/module.ts";

/**
 * The shops of this node as files (docs/scaling.md): export, import, erase and restore one shop,
 * run by the operator's command line. No operations or tables of its own.
 */
export const nodesModule: Module = { name: "nodes", operations: [] };
