import type { Module } from "../core/module.ts";
import { systemOperations } from "./routes.ts";

export const systemModule: Module = { name: "system", operations: systemOperations };
