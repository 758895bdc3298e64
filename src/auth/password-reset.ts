import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import { newId } from "../lib/ids.ts";
import { mailEnabled } from "./account-email.ts";
import { newToken, sha256Hex } from "./crypto.ts";
import { queueMail } from "./mail-outbox.ts";
import { findUserByEmail } from "./service.ts";

// Password reset of dashboard users. A request answers the same whether the email has an account or
// not, and does the same work (a token is made either way); for an account, the token's SHA-256 is
// kept for 30 minutes, the user's older ones are deleted, and the link goes out through the
// control plane's mail outbox (src/auth/mail-outbox.ts) in the same transaction. Confirming sets the
// password, uses the token and ends every session of the user.

/** How long a reset link works (the `password_reset` email says `PASSWORD_RESET_VALID_MINUTES`, the same). */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;

/** The one answer to an unusable token, whatever the reason (unknown, used, expired, another's). */
export const invalidToken = (what: string) =>
  new ApiError("TOKEN_INVALID", `This ${what} link is invalid or has expired; ask for a new one`);

/** A fresh bearer token and its SHA-256, the only form of it that is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = newToken();
  return { token, tokenHash: sha256Hex(token) };
}

/** The name the service signs its own email with: `MAIL_FROM`'s display name, else `BASE_URL`'s host. */
export function serviceName(ctx: AppContext): string {
  const display = /^\s*"?([^"<]*?)"?\s*</.exec(ctx.config.mail.from ?? "")?.[1];
  return display || new URL(ctx.config.baseUrl).host;
}

/**
 * Issues a reset link for the dashboard account of `email`, if there is one, with the same work
 * (a token, a transaction, a queued message) either way.
 */
export function requestUserPasswordReset(ctx: AppContext, email: string): void {
  const { token, tokenHash } = newLinkToken();
  const user = findUserByEmail(ctx.platform, email);
  const now = Date.now();
  const resetUrl = `${ctx.config.baseUrl}/dashboard/reset-password?token=${token}`;
  const { sqlite } = ctx.platform;
  sqlite.transaction(() => {
    if (user) {
      sqlite.query("DELETE FROM password_resets WHERE user_id = ? OR expires_at <= ?").run(user.id, now);
      sqlite
        .query(
          "INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
        )
        .run(newId("pwr"), user.id, tokenHash, now + PASSWORD_RESET_TTL_MS, now);
    }
    if (!mailEnabled(ctx, { template: "password_reset", audience: "dashboard" })) return;
    const data = { siteName: serviceName(ctx), resetUrl };
    queueMail(ctx, user ? { template: "password_reset", to: user.email, data } : null);
  })();
}

/** The user a usable reset token belongs to, or TOKEN_INVALID. */
export function userOfResetToken(ctx: AppContext, token: string): string {
  const row = ctx.platform.sqlite
    .query("SELECT user_id FROM password_resets WHERE token_hash = ? AND expires_at > ?")
    .get(sha256Hex(token), Date.now()) as { user_id: string } | null;
  if (!row) throw invalidToken("password reset");
  return row.user_id;
}

/**
 * Sets the new password (hashed by the caller) of the token's user, uses the token and ends every
 * session of the user, in one transaction; TOKEN_INVALID when the token cannot be used (any longer).
 */
export function confirmUserPasswordReset(ctx: AppContext, token: string, passwordHash: string): void {
  const { sqlite } = ctx.platform;
  sqlite.transaction(() => {
    const userId = userOfResetToken(ctx, token);
    const now = Date.now();
    sqlite.query("DELETE FROM password_resets WHERE user_id = ?").run(userId);
    sqlite
      .query("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?")
      .run(passwordHash, now, userId);
    sqlite.query("DELETE FROM sessions WHERE user_id = ?").run(userId);
  })();
}
