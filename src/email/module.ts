import { ACCOUNT_EMAIL_JOB } from "../auth/account-email.ts";
import type { Module } from "../core/module.ts";
import { sendAccountEmailJob, startControlPlaneMail, stopControlPlaneMail } from "./account-mail.ts";
import { emailOperations } from "./routes.ts";
import { closeMailer, EMAIL_JOB, queueEmails, sendEmailJob } from "./send.ts";

/**
 * Transactional email (docs/email.md): the templates in the shops' languages, the SMTP mailer of
 * `SMTP_URL`, previews of every email for the merchant, and the account emails (reset links,
 * invitations) queued by auth and customers in a shop's outbox or the control plane's.
 */
export const emailModule: Module = {
  name: "email",
  operations: emailOperations,
  jobs: { [EMAIL_JOB]: sendEmailJob, [ACCOUNT_EMAIL_JOB]: sendAccountEmailJob },
  onEvent: queueEmails,
  // The control plane's mail outbox (dashboard password resets) is drained by the running service.
  start: ({ ctx }) => startControlPlaneMail(ctx),
  stop: ({ ctx }) => {
    void stopControlPlaneMail(ctx);
    closeMailer(ctx);
  },
};
