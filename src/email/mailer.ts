import type { Transporter } from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import type { Config } from "../config.ts";

// Sending through the SMTP server of `SMTP_URL` (docs/email.md). One pooled transport per process:
// the outbox can run jobs of several stores at once, and the pool keeps the number of connections
// to the relay bounded and reuses each one's TLS handshake and login across messages, instead of
// opening one connection per email.

export interface MailMessage {
  /**
   * A stable key for this email, such as the outbox job's id: the `Message-ID` is built from it, so
   * a retried send of the same job carries the same id and receivers can recognise the duplicate.
   */
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Where replies go: the shop's contact email. */
  replyTo?: string | null;
  /** Replaces the display name of `MAIL_FROM` (the shop's name); the address stays the platform's. */
  fromName?: string | null;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** False without `SMTP_URL`: nothing can be sent, and `send` refuses. */
  readonly configured: boolean;
  /** Resolves once the SMTP server accepted the message; rejects on any failure, for the outbox to retry. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** Closes the pooled connections (at shutdown). */
  close(): void;
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super("SMTP_URL is not set: no email can be sent");
  }
}

// A hung server fails the attempt well inside the outbox's 60 s lease, so the retry is the
// outbox's and never a second attempt running beside a stuck one.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
const MAX_CONNECTIONS = 3;

const MESSAGE_KEY = /^[A-Za-z0-9._-]{1,200}$/;

/** Whether a send failed for good (a 5xx reply: unknown recipient, refused sender) rather than for now. */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

export function createMailer(config: Pick<Config, "mail">): Mailer {
  const { smtpUrl, from } = config.mail;
  if (smtpUrl === null || from === null) {
    return {
      configured: false,
      send: () => Promise.reject(new MailNotConfiguredError()),
      close: () => {},
    };
  }
  const sender = addressparser(from, { flatten: true })[0]!;
  const domain = sender.address.split("@").pop()!;
  // nodemailer (a few MB resident) is loaded by the first email, which an outbox job sends: no
  // request waits for it (docs/operations.md, "Memory").
  let transport: Promise<Transporter> | undefined;
  const pool = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: MAX_CONNECTIONS, ...TIMEOUTS }),
    ));
  return {
    configured: true,
    async send(message) {
      if (!MESSAGE_KEY.test(message.id)) throw new TypeError(`not a message key: "${message.id}"`);
      const messageId = `<${message.id}@${domain}>`;
      await (await pool()).sendMail({
        from: { name: message.fromName ?? sender.name, address: sender.address },
        to: message.to,
        replyTo: message.replyTo ?? undefined,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
        messageId,
      });
      return { messageId };
    },
    close: () =>
      void transport?.then(
        (pooled) => pooled.close(),
        () => {}, // nothing was opened
      ),
  };
}
