import type { AppContext } from "../app-context.ts";
import {
  ACCOUNT_EMAIL_JOB,
  type AccountEmail,
  mailEnabled,
  sealAccountEmail,
} from "../auth/account-email.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { invalidToken, newLinkToken, PASSWORD_RESET_TTL_MS } from "../auth/password-reset.ts";
import { normalizeEmail } from "../auth/service.ts";
import { getStore, type Store } from "../catalog/store-settings.ts";
import { ApiError } from "../core/errors.ts";
import type { AfterCommit } from "../core/operation.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { deleteCustomerSessions, setCustomerPassword } from "../orders/customers.ts";

// Password reset of storefront accounts, in the shop's own file (`customer_password_resets`, the
// token's SHA-256 only). A request does the same work whether or not the email has an account (a
// token, a transaction, one sealed outbox row: see src/auth/account-email.ts) and answers the same.
// The link goes to the storefront's own page: the caller names it (`resetUrl`), and it must be on
// one of the shop's `allowedOrigins` (https), so that a link in the shop's email never leads
// anywhere else; the token is added as `?token=`.

/** The storefront page the link opens, checked: https on an allowed origin (or http://localhost outside production). */
export function checkResetUrl(ctx: AppContext, store: Store, resetUrl: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(resetUrl);
  } catch {
    url = undefined;
  }
  const local = url?.protocol === "http:" && ["localhost", "127.0.0.1"].includes(url.hostname);
  const allowed =
    url !== undefined &&
    !url.username &&
    !url.password &&
    ((url.protocol === "https:" && store.allowedOrigins.includes(url.origin)) ||
      (local && !ctx.config.production));
  if (!allowed) {
    throw new ApiError(
      "UNPROCESSABLE",
      "resetUrl must be an https page on one of the store's allowedOrigins",
      [{ path: "/body/resetUrl", message: "an https URL whose origin is one of the store's allowedOrigins" }],
    );
  }
  return url as URL;
}

/**
 * In the operation's transaction: for an account of `email`, replaces its reset links with a new one
 * and queues its email; for any other email, the same steps with nothing to send.
 */
export function requestCustomerPasswordReset(
  call: { ctx: AppContext; tenant: TenantDb; afterCommit: AfterCommit },
  input: { email: string; resetUrl: string },
): void {
  const { ctx, tenant } = call;
  const store = getStore(tenant);
  const url = checkResetUrl(ctx, store, input.resetUrl);
  const { token, tokenHash } = newLinkToken();
  url.searchParams.set("token", token);
  const now = Date.now();
  const email = normalizeEmail(input.email);
  const account = tenant.sqlite
    .query("SELECT id FROM customers WHERE email = ? AND password_hash IS NOT NULL")
    .get(email) as { id: string } | null;
  tenant.sqlite
    .query("DELETE FROM customer_password_resets WHERE customer_id = ? OR expires_at <= ?")
    .run(account?.id ?? null, now);
  if (account) {
    tenant.sqlite
      .query(
        `INSERT INTO customer_password_resets (id, customer_id, token_hash, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(newId("cpr"), account.id, tokenHash, now + PASSWORD_RESET_TTL_MS, now);
  }
  if (!mailEnabled(ctx, { template: "password_reset", audience: "storefront" })) return;
  const message: AccountEmail = {
    template: "password_reset",
    to: email,
    data: { siteName: store.name, resetUrl: url.toString() },
  };
  call.afterCommit.enqueue(ACCOUNT_EMAIL_JOB, sealAccountEmail(ctx, account ? message : null));
}

/** The account a usable reset token of this shop belongs to, or TOKEN_INVALID. */
export function customerOfResetToken(tenant: TenantDb, token: string): string {
  const row = tenant.sqlite
    .query("SELECT customer_id FROM customer_password_resets WHERE token_hash = ? AND expires_at > ?")
    .get(sha256Hex(token), Date.now()) as { customer_id: string } | null;
  if (!row) throw invalidToken("password reset");
  return row.customer_id;
}

/**
 * In the operation's transaction: sets the new password (hashed before it), deletes the customer's
 * reset links (this one is used) and ends every session of the customer.
 */
export function confirmCustomerPasswordReset(tenant: TenantDb, token: string, passwordHash: string): void {
  const customerId = customerOfResetToken(tenant, token);
  const now = Date.now();
  tenant.sqlite.query("DELETE FROM customer_password_resets WHERE customer_id = ?").run(customerId);
  setCustomerPassword(tenant, customerId, passwordHash, now);
  deleteCustomerSessions(tenant, { customerId });
}
