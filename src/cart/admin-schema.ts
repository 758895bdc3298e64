import { Type } from "@sinclair/typebox";
import { COUNTRY_PATTERN, Localized, LocalizedDescription, LocalizedName, Money } from "../catalog/schema.ts";
import { Body, Id, Nullable, named, PageQuery, Text, Timestamp } from "../core/schemas.ts";
import { COUPON_TYPES } from "./tables.ts";

// Shapes of the admin coupon and shipping-method resources on the wire. Requests send
// money as plain integers in minor units and times as ISO 8601 strings with a zone; responses
// carry `Money` objects in the store currency and ISO UTC strings.

const MAX_MINOR_UNITS = 100_000_000_00;
const MinorUnits = (description: string, minimum = 0) =>
  Type.Integer({ minimum, maximum: MAX_MINOR_UNITS, description });

/** An instant with an explicit zone (`Z` or `±hh:mm`), so it never depends on the server's time zone. */
const Instant = (description: string) =>
  Type.String({
    format: "date-time",
    maxLength: 40,
    pattern: "(Z|z|[+-]\\d{2}:\\d{2})$",
    description,
  });

// ---------------------------------------------------------------- coupons

export const COUPON_CODE_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

const CouponTypeSchema = Type.Union(
  COUPON_TYPES.map((type) => Type.Literal(type)),
  {
    description: "percentage (value = percent 1–100), fixed (value = minor units), free_shipping (no value)",
  },
);

export const Coupon = named(
  "Coupon",
  Type.Object({
    id: Type.String(),
    code: Type.String({ description: "Upper-case; matched case-insensitively" }),
    type: CouponTypeSchema,
    value: Type.Integer({
      description:
        "Percent (1–100) for percentage, minor units of the store currency for fixed, 0 for free_shipping",
    }),
    minSubtotal: Nullable(Money),
    startsAt: Nullable(Timestamp),
    endsAt: Nullable(Timestamp),
    usageLimit: Nullable(Type.Integer()),
    usageCount: Type.Integer({ description: "Orders placed with it (read-only)" }),
    active: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const CouponCode = Type.String({
  pattern: COUPON_CODE_PATTERN,
  maxLength: 64,
  description: "1–64 letters, digits, `-` or `_`; stored upper-case",
});
const couponFields = {
  value: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_MINOR_UNITS,
      description: "Percent 1–100 (percentage), minor units ≥ 1 (fixed), absent or 0 (free_shipping)",
    }),
  ),
  minSubtotal: Type.Optional(Nullable(MinorUnits("Minimum cart subtotal in minor units"))),
  startsAt: Type.Optional(Nullable(Instant("Valid from (inclusive)"))),
  endsAt: Type.Optional(Nullable(Instant("Valid until (exclusive); after startsAt"))),
  usageLimit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }))),
  active: Type.Optional(Type.Boolean({ description: "Default true" })),
};

export const CreateCouponBody = Body({ code: CouponCode, type: CouponTypeSchema, ...couponFields });
export const UpdateCouponBody = Body({
  code: Type.Optional(CouponCode),
  type: Type.Optional(CouponTypeSchema),
  ...couponFields,
});

export const ListCouponsQuery = Type.Object({
  query: Type.Optional(Text({ max: 64, description: "Part of the code (case-insensitive)" })),
  ...PageQuery,
});
export const CouponIdParams = Type.Object({ id: Id("cpn") });

// ---------------------------------------------------------------- shipping methods

export const ShippingMethod = named(
  "ShippingMethod",
  Type.Object({
    id: Type.String(),
    name: Localized,
    description: Nullable(Localized),
    price: Money,
    freeOver: Nullable(Money),
    countries: Type.Array(Type.String(), { description: "ISO 3166-1 alpha-2; empty = every country" }),
    minDays: Nullable(Type.Integer()),
    maxDays: Nullable(Type.Integer()),
    active: Type.Boolean(),
    position: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const Days = (description: string) =>
  Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 365, description })));
const shippingFields = {
  description: Type.Optional(Nullable(LocalizedDescription)),
  freeOver: Type.Optional(
    Nullable(MinorUnits("Free when the subtotal after discount reaches this amount (minor units)")),
  ),
  countries: Type.Optional(
    Type.Array(Type.String({ pattern: COUNTRY_PATTERN, description: "ISO 3166-1 alpha-2" }), {
      maxItems: 300,
      description: "Countries served; empty = every country. Duplicates are dropped",
    }),
  ),
  minDays: Days("Fastest delivery, in days"),
  maxDays: Days("Slowest delivery, in days (≥ minDays)"),
  active: Type.Optional(Type.Boolean({ description: "Default true" })),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: "Default 0" })),
};

export const CreateShippingMethodBody = Body({
  name: LocalizedName,
  price: MinorUnits("Price in minor units"),
  ...shippingFields,
});
export const UpdateShippingMethodBody = Body({
  name: Type.Optional(LocalizedName),
  price: Type.Optional(MinorUnits("Price in minor units")),
  ...shippingFields,
});

export const ShippingMethodIdParams = Type.Object({ id: Id("shp") });
