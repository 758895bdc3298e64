import type { Static } from "@sinclair/typebox";
import type { UploadedFile } from "../core/body.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { PageParams } from "../core/schemas.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { type ImageType, inspectImage } from "./images.ts";
import type { Media } from "./schema.ts";
import type { media } from "./tables.ts";

// The shop's images (docs/media.md): stored in its own file, served at `/media/{id}` on its hosts.

/** The largest file one upload may carry: 5 MiB. */
export const MEDIA_MAX_BYTES = 5 * 1_048_576;

export type MediaView = Static<typeof Media>;

/** Every column but the bytes: what lists and answers read. */
const COLUMNS = "id, content_type, bytes, width, height, created_at";
type MediaRow = Pick<Row<typeof media>, "id" | "content_type" | "bytes" | "width" | "height" | "created_at">;

/** Where a file is served, on every host of its shop. */
export const mediaUrl = (id: string) => `/media/${id}`;

const mediaView = (row: MediaRow): MediaView => ({
  id: row.id,
  url: mediaUrl(row.id),
  contentType: row.content_type as ImageType,
  bytes: row.bytes,
  ...(row.width === null ? {} : { width: row.width }),
  ...(row.height === null ? {} : { height: row.height }),
  createdAt: iso(row.created_at),
});

const notAnImage = () =>
  new ApiError(
    "UNPROCESSABLE",
    "The file is not a JPEG, PNG, WebP, AVIF or GIF image (SVG is not accepted)",
    [{ path: "/body", message: "Not a JPEG, PNG, WebP, AVIF or GIF image" }],
  );

/** Bytes of media the shop stores. */
const storedBytes = (tenant: TenantDb) =>
  (tenant.sqlite.query("SELECT coalesce(sum(bytes), 0) AS total FROM media").get() as { total: number })
    .total;

/**
 * Stores an uploaded file as the shop's media. Its type is what its bytes are, whatever the client
 * declared (a PNG sent as `image/jpeg` is stored and served as `image/png`); bytes that are no
 * accepted image are a 422, as is a file that would take the shop past `shopLimit` bytes in all.
 */
export function storeMedia(tenant: TenantDb, file: UploadedFile, shopLimit: number): MediaView {
  const image = inspectImage(file.bytes);
  if (!image) throw notAnImage();
  const total = storedBytes(tenant) + file.bytes.length;
  if (total > shopLimit) {
    throw new ApiError(
      "UNPROCESSABLE",
      `The shop's media would take ${total} bytes, above its limit of ${shopLimit}: delete unused media first`,
      [{ path: "/body", message: `Above the shop's media limit of ${shopLimit} bytes` }],
    );
  }
  const row = {
    id: newId("med"),
    content_type: image.contentType,
    bytes: file.bytes.length,
    width: image.width ?? null,
    height: image.height ?? null,
    sha256: file.sha256,
    created_at: Date.now(),
    data: file.bytes,
  };
  tenant.sqlite
    .query(
      `INSERT INTO media (id, content_type, bytes, width, height, sha256, created_at, data)
       VALUES ($id, $content_type, $bytes, $width, $height, $sha256, $created_at, $data)`,
    )
    .run(row);
  return mediaView(row);
}

/** One page of the shop's media, newest first (the last stored has the highest rowid). */
export function listMedia(tenant: TenantDb, page: PageParams): { items: MediaView[]; total: number } {
  const rows = tenant.sqlite
    .query(`SELECT ${COLUMNS} FROM media ORDER BY rowid DESC LIMIT ? OFFSET ?`)
    .all(page.limit, (page.page - 1) * page.limit) as MediaRow[];
  const { total } = tenant.sqlite.query("SELECT count(*) AS total FROM media").get() as { total: number };
  return { items: rows.map(mediaView), total };
}

/** A file's bytes with what it is served with; a 404 when this shop has no such media. */
export function readMediaFile(tenant: TenantDb, id: string) {
  const row = tenant.sqlite
    .query("SELECT content_type, sha256, data FROM media WHERE id = ?")
    .get(id) as Pick<Row<typeof media>, "content_type" | "sha256" | "data"> | null;
  if (!row) throw notFound("Media");
  return { contentType: row.content_type, sha256: row.sha256, bytes: row.data as Uint8Array };
}

/**
 * A product whose images point at the file, if any. The image list is JSON in the product's row:
 * `instr` passes over most rows before any of them is parsed.
 */
function productUsing(tenant: TenantDb, id: string): string | undefined {
  const row = tenant.sqlite
    .query(
      `SELECT p.id FROM products p
       WHERE instr(p.images, ?1) > 0
         AND EXISTS (SELECT 1 FROM json_each(p.images) AS image WHERE image.value ->> '$.url' = ?2)
       LIMIT 1`,
    )
    .get(id, mediaUrl(id)) as { id: string } | null;
  return row?.id;
}

/** Deletes a file no product shows: a 409 naming a product that still does, a 404 when there is none. */
export function deleteMedia(tenant: TenantDb, id: string): void {
  if (!tenant.sqlite.query("SELECT 1 FROM media WHERE id = ?").get(id)) throw notFound("Media");
  const product = productUsing(tenant, id);
  if (product) {
    throw new ApiError(
      "CONFLICT",
      `Media ${id} is an image of product ${product}: remove it from the product first`,
    );
  }
  tenant.sqlite.query("DELETE FROM media WHERE id = ?").run(id);
}
