import { decoyPasswordCheck, newToken, passwordMatches, sha256Hex } from "../auth/crypto.ts";
import { normalizeEmail } from "../auth/service.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { deleteCustomerSessions, insertCustomerSession, saveCustomerAccount } from "../orders/customers.ts";

// Storefront accounts: a password on a tenant's customer row, sessions in the tenant file
// (`customer_sessions`, token stored as SHA-256), so an account never crosses tenants.
//
// Guests and accounts: customers are one row per email, so signing up with the email of a guest
// who ordered before puts the password on that row. That must not hand the guest's history to
// whoever signs up with the email ("guest orders are not attached to a new account by email
// alone"), so:
// - claiming a guest row replaces its names with the ones given at sign-up and clears its phone
//   (the merchant keeps them on the orders' addresses), and the account view shows no figures
//   drawn from orders and no creation date: a sign-up over a guest email answers exactly like a
//   sign-up over a new one;
// - the orders an account lists are only those placed from a cart of its own session
//   (`ACCOUNT_ORDER_SQL` in src/orders/list.ts), never those that merely carry its email, before or
//   after sign-up.

export const CUSTOMER_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

interface AccountRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** The signed-in customer as the storefront sees it. */
const accountView = (row: AccountRow) => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  hasAccount: true as const,
});

type AccountView = ReturnType<typeof accountView>;

export function findAccount(tenant: TenantDb, customerId: string): AccountView | null {
  const row = tenant.sqlite
    .query(
      "SELECT id, email, first_name, last_name FROM customers WHERE id = ? AND password_hash IS NOT NULL",
    )
    .get(customerId) as AccountRow | null;
  return row && accountView(row);
}

/** Opens a session for the customer (synchronous, inside the caller's transaction). */
function insertSession(tenant: TenantDb, customerId: string, now: number): string {
  const token = newToken();
  insertCustomerSession(
    tenant,
    { tokenHash: sha256Hex(token), customerId, expiresAt: now + CUSTOMER_SESSION_TTL_MS },
    now,
  );
  return token;
}

interface SignUpInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Creates the account and its first session, inside the caller's transaction (the password was
 * hashed before it, with `hashPassword` of src/auth/crypto.ts), so two concurrent sign-ups cannot
 * both win. An email that already has an account is a 409.
 */
export function createAccount(
  tenant: TenantDb,
  input: SignUpInput,
  passwordHash: string,
): { customer: AccountView; token: string } {
  const email = normalizeEmail(input.email);
  const firstName = input.firstName ?? null;
  const lastName = input.lastName ?? null;
  const sqlite = tenant.sqlite;
  const now = Date.now();
  const existing = sqlite
    .query("SELECT id, password_hash IS NOT NULL AS has_account FROM customers WHERE email = ?")
    .get(email) as { id: string; has_account: number } | null;
  if (existing?.has_account) throw new ApiError("CONFLICT", "An account with this email already exists");
  const id = saveCustomerAccount(
    tenant,
    { existingId: existing?.id ?? null, email, firstName, lastName },
    passwordHash,
    now,
  );
  const token = insertSession(tenant, id, now);
  return { customer: accountView({ id, email, first_name: firstName, last_name: lastName }), token };
}

/** The account whose password matches; null otherwise, never saying why. */
export async function verifyAccountPassword(
  tenant: TenantDb,
  email: string,
  password: string,
): Promise<AccountView | null> {
  const row = tenant.sqlite
    .query("SELECT id, email, first_name, last_name, password_hash FROM customers WHERE email = ?")
    .get(normalizeEmail(email)) as (AccountRow & { password_hash: string | null }) | null;
  // An email without an account costs the same time as a wrong password.
  if (!row?.password_hash) return decoyPasswordCheck(password).then(() => null);
  if (!(await passwordMatches(password, row.password_hash))) return null;
  return accountView(row);
}

/** A new session for a customer whose password was just checked (inside the caller's transaction). */
export function startCustomerSession(tenant: TenantDb, customerId: string): string {
  const now = Date.now();
  // Housekeeping: the customer's expired sessions go as a new one starts.
  deleteCustomerSessions(tenant, { customerId, expiredBy: now });
  return insertSession(tenant, customerId, now);
}

/** Ends one customer session. */
export function endCustomerSession(tenant: TenantDb, sessionId: string): void {
  deleteCustomerSessions(tenant, { sessionId });
}
