import type { Received, TestSmtpServer } from "../email/smtp.ts";

/** Waits until `count` messages to `to` arrived (email is sent after the commit); throws after 5 s. */
export function waitForMail(smtp: TestSmtpServer, to: string, count = 1): Promise<Received[]> {
  return waitForMessages(smtp, (m) => m.to.includes(to), count, to);
}

/** Waits until `count` messages that `which` picks arrived; throws after 5 s, naming them `what`. */
export async function waitForMessages(
  smtp: TestSmtpServer,
  which: (message: Received) => boolean,
  count: number,
  what: string,
): Promise<Received[]> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const messages = smtp.received.filter(which);
    if (messages.length >= count) return messages;
    await Bun.sleep(20);
  }
  throw new Error(`${what} received ${smtp.received.filter(which).length} of ${count} emails`);
}

/** The first link in a message's plain text that starts with `prefix`. */
export function linkIn(message: Received, prefix: string): URL {
  const start = message.text.indexOf(prefix);
  if (start === -1) throw new Error(`no link to ${prefix} in: ${message.text}`);
  return new URL(/^\S+/.exec(message.text.slice(start))![0]);
}
