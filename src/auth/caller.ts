import type { Statement } from "bun:sqlite";
import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import type { BearerSurface } from "../core/module.ts";
import type { Caller, DashboardUser, Scope } from "../core/operation.ts";
import type { PlatformDb } from "../db/platform.ts";
import type { Row } from "../db/rows.ts";
import { sha256Hex } from "./crypto.ts";
import { normalizeHost, organizationOfHost, SESSION_REFRESH_MS, SESSION_TTL_MS } from "./service.ts";
import type { apiKeys, members, sessions } from "./tables.ts";

export const SESSION_COOKIE = "session_token";

const unauthorized = (message: string) => new ApiError("UNAUTHORIZED", message);

/** Methods that change nothing: the cookie's cross-site rule leaves them alone (SameSite=Lax covers them). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Reads one cookie from the Cookie header without parsing the others. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value; // not percent-encoded: it simply will not match any token
    }
  }
  return undefined;
}

/** The columns of `sessionByHash`: `m.role` is null when the user is not a member of the active organization. */
type SessionRow = Pick<Row<typeof sessions>, "id" | "user_id" | "active_organization_id" | "expires_at"> & {
  role: Row<typeof members>["role"] | null;
};

/**
 * Resolves callers with prepared statements on the control plane (this runs on every request).
 * Order: agent bearer JWT, `x-api-key`, dashboard session cookie, Host. A credential that
 * is present but wrong is a 401 at once: it never falls through to a weaker method; so is an
 * `Authorization` header that is not `Bearer <token>` (Basic, another scheme, a bare Bearer).
 */
export class CallerResolver {
  private readonly apiKeyByHash: Statement;
  private readonly sessionByHash: Statement;
  private readonly refreshSession: Statement;
  private readonly cache: PlatformDb["cache"];
  /** BASE_URL and API_PUBLIC_URL: the origins of the service's own pages. */
  private readonly ownOrigins: Set<string>;

  constructor(
    private readonly ctx: AppContext,
    private readonly bearer?: (token: string, surface: BearerSurface, request: Request) => Promise<Caller>,
  ) {
    const sqlite = ctx.platform.sqlite;
    this.cache = ctx.platform.cache;
    this.ownOrigins = new Set([new URL(ctx.config.baseUrl).origin, new URL(ctx.config.apiPublicUrl).origin]);
    this.apiKeyByHash = sqlite.prepare(
      "SELECT id, organization_id, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = ?",
    );
    this.sessionByHash = sqlite.prepare(
      `SELECT s.id, s.user_id, s.active_organization_id, s.expires_at, m.role
         FROM sessions s
         LEFT JOIN members m ON m.organization_id = s.active_organization_id AND m.user_id = s.user_id
        WHERE s.token_hash = ?`,
    );
    this.refreshSession = sqlite.prepare("UPDATE sessions SET expires_at = ?, updated_at = ? WHERE id = ?");
  }

  /** The `/v1` caller of a request, or a 401; bearer tokens are verified asynchronously by the agents module. */
  resolve(request: Request, surface: BearerSurface = "v1"): Caller | Promise<Caller> {
    const headers = request.headers;
    const authorization = headers.get("authorization");
    if (authorization !== null) {
      // A present Authorization header is a credential: one this service cannot use (another
      // scheme, an empty Bearer) is a wrong one, never a reason to fall through to the Host.
      const token = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1];
      if (!token) {
        throw unauthorized(
          "Unsupported Authorization header: send Authorization: Bearer <agent token>, or an x-api-key header",
        );
      }
      // Without a module that verifies bearer tokens, none is valid.
      if (!this.bearer) throw unauthorized("Invalid agent token");
      return this.bearer(token, surface, request);
    }

    const apiKey = headers.get("x-api-key");
    if (apiKey !== null) return this.resolveApiKey(apiKey);

    const sessionToken = readCookie(request, SESSION_COOKIE);
    if (sessionToken !== undefined) {
      this.refuseCrossSite(request);
      const session = this.resolveSession(sessionToken);
      if (!session.activeOrganizationId || !session.role) {
        throw new ApiError("FORBIDDEN", "The session has no active organization; set one first");
      }
      return {
        type: "session",
        orgId: session.activeOrganizationId,
        scopes: ["admin", "storefront"],
        userId: session.userId,
        id: `user:${session.userId}`,
      };
    }

