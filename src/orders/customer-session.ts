import { readCookie } from "../auth/caller.ts";
import { sha256Hex } from "../auth/crypto.ts";
import type { TenantDb } from "../db/tenant-pool.ts";

export const CUSTOMER_COOKIE = "customer_session";
export const CUSTOMER_HEADER = "x-customer-session";

export interface SignedInCustomer {
  id: string;
  email: string;
  sessionId: string;
}

/**
 * The storefront customer signed in on this request (DOMAIN §7): the `customer_session` cookie,
 * or the `x-customer-session` header for storefront servers. Null when there is none or it
 * expired; customer sessions live in the tenant file, so they never cross tenants.
 */
export function signedInCustomer(tenant: TenantDb, request: Request): SignedInCustomer | null {
  const token = request.headers.get(CUSTOMER_HEADER) ?? readCookie(request, CUSTOMER_COOKIE);
  if (!token) return null;
  const row = tenant.sqlite
    .query(
      `SELECT s.id AS session_id, c.id, c.email FROM customer_sessions s JOIN customers c ON c.id = s.customer_id
        WHERE s.token_hash = ? AND s.expires_at > ?`,
    )
    .get(sha256Hex(token), Date.now()) as { session_id: string; id: string; email: string } | null;
  return row ? { id: row.id, email: row.email, sessionId: row.session_id } : null;
}
