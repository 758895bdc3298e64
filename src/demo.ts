import type { AppContext } from "./app-context.ts";
import { createApiKey, createOrganization, listOrganizations } from "./auth/service.ts";

export const DEMO_SLUG = "demo";

/**
 * On the first start of an empty control plane: a demo organization answering `demo.{PLATFORM_DOMAIN}`,
 * each module's demo data (in module order, one transaction each) and an admin API key, whose
 * plaintext is returned this once.
 */
export async function ensureDemoTenant(ctx: AppContext) {
  if (!ctx.config.demoTenant || listOrganizations(ctx.platform).length > 0) return undefined;
  const org = createOrganization(ctx, { name: "Demo Store", slug: DEMO_SLUG });
  await ctx.tenants.with(org.id, (tenant) => {
    for (const module of ctx.tenantSetup) {
      const seed = module.seedDemo;
      if (seed) tenant.sqlite.transaction(() => seed(tenant))();
    }
  });
  const apiKey = createApiKey(ctx.platform, {
    organizationId: org.id,
    name: "Demo admin key",
    scopes: ["admin", "storefront"],
  });
  return { org, apiKey: apiKey.key, host: `${DEMO_SLUG}.${ctx.config.platformDomain}` };
}
