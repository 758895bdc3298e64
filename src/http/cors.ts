import { ApiError } from "../core/errors.ts";
import type { Operation } from "../core/operation.ts";
import type { CorsPolicy, RouteTable } from "./route-table.ts";

// Cross-origin calls from browser storefronts (docs/api-conventions.md, "CORS"):
// - `shop`: storefront operations; allowed for the origins listed in the store settings
//   (`allowedOrigins`) of the tenant the request is addressed to;
// - `any`: public documents (health, the OpenAPI document, the API reference), readable from anywhere.
// Admin, dashboard, webhook and MCP routes have no policy: an admin credential belongs on a server.
// No `Access-Control-Allow-Credentials`: a browser storefront sends the customer session in
// `x-customer-session`, never in a cookie, so a credential-less CORS answer is all it needs.

export type { CorsPolicy } from "./route-table.ts";

/** What the request's route learnt, if one ran (the adapter's request state). */
interface RouteFacts {
  route?: string;
  cors?: CorsPolicy;
  /** The resolved caller's tenant. */
  orgId?: string;
}

const ALLOW_HEADERS = "content-type, idempotency-key, x-customer-session, x-request-id";
const EXPOSE_HEADERS = "x-request-id, idempotent-replayed, retry-after, etag";
/** Chromium caps a preflight's lifetime at 2 hours; a removed origin is refused on the real request anyway. */
const MAX_AGE = "7200";

/** Storefront operations (and `GET /v1/me`) are `shop`; public reads are `any`; the rest are not CORS-enabled. */
export function corsPolicyOf(op: Operation): CorsPolicy | undefined {
  if (op.access === "storefront" || op.access === "caller") return "shop";
  // Public writes are the dashboard's sign-up and sign-in: not for storefront origins.
  if (op.access === "public" && op.method === "GET") return "any";
  return undefined;
}

export class Cors {
  constructor(
    private readonly routes: RouteTable,
    /** The tenant a request is addressed to by its Host header, if any (a preflight carries no credential). */
    private readonly tenantOfHost: (request: Request) => string | undefined,
    private readonly allowedOrigins: (orgId: string) => readonly string[],
  ) {}

  /**
   * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) on a CORS-enabled
   * path: 204 with the allowed methods and headers, or a 403 (without CORS headers) for an origin
   * the shop does not list. Undefined for any other request, which the router answers (404, 405).
   */
  preflight(request: Request, origin: string): Response | undefined {
    if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method"))
      return undefined;
    const route = this.routes.corsOf(new URL(request.url).pathname);
    if (!route) return undefined;
    const allowOrigin = route.policy === "any" ? "*" : this.shopOrigin(this.tenantOfHost(request), origin);
    if (!allowOrigin) {
      throw new ApiError(
        "FORBIDDEN",
        `Origin ${origin} may not call this store from a browser: add it to the store's allowedOrigins (PATCH /v1/admin/store)`,
      );
    }
    const headers: Record<string, string> = {
      "access-control-allow-origin": allowOrigin,
      "access-control-allow-methods": route.methods.join(", "),
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": MAX_AGE,
    };
    if (route.policy === "shop") headers.vary = "Origin";
    return new Response(null, { status: 204, headers });
  }

  /**
   * Adds the CORS headers to the answer of a request sent with an `Origin`, from what its route
   * learnt (policy, the caller's tenant); an error answered before any route ran (an oversized
   * body, say) falls back to the path's policy and the Host's tenant, so that the browser can read it.
   */
  decorate(response: Response, request: Request, origin: string, state: RouteFacts): void {
    let effective = state.cors;
    let tenant = state.orgId;
    if (state.route === undefined && response.status >= 400) {
      effective = this.routes.corsOf(new URL(request.url).pathname)?.policy;
      if (effective === "shop") tenant = this.tenantOfHost(request);
    }
    if (!effective) return;
    const allowOrigin = effective === "any" ? "*" : this.shopOrigin(tenant, origin);
    if (!allowOrigin) return;
    const headers = response.headers;
    headers.set("access-control-allow-origin", allowOrigin);
    headers.set("access-control-expose-headers", EXPOSE_HEADERS);
    if (effective === "shop") {
      const vary = headers.get("vary");
      if (!vary) headers.set("vary", "Origin");
      else if (!/(^|,)\s*origin\s*(,|$)/i.test(vary)) headers.set("vary", `${vary}, Origin`);
    }
  }

  /** The origin to echo when the shop lists it, else undefined. */
  private shopOrigin(orgId: string | undefined, origin: string): string | undefined {
    return orgId !== undefined && this.allowedOrigins(orgId).includes(origin) ? origin : undefined;
  }
}
