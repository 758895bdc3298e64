import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PASSWORD_RESET_TTL_MS } from "../../src/auth/password-reset.ts";
import { PASSWORD_RESET_VALID_MINUTES } from "../../src/email/templates/password-reset.ts";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { linkIn, waitForMail } from "../helpers/mail.ts";
import { withTenant } from "../helpers/seed-orders.ts";

// Storefront password reset (POST /v1/account/password-reset and /confirm): the same answer for
// any email, a link to the shop's own page emailed through the shop's outbox to a real SMTP server,
// a token used once, within 30 minutes, in its own shop only; the reset ends every session.

let smtp: TestSmtpServer;
let t: TestApp;
let shopA: { id: string; key: string };
let shopB: { id: string; key: string };
const HOST_A = "reset-a.example";
const HOST_B = "reset-b.example";
const PAGE_A = "https://www.reset-a.example/account/new-password";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = makeTestApp({
    // Client addresses come from x-forwarded-for, so that tests stay under the per-address limit.
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Shops <mail@shops.example>",
      TRUST_PROXY: "true",
    },
    start: true,
  });
  shopA = await t.org("Reset Shop A", { host: HOST_A });
  shopB = await t.org("Reset Shop B", { host: HOST_B });
  for (const [shop, origin] of [
    [shopA, "https://www.reset-a.example"],
    [shopB, "https://www.reset-b.example"],
  ] as const) {
    const patched = await adminClient(t, shop.key).patch("/v1/admin/store", { allowedOrigins: [origin] });
    expect(patched.status).toBe(200);
  }
});
afterAll(async () => {
  t.cleanup();
  await smtp.close();
});

