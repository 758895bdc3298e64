import type { AppContext } from "../app-context.ts";
import { listDomains } from "../auth/service.ts";
import { shippingCountries } from "../cart/shipping-methods.ts";
import { AVAILABLE_VARIANT_SQL } from "../catalog/products.ts";
import { getStore } from "../catalog/store-settings.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { paymentMethods } from "../payments/checkout.ts";

/** Why a store cannot take an order yet; stable codes (docs/setup.md). */
export const BLOCKER_CODES = ["NO_PRODUCT", "NO_SHIPPING_METHOD", "NO_PAYMENT_METHOD", "NO_DOMAIN"] as const;
type BlockerCode = (typeof BLOCKER_CODES)[number];

interface Blocker {
  code: BlockerCode;
  message: string;
  /** The endpoint or command that removes the blocker. */
  fix: string;
}

/** What does not block selling but a merchant should know; stable codes (docs/setup.md). */
export const WARNING_CODES = ["EMAIL_NOT_CONFIGURED"] as const;

interface Warning {
  code: (typeof WARNING_CODES)[number];
  message: string;
  fix: string;
}

interface Readiness {
  ready: boolean;
  blockers: Blocker[];
  warnings: Warning[];
}

function readinessWarnings(ctx: AppContext): Warning[] {
  if (ctx.config.mail.smtpUrl) return [];
  return [
    {
      code: "EMAIL_NOT_CONFIGURED",
      message:
        "No email is sent: shoppers get no order confirmation or payment instructions, the shop no notices",
      fix: "Set SMTP_URL and MAIL_FROM for the service (the operator's settings)",
    },
  ];
}

// A variant a shopper can put in a cart: an active product's variant that is `available` in the
// catalog; every variant has a price, so that needs no check. Both reads stop at the first match.
const SELLABLE = `
  FROM products p JOIN variants v ON v.product_id = p.id
  WHERE p.status = 'active' AND ${AVAILABLE_VARIANT_SQL}`;
const ANY_SELLABLE_SQL = `SELECT 1 ${SELLABLE} LIMIT 1`;
const ANY_SHIPPED_SQL = `SELECT 1 ${SELLABLE} AND p.requires_shipping = 1 LIMIT 1`;

/**
 * Shoppers on other machines cannot reach `{slug}.localhost`: the platform subdomain counts as the
 * shop's address only when PLATFORM_DOMAIN is a public name.
 */
const isLoopbackDomain = (domain: string) => domain === "localhost" || domain.endsWith(".localhost");

/**
 * What still keeps a store from taking its first order: something to buy, a shipping method for
 * the store's own country (unless everything sold is digital), a payment method for a cart in the
 * store currency, and an address shoppers can reach. Reads only; the answer lists every blocker.
 */
export function storeReadiness(ctx: AppContext, orgId: string, tenant: TenantDb): Readiness {
  const store = getStore(tenant);
  const blockers: Blocker[] = [];

  const hasProduct = tenant.sqlite.query(ANY_SELLABLE_SQL).get() !== null;
  if (!hasProduct) {
    blockers.push({
      code: "NO_PRODUCT",
      message:
        "No active product has a variant that can be bought (in stock, not stock-tracked, or open to backorder)",
      fix:
        "POST /v1/admin/products with a variant that has a price and inventory.onHand > 0 " +
        "(or PATCH /v1/admin/inventory/{variantId} to add stock, PATCH /v1/admin/products/{id} with status active)",
    });
  }

  // Before any product exists, assume physical goods: most shops ship.
  const needsShipping = !hasProduct || tenant.sqlite.query(ANY_SHIPPED_SQL).get() !== null;
  const served = shippingCountries(tenant);
  if (needsShipping && served !== "all" && !served.has(store.country)) {
    blockers.push({
      code: "NO_SHIPPING_METHOD",
      message: `No active shipping method serves the store's country (${store.country}): the address step answers 422`,
      fix: `POST /v1/admin/shipping-methods with "countries": ["${store.country}"] (or [] for every country)`,
    });
  }

  if (paymentMethods(tenant, ctx, { store, currency: store.currency, total: 1 }).length === 0) {
    blockers.push({
      code: "NO_PAYMENT_METHOD",
      message: `No payment method is offered for a cart in ${store.currency}`,
      fix:
        'PATCH /v1/admin/store with "manualPaymentMethods": ["bank_transfer"] (or "cash_on_delivery"), ' +
        "or PUT /v1/admin/integrations/{provider} for stripe, ifthenpay or easypay",
    });
  }

  const platformDomain = ctx.config.platformDomain;
  // Every stored domain is verified: whoever adds one (the operator, an admin of the shop) is trusted with it.
  if (listDomains(ctx.platform, orgId).length === 0 && isLoopbackDomain(platformDomain)) {
    blockers.push({
      code: "NO_DOMAIN",
      message: `The shop has no domain of its own, and its platform host under ${platformDomain} answers only on this machine`,
      fix:
        `POST /v1/admin/domains with {"host": "shop.example.com"}, or commerce domain add --org ${orgId} ` +
        "--host shop.example.com (or set PLATFORM_DOMAIN to a public domain)",
    });
  }

  return { ready: blockers.length === 0, blockers, warnings: readinessWarnings(ctx) };
}
