import { Type } from "@sinclair/typebox";
import { ApiError } from "../core/errors.ts";
import { defineOperation, Reply } from "../core/operation.ts";
import { Body, named, Text, Timestamp } from "../core/schemas.ts";
import { iso } from "../lib/time.ts";
import { countPasswordResetRequest } from "./abuse.ts";
import { hashPassword } from "./crypto.ts";
import { invitationOfToken, joinByInvitation } from "./invitations.ts";
import { confirmUserPasswordReset, requestUserPasswordReset, userOfResetToken } from "./password-reset.ts";
import { currentSession, startSession, TAG } from "./routes.ts";
import { Email, Password, Role, SessionWithUser } from "./schema.ts";
import {
  findOrganization,
  findUser,
  findUserByEmail,
  insertUser,
  normalizeEmail,
  setActiveOrganization,
} from "./service.ts";

// A dashboard user's password reset and accepting an invitation: `/api/auth` operations that need
// no session (the reset) or take one when there is one (accepting). Design in docs/dashboard.md.

const LinkToken = Text({ min: 1, max: 200, description: "The `token` of the link the email carried" });

/** The answer to every reset request, whether or not the email has an account. */
export const ResetRequested = Type.Object({
  accepted: Type.Literal(true, {
    description: "Always true: a link was sent if the email has an account, and the answer never says which",
  }),
});

const requestPasswordResetOp = defineOperation({
  method: "POST",
  path: "/api/auth/password-reset",
  operationId: "requestPasswordReset",
  summary: "Email a dashboard user a link to set a new password",
  description:
    "Always the same 202, whether or not the email has an account, after the same work. For an account, " +
    "a link to `BASE_URL/dashboard/reset-password?token=…` valid 30 minutes is emailed (older unused " +
    "links stop working). 429 `RATE_LIMITED` past 5 requests an hour per email or 20 per client address.",
  tag: TAG,
  access: "public",
  agent: false,
  status: 202,
  errors: ["RATE_LIMITED"],
  body: Body({ email: Email }),
  response: ResetRequested,
  handler: ({ ctx, client, body }) => {
    countPasswordResetRequest(ctx, client, `dashboard|${normalizeEmail(body.email)}`);
    requestUserPasswordReset(ctx, body.email);
    return { accepted: true as const };
  },
});

const confirmPasswordResetOp = defineOperation({
  method: "POST",
  path: "/api/auth/password-reset/confirm",
  operationId: "confirmPasswordReset",
  summary: "Set a new dashboard password with a reset link's token",
  description:
    "Sets the password (the rules of sign-up), uses the token and signs the user out everywhere (every " +
    "session ends). A token that is unknown, used, replaced by a newer one or expired is one answer: " +
    "400 `TOKEN_INVALID`.",
  tag: TAG,
  access: "public",
  agent: false,
  status: 204,
  errors: ["TOKEN_INVALID", "UNAVAILABLE"],
  body: Body({ token: LinkToken, password: Password }),
  handler: async ({ ctx, body }) => {
    // Checked before the hash, so that an unusable token costs no password hash; checked again when used.
    userOfResetToken(ctx, body.token);
    confirmUserPasswordReset(ctx, body.token, await hashPassword(body.password));
    return undefined;
  },
});

const InvitationPreview = named(
  "InvitationPreview",
  Type.Object({
    organizationName: Type.String(),
    email: Type.String({ description: "Whom the invitation is for" }),
    role: Role,
    hasAccount: Type.Boolean({
      description:
        "The email has a dashboard account already: sign in to accept, rather than choose a password",
    }),
    expiresAt: Timestamp,
  }),
);

const lookupInvitationOp = defineOperation({
  method: "POST",
  path: "/api/auth/invitations/lookup",
  operationId: "lookupInvitation",
  summary: "What an invitation link is for",
  description:
    "The organization, email and role of a pending invitation, for the page that accepts it. The token " +
    "travels in the body, not the URL, so that it stays out of logs. A token that is unknown, used, " +
    "revoked or expired is 400 `TOKEN_INVALID`.",
  tag: TAG,
  access: "public",
  agent: false,
  errors: ["TOKEN_INVALID"],
  body: Body({ token: LinkToken }),
  response: InvitationPreview,
  handler: ({ ctx, body }) => {
    const invitation = invitationOfToken(ctx.platform, body.token);
    return {
      organizationName: findOrganization(ctx.platform, invitation.organizationId)?.name ?? "",
      email: invitation.email,
      role: invitation.role,
      hasAccount: findUserByEmail(ctx.platform, invitation.email) !== undefined,
      expiresAt: iso(invitation.expiresAt),
    };
  },
});

const acceptInvitationOp = defineOperation({
  method: "POST",
  path: "/api/auth/invitations/accept",
  operationId: "acceptInvitation",
  summary: "Join an organization with an invitation",
  description:
    "Signed in (session cookie) as the invited email: `{token}` makes the user a member with the " +
    "invitation's role and the organization the session's active one (200; another email is a 403). " +
    "Without a session: `{token, password, name?}` creates the account of the invited email (the " +
    "password rules of sign-up), signs it in (session cookie) and adds the membership (201); when the " +
    "email has an account already, a 409 says to sign in first. An invitation is used once: a token " +
    "that is unknown, used, revoked or expired is 400 `TOKEN_INVALID`; already a member is a 409.",
  tag: TAG,
  access: "public",
  dashboardSession: "optional",
  agent: false,
  alsoStatus: 201,
  errors: ["TOKEN_INVALID", "UNAUTHORIZED", "FORBIDDEN", "CONFLICT", "UNAVAILABLE"],
  body: Body({
    token: LinkToken,
    password: Type.Optional(Password),
    name: Type.Optional(Text({ min: 1, max: 200 })),
  }),
  response: SessionWithUser,
  handler: async (call) => {
    const { ctx, body, sessionUser } = call;
    const invitation = invitationOfToken(ctx.platform, body.token);
    if (sessionUser) {
      if (findUser(ctx.platform, sessionUser.userId)?.email !== invitation.email) {
        throw new ApiError(
          "FORBIDDEN",
          `This invitation is for ${invitation.email}; sign in with that email`,
        );
      }
      joinByInvitation(ctx.platform, body.token, sessionUser.userId);
      setActiveOrganization(
        ctx.platform,
        sessionUser.sessionId,
        sessionUser.userId,
        invitation.organizationId,
      );
      return currentSession(ctx, sessionUser);
    }
    if (findUserByEmail(ctx.platform, invitation.email)) {
      throw new ApiError("CONFLICT", `${invitation.email} has an account: sign in to accept the invitation`);
    }
    if (!body.password) {
      throw new ApiError("VALIDATION_ERROR", "Choose a password for the new account", [
        { path: "/body/password", message: "Required to create the account (at least 8 characters)" },
      ]);
    }
    const passwordHash = await hashPassword(body.password);
    // One transaction: an invitation used meanwhile leaves no account behind.
    const user = ctx.platform.sqlite.transaction(() => {
      const created = insertUser(ctx.platform, { email: invitation.email, name: body.name }, passwordHash);
      joinByInvitation(ctx.platform, body.token, created.id);
      return created;
    })();
    const reply = startSession(call, user);
    return new Reply(reply.data, { ...reply.effects, status: 201 });
  },
});

export const accountOperations = [
  requestPasswordResetOp,
  confirmPasswordResetOp,
  lookupInvitationOp,
  acceptInvitationOp,
];
