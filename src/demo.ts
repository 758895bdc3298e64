import type { AppContext } from "./app-context.ts";
import { createApiKey, createOrganization, listOrganizations } from "./auth/service.ts";
import { seedDemoCheckout } from "./cart/seed.ts";
import { seedDemoCatalog } from "./catalog/seed.ts";
import type { TenantDb } from "./db/tenant-pool.ts";

/**
 * Fill the demo tenant's commerce data on first start. Each domain module that has demo data
 * (catalog, shipping, coupons) appends its seeder here; they run in order, once.
 */
export const demoSeeders: ((tenant: TenantDb) => void)[] = [seedDemoCatalog, seedDemoCheckout];

export const DEMO_SLUG = "demo";

/**
 * On the first start of an empty control plane: a demo organization answering `demo.{PLATFORM_DOMAIN}`,
 * its seeded data and an admin API key, whose plaintext is returned this once.
 */
export async function ensureDemoTenant(ctx: AppContext) {
  if (!ctx.config.demoTenant || listOrganizations(ctx.platform).length > 0) return undefined;
  const org = createOrganization(ctx, { name: "Demo Store", slug: DEMO_SLUG });
  await ctx.tenants.with(org.id, (tenant) => {
    for (const seed of demoSeeders) tenant.sqlite.transaction(() => seed(tenant))();
  });
  const apiKey = createApiKey(ctx.platform, {
    organizationId: org.id,
    name: "Demo admin key",
    scopes: ["admin", "storefront"],
  });
  return { org, apiKey: apiKey.key, host: `${DEMO_SLUG}.${ctx.config.platformDomain}` };
}
