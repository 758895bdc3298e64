import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../app-context.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { Caller, Scope } from "../core/operation.ts";
import type { PageParams } from "../core/schemas.ts";
import type { PlatformDb } from "../db/platform.ts";
import { newId } from "../lib/ids.ts";
import { freeSlug, slugify } from "../lib/slug.ts";
import { decoyPasswordCheck, hashPassword, newToken, passwordMatches, sha256Hex } from "./crypto.ts";
import { apiKeys, domains, members, organizations, type Role, sessions, users } from "./tables.ts";

// Users, organizations, memberships, domains, sessions and API keys: rules only, no HTTP.

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** A session's expiry slides forward at most once a day, so most requests write nothing. */
export const SESSION_REFRESH_MS = 24 * 3600 * 1000;

export const SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$";
const HOST_PATTERN =
  "^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$";

const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed/.test(error.message);

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Host header → host name: lower-case, port and a trailing dot (`shop.example.com.`) stripped. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.indexOf(":");
  return stripTrailingDot(colon === -1 ? lower : lower.slice(0, colon));
}

/** A host as stored in `domains`: trimmed, lower-case, without the trailing dot of a fully qualified name. */
export function normalizeDomainHost(host: string): string {
  return stripTrailingDot(host.trim().toLowerCase());
}

