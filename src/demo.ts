import type { AppContext } from "./app-context.ts";
import {
  addMember,
  createApiKey,
  createOrganization,
  createUser,
  findUserByEmail,
  listOrganizations,
} from "./auth/service.ts";
import { randomBase62 } from "./lib/ids.ts";

const DEMO_SLUG = "demo";
/** The demo store's owner, on a domain reserved for examples (RFC 2606): no mail ever reaches anyone. */
export const DEMO_OWNER_EMAIL = "demo@example.com";

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
 * The demo store plus an admin API key and a dashboard owner whose secrets are returned this once,
 * for a first start on a developer's machine. Production starts use `ensureDemoStore` alone: logs
 * are collected and kept, so a key or password printed there would leak; the operator creates
 * them with the command line.
 */
export async function ensureDemoTenant(ctx: AppContext) {
  const demo = await ensureDemoStore(ctx);
  if (!demo) return undefined;
  const apiKey = createApiKey(ctx.platform, {
    organizationId: demo.org.id,
    name: "Demo admin key",
    scopes: ["admin", "storefront"],
  });
  return { ...demo, apiKey: apiKey.key, owner: await createDemoOwner(ctx, demo.org.id) };
}

/**
 * The demo store's owner with a generated password (119 bits), so that a newcomer signs in to the
 * dashboard at once; none when the address is already a user's, whose password this start cannot know.
 */
async function createDemoOwner(ctx: AppContext, organizationId: string) {
  if (findUserByEmail(ctx.platform, DEMO_OWNER_EMAIL)) return undefined;
  const password = randomBase62(20);
  const user = await createUser(ctx.platform, { email: DEMO_OWNER_EMAIL, password, name: "Demo owner" });
  addMember(ctx.platform, organizationId, user.id, "owner");
  return { email: user.email, password };
}

type DemoStore = NonNullable<Awaited<ReturnType<typeof ensureDemoStore>>>;
type DemoTenant = NonNullable<Awaited<ReturnType<typeof ensureDemoTenant>>>;

/** Whether a start made the demo's secrets (the API key, the owner's password) to print this once. */
export const heldSecrets = (demo: DemoStore | DemoTenant): demo is DemoTenant => "apiKey" in demo;
