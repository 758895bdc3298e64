import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Tenant file: the shop's images, bytes included, so one file per tenant stays the whole shop.

export const media = sqliteTable(
  "media",
  {
    id: text("id").primaryKey(),
    /** What the bytes are (found from the bytes themselves): `image/png`, …. */
    contentType: text("content_type").notNull(),
    /** The size of `data`. */
    bytes: integer("bytes").notNull(),
    /** In pixels, when the image's headers tell them. */
    width: integer("width"),
    height: integer("height"),
    /** SHA-256 of `data`, hex: the strong ETag it is served with. */
    sha256: text("sha256").notNull(),
    createdAt: integer("created_at").notNull(),
    // Last: columns after a large value would be read through its overflow pages.
    data: blob("data", { mode: "buffer" }).notNull(),
  },
  // The shop's total (SUM of `bytes`) is read from this index alone, never from the rows' pages.
  (t) => [index("media_bytes_idx").on(t.bytes)],
);
