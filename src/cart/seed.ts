import type { TenantDb } from "../db/tenant-pool.ts";
import { createCoupon } from "./coupons.ts";
import { createShippingMethod } from "./shipping-methods.ts";

const EU_WITHOUT_PT = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "RO",
  "SE",
  "SI",
  "SK",
];

/** The demo store's checkout: shipping to Portugal, the EU and the world, and a welcome coupon. */
export function seedDemoCheckout(tenant: TenantDb): void {
  createShippingMethod(tenant, {
    name: { en: "Portugal (CTT)", pt: "Portugal (CTT)" },
    description: { en: "2–3 working days", pt: "2–3 dias úteis" },
    price: 490,
    freeOver: 5000,
    countries: ["PT"],
    minDays: 2,
    maxDays: 3,
    position: 0,
  });
  createShippingMethod(tenant, {
    name: { en: "European Union", pt: "União Europeia" },
    price: 990,
    freeOver: 10_000,
    countries: EU_WITHOUT_PT,
    minDays: 3,
    maxDays: 7,
    position: 1,
  });
  createShippingMethod(tenant, {
    name: { en: "Rest of the world", pt: "Resto do mundo" },
    price: 1990,
    countries: [],
    minDays: 5,
    maxDays: 15,
    position: 2,
  });
  createCoupon(tenant, { code: "WELCOME10", type: "percentage", value: 10 });
}
