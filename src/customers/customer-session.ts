import { readCookie } from "../auth/caller.ts";
import { sha256Hex } from "../auth/crypto.ts";
import type { SignedInCustomer } from "../core/operation.ts";
import type { TenantDb } from "../db/tenant-pool.ts";

/** The customer session travels in this cookie (browsers) or this header (storefront servers). */
export const CUSTOMER_COOKIE = "customer_session";
export const CUSTOMER_HEADER = "x-customer-session";

/**
 * Where a request carries the customer session, as the executor reads it: the header is a
 * credential (a wrong one is a 401), the cookie a browser's (a stale one is no session).
 */
export const customerSessionOf = (request: Request) => ({
  customerToken: () => request.headers.get(CUSTOMER_HEADER) ?? undefined,
  customerCookie: () => readCookie(request, CUSTOMER_COOKIE),
});

/**
 * The storefront customer a session token belongs to, or null when it is unknown or expired.
 * Customer sessions live in the tenant file, so they never cross tenants.
 */
export function signedInCustomer(tenant: TenantDb, token: string): SignedInCustomer | null {
  const row = tenant.sqlite
    .query(
      `SELECT s.id AS session_id, c.id, c.email FROM customer_sessions s JOIN customers c ON c.id = s.customer_id
        WHERE s.token_hash = ? AND s.expires_at > ?`,
    )
    .get(sha256Hex(token), Date.now()) as { session_id: string; id: string; email: string } | null;
  return row ? { id: row.id, email: row.email, sessionId: row.session_id } : null;
}
