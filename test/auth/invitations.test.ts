import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addMember } from "../../src/auth/service.ts";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { cookieFrom, jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { linkIn, waitForMail } from "../helpers/mail.ts";

// Members and invitations (/v1/admin/members…, POST /api/auth/invitations/…): owners and admins
// invite by email (the link goes out through the shop's outbox), a new person accepts by choosing a
// password, a signed-in user by their session; roles follow the owner/admin rules; an organization
// always keeps an owner; each organization sees only its own members and invitations.

const BASE_URL = "https://admin.shops.example";
const PASSWORD = "correct horse battery";
const ACCEPT = `${BASE_URL}/dashboard/invitations/accept?token=`;

let smtp: TestSmtpServer;
let t: TestApp;
let org: { id: string; key: string };
let other: { id: string; key: string };
const cookies: Record<"owner" | "admin" | "member", string> = { owner: "", admin: "", member: "" };
const userIds: Record<string, string> = {};

/** A new dashboard user; with a role, a member of the organization with it active in the session. */
async function user(email: string, role?: "owner" | "admin" | "member"): Promise<string> {
  const cookie = await signUp(t, email, PASSWORD);
  userIds[email] = (await t.json("/api/auth/session", { headers: { cookie } })).body.data.user.id;
  if (role) {
    addMember(t.app.ctx.platform, org.id, userIds[email]!, role);
    const active = await as(cookie, "POST", "/api/auth/organization/set-active", { organizationId: org.id });
    expect(active.status).toBe(200);
  }
  return cookie;
}

/** A dashboard request as the member with that cookie, on their active organization. */
const as = (cookie: string, method: string, path: string, body?: unknown) =>
  t.json(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const invite = (cookie: string, email: string, role: string) =>
  as(cookie, "POST", "/v1/admin/members/invitations", { email, role });
const accept = (body: Record<string, unknown>, cookie?: string) =>
  t.json("/api/auth/invitations/accept", jsonBody(body, cookie ? { cookie } : {}));
const members = async (orgCookie: string) =>
  (await as(orgCookie, "GET", "/v1/admin/members")).body.data as {
    email: string;
    role: string;
    userId: string;
  }[];

async function invitedToken(cookie: string, email: string, role: string, nth = 1): Promise<string> {
  const invited = await invite(cookie, email, role);
  expect(invited.status).toBe(201);
  const message = (await waitForMail(smtp, email, nth))[nth - 1]!;
  return linkIn(message, ACCEPT).searchParams.get("token")!;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = makeTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "Shops <mail@shops.example>", BASE_URL },
    start: true,
  });
  org = await t.org("Linen House", { host: "linen-house.example" });
  other = await t.org("Other House", { host: "other-house.example" });
  for (const role of ["owner", "admin", "member"] as const)
    cookies[role] = await user(`${role}@linen-house.example`, role);
});
afterAll(async () => {
  t.cleanup();
  await smtp.close();
});

describe("inviting someone new", () => {
  test("the owner invites; the email names the shop, the inviter and the role; the invitee chooses a password, is signed in and listed with the role", async () => {
    const email = "ana@newcomer.example";
    const invited = await invite(cookies.owner, email, "admin");
    expect(invited.body.data).toMatchObject({ email, role: "admin", invitedBy: "owner@linen-house.example" });
    const [message] = await waitForMail(smtp, email);
    expect(message!.headers.subject).toBe("You are invited to join Linen House");
    expect(message!.text).toContain(
      "owner@linen-house.example invited you to Linen House as an administrator.",
    );
    const token = linkIn(message!, ACCEPT).searchParams.get("token")!;

    const preview = await t.json("/api/auth/invitations/lookup", jsonBody({ token }));
    expect(preview.body.data).toMatchObject({
      organizationName: "Linen House",
      email,
      role: "admin",
      hasAccount: false,
    });

    const accepted = await accept({ token, password: "my own passphrase", name: "Ana" });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.user).toMatchObject({ email, name: "Ana" });
    expect(accepted.body.data.session.activeOrganizationId).toBe(org.id);
    const session = cookieFrom(accepted.response);
    expect((await as(session, "GET", "/v1/admin/members")).status).toBe(200);
    expect((await members(cookies.owner)).find((m) => m.email === email)?.role).toBe("admin");
    expect((await as(cookies.owner, "GET", "/v1/admin/members/invitations")).body.data).toEqual([]);

    // Used once.
    const again = await accept({ token, password: "my own passphrase" });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("TOKEN_INVALID");
    expect((await t.json("/api/auth/invitations/lookup", jsonBody({ token }))).body.code).toBe(
      "TOKEN_INVALID",
    );
    // A session cookie that names no session is a wrong credential, never "no session".
    const stale = await accept({ token }, "session_token=not-a-session");
    expect(stale.status).toBe(401);
  });

  test("a new account needs a password of at least 8 characters, and creates nothing without one", async () => {
    const token = await invitedToken(cookies.owner, "bo@newcomer.example", "member");
    const none = await accept({ token });
    expect(none.status).toBe(400);
    expect(none.body.details[0].path).toBe("/body/password");
    const short = await accept({ token, password: "short" });
    expect(short.status).toBe(400);
    expect(
      t.app.ctx.platform.sqlite.query("SELECT 1 FROM users WHERE email = 'bo@newcomer.example'").get(),
    ).toBeNull();
    expect((await accept({ token, password: "long enough now" })).status).toBe(201);
  });
});

