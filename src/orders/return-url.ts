import type { AppContext } from "../app-context.ts";
import { normalizeDomainHost, organizationOfHost } from "../auth/service.ts";
import { getStore } from "../catalog/store-settings.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";

/**
 * A redirect payment sends the shopper back to `returnUrl`, so it must belong to the shop: one of
 * its own hosts (a verified domain or `{slug}.{PLATFORM_DOMAIN}`, whatever the scheme and port) or
 * an origin its store settings list in `allowedOrigins` (exactly). Anything else is a 422: the
 * service never sends a shopper, with the provider's session id, to a site the shop does not own.
 */
export function assertShopReturnUrl(ctx: AppContext, tenant: TenantDb, returnUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(returnUrl);
  } catch {
    url = undefined; // the pattern let it through, the URL parser does not (a port above 65535)
  }
  if (url) {
    const host = normalizeDomainHost(url.hostname);
    if (organizationOfHost(ctx.platform, ctx.config.platformDomain, host) === tenant.orgId) return;
    if (getStore(tenant).allowedOrigins.includes(url.origin)) return;
  }
  const message = "must be on one of the shop's domains or an origin of its allowedOrigins";
  throw new ApiError("UNPROCESSABLE", `returnUrl ${message}`, [{ path: "/body/returnUrl", message }]);
}
