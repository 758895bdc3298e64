import {
  FormatRegistry,
  type ObjectOptions,
  type TObject,
  type TProperties,
  type TSchema,
  Type,
} from "@sinclair/typebox";
import { MULTILINE } from "./text-rules.ts";

// Shapes shared by every domain. Strings always carry a maximum length and integers a range,
// so no request can make the service store or compute on unbounded input. Every input string
// also follows the text rules of src/core/text-rules.ts (no control characters, no lone
// surrogates, lengths in characters).

// TypeBox checks a `format` only once it is registered.
FormatRegistry.Set("email", (value) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value));
FormatRegistry.Set(
  "date-time",
  (value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value),
);

/** Schemas published under `#/components/schemas/<name>` in the OpenAPI document (matched by identity). */
export const namedSchemas = new Map<TSchema, string>();

export function named<T extends TSchema>(name: string, schema: T): T {
  namedSchemas.set(schema, name);
  return schema;
}

/**
 * Free text. Lengths count characters (code points), and control characters are refused, except
 * tab and line breaks when `multiline` (descriptions, notes): see src/core/text-rules.ts, which
 * applies these rules to every input string, declared with `Text` or not.
 */
export const Text = (options: {
  min?: number;
  max: number;
  description?: string;
  pattern?: string;
  multiline?: boolean;
}) =>
  Type.String({
    minLength: options.min ?? 0,
    maxLength: options.max,
    ...(options.pattern ? { pattern: options.pattern } : {}),
    ...(options.description ? { description: options.description } : {}),
    ...(options.multiline ? { [MULTILINE]: true } : {}),
  });

/** A request body object: unknown fields are refused so a typo never passes silently. */
export const Body = <T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> =>
  Type.Object(properties, { additionalProperties: false, ...options });

export const Id = (prefix: string) =>
  Type.String({
    pattern: `^${prefix}_[A-Za-z0-9]{1,64}$`,
    maxLength: 80,
    description: `Id (\`${prefix}_…\`)`,
  });

/** The schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Timestamp = Type.String({ format: "date-time", description: "ISO 8601 UTC" });

export const Scope = Type.Union([Type.Literal("storefront"), Type.Literal("admin")]);

export const ErrorBody = named(
  "Error",
  Type.Object(
    {
      error: Type.String({ description: "Human-readable message" }),
      code: Type.String({ description: "Machine code, e.g. VALIDATION_ERROR" }),
      status: Type.Integer({ description: "Same as the HTTP status" }),
      details: Type.Optional(
        Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
          description: "Where the input was wrong (validation) or which rule refused it",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const PageMeta = named(
  "PageMeta",
  Type.Object({
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    total: Type.Integer({ minimum: 0 }),
  }),
);

/** The `meta` of a list that can search: its `total` may be capped (the catalog's product lists). */
export const SearchPageMeta = named(
  "SearchPageMeta",
  Type.Object({
    ...PageMeta.properties,
    total: Type.Integer({ minimum: 0, description: "Exact, except when `totalIsEstimate` is true" }),
    totalIsEstimate: Type.Optional(
      Type.Literal(true, {
        description:
          "Present only on a search (`query`) with more matches than are counted exactly: `total` is then " +
          "that cap (1000), not the number of matches; the pages go on past it",
      }),
    ),
  }),
);

/** `page` ≥ 1 and `limit` 1..100 (default 20); out of range is a 400, never a silent clamp. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export interface PageParams {
  page: number;
  limit: number;
}

/** The page asked for (defaults are already applied by validation; this only narrows the type). */
export const pageOf = (query: { page?: number; limit?: number }): PageParams => ({
  page: query.page ?? 1,
  limit: query.limit ?? 20,
});
