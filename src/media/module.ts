import type { Module } from "../core/module.ts";
import { mediaOperations } from "./routes.ts";
import { seedDemoMedia } from "./seed.ts";

/**
 * The shop's images, kept in its own file (docs/media.md). After the catalog: a product's images
 * may point at media, and media still shown by a product is not deleted.
 */
export const mediaModule: Module = {
  name: "media",
  tables: { file: "src/media/tables.ts", database: "tenant" },
  operations: mediaOperations,
  seedDemo: seedDemoMedia,
};
