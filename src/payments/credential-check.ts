import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { IntegrationDecryptError } from "./crypto.ts";
import { checkEasypayCredentials } from "./easypay.ts";
import { ProviderError } from "./http.ts";
import { configRow, type Fields, rowFields } from "./integrations.ts";
import { checkStripeKey } from "./stripe.ts";
import type { Provider } from "./tables.ts";

// Credentials a merchant saves are checked with the provider first, so a mistyped or revoked key is
// refused when it is entered rather than at a shopper's first payment. This runs in the PUT's
// `prepare`: outside the transaction, before anything is stored. Ifthenpay is not asked: it
// documents no call that checks a key without creating a Multibanco reference or sending an MB WAY
// request to a phone.

const NAMES: Record<Provider, string> = { stripe: "Stripe", ifthenpay: "Ifthenpay", easypay: "Easypay" };

/** The fields a provider's check depends on; a request giving none of them is not checked. */
const CHECKED: Record<Provider, string[]> = {
  stripe: ["secretKey"],
  ifthenpay: [],
  easypay: ["accountId", "apiKey", "environment"],
};

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
 * The credentials the provider's row will hold once `given` is saved, for the fields the check
 * uses; null when there is nothing new to check or not enough to check it with.
 */
function toCheck(ctx: AppContext, tenant: TenantDb, provider: Provider, given: Record<string, unknown>) {
  if (provider === "stripe") {
    return typeof given.secretKey === "string" ? { secretKey: given.secretKey } : null;
  }
  if (provider !== "easypay" || typeof given.accountId !== "string") return null;
  // Non-secret fields are replaced as given (so accountId is the one sent); an omitted secret is kept.
  const apiKey = given.apiKey === undefined ? keptSecret(ctx, tenant, provider, "apiKey") : given.apiKey;
  if (typeof apiKey !== "string") return null;
  const fields: Fields = {
    accountId: given.accountId,
    apiKey,
    environment: typeof given.environment === "string" ? given.environment : "production",
  };
  return fields;
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
  const fields = toCheck(ctx, tenant, provider, given);
  if (!fields) return;
  const name = NAMES[provider];
  try {
    if (provider === "stripe")
      await checkStripeKey(ctx.config.payments.stripeApiBase, String(fields.secretKey));
    else await checkEasypayCredentials(ctx, fields);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.refused) {
      // The provider's own message is not relayed: it can quote part of the key.
      const paths = CHECKED[provider].filter((field) => given[field] !== undefined);
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