const post = (host: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.json(path, {
    method: "POST",
    headers: { host, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const requestReset = (host: string, email: string, resetUrl = PAGE_A, ip = "203.0.113.1") =>
  post(host, "/v1/account/password-reset", { email, resetUrl }, { "x-forwarded-for": ip });
const confirm = (host: string, token: string, password = NEW_PASSWORD) =>
  post(host, "/v1/account/password-reset/confirm", { token, password });
const signIn = (host: string, email: string, password: string) =>
  post(host, "/v1/account/sign-in", { email, password });

async function account(host: string, email: string): Promise<string> {
  const created = await post(host, "/v1/account/sign-up", { email, password: PASSWORD });
  expect(created.status).toBe(201);
  return created.body.data.token;
}

const resetRows = (orgId: string) =>
  withTenant(t, orgId, (tenant) =>
    tenant.sqlite.query("SELECT customer_id, token_hash, expires_at FROM customer_password_resets").all(),
  ) as { customer_id: string; token_hash: string; expires_at: number }[];
const queuedAccountEmails = (orgId: string) =>
  withTenant(
    t,
    orgId,
    (tenant) =>
      (
        tenant.sqlite.query("SELECT count(*) AS n FROM outbox WHERE kind = 'email.account'").get() as {
          n: number;
        }
      ).n,
  );

/** Asks for a reset of `email` and returns the token of the link that arrived (the n-th to that address). */
async function emailedToken(email: string, nth = 1): Promise<string> {
  expect((await requestReset(HOST_A, email)).status).toBe(202);
  const message = (await waitForMail(smtp, email, nth))[nth - 1]!;
  const link = linkIn(message, PAGE_A);
  expect(`${link.origin}${link.pathname}`).toBe(PAGE_A);
  return link.searchParams.get("token")!;
}

describe("a shopper who forgot their password", () => {
  test("gets the shop's email with a link to the shop's page; the token sets a new password, ends every session, and the new password signs in", async () => {
    const email = "forgetful@example.com";
    const sessions = [await account(HOST_A, email), (await signIn(HOST_A, email, PASSWORD)).body.data.token];

    const token = await emailedToken(email);
    const message = (await waitForMail(smtp, email))[0]!;
    expect(message.headers.subject).toBe("Reset your Reset Shop A password");
    expect(message.headers.from).toContain("Reset Shop A");
    expect(token.length).toBeGreaterThanOrEqual(43);
    // Only the token's SHA-256 is stored.
    const [row] = resetRows(shopA.id);
    expect(row!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(token).digest("hex"));
    expect(JSON.stringify(resetRows(shopA.id))).not.toContain(token);

    const done = await confirm(HOST_A, token);
    expect(done.status).toBe(204);
    for (const session of sessions) {
      const me = await t.json("/v1/account", { headers: { host: HOST_A, "x-customer-session": session } });
      expect(me.status).toBe(401);
    }
    expect((await signIn(HOST_A, email, PASSWORD)).status).toBe(401);
    expect((await signIn(HOST_A, email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a token works once: the second use is 400 TOKEN_INVALID and the password stays the first reset's", async () => {
    const email = "once@example.com";
    await account(HOST_A, email);
    const token = await emailedToken(email);
    expect((await confirm(HOST_A, token)).status).toBe(204);
    const again = await confirm(HOST_A, token, "someone else's password");
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: "This password reset link is invalid or has expired; ask for a new one",
      code: "TOKEN_INVALID",
      status: 400,
    });
    expect((await signIn(HOST_A, email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a newer request voids the older link; an unknown token is refused the same way", async () => {
    const email = "twice@example.com";
    await account(HOST_A, email);
    const first = await emailedToken(email, 1);
    const second = await emailedToken(email, 2);
    expect(first).not.toBe(second);
    const old = await confirm(HOST_A, first);
    const unknown = await confirm(HOST_A, "x".repeat(43));
    expect(old.status).toBe(400);
    expect(unknown.body).toEqual(old.body);
    expect((await confirm(HOST_A, second)).status).toBe(204);
  });

  test("a link older than 30 minutes is refused with the same 400, and the password is unchanged", async () => {
    expect(PASSWORD_RESET_TTL_MS).toBe(PASSWORD_RESET_VALID_MINUTES * 60_000);
    const email = "late@example.com";
    await account(HOST_A, email);
    const token = await emailedToken(email);
    // 30 minutes pass: the row's expiry is moved to now.
    withTenant(t, shopA.id, (tenant) =>
      tenant.sqlite.query("UPDATE customer_password_resets SET expires_at = ?").run(Date.now()),
    );
    const late = await confirm(HOST_A, token);
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("TOKEN_INVALID");
    expect((await signIn(HOST_A, email, PASSWORD)).status).toBe(200);
  });

  test("a token of shop A is unknown at shop B (400), and shop A's account keeps its password", async () => {
    const email = "two-shops@example.com";
    await account(HOST_A, email);
    await account(HOST_B, email);
    const token = await emailedToken(email);
    const elsewhere = await confirm(HOST_B, token);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe("TOKEN_INVALID");
    expect((await signIn(HOST_B, email, PASSWORD)).status).toBe(200);
    expect((await confirm(HOST_A, token)).status).toBe(204);
  });
});

describe("the request never tells whether an email has an account", () => {
  test("an account, a guest email and an unknown email get byte-identical answers and queue one outbox row each; only the account is emailed", async () => {
    await account(HOST_A, "member@example.com");
    const before = queuedAccountEmails(shopA.id);
    const answers = [];
    for (const email of ["member@example.com", "nobody@example.com", "NOBODY2@example.com"]) {
      const answer = await requestReset(HOST_A, email, PAGE_A, `198.51.100.${answers.length + 1}`);
      answers.push({ status: answer.status, body: answer.body });
    }
    expect(answers[0]).toEqual({ status: 202, body: { data: { accepted: true } } });
    expect(answers[1]).toEqual(answers[0]!);
    expect(answers[2]).toEqual(answers[0]!);
    expect(queuedAccountEmails(shopA.id)).toBe(before + 3);
    await waitForMail(smtp, "member@example.com");
    await Bun.sleep(200);
    expect(smtp.received.filter((m) => m.to.includes("nobody@example.com"))).toEqual([]);
  });

  test("past 5 requests an hour for one email the answer is 429, for an unknown email alike", async () => {
    await account(HOST_A, "limited@example.com");
    for (const email of ["limited@example.com", "limited-unknown@example.com"]) {
      for (let i = 0; i < 5; i++)
        expect((await requestReset(HOST_A, email, PAGE_A, `192.0.2.${i}`)).status).toBe(202);
      const refused = await requestReset(HOST_A, email, PAGE_A, "192.0.2.99");
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("RATE_LIMITED");
      expect(refused.response.headers.get("retry-after")).toMatch(/^\d+$/);
    }
  });
});

describe("bad input changes nothing", () => {
  test("a resetUrl off the store's allowed origins, over http, or not a URL is 422 and issues no token", async () => {
    const email = "phish@example.com";
    await account(HOST_A, email);
    const rows = resetRows(shopA.id).length;
    for (const resetUrl of [
      "https://evil.example/reset",
      "http://www.reset-a.example/account/new-password",
      "https://www.reset-b.example/account",
      "not a url",
    ]) {
      const refused = await requestReset(HOST_A, email, resetUrl, "192.0.2.200");
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe("UNPROCESSABLE");
      expect(refused.body.details[0].path).toBe("/body/resetUrl");
    }
    expect(resetRows(shopA.id).length).toBe(rows);
  });

  test("a missing email or a short new password is 400 VALIDATION_ERROR; without a shop's Host it is 401", async () => {
    const noEmail = await post(HOST_A, "/v1/account/password-reset", { resetUrl: PAGE_A });
    expect(noEmail.status).toBe(400);
    const short = await confirm(HOST_A, "x".repeat(43), "short");
    expect(short.status).toBe(400);
    expect(short.body.details[0].path).toBe("/body/password");
    const noShop = await post("unknown-host.example", "/v1/account/password-reset", {
      email: "a@example.com",
      resetUrl: PAGE_A,
    });
    expect(noShop.status).toBe(401);
  });
});
