import type { AppContext } from "./app-context.ts";
import { createApiKey, createOrganization, listOrganizations } from "./auth/service.ts";

const DEMO_SLUG = "demo";

/**
 * On the first start of an empty control plane: a demo organization answering `demo.{PLATFORM_DOMAIN}`
 * with each module's demo data (in module order, one transaction each). No API key: see
 * `ensureDemoTenant`.
 */
export async function ensureDemoStore(ctx: AppContext) {
  if (!ctx.config.demoTenant || listOrganizations(ctx.platform).length > 0) return undefined;
  const org = createOrganization(ctx, { name: "Demo Store", slug: DEMO_SLUG });
  await ctx.tenants.with(org.id, (tenant) => {
    for (const module of ctx.tenantSetup) {
      const seed = module.seedDemo;
      if (seed) tenant.sqlite.transaction(() => seed(tenant))();
    }
  });
  return { org, host: `${DEMO_SLUG}.${ctx.config.platformDomain}` };
}

/**
 * The demo store plus an admin API key whose plaintext is returned this once, for a first start
 * on a developer's machine. Production starts use `ensureDemoStore` alone: logs are collected and
 * kept, so a key printed there would leak; the operator creates one with the command line.
 */
export async function ensureDemoTenant(ctx: AppContext) {
  const demo = await ensureDemoStore(ctx);
  if (!demo) return undefined;
  const apiKey = createApiKey(ctx.platform, {
    organizationId: demo.org.id,
    name: "Demo admin key",
    scopes: ["admin", "storefront"],
  });
  return { ...demo, apiKey: apiKey.key };
}
