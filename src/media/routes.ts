import { defineOperation, FileReply, Paged } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import { IMAGE_TYPES } from "./images.ts";
import { deleteMedia, listMedia, MEDIA_MAX_BYTES, readMediaFile, storeMedia } from "./media.ts";
import { ListMediaQuery, Media, MediaIdParams } from "./schema.ts";

const ADMIN_MEDIA = "Admin: media";

const mediaExample = {
  id: "med_0VbsQ4kG6pDPeiLQAuNT0mz5",
  url: "/media/med_0VbsQ4kG6pDPeiLQAuNT0mz5",
  contentType: "image/png",
  bytes: 48213,
  width: 800,
  height: 800,
  createdAt: "2026-05-01T10:00:00.000Z",
};

const uploadMediaOp = defineOperation({
  method: "POST",
  path: "/v1/admin/media",
  operationId: "adminUploadMedia",
  summary: "Upload an image",
  description:
    "Stores a JPEG, PNG, WebP, AVIF or GIF image (at most 5 MiB) in the shop's own database file and answers " +
    "where it is served: its `url` (`/media/{id}`) may be given as a product image's `url`. What the file is " +
    "comes from its bytes: a PNG sent as `image/jpeg` is stored as `image/png`; bytes that are none of the five " +
    "types (SVG included) are a 422. Above the shop's media limit (`MEDIA_MAX_SHOP_BYTES`, 200 MiB by default) " +
    "a 422 too. Not offered to agents: a tool call cannot carry a file.",
  tag: ADMIN_MEDIA,
  access: "admin",
  agent: false,
  status: 201,
  upload: {
    mediaTypes: ["image/*"],
    formField: "file",
    maxBytes: MEDIA_MAX_BYTES,
    description:
      "The image as the whole body with its `Content-Type` (`image/png`, …), or as the one field `file` of a " +
      "`multipart/form-data` form. Larger than 5 MiB is a 413.",
  },
  response: Media,
  errors: ["UNPROCESSABLE"],
  examples: { response: mediaExample },
  handler: ({ ctx, tenant, file }) => storeMedia(tenant, file, ctx.config.mediaMaxShopBytes),
});

const listMediaOp = defineOperation({
  method: "GET",
  path: "/v1/admin/media",
  operationId: "adminListMedia",
  summary: "List the shop's images",
  description: "Newest first, without the bytes: each item's `url` serves the file (`GET /media/{id}`).",
  tag: ADMIN_MEDIA,
  access: "admin",
  list: true,
  query: ListMediaQuery,
  response: Media,
  examples: { response: [mediaExample] },
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { items, total } = listMedia(tenant, page);
    return new Paged(items, page, total);
  },
});

const deleteMediaOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/media/{id}",
  operationId: "adminDeleteMedia",
  summary: "Delete an image no product shows",
  description:
    "A 409 while a product's images still point at it (remove it from the product first). Deleting a product " +
    "leaves its images in the shop's media.",
  tag: ADMIN_MEDIA,
  access: "admin",
  status: 204,
  params: MediaIdParams,
  errors: ["CONFLICT"],
  handler: ({ tenant, params }) => {
    deleteMedia(tenant, params.id);
    return undefined;
  },
});

const getMediaFileOp = defineOperation({
  method: "GET",
  path: "/media/{id}",
  operationId: "getMediaFile",
  summary: "An image of the shop, as its bytes",
  description:
    "On the shop's hosts anyone may read it (its Host names the shop); elsewhere, such as the platform host " +
    "the dashboard runs on, a credential of the shop (API key, dashboard session) is needed. Another shop's " +
    "id is a 404. Served with a strong `ETag` (the SHA-256 of the bytes) and `Cache-Control: " +
    "public, max-age=31536000, immutable` (`private` when a credential chose the shop): the bytes under a " +
    "URL never change.",
  tag: "Media",
  access: "storefront",
  agent: false,
  params: MediaIdParams,
  fileResponse: [...IMAGE_TYPES],
  handler: ({ tenant, params, caller }) => {
    const file = readMediaFile(tenant, params.id);
    return new FileReply(file.bytes, file.contentType, `"${file.sha256}"`, caller.type === "host");
  },
});

export const mediaOperations = [uploadMediaOp, listMediaOp, deleteMediaOp, getMediaFileOp];
