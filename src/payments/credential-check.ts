import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { IntegrationDecryptError } from "./crypto.ts";
import { ProviderError } from "./http.ts";
import { configRow } from "./integration-rows.ts";
import { rowFields } from "./integrations.ts";
import { providerOf } from "./registry.ts";
import type { Provider } from "./tables.ts";

// Credentials a merchant saves are checked with the provider first, so a mistyped or revoked key is
// refused when it is entered rather than at a shopper's first payment. This runs in the PUT's
// `prepare`: outside the transaction, before anything is stored. What is checked, and how, is each
// provider's `credentialCheck` (provider.ts); Ifthenpay has none: it documents no call that checks a
// key without creating a Multibanco reference or sending an MB WAY request to a phone.

/** A secret the request keeps (leaves out), decrypted; undefined when none is stored or it cannot be read. */
function keptSecret(ctx: AppContext, tenant: TenantDb, provider: Provider, name: string) {
  const row = configRow(tenant, provider);
  if (!row) return undefined;
  try {
    return rowFields(ctx, tenant.orgId, row)[name];
  } catch (error) {
    // Saving new values is how a merchant replaces an unreadable secret; its use logs the failure.
    if (error instanceof IntegrationDecryptError) return undefined;
    throw error;
  }
}

/**
 * Asks the provider whether the credentials of a PUT work, before anything is saved: 422
 * UNPROCESSABLE (details at the fields) when it refuses them, 503 UPSTREAM_UNAVAILABLE with
 * Retry-After when it cannot be reached (timeout, network error, 5xx, 429).
 */
export async function checkWithProvider(
  ctx: AppContext,
  tenant: TenantDb,
  provider: Provider,
  given: Record<string, unknown>,
): Promise<void> {
  const { label: name, credentialCheck: check } = providerOf(provider);
  const fields = check?.toCheck(given, (field) => keptSecret(ctx, tenant, provider, field));
  if (!check || !fields) return;
  try {
    await check.run(ctx, fields);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.refused) {
      // The provider's own message is not relayed: it can quote part of the key.
      const paths = check.fields.filter((field) => given[field] !== undefined);
      throw new ApiError(
        "UNPROCESSABLE",
        `${name} refused these credentials (HTTP ${error.status}); nothing was saved`,
        paths.map((field) => ({ path: `/body/fields/${field}`, message: `refused by ${name}` })),
      );
    }
    throw new ApiError(
      "UPSTREAM_UNAVAILABLE",
      `${name} could not be reached to check these credentials; nothing was saved, try again`,
      undefined,
      { "retry-after": "30" },
    );
  }
}
