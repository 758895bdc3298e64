import type { Module } from "../core/module.ts";
import { emailOperations } from "./routes.ts";
import { closeMailer, EMAIL_JOB, queueEmails, sendEmailJob } from "./send.ts";

/**
 * Transactional email (docs/email.md): the templates in the shops' languages, the SMTP mailer of
 * `SMTP_URL`, and previews of every email for the merchant.
 */
export const emailModule: Module = {
  name: "email",
  operations: emailOperations,
  jobs: { [EMAIL_JOB]: sendEmailJob },
  onEvent: queueEmails,
  stop: ({ ctx }) => closeMailer(ctx),
};
