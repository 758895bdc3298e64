import type { AppContext } from "../app-context.ts";
import { immediately } from "../db/sqlite.ts";
import { keyringOf } from "./crypto.ts";
import { rekeyTenant } from "./integrations.ts";

/**
 * Re-encrypts every stored provider secret under the current key (old keys must still be given in
 * INTEGRATION_ENCRYPTION_PREVIOUS_KEYS), one transaction per organization. Afterwards the old keys
 * can be removed.
 */
export async function rekeyIntegrations(
  ctx: AppContext,
  orgIds: string[],
): Promise<{ tenants: number; values: number; rekeyed: number; kid: string }> {
  const totals = { tenants: 0, values: 0, rekeyed: 0, kid: keyringOf(ctx).current.kid };
  for (const orgId of orgIds) {
    const counts = await ctx.tenants.with(orgId, (tenant) =>
      immediately(tenant.sqlite, () => rekeyTenant(ctx, tenant)),
    );
    totals.tenants++;
    totals.values += counts.values;
    totals.rekeyed += counts.rekeyed;
  }
  return totals;
}