function stripTrailingDot(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

const HOST_RE = new RegExp(HOST_PATTERN);

/** A host as stored in `domains` (see `normalizeDomainHost`), or undefined when it is no valid host name. */
export function validDomainHost(raw: string): string | undefined {
  const host = normalizeDomainHost(raw);
  return HOST_RE.test(host) ? host : undefined;
}

/**
 * The organization a normalised host belongs to: an exact verified domain wins, else
 * `{slug}.{PLATFORM_DOMAIN}` (one label only). How storefront requests find their tenant, and what
 * counts as a shop's own host.
 */
export function organizationOfHost(
  platform: PlatformDb,
  platformDomain: string,
  host: string,
): string | undefined {
  const exact = platform.sqlite
    .query("SELECT organization_id AS id FROM domains WHERE host = ? AND verified = 1")
    .get(host) as { id: string } | null;
  if (exact) return exact.id;
  const suffix = `.${platformDomain}`;
  if (!host.endsWith(suffix)) return undefined;
  const slug = host.slice(0, -suffix.length);
  if (slug.includes(".")) return undefined;
  return (
    platform.sqlite.query("SELECT id FROM organizations WHERE slug = ?").get(slug) as { id: string } | null
  )?.id;
}

// ---------------------------------------------------------------- organizations

interface Organization {
  id: string;
  slug: string;
  name: string;
  createdAt: number;
}

/**
 * Creates an organization: its tenant file (created and migrated first, removed again if the
 * control-plane rows cannot be written), its row, an optional owner membership and host.
 */
export function createOrganization(
  ctx: Pick<AppContext, "platform" | "tenants" | "tenantSetup" | "config">,
  input: { name: string; slug?: string; host?: string; ownerUserId?: string },
): Organization {
  const { platform } = ctx;
  const platformDomain = ctx.config.platformDomain;
  // A slug whose `{slug}.{PLATFORM_DOMAIN}` is already another organization's domain is taken too.
  const slugTaken = (candidate: string) =>
    Boolean(platform.db.select().from(organizations).where(eq(organizations.slug, candidate)).get()) ||
    Boolean(
      platform.db
        .select()
        .from(domains)
        .where(eq(domains.host, `${candidate}.${platformDomain}`))
        .get(),
    );
  const slug = input.slug ?? freeSlug(slugify(input.name, 40, "store"), slugTaken);
  if (slugTaken(slug)) throw new ApiError("CONFLICT", `The slug "${slug}" is taken`);
  const host = input.host === undefined ? undefined : normalizeDomainHost(input.host);
  if (host) {
    assertHostFree(platform, ctx.config, host);
    if (host === `${slug}.${platformDomain}`) {
      throw new ApiError("CONFLICT", `The host ${host} is already the organization's platform host`);
    }
  }
  const now = Date.now();
  const org: Organization = { id: newId("org"), slug, name: input.name, createdAt: now };
  ctx.tenants.create(org.id, (tenant) => {
    for (const module of ctx.tenantSetup) module.initializeTenant?.(tenant, { name: input.name });
  });
  try {
    platform.sqlite.transaction(() => {
      platform.db
        .insert(organizations)
        .values({ ...org, updatedAt: now })
        .run();
      if (input.ownerUserId) {
        platform.db
          .insert(members)
          .values({
            id: newId("mem"),
            organizationId: org.id,
            userId: input.ownerUserId,
            role: "owner",
            createdAt: now,
          })
          .run();
      }
      if (host) {
        platform.db
          .insert(domains)
          .values({ host, organizationId: org.id, verified: true, createdAt: now })
          .run();
      }
    })();
  } catch (error) {
    ctx.tenants.discard(org.id);
    if (isUniqueViolation(error)) throw new ApiError("CONFLICT", "The organization slug or host is taken");
    throw error;
  }
  return org;
}

const organizationColumns = {
  id: organizations.id,
  slug: organizations.slug,
  name: organizations.name,
  createdAt: organizations.createdAt,
};

export function findOrganization(platform: PlatformDb, id: string): Organization | undefined {
  return platform.db.select(organizationColumns).from(organizations).where(eq(organizations.id, id)).get();
}

export function listOrganizations(platform: PlatformDb): Organization[] {
  return platform.db
    .select(organizationColumns)
    .from(organizations)
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .all();
}

/**
 * Refuses a host that is already a domain, that is `{slug}.{PLATFORM_DOMAIN}` of an organization
 * (it would shadow, or be shadowed by, the resolution of storefront hosts by slug), or that is the
 * service's own (`PLATFORM_DOMAIN`, the hosts of `BASE_URL`, `API_PUBLIC_URL`, `CHECKOUT_URL`): a
 * shop answering there would take the Host-only callers of the platform's own pages.
 */
function assertHostFree(platform: PlatformDb, config: AppContext["config"], host: string) {
  if (platform.db.select().from(domains).where(eq(domains.host, host)).get()) {
    throw new ApiError("CONFLICT", `The host ${host} already belongs to an organization`);
  }
  const platformDomain = config.platformDomain;
  const own = [config.baseUrl, config.apiPublicUrl, config.checkoutUrl].map((url) => new URL(url).hostname);
  if (host === platformDomain || own.includes(host)) {
    throw new ApiError("CONFLICT", `The host ${host} is the service's own`);
  }
  const suffix = `.${platformDomain}`;
  if (host.endsWith(suffix)) {
    const slug = host.slice(0, -suffix.length);
    if (platform.db.select().from(organizations).where(eq(organizations.slug, slug)).get()) {
      throw new ApiError("CONFLICT", `The host ${host} is the platform host of the organization "${slug}"`);
    }
  }
}

/** Adds a verified host to an organization; the host is normalised (lower-case, no trailing dot). */
export function addDomain(
  ctx: Pick<AppContext, "platform" | "config">,
  organizationId: string,
  rawHost: string,
) {
  const { platform } = ctx;
  const host = normalizeDomainHost(rawHost);
  if (!findOrganization(platform, organizationId)) throw notFound("Organization");
  assertHostFree(platform, ctx.config, host);
  // Verified by definition: whoever adds a host (the operator, an admin of the organization) is
  // trusted with it; there is no proof of ownership by DNS yet.
  const row = { host, organizationId, verified: true, createdAt: Date.now() };
  try {
    platform.db.insert(domains).values(row).run();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError("CONFLICT", `The host ${host} already belongs to an organization`);
    throw error;
  }
  platform.cache.hosts.clear();
  return row;
}

export function listDomains(platform: PlatformDb, organizationId: string) {
  return platform.db
    .select({
      host: domains.host,
      organizationId: domains.organizationId,
      verified: domains.verified,
      createdAt: domains.createdAt,
    })
    .from(domains)
    .where(eq(domains.organizationId, organizationId))
    .orderBy(asc(domains.createdAt), asc(domains.host))
    .all();
}

/**
 * Removes a host; returns the organization it answered for. With `organizationId`, another
 * organization's host is not found (the operator's command line removes any).
 */
export function removeDomain(platform: PlatformDb, rawHost: string, organizationId?: string) {
  const host = normalizeDomainHost(rawHost);
  const row = platform.db.select().from(domains).where(eq(domains.host, host)).get();
  if (!row || (organizationId !== undefined && row.organizationId !== organizationId))
    throw notFound("Domain");
  platform.db.delete(domains).where(eq(domains.host, host)).run();
  platform.cache.hosts.clear();
  return { host, organizationId: row.organizationId };
}

/**
 * Deletes an organization from the control plane (memberships, domains, API keys; sessions that had
 * it active get none) and then its tenant file, after closing any open handle on it.
 */
export function deleteOrganization(ctx: Pick<AppContext, "platform" | "tenants">, organizationId: string) {
  const { platform } = ctx;
  const org = findOrganization(platform, organizationId);
  if (!org) throw notFound("Organization");
  platform.sqlite.transaction(() => {
    platform.db
      .update(sessions)
      .set({ activeOrganizationId: null, updatedAt: Date.now() })
      .where(eq(sessions.activeOrganizationId, organizationId))
      .run();
    platform.db.delete(members).where(eq(members.organizationId, organizationId)).run();
    platform.db.delete(domains).where(eq(domains.organizationId, organizationId)).run();
    platform.db.delete(apiKeys).where(eq(apiKeys.organizationId, organizationId)).run();
    platform.db.delete(organizations).where(eq(organizations.id, organizationId)).run();
  })();
  platform.cache.hosts.clear();
  platform.cache.apiKeys.clear();
  ctx.tenants.remove(organizationId);
  return org;
}

// ---------------------------------------------------------------- users and memberships

export interface PublicUser {
  id: string;
  email: string;
  name: string | null;
  createdAt: number;
}

export async function createUser(
  platform: PlatformDb,
  input: { email: string; password: string; name?: string },
): Promise<PublicUser> {
  return insertUser(platform, input, await hashPassword(input.password));
}

/** Stores a user whose password was hashed (`hashPassword`); 409 when the email has an account. */
export function insertUser(
  platform: PlatformDb,
  input: { email: string; name?: string },
  passwordHash: string,
): PublicUser {
  const email = normalizeEmail(input.email);
  const now = Date.now();
  const user = { id: newId("usr"), email, name: input.name ?? null, createdAt: now };
  try {
    platform.db
      .insert(users)
      .values({ ...user, passwordHash, updatedAt: now })
      .run();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("CONFLICT", "An account with this email already exists");
    throw error;
  }
  return user;
}

/** The user whose password matches, or null; it never tells whether the email exists. */
export async function verifyPassword(
  platform: PlatformDb,
  email: string,
  password: string,
): Promise<PublicUser | null> {
  const row = platform.db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
  if (!row) return decoyPasswordCheck(password).then(() => null);
  if (!(await passwordMatches(password, row.passwordHash))) return null;
  return { id: row.id, email: row.email, name: row.name, createdAt: row.createdAt };
}

const userColumns = { id: users.id, email: users.email, name: users.name, createdAt: users.createdAt };

export function findUserByEmail(platform: PlatformDb, email: string) {
  return platform.db
    .select(userColumns)
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
}

export function findUser(platform: PlatformDb, id: string): PublicUser | undefined {
  return platform.db.select(userColumns).from(users).where(eq(users.id, id)).get();
}

export function addMember(platform: PlatformDb, organizationId: string, userId: string, role: Role) {
  try {
    platform.db
      .insert(members)
      .values({ id: newId("mem"), organizationId, userId, role, createdAt: Date.now() })
      .run();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError("CONFLICT", "The user is already a member of this organization");
    throw error;
  }
}

export function membershipRole(
  platform: PlatformDb,
  organizationId: string,
  userId: string,
): Role | undefined {
  return platform.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
    .get()?.role;
}

export function listMemberships(platform: PlatformDb, userId: string) {
  return platform.db
    .select({
      id: organizations.id,
      slug: organizations.slug,
      name: organizations.name,
      createdAt: organizations.createdAt,
      role: members.role,
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt), asc(organizations.id))
    .all();
}

/** An organization's members with their user's email and name, oldest membership first; never a password hash. */
export function listMembers(platform: PlatformDb, organizationId: string, page: PageParams) {
  const where = eq(members.organizationId, organizationId);
  const items = platform.db
    .select({
      userId: members.userId,
      email: users.email,
      name: users.name,
      role: members.role,
      createdAt: members.createdAt,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(where)
    .orderBy(asc(members.createdAt), asc(members.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .all();
  const total = platform.db.select({ n: count() }).from(members).where(where).get()?.n ?? 0;
  return { items, total };
}

/** The organization a member may manage (owner or admin); anything else reads as not found or forbidden. */
export function requireManager(platform: PlatformDb, organizationId: string, userId: string) {
  const role = membershipRole(platform, organizationId, userId);
  if (!role) throw notFound("Organization");
  if (role === "member")
    throw new ApiError("FORBIDDEN", "Only an owner or admin of the organization can do this");
  return role;
}

/**
 * For `/v1` operations on what the organization itself is (changing its domains, its payment
 * credentials): a dashboard user needs the owner or admin role; API keys and agents are authorized
 * by their scope (and agents by their grant).
 */
export function requireManagingCaller(platform: PlatformDb, caller: Caller): void {
  if (caller.type === "session" && caller.userId) requireManager(platform, caller.orgId, caller.userId);
}

// ---------------------------------------------------------------- sessions

export interface Session {
  id: string;
  userId: string;
  activeOrganizationId: string | null;
  expiresAt: number;
  createdAt: number;
}

/** Starts a session; the active organization starts as the user's first one. Returns the token once. */
export function createSession(platform: PlatformDb, userId: string, userAgent: string | null) {
  const token = newToken();
  const now = Date.now();
  const first = listMemberships(platform, userId)[0];
  const session: Session = {
    id: newId("ses"),
    userId,
    activeOrganizationId: first?.id ?? null,
    expiresAt: now + SESSION_TTL_MS,
    createdAt: now,
  };
  platform.db
    .insert(sessions)
    .values({
      ...session,
      tokenHash: sha256Hex(token),
      authenticatedAt: now,
      userAgent: userAgent?.slice(0, 300) ?? null,
      updatedAt: now,
    })
    .run();
  return { token, session };
}

export function findSession(platform: PlatformDb, sessionId: string): Session | undefined {
  return platform.db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      activeOrganizationId: sessions.activeOrganizationId,
      expiresAt: sessions.expiresAt,
      createdAt: sessions.createdAt,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .get();
}

/** The session's user proved their password again just now (a fresh sign-in on an open session). */
export function markSessionAuthenticated(platform: PlatformDb, sessionId: string, at: number): void {
  platform.sqlite
    .query("UPDATE sessions SET authenticated_at = ?1, updated_at = ?1 WHERE id = ?2")
    .run(at, sessionId);
}

export function deleteSession(platform: PlatformDb, sessionId: string) {
  platform.db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

export function setActiveOrganization(
  platform: PlatformDb,
  sessionId: string,
  userId: string,
  organizationId: string,
) {
  if (!membershipRole(platform, organizationId, userId)) throw notFound("Organization");
  platform.db
    .update(sessions)
    .set({ activeOrganizationId: organizationId, updatedAt: Date.now() })
    .where(eq(sessions.id, sessionId))
    .run();
}

// ---------------------------------------------------------------- API keys

export interface ApiKeyView {
  id: string;
  name: string;
  start: string;
  metadata: { organizationId: string; scopes: Scope[] };
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

const apiKeyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  start: apiKeys.start,
  organizationId: apiKeys.organizationId,
  scopes: apiKeys.scopes,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
};

function toApiKeyView(row: {
  id: string;
  name: string;
  start: string;
  organizationId: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}): ApiKeyView {
  const { organizationId, scopes, ...rest } = row;
  return { ...rest, metadata: { organizationId, scopes: scopes as Scope[] } };
}

/** Creates a key `ck_…`; only its SHA-256 is stored, so the returned plaintext is the only copy. */
export function createApiKey(
  platform: PlatformDb,
  input: { organizationId: string; name: string; scopes: Scope[]; createdBy?: string; expiresAt?: number },
): ApiKeyView & { key: string } {
  if (!findOrganization(platform, input.organizationId)) throw notFound("Organization");
  const key = newToken("ck_");
  const row = {
    id: newId("key"),
    name: input.name,
    start: key.slice(0, 8),
    organizationId: input.organizationId,
    scopes: [...new Set(input.scopes)],
    createdAt: Date.now(),
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
  };
  platform.db
    .insert(apiKeys)
    .values({ ...row, keyHash: sha256Hex(key), createdBy: input.createdBy ?? null })
    .run();
  return { ...toApiKeyView(row), key };
}

/** Every key of an organization (never the key itself), oldest first. */
export function listAllApiKeys(platform: PlatformDb, organizationId: string): ApiKeyView[] {
  return platform.db
    .select(apiKeyColumns)
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .all()
    .map(toApiKeyView);
}

export function listApiKeys(platform: PlatformDb, organizationId: string, page: PageParams) {
  const where = eq(apiKeys.organizationId, organizationId);
  const items = platform.db
    .select(apiKeyColumns)
    .from(apiKeys)
    .where(where)
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .all()
    .map(toApiKeyView);
  const total = platform.db.select({ n: count() }).from(apiKeys).where(where).get()?.n ?? 0;
  return { items, total };
}

export function apiKeyOrganization(platform: PlatformDb, keyId: string): string | undefined {
  return platform.db.select({ org: apiKeys.organizationId }).from(apiKeys).where(eq(apiKeys.id, keyId)).get()
    ?.org;
}

export function revokeApiKey(platform: PlatformDb, organizationId: string, keyId: string): ApiKeyView {
  const where = and(eq(apiKeys.id, keyId), eq(apiKeys.organizationId, organizationId));
  platform.db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(where, isNull(apiKeys.revokedAt)))
    .run();
  platform.cache.apiKeys.clear();
  const row = platform.db.select(apiKeyColumns).from(apiKeys).where(where).get();
  if (!row) throw notFound("API key");
  return toApiKeyView(row);
}
