import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { cookieFrom, jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { linkIn, waitForMail } from "../helpers/mail.ts";

// Dashboard password reset (POST /api/auth/password-reset and /confirm): the same answer for any
// email, the link to BASE_URL/dashboard/reset-password emailed through the control plane's mail
// outbox, a token used once within 30 minutes, every session ended; and the mail outbox keeps a
// message across a restart until the SMTP server takes it.

const BASE_URL = "https://admin.shops.example";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

const mailEnv = (port: number) => ({
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  MAIL_FROM: "Shop Platform <mail@shops.example>",
  BASE_URL,
  TRUST_PROXY: "true",
});

const requestReset = (t: TestApp, email: string, ip = "203.0.113.7") =>
  t.json("/api/auth/password-reset", jsonBody({ email }, { "x-forwarded-for": ip }));
const confirm = (t: TestApp, token: string, password = NEW_PASSWORD) =>
  t.json("/api/auth/password-reset/confirm", jsonBody({ token, password }));
const signIn = (t: TestApp, email: string, password: string) =>
  t.request("/api/auth/sign-in/email", jsonBody({ email, password }));
const mailRows = (t: TestApp) =>
  t.app.ctx.platform.sqlite.query("SELECT status, attempts, last_error, message FROM mail_outbox").all() as {
    status: string;
    attempts: number;
    last_error: string | null;
    message: string;
  }[];

describe("a dashboard user who forgot their password", () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = makeTestApp({ env: mailEnv(smtp.port), start: true });
  });
  afterAll(async () => {
    t.cleanup();
    await smtp.close();
  });

  async function emailedToken(email: string, nth = 1): Promise<string> {
    expect((await requestReset(t, email)).status).toBe(202);
    const message = (await waitForMail(smtp, email, nth))[nth - 1]!;
    const link = linkIn(message, `${BASE_URL}/dashboard/reset-password?token=`);
    return link.searchParams.get("token")!;
  }

  test("gets an email with a link to the dashboard; the token sets the password, signs every session out, and the new password signs in", async () => {
    const email = "owner@forgot.example";
    const sessions = [await signUp(t, email, PASSWORD), cookieFrom(await signIn(t, email, PASSWORD))];
    const token = await emailedToken(email);
    const message = (await waitForMail(smtp, email))[0]!;
    expect(message.headers.subject).toBe("Reset your Shop Platform password");
    // The queued message is sealed: the control plane holds neither the token nor the recipient.
    const stored = JSON.stringify(mailRows(t));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(email);

    expect((await confirm(t, token)).status).toBe(204);
    for (const cookie of sessions) {
      expect((await t.request("/api/auth/session", { headers: { cookie } })).status).toBe(401);
    }
    expect((await signIn(t, email, PASSWORD)).status).toBe(401);
    expect((await signIn(t, email, NEW_PASSWORD)).status).toBe(200);

    const again = await confirm(t, token, "another password");
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("TOKEN_INVALID");
  });

  test("a newer request voids the older link, and an expired link is refused like an unknown one", async () => {
    const email = "admin@forgot.example";
    await signUp(t, email, PASSWORD);
    const first = await emailedToken(email, 1);
    const second = await emailedToken(email, 2);
    const voided = await confirm(t, first);
    expect(voided.status).toBe(400);
    // 30 minutes pass.
    t.app.ctx.platform.sqlite.query("UPDATE password_resets SET expires_at = ?").run(Date.now());
    const expired = await confirm(t, second);
    const unknown = await confirm(t, "y".repeat(43));
    expect(expired.body).toEqual(voided.body);
    expect(unknown.body).toEqual(voided.body);
    expect((await signIn(t, email, PASSWORD)).status).toBe(200);
  });

  test("a known and an unknown email get identical answers and queue one mail row each; only the account receives email", async () => {
    await signUp(t, "known@forgot.example", PASSWORD);
    const rows = mailRows(t).length;
    const known = await requestReset(t, "known@forgot.example", "198.51.100.20");
    const unknown = await requestReset(t, "unknown@forgot.example", "198.51.100.21");
    expect(known.status).toBe(202);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: known.status,
      body: known.body,
    });
    expect(known.body).toEqual({ data: { accepted: true } });
    expect(mailRows(t).length).toBe(rows + 2);
    await waitForMail(smtp, "known@forgot.example");
    await Bun.sleep(200);
    expect(smtp.received.some((m) => m.to.includes("unknown@forgot.example"))).toBe(false);
    expect(mailRows(t).every((row) => row.status === "sent")).toBe(true);
  });

  test("past 5 requests an hour for one email the answer is 429 RATE_LIMITED; a bad email is 400", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(t, "spam@forgot.example", `192.0.2.${i}`)).status).toBe(202);
    }
    const limited = await requestReset(t, "spam@forgot.example", "192.0.2.50");
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    const bad = await requestReset(t, "not an email");
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("/body/email");
  });
});

/** A port nothing listens on now (taken by a moment's server, then freed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the control plane's mail outbox", () => {
  test("a reset email queued while the SMTP server is down is retried, kept across a restart, and sent once the server is back", async () => {
    const port = await freePort();
    const first = makeTestApp({ env: mailEnv(port), start: true });
    const email = "patient@restart.example";
    await signUp(first, email, PASSWORD);
    expect((await requestReset(first, email)).status).toBe(202);
    // The first attempt fails: the row stays pending with the error and a later due time.
    for (let waited = 0; mailRows(first)[0]?.attempts !== 1 && waited < 5000; waited += 20)
      await Bun.sleep(20);
    await Bun.sleep(100);
    const [failed] = mailRows(first);
    expect(failed!.status).toBe("pending");
    expect(failed!.last_error).toBeTruthy();
    first.close();

    const smtp = await startSmtpServer(port);
    const second = makeTestApp({ env: mailEnv(port), dataDir: first.dataDir, start: true });
    try {
      const [message] = await waitForMail(smtp, email);
      const token = linkIn(message!, `${BASE_URL}/dashboard/reset-password?token=`).searchParams.get(
        "token",
      )!;
      expect((await confirm(second, token)).status).toBe(204);
      expect(mailRows(second)[0]!.status).toBe("sent");
    } finally {
      second.cleanup();
      await smtp.close();
    }
  });

  test("a message committed by a service that stopped before sending it is sent by the next start", async () => {
    const smtp = await startSmtpServer();
    // Never started: it commits the row and sends nothing, as a process that died after the commit.
    const crashed = makeTestApp({ env: mailEnv(smtp.port) });
    const email = "crash@restart.example";
    await signUp(crashed, email, PASSWORD);
    expect((await requestReset(crashed, email)).status).toBe(202);
    await Bun.sleep(200);
    expect(smtp.received).toEqual([]);
    crashed.close();
    const next = makeTestApp({ env: mailEnv(smtp.port), dataDir: crashed.dataDir, start: true });
    try {
      const [message] = await waitForMail(smtp, email);
      expect(message!.headers.subject).toBe("Reset your Shop Platform password");
    } finally {
      next.cleanup();
      await smtp.close();
    }
  });
});