describe("inviting someone who has an account", () => {
  test("signed in as the invited email, accepting adds the membership and makes the organization active", async () => {
    const email = "carla@existing.example";
    const cookie = await user(email);
    const token = await invitedToken(cookies.admin, email, "member");
    const preview = await t.json("/api/auth/invitations/lookup", jsonBody({ token }));
    expect(preview.body.data.hasAccount).toBe(true);
    // Without the session, the account must sign in first.
    const signedOut = await accept({ token, password: "whatever password" });
    expect(signedOut.status).toBe(409);
    const accepted = await accept({ token }, cookie);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.session.activeOrganizationId).toBe(org.id);
    expect((await members(cookies.owner)).find((m) => m.email === email)?.role).toBe("member");
  });

  test("signed in as another email, accepting is 403 and the invitation stays usable", async () => {
    const intruder = await user("intruder@existing.example");
    const token = await invitedToken(cookies.owner, "dora@existing.example", "member");
    const refused = await accept({ token }, intruder);
    expect(refused.status).toBe(403);
    expect((await t.json("/api/auth/invitations/lookup", jsonBody({ token }))).status).toBe(200);
  });

  test("an email that is already a member cannot be invited (409)", async () => {
    const conflict = await invite(cookies.owner, "member@linen-house.example", "admin");
    expect(conflict.status).toBe(409);
  });
});

describe("who may invite and with which role", () => {
  test("an admin may invite an admin but not an owner (403); a member may not invite (403); nobody signed in is 401", async () => {
    expect((await invite(cookies.admin, "eve@roles.example", "owner")).status).toBe(403);
    expect((await invite(cookies.admin, "eve@roles.example", "admin")).status).toBe(201);
    expect((await invite(cookies.member, "fred@roles.example", "member")).status).toBe(403);
    const anonymous = await t.json(
      "/v1/admin/members/invitations",
      jsonBody({ email: "x@roles.example", role: "member" }),
    );
    expect(anonymous.status).toBe(401);
  });

  test("an unknown role or a bad email is 400 and invites no one", async () => {
    const before = (await as(cookies.owner, "GET", "/v1/admin/members/invitations")).body.data.length;
    expect((await invite(cookies.owner, "gil@roles.example", "superuser")).status).toBe(400);
    expect((await invite(cookies.owner, "not-an-email", "member")).status).toBe(400);
    expect((await as(cookies.owner, "GET", "/v1/admin/members/invitations")).body.data.length).toBe(before);
  });
});

