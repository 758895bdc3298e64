import { Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { ApiError, notFound } from "../core/errors.ts";
import { type ClientInfo, type DashboardUser, defineOperation, Paged, Reply } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import { countSignUp, limitedSignIn } from "./abuse.ts";
import { SESSION_COOKIE } from "./caller.ts";
import {
  ApiKey,
  Caller,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateOrganizationBody,
  ListApiKeysQuery,
  Organization,
  RevokeApiKeyBody,
  SessionWithUser,
  SetActiveOrganizationBody,
  SignInBody,
  SignUpBody,
} from "./schema.ts";
import {
  type ApiKeyView,
  apiKeyOrganization,
  createApiKey,
  createOrganization,
  createSession,
  createUser,
  deleteSession,
  findSession,
  findUser,
  listApiKeys,
  listMemberships,
  membershipRole,
  normalizeEmail,
  type PublicUser,
  requireManager,
  revokeApiKey,
  SESSION_TTL_MS,
  type Session,
  setActiveOrganization,
  verifyPassword,
} from "./service.ts";

export const TAG = "Dashboard auth";

const sessionView = (
  user: { id: string; email: string; name: string | null; createdAt: number },
  session: Session,
) => ({
  user: { ...user, createdAt: iso(user.createdAt) },
  session: {
    id: session.id,
    activeOrganizationId: session.activeOrganizationId,
    expiresAt: iso(session.expiresAt),
    createdAt: iso(session.createdAt),
  },
});

/** Opens a session for a user whose credentials were just checked, and sets its cookie. */
export function startSession(call: { ctx: AppContext; client: ClientInfo }, user: PublicUser) {
  const { token, session } = createSession(call.ctx.platform, user.id, call.client.userAgent);
  return new Reply(sessionView(user, session), {
    cookies: [{ name: SESSION_COOKIE, value: token, maxAgeSeconds: SESSION_TTL_MS / 1000 }],
  });
}

/** The signed-in user's session as it is now. */
export function currentSession(ctx: AppContext, user: DashboardUser) {
  const session = findSession(ctx.platform, user.sessionId);
  const account = findUser(ctx.platform, user.userId);
  if (!session || !account) throw new ApiError("UNAUTHORIZED", "Session expired or signed out");
  return sessionView(account, session);
}

const apiKeyView = (key: ApiKeyView) => ({
  ...key,
  createdAt: iso(key.createdAt),
  expiresAt: isoOrNull(key.expiresAt),
  revokedAt: isoOrNull(key.revokedAt),
});

/** The organization a dashboard request is about: the one named, else the session's active one. */
function targetOrganization(user: DashboardUser, named: string | undefined) {
  const organizationId = named ?? user.activeOrganizationId;
  if (!organizationId) throw new ApiError("UNPROCESSABLE", "No organization given and none is active");
  return organizationId;
}

const getMe = defineOperation({
  method: "GET",
  path: "/v1/me",
  operationId: "getMe",
  summary: "The resolved caller",
  description: "Which organization, scopes and caller type this request was resolved to.",
  tag: "Service",
  access: "caller",
  agent: false,
  response: Caller,
  handler: ({ caller }) => {
    const me: {
      orgId: string;
      scopes: ("storefront" | "admin")[];
      type: typeof caller.type;
      userId?: string;
    } = {
      orgId: caller.orgId,
      scopes: caller.scopes,
      type: caller.type,
    };
    if (caller.userId) me.userId = caller.userId;
    return me;
  },
});

const signUp = defineOperation({
  method: "POST",
  path: "/api/auth/sign-up/email",
  operationId: "signUpEmail",
  summary: "Create a dashboard account and sign in",
  description:
    "Open only when the operator allows public sign-up (`ALLOW_SIGNUP`, off by default in production): " +
    "otherwise a 403 `SIGNUP_DISABLED`, and accounts come from the operator's command line. " +
    "Past `SIGNUP_RATE_LIMIT_PER_HOUR` sign-ups per client address, a 429 `RATE_LIMITED`.",
  tag: TAG,
  access: "public",
  agent: false,
  status: 201,
  errors: ["SIGNUP_DISABLED", "CONFLICT", "RATE_LIMITED", "UNAVAILABLE"],
  body: SignUpBody,
  response: SessionWithUser,
  handler: async (call) => {
    if (!call.ctx.config.allowSignup) {
      throw new ApiError(
        "SIGNUP_DISABLED",
        "Sign-up is closed on this service; ask its operator for an account",
      );
    }
    countSignUp(call.ctx, call.client);
    const user = await createUser(call.ctx.platform, call.body);
    return startSession(call, user);
  },
});

const signIn = defineOperation({
  method: "POST",
  path: "/api/auth/sign-in/email",
  operationId: "signInEmail",
  summary: "Sign in with email and password",
  description:
    "Sets the httpOnly session cookie. Wrong credentials are a 401 that never says which part was wrong. " +
    "429 `RATE_LIMITED` after 10 failures per client address and email in 15 minutes, or past " +
    "`SIGNIN_RATE_LIMIT_PER_HOUR` attempts per address whatever the email.",
  tag: TAG,
  access: "public",
  agent: false,
  errors: ["UNAUTHORIZED", "RATE_LIMITED", "UNAVAILABLE"],
  body: SignInBody,
  response: SessionWithUser,
  handler: async (call) => {
    const { email, password } = call.body;
    const user = await limitedSignIn(call.ctx, call.client, `dashboard|${normalizeEmail(email)}`, () =>
      verifyPassword(call.ctx.platform, email, password),
    );
    if (!user) throw new ApiError("UNAUTHORIZED", "Wrong email or password");
    return startSession(call, user);
  },
});

const signOut = defineOperation({
  method: "POST",
  path: "/api/auth/sign-out",
  operationId: "signOut",
  summary: "End the dashboard session",
  description:
    "Deletes the session behind the cookie and clears the cookie; the token stops working at once.",
  tag: TAG,
  access: "user",
  agent: false,
  response: Type.Object({ success: Type.Boolean() }),
  handler: (call) => {
    deleteSession(call.ctx.platform, call.user.sessionId);
    return new Reply({ success: true }, { cookies: [{ name: SESSION_COOKIE, value: "", maxAgeSeconds: 0 }] });
  },
});

const getSession = defineOperation({
  method: "GET",
  path: "/api/auth/session",
  operationId: "getSession",
  summary: "The current dashboard session and user",
  description:
    "The session of the `session_token` cookie with its user and active organization; 401 when the cookie is missing, expired or unknown.",
  tag: TAG,
  access: "user",
  agent: false,
  response: SessionWithUser,
  handler: ({ ctx, user }) => {
    return currentSession(ctx, user);
  },
});

const createOrganizationOp = defineOperation({
  method: "POST",
  path: "/api/auth/organization/create",
  operationId: "createOrganization",
  summary: "Create an organization (a store with its own database)",
  description:
    "The signed-in user becomes its owner; it becomes the session's active organization if none was.",
  tag: TAG,
  access: "user",
  agent: false,
  status: 201,
  errors: ["CONFLICT"],
  body: CreateOrganizationBody,
  response: Organization,
  handler: ({ ctx, body, user }) => {
    const org = createOrganization(ctx, { name: body.name, slug: body.slug, ownerUserId: user.userId });
    if (!user.activeOrganizationId) setActiveOrganization(ctx.platform, user.sessionId, user.userId, org.id);
    return { ...org, role: "owner" as const, createdAt: iso(org.createdAt) };
  },
});

const listOrganizationsOp = defineOperation({
  method: "GET",
  path: "/api/auth/organization/list",
  operationId: "listOrganizations",
  summary: "Organizations the signed-in user belongs to",
  description: "Every organization the user is a member of, with the user's role in each.",
  tag: TAG,
  access: "user",
  agent: false,
  response: Type.Array(Organization),
  handler: ({ ctx, user }) =>
    listMemberships(ctx.platform, user.userId).map((org) => ({ ...org, createdAt: iso(org.createdAt) })),
});

const setActiveOrganizationOp = defineOperation({
  method: "POST",
  path: "/api/auth/organization/set-active",
  operationId: "setActiveOrganization",
  summary: "Choose the organization that dashboard requests act on",
  description:
    "Dashboard requests to `/v1` act on the active organization. An organization the user is not a member of is a 404.",
  tag: TAG,
  access: "user",
  agent: false,
  errors: ["NOT_FOUND"],
  body: SetActiveOrganizationBody,
  response: SessionWithUser,
  handler: ({ ctx, body, user }) => {
    setActiveOrganization(ctx.platform, user.sessionId, user.userId, body.organizationId);
    return currentSession(ctx, user);
  },
});

const createApiKeyOp = defineOperation({
  method: "POST",
  path: "/api/auth/api-key/create",
  operationId: "createApiKey",
  summary: "Create an API key (Settings → API Keys)",
  description: "Owners and admins only. The key is in this response only; the service keeps its SHA-256.",
  tag: TAG,
  access: "user",
  agent: false,
  status: 201,
  errors: ["FORBIDDEN", "NOT_FOUND", "UNPROCESSABLE"],
  body: CreateApiKeyBody,
  response: CreatedApiKey,
  handler: ({ ctx, body, user }) => {
    const organizationId = targetOrganization(user, body.organizationId);
    requireManager(ctx.platform, organizationId, user.userId);
    const key = createApiKey(ctx.platform, {
      organizationId,
      name: body.name,
      scopes: body.scopes ?? ["storefront"],
      createdBy: user.userId,
      expiresAt: body.expiresIn ? Date.now() + body.expiresIn * 1000 : undefined,
    });
    return { ...apiKeyView(key), key: key.key };
  },
});

const listApiKeysOp = defineOperation({
  method: "GET",
  path: "/api/auth/api-key/list",
  operationId: "listApiKeys",
  summary: "API keys of an organization",
  description:
    "Any member may list them; `organizationId` defaults to the session's active organization (422 when there is none). Keys show only their first characters (`start`), never the key.",
  tag: TAG,
  access: "user",
  agent: false,
  list: true,
  errors: ["NOT_FOUND", "UNPROCESSABLE"],
  query: ListApiKeysQuery,
  response: ApiKey,
  handler: ({ ctx, query, user }) => {
    const organizationId = targetOrganization(user, query.organizationId);
    if (!membershipRole(ctx.platform, organizationId, user.userId)) throw notFound("Organization");
    const page = pageOf(query);
    const { items, total } = listApiKeys(ctx.platform, organizationId, page);
    return new Paged(items.map(apiKeyView), page, total);
  },
});

const revokeApiKeyOp = defineOperation({
  method: "POST",
  path: "/api/auth/api-key/revoke",
  operationId: "revokeApiKey",
  summary: "Revoke an API key; it stops working at once",
  description:
    "Owners and admins only (403 for members). A revoked key answers 401 from its next request on.",
  tag: TAG,
  access: "user",
  agent: false,
  errors: ["FORBIDDEN", "NOT_FOUND"],
  body: RevokeApiKeyBody,
  response: ApiKey,
  handler: ({ ctx, body, user }) => {
    const organizationId = apiKeyOrganization(ctx.platform, body.keyId);
    if (!organizationId) throw notFound("API key");
    requireManager(ctx.platform, organizationId, user.userId);
    return apiKeyView(revokeApiKey(ctx.platform, organizationId, body.keyId));
  },
});

export const authOperations = [
  getMe,
  signUp,
  signIn,
  signOut,
  getSession,
  createOrganizationOp,
  listOrganizationsOp,
  setActiveOrganizationOp,
  createApiKeyOp,
  listApiKeysOp,
  revokeApiKeyOp,
];
