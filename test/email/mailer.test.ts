import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import {
  createMailer,
  isPermanentFailure,
  type Mailer,
  MailNotConfiguredError,
} from "../../src/email/mailer.ts";
import { renderPreview } from "../../src/email/registry.ts";
import { shopperOrderSample } from "../../src/email/samples.ts";
import { orderConfirmation } from "../../src/email/templates/order-confirmation.ts";
import { REFUSED_RECIPIENT, startSmtpServer, type TestSmtpServer } from "./smtp.ts";

// The mailer against a real SMTP server (smtp-server on a free port): what arrives is read back
// from the raw message.

const MAIL_FROM = "Shops Platform <mail@shops.example.com>";
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

let smtp: TestSmtpServer;
/** A mailer for the test server without login. */
let mailer: Mailer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  mailer = createMailer(loadConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM }));
});
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

/** Runs `use` with a mailer of its own for `smtpUrl`, closed afterwards. */
async function withMailer(smtpUrl: string, use: (mailer: Mailer) => Promise<void>) {
  const own = createMailer(loadConfig({ SMTP_URL: smtpUrl, MAIL_FROM }));
  try {
    await use(own);
  } finally {
    own.close();
  }
}

/** The messages the server received with this Message-ID. */
const receivedAs = (messageId: string) => smtp.received.filter((m) => m.headers["message-id"] === messageId);

describe("sending through SMTP", () => {
  test("a Portuguese order confirmation arrives with its number, totals, the shop as sender name and its contact as reply-to", async () => {
    const url = `smtp://platform%40shops.example.com:s3cr%3At@127.0.0.1:${smtp.port}`;
    await withMailer(url, async (own) => {
      expect(own.configured).toBe(true);
      const email = orderConfirmation(shopperOrderSample, "pt");
      const sent = await own.send({
        id: "obx_0VbsQ4kPBABCVxkvGqRJzntQ",
        to: "ana@example.com",
        ...email,
        fromName: shopperOrderSample.store.name,
        replyTo: shopperOrderSample.store.contactEmail,
      });
      expect(sent.messageId).toBe("<obx_0VbsQ4kPBABCVxkvGqRJzntQ@shops.example.com>");
      const [got] = receivedAs(sent.messageId);
      expect(got?.from).toBe("mail@shops.example.com");
      expect(got?.to).toEqual(["ana@example.com"]);
      expect(got?.headers.from).toBe('"Linen & Co." <mail@shops.example.com>');
      expect(got?.headers["reply-to"]).toBe("hello@linen.example");
      expect(got?.headers.subject).toBe("Encomenda n.º 1001 confirmada – Linen & Co.");
      expect(got?.headers["content-type"]).toStartWith("multipart/alternative");
      const text = spaced(got?.text ?? "");
      expect(text).toContain("2 × Camisa de linho: 90,00 €");
      expect(text).toContain("IVA incluído: 16,83 €");
      expect(text).toContain("Total: 90,00 €");
      expect(got?.text).toBe(email.text.replace(/\n/g, "\r\n"));
      expect(got?.html).toContain('<html lang="pt">');
      expect(got?.html).toContain("Linen &amp; Co.");
      expect(spaced(got?.html ?? "")).toContain("90,00 €");
      // The credentials of SMTP_URL, percent-decoded, are what the server was given.
      expect(smtp.logins).toContain("platform@shops.example.com:s3cr:t");
    });
  });

  test("the Message-ID comes from the caller's key, so a retried send of the same job carries the same id", async () => {
    const email = renderPreview("payment_instructions", "en");
    const message = { id: "obx_retry_1", to: "ana@example.com", ...email };
    const first = await mailer.send(message);
    const second = await mailer.send(message);
    expect(first.messageId).toBe("<obx_retry_1@shops.example.com>");
    expect(second.messageId).toBe(first.messageId);
    const copies = receivedAs(first.messageId);
    expect(copies).toHaveLength(2);
    // Without a sender name the display name of MAIL_FROM is kept; without reply-to there is none.
    expect(copies[0]?.headers.from).toBe("Shops Platform <mail@shops.example.com>");
    expect(copies[0]?.headers["reply-to"]).toBeUndefined();
    expect(spaced(copies[0]?.text ?? "")).toContain("Reference: 123 456 789");
    await expect(mailer.send({ ...message, id: "not a key>" })).rejects.toThrow(TypeError);
  });

  test("a sender name with a line break stays inside the From header: no header is injected", async () => {
    const email = renderPreview("order_cancelled", "en");
    const fromName = "Shop\r\nBcc: thief@evil.example";
    const sent = await mailer.send({ id: "obx_injection", to: "ana@example.com", ...email, fromName });
    const [got] = receivedAs(sent.messageId);
    expect(got?.to).toEqual(["ana@example.com"]);
    expect(got?.raw).not.toMatch(/^bcc:/im);
    expect(got?.headers.bcc).toBeUndefined();
  });

  test("?requireTLS=true in SMTP_URL refuses a server that offers no STARTTLS, before any password is sent", async () => {
    await withMailer(`smtp://tls-only:secret@127.0.0.1:${smtp.port}?requireTLS=true`, async (own) => {
      const email = renderPreview("order_confirmation", "en");
      const sending = own.send({ id: "obx_tls", to: "ana@example.com", ...email });
      await expect(sending).rejects.toThrow("STARTTLS");
      expect(smtp.logins.filter((login) => login.startsWith("tls-only:"))).toEqual([]);
    });
  });

  test("a server that refuses the recipient (550) makes send throw, and that failure is permanent", async () => {
    const email = renderPreview("order_confirmation", "en");
    const to = "nobody@refused.example";
    expect(to).toMatch(REFUSED_RECIPIENT);
    const before = smtp.received.length;
    const failure = await mailer.send({ id: "obx_refused", to, ...email }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("550");
    expect(isPermanentFailure(failure)).toBe(true);
    expect(smtp.received.length).toBe(before);
  });

  test("a server that cannot be reached makes send throw, a failure that is not permanent (the outbox retries)", async () => {
    const gone = await startSmtpServer();
    await gone.close();
    await withMailer(`smtp://127.0.0.1:${gone.port}`, async (own) => {
      const email = renderPreview("order_confirmation", "en");
      const failure = await own
        .send({ id: "obx_unreachable", to: "ana@example.com", ...email })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toContain("ECONNREFUSED");
      expect(isPermanentFailure(failure)).toBe(false);
    });
  });
});

describe("without SMTP_URL", () => {
  test("the mailer is not configured and refuses to send", async () => {
    const unconfigured = createMailer(loadConfig({}));
    expect(unconfigured.configured).toBe(false);
    const email = renderPreview("order_confirmation", "en");
    const sending = unconfigured.send({ id: "obx_1", to: "ana@example.com", ...email });
    await expect(sending).rejects.toBeInstanceOf(MailNotConfiguredError);
    unconfigured.close();
  });
});