    const host = normalizeHost(headers.get("host") ?? "");
    const orgId = host ? this.organizationForHost(host) : undefined;
    if (orgId) return { type: "host", orgId, scopes: ["storefront"], id: `host:${host}` };
    throw unauthorized("Authentication required: send an API key, a session cookie or a storefront Host");
  }

  /** The shop of a request that `resolve` would take as an anonymous storefront caller by its Host alone. */
  anonymousHostTenant(request: Request): string | undefined {
    const headers = request.headers;
    if (headers.get("authorization") !== null || headers.get("x-api-key") !== null) return undefined;
    if (headers.get("cookie") !== null && readCookie(request, SESSION_COOKIE) !== undefined) return undefined;
    return this.tenantOfHost(request);
  }

  /** The organization a request is addressed to by its Host header alone (CORS preflights carry no credential). */
  tenantOfHost(request: Request): string | undefined {
    const host = normalizeHost(request.headers.get("host") ?? "");
    return host ? this.organizationForHost(host) : undefined;
  }

  /** The signed-in dashboard user of a request (session cookie only), or a 401. */
  resolveDashboardUser(request: Request): DashboardUser {
    const token = readCookie(request, SESSION_COOKIE);
    if (token === undefined) throw unauthorized("Sign in first");
    this.refuseCrossSite(request);
    const session = this.resolveSession(token);
    return {
      userId: session.userId,
      sessionId: session.id,
      activeOrganizationId: session.activeOrganizationId,
    };
  }

  private resolveApiKey(key: string): Caller {
    const now = Date.now();
    let resolved = this.cache.apiKeys.get(key, now);
    if (!resolved) {
      const row = this.apiKeyByHash.get(sha256Hex(key)) as Pick<
        Row<typeof apiKeys>,
        "id" | "organization_id" | "scopes" | "expires_at" | "revoked_at"
      > | null;
      if (!row || row.revoked_at !== null) throw unauthorized("Invalid API key");
      resolved = {
        id: row.id,
        orgId: row.organization_id,
        scopes: JSON.parse(row.scopes) as Scope[],
        expiresAt: row.expires_at,
      };
      this.cache.apiKeys.set(key, resolved, now);
    }
    if (resolved.expiresAt !== null && resolved.expiresAt <= now) throw unauthorized("Invalid API key");
    return { type: "api-key", orgId: resolved.orgId, scopes: resolved.scopes, id: `key:${resolved.id}` };
  }

  private resolveSession(token: string) {
    const row = this.sessionByHash.get(sha256Hex(token)) as SessionRow | null;
    const now = Date.now();
    if (!row || row.expires_at <= now) throw unauthorized("Session expired or signed out");
    if (row.expires_at - now < SESSION_TTL_MS - SESSION_REFRESH_MS) {
      this.refreshSession.run(now + SESSION_TTL_MS, now, row.id);
    }
    return {
      id: row.id,
      userId: row.user_id,
      activeOrganizationId: row.active_organization_id,
      role: row.role,
    };
  }

  private organizationForHost(host: string): string | undefined {
    const cached = this.cache.hosts.get(host);
    if (cached) return cached;
    const orgId = organizationOfHost(this.ctx.platform, this.ctx.config.platformDomain, host);
    if (orgId) this.cache.hosts.set(host, orgId); // misses are not kept: random Host headers cannot fill the cache
    return orgId;
  }

  /**
   * A write the dashboard session cookie authenticates must come from the service's own pages: an
   * `Origin` that is not the service's (BASE_URL, API_PUBLIC_URL, or the request's own origin) is
   * refused, and so is `Sec-Fetch-Site: cross-site` or `same-site` without an `Origin`: a sibling
   * host under the same site may be a shop's storefront (`{slug}.{PLATFORM_DOMAIN}`). A request with
   * neither header (curl, a server) passes; browsers send at least one on every write.
   */
  private refuseCrossSite(request: Request): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.get("origin");
    if (origin === null) {
      const site = request.headers.get("sec-fetch-site");
      if (site !== "cross-site" && site !== "same-site") return;
    } else if (this.ownOrigins.has(origin) || origin === this.requestOrigin(request)) return;
    throw new ApiError(
      "FORBIDDEN",
      "Cross-site request refused: the dashboard session cookie authenticates writes only from the service's own pages (servers use an API key)",
    );
  }

  /** The origin the request was sent to, as its browser would name it (the proxy's scheme with TRUST_PROXY=true). */
  private requestOrigin(request: Request): string | undefined {
    // Bun builds the request's URL from its Host header.
    const url = new URL(request.url);
    const forwarded = this.ctx.config.trustProxy ? request.headers.get("x-forwarded-proto") : null;
    const scheme = forwarded?.toLowerCase() ?? url.protocol.slice(0, -1);
    // Anything else would name the opaque origin "null", which a sandboxed page sends.
    if (scheme !== "https" && scheme !== "http") return undefined;
    return new URL(`${scheme}://${url.host}`).origin;
  }
}
