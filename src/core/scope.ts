/** What a `/v1` caller may do in its organization: shop (`storefront`) or manage the store (`admin`). */
export type Scope = "storefront" | "admin";
