import { normalizeEmail } from "../auth/service.ts";
import { getStore, money } from "../catalog/store-settings.ts";
import { recordEvent } from "../core/events.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import type { customers } from "./tables.ts";

// The customer records: one row per email in the shop's file, and the storefront sessions of those
// with an account. Orders reference them, so this module keeps them; the customers module holds the
// account rules (passwords, sign-up over a guest row, session tokens) and writes through here.

export interface CustomerNames {
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
}

/**
 * The customer of an email (case-insensitive), created when there is none. Synchronous, for
 * place-order's transaction. A guest customer's names and phone follow the latest checkout that
 * gives them; an account's profile is never changed by a checkout (an email alone proves nothing).
 */
export function findOrCreateCustomer(
  tenant: TenantDb,
  email: string,
  names: CustomerNames = {},
): { id: string; email: string } {
  const normalized = normalizeEmail(email);
  const sqlite = tenant.sqlite;
  const existing = sqlite
    .query("SELECT id, email, password_hash IS NOT NULL AS has_account FROM customers WHERE email = ?")
    .get(normalized) as (Pick<Row<typeof customers>, "id" | "email"> & { has_account: number }) | null;
  const firstName = names.firstName ?? null;
  const lastName = names.lastName ?? null;
  const phone = names.phone ?? null;
  const now = Date.now();
  if (existing) {
    if (!existing.has_account && (firstName !== null || lastName !== null || phone !== null)) {
      sqlite
        .query(
          `UPDATE customers SET first_name = coalesce(?, first_name), last_name = coalesce(?, last_name),
                phone = coalesce(?, phone), updated_at = ? WHERE id = ?`,
        )
        .run(firstName, lastName, phone, now, existing.id);
    }
    return { id: existing.id, email: existing.email };
  }
  const id = newId("cus");
  sqlite
    .query(
      `INSERT INTO customers (id, email, first_name, last_name, phone, password_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`,
    )
    .run(id, normalized, firstName, lastName, phone, now, now);
  customerCreated(tenant, { id, email: normalized, firstName, lastName, phone, hasAccount: false }, now);
  return { id, email: normalized };
}

/** Puts an account on the email's row (a new row, or a guest's), with the names given at sign-up; returns its id. */
export function saveCustomerAccount(
  tenant: TenantDb,
  account: { existingId: string | null; email: string; firstName: string | null; lastName: string | null },
  passwordHash: string,
  at: number,
): string {
  const { existingId, email, firstName, lastName } = account;
  if (existingId) {
    // A guest's phone stays on their orders' addresses, not on the account someone now opens.
    tenant.sqlite
      .query(
        `UPDATE customers SET password_hash = ?, first_name = ?, last_name = ?, phone = NULL, updated_at = ?
        WHERE id = ?`,
      )
      .run(passwordHash, firstName, lastName, at, existingId);
    return existingId;
  }
  const id = newId("cus");
  tenant.sqlite
    .query(
      `INSERT INTO customers (id, email, first_name, last_name, phone, password_hash, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`,
    )
    .run(id, email, firstName, lastName, passwordHash, at, at);
  customerCreated(tenant, { id, email, firstName, lastName, phone: null, hasAccount: true }, at);
  return id;
}

/** Replaces the password of an account (a password reset; hashed by the caller). */
export function setCustomerPassword(
  tenant: TenantDb,
  customerId: string,
  passwordHash: string,
  at: number,
): void {
  tenant.sqlite
    .query(
      "UPDATE customers SET password_hash = ?, updated_at = ? WHERE id = ? AND password_hash IS NOT NULL",
    )
    .run(passwordHash, at, customerId);
}

/** Stores a storefront session by its token's hash. */
export function insertCustomerSession(
  tenant: TenantDb,
  session: { tokenHash: string; customerId: string; expiresAt: number },
  at: number,
): void {
  tenant.sqlite
    .query(
      "INSERT INTO customer_sessions (id, token_hash, customer_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .run(newId("cses"), session.tokenHash, session.customerId, session.expiresAt, at);
}

/** Ends one session, the customer's sessions expired by `expiredBy`, or (without it) all of them. */
export function deleteCustomerSessions(
  tenant: TenantDb,
  which: { sessionId: string } | { customerId: string; expiredBy?: number },
): void {
  if ("sessionId" in which) {
    tenant.sqlite.query("DELETE FROM customer_sessions WHERE id = ?").run(which.sessionId);
    return;
  }
  if (which.expiredBy === undefined) {
    tenant.sqlite.query("DELETE FROM customer_sessions WHERE customer_id = ?").run(which.customerId);
    return;
  }
  tenant.sqlite
    .query("DELETE FROM customer_sessions WHERE customer_id = ? AND expires_at <= ?")
    .run(which.customerId, which.expiredBy);
}

/** Records `customer.created` with the customer as the admin list shows one that has no order yet. */
function customerCreated(
  tenant: TenantDb,
  customer: {
    id: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
    phone: string | null;
    hasAccount: boolean;
  },
  at: number,
): void {
  const { currency } = getStore(tenant);
  recordEvent(
    tenant,
    "customer.created",
    { ...customer, ordersCount: 0, totalSpent: money(0, currency), lastOrderAt: null, createdAt: iso(at) },
    at,
  );
}
