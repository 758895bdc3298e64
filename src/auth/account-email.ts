import type { AppContext } from "../app-context.ts";
import { instanceKeyring, type KeyPurpose, seal, unseal } from "../core/keyring.ts";
import type { Role } from "./tables.ts";

// Emails about an account (a password reset link, an invitation): queued by the modules that issue
// the link (auth, customers) and written and sent by the email module, which comes later in the
// module order, so the two agree on this job kind and payload here. The link carries a bearer token
// that is stored nowhere else in the clear, so the queued message is sealed with the instance key:
// an outbox row in a shop's file or the control plane hands no token, nor its recipient, to
// whoever reads the file.
//
// A password reset request for an email with no account queues a sealed null, which is sent to no
// one: the request does the same work either way, so neither its answer nor its timing says
// whether the email has an account.

/** The tenant outbox job that sends an account email (its handler is the email module's). */
export const ACCOUNT_EMAIL_JOB = "email.account";

export type AccountEmail =
  | { template: "password_reset"; to: string; data: { siteName: string; resetUrl: string } }
  | {
      template: "member_invite";
      to: string;
      data: { organizationName: string; inviterName: string; role: Role; inviteUrl: string };
    };

/** The job's payload: the sealed `AccountEmail`, or a sealed null (nothing to send). */
export interface AccountEmailJob {
  sealed: string;
}

const ACCOUNT_EMAILS: KeyPurpose = { salt: "commerce/account-email", info: "account email v1" };
const BOUND_TO = "account-email";

export const sealAccountEmail = (ctx: AppContext, email: AccountEmail | null): AccountEmailJob => ({
  sealed: seal(instanceKeyring(ctx, ACCOUNT_EMAILS), BOUND_TO, JSON.stringify(email)),
});

export const unsealAccountEmail = (ctx: AppContext, job: AccountEmailJob): AccountEmail | null =>
  JSON.parse(unseal(instanceKeyring(ctx, ACCOUNT_EMAILS), BOUND_TO, job.sealed));

/** Whether email can be sent at all; without `SMTP_URL` nothing is queued and a line is logged. */
export function mailEnabled(ctx: AppContext, what: Record<string, string>): boolean {
  if (ctx.config.mail.smtpUrl) return true;
  ctx.log.info("email not sent: SMTP_URL is unset", what);
  return false;
}
