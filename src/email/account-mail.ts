import type { AppContext } from "../app-context.ts";
import { type AccountEmail, type AccountEmailJob, unsealAccountEmail } from "../auth/account-email.ts";
import { startMailOutbox, stopMailOutbox } from "../auth/mail-outbox.ts";
import { getStore } from "../catalog/store-settings.ts";
import type { Job } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { isPermanentFailure } from "./mailer.ts";
import { TEMPLATES } from "./registry.ts";
import { mailerOf } from "./send.ts";

// Account emails (a password reset link, an invitation; see src/auth/account-email.ts): written
// and sent here, from a shop's outbox (in the shop's language, under its sender name) or from the
// control plane's mail outbox (the dashboard's own, in English, under MAIL_FROM's name).

/** Writes and sends one; `refused` when the server refused it for good (logged, not retried). */
async function sendAccountEmail(
  ctx: AppContext,
  id: string,
  email: AccountEmail,
  from: { locale: string; fromName?: string | null; replyTo?: string | null },
): Promise<"sent" | "refused"> {
  // The union pairs each template with its data.
  const render = TEMPLATES[email.template].render as (
    data: AccountEmail["data"],
    locale: string,
  ) => {
    subject: string;
    html: string;
    text: string;
  };
  const { subject, html, text } = render(email.data, from.locale);
  try {
    await mailerOf(ctx).send({
      id,
      to: email.to,
      subject,
      html,
      text,
      fromName: from.fromName,
      replyTo: from.replyTo,
    });
    return "sent";
  } catch (error) {
    if (!isPermanentFailure(error)) throw error;
    ctx.log.warn("email refused by the SMTP server", {
      template: email.template,
      id,
      error: error instanceof Error ? error.message : String(error),
    });
    return "refused";
  }
}

/** The `email.account` job of a shop's outbox. */
export async function sendAccountEmailJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const email = unsealAccountEmail(ctx, job.payload as AccountEmailJob);
  if (!email) return; // a request about an email with no account: nothing to send
  const store = getStore(tenant);
  await sendAccountEmail(ctx, job.id, email, {
    locale: store.defaultLocale,
    fromName: store.emailSenderName ?? store.name,
    replyTo: store.emailReplyTo ?? store.contactEmail,
  });
}

/** Starts sending the control plane's queued email (with the service). */
export function startControlPlaneMail(ctx: AppContext): void {
  if (!ctx.config.mail.smtpUrl) return;
  startMailOutbox(ctx, (id, email) => sendAccountEmail(ctx, id, email, { locale: "en" }));
}

export const stopControlPlaneMail = (ctx: AppContext): Promise<void> => stopMailOutbox(ctx);
