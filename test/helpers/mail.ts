import type { Received, TestSmtpServer } from "../email/smtp.ts";

/** Waits until `count` messages to `to` arrived (email is sent after the commit); throws after 5 s. */
export async function waitForMail(smtp: TestSmtpServer, to: string, count = 1): Promise<Received[]> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const messages = smtp.received.filter((m) => m.to.includes(to));
    if (messages.length >= count) return messages;
    await Bun.sleep(20);
  }
  throw new Error(
    `${to} received ${smtp.received.filter((m) => m.to.includes(to)).length} of ${count} emails`,
  );
}

/** The first link in a message's plain text that starts with `prefix`. */
export function linkIn(message: Received, prefix: string): URL {
  const start = message.text.indexOf(prefix);
  if (start === -1) throw new Error(`no link to ${prefix} in: ${message.text}`);
  return new URL(/^\S+/.exec(message.text.slice(start))![0]);
}
