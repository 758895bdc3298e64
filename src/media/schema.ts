import { Type } from "@sinclair/typebox";
import { Id, named, PageQuery, Timestamp } from "../core/schemas.ts";
import { IMAGE_TYPES } from "./images.ts";

export const MediaIdParams = Type.Object({ id: Id("med") });

export const ListMediaQuery = Type.Object({ ...PageQuery });

export const Media = named(
  "Media",
  Type.Object({
    id: Id("med"),
    url: Type.String({
      description:
        "Where the file is served, relative to the shop's hosts (`/media/{id}`); usable as a product image `url`",
    }),
    contentType: Type.Union(
      IMAGE_TYPES.map((type) => Type.Literal(type)),
      { description: "What the bytes are, read from the bytes (not from the type the upload declared)" },
    ),
    bytes: Type.Integer({ minimum: 1, description: "Size of the file in bytes" }),
    width: Type.Optional(
      Type.Integer({ minimum: 1, description: "In pixels, when the image's headers tell it" }),
    ),
    height: Type.Optional(
      Type.Integer({ minimum: 1, description: "In pixels, when the image's headers tell it" }),
    ),
    createdAt: Timestamp,
  }),
);