describe("pending invitations", () => {
  test("are listed with their role; a revoked one's link is refused; inviting again replaces the older link", async () => {
    const revokedToken = await invitedToken(cookies.owner, "hana@pending.example", "member");
    const pending = (await as(cookies.owner, "GET", "/v1/admin/members/invitations")).body.data;
    const invitation = pending.find((i: { email: string }) => i.email === "hana@pending.example");
    expect(invitation.role).toBe("member");
    expect((await as(cookies.admin, "DELETE", `/v1/admin/members/invitations/${invitation.id}`)).status).toBe(
      204,
    );
    expect((await accept({ token: revokedToken, password: "long enough now" })).body.code).toBe(
      "TOKEN_INVALID",
    );
    expect((await as(cookies.owner, "DELETE", `/v1/admin/members/invitations/${invitation.id}`)).status).toBe(
      404,
    );

    const older = await invitedToken(cookies.owner, "ivo@pending.example", "member", 1);
    const newer = await invitedToken(cookies.owner, "ivo@pending.example", "admin", 2);
    expect((await accept({ token: older, password: "long enough now" })).status).toBe(400);
    expect((await accept({ token: newer, password: "long enough now" })).status).toBe(201);
  });

  test("an expired invitation is refused like a used one", async () => {
    const token = await invitedToken(cookies.owner, "jo@pending.example", "member");
    // Seven days pass.
    t.app.ctx.platform.sqlite
      .query("UPDATE invitations SET expires_at = ? WHERE email = 'jo@pending.example'")
      .run(Date.now());
    const expired = await accept({ token, password: "long enough now" });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("TOKEN_INVALID");
  });

  test("another organization sees none of them and cannot revoke them (404)", async () => {
    await invite(cookies.owner, "kim@isolated.example", "member");
    const ours = (await as(cookies.owner, "GET", "/v1/admin/members/invitations")).body.data;
    const id = ours.find((i: { email: string }) => i.email === "kim@isolated.example").id;
    const theirs = await t.json("/v1/admin/members/invitations", { headers: { "x-api-key": other.key } });
    expect(theirs.body.data).toEqual([]);
    const revoke = await t.json(`/v1/admin/members/invitations/${id}`, {
      method: "DELETE",
      headers: { "x-api-key": other.key },
    });
    expect(revoke.status).toBe(404);
    const member = await t.json(`/v1/admin/members/${userIds["member@linen-house.example"]}`, {
      method: "DELETE",
      headers: { "x-api-key": other.key },
    });
    expect(member.status).toBe(404);
  });
});

describe("changing roles and removing members", () => {
  test("the owner changes a member's role; an admin cannot change or remove an owner (403)", async () => {
    const leo = await user("leo@team.example", "member");
    const promoted = await as(cookies.owner, "PATCH", `/v1/admin/members/${userIds["leo@team.example"]}`, {
      role: "admin",
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ email: "leo@team.example", role: "admin" });
    const ownerId = userIds["owner@linen-house.example"]!;
    expect((await as(leo, "PATCH", `/v1/admin/members/${ownerId}`, { role: "member" })).status).toBe(403);
    expect((await as(leo, "DELETE", `/v1/admin/members/${ownerId}`)).status).toBe(403);
    expect((await as(leo, "PATCH", `/v1/admin/members/${ownerId}`, { role: "owner" })).status).toBe(403);
  });

  test("the last owner can be neither demoted nor removed (409); with a second owner, they can", async () => {
    const ownerId = userIds["owner@linen-house.example"]!;
    const demote = await as(cookies.owner, "PATCH", `/v1/admin/members/${ownerId}`, { role: "admin" });
    expect(demote.status).toBe(409);
    expect((await as(cookies.owner, "DELETE", `/v1/admin/members/${ownerId}`)).status).toBe(409);
    expect((await members(cookies.owner)).find((m) => m.userId === ownerId)?.role).toBe("owner");

    const mia = await user("mia@team.example", "owner");
    expect((await as(mia, "PATCH", `/v1/admin/members/${ownerId}`, { role: "admin" })).status).toBe(200);
    expect((await as(mia, "PATCH", `/v1/admin/members/${ownerId}`, { role: "owner" })).status).toBe(200);
  });

  test("a removed member loses access at once and is no longer listed; an unknown member is 404", async () => {
    const ned = await user("ned@team.example", "member");
    expect((await as(ned, "GET", "/v1/admin/members")).status).toBe(200);
    expect(
      (await as(cookies.admin, "DELETE", `/v1/admin/members/${userIds["ned@team.example"]}`)).status,
    ).toBe(204);
    expect((await as(ned, "GET", "/v1/admin/members")).status).toBe(403);
    expect((await members(cookies.owner)).some((m) => m.email === "ned@team.example")).toBe(false);
    expect((await as(cookies.owner, "DELETE", "/v1/admin/members/usr_unknown")).status).toBe(404);
  });
});
