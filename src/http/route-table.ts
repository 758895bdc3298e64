/**
 * Who may call a route from a browser on another origin (src/http/cors.ts): `shop`, the origins
 * the shop lists; `any`, every origin (public documents). A route without one is not CORS-enabled.
 */
export type CorsPolicy = "shop" | "any";

/** A route's path as a pattern: `{name}` and `:name` match one segment, `*` the rest. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(\{\w+\}|:\w+|\*)/)
    .map((part) =>
      part === "*"
        ? ".*"
        : /^(\{\w+\}|:\w+)$/.test(part)
          ? "[^/]+"
          : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

interface Route {
  pattern: RegExp;
  method: string;
  cors?: CorsPolicy;
  /** The route's own request body limit (uploads), in place of MAX_BODY_BYTES. */
  bodyLimit?: number;
}

/**
 * What each known path answers, for what the router alone cannot tell: the `Allow` header of a
 * 405, the CORS policy of a path for a preflight (which names no route's method) or for an
 * error answered before any route ran, and a route's own body limit, checked before routing.
 */
export class RouteTable {
  private readonly routes: Route[] = [];

  add(method: string, path: string, cors?: CorsPolicy, bodyLimit?: number): void {
    this.routes.push({ pattern: pathPattern(path), method: method.toUpperCase(), cors, bodyLimit });
  }

  /** The own body limit of the route a request is for, if it has one. */
  bodyLimitOf(request: Request): number | undefined {
    const { pathname } = new URL(request.url);
    return this.routes.find(
      (route) =>
        route.bodyLimit !== undefined && route.method === request.method && route.pattern.test(pathname),
    )?.bodyLimit;
  }

  /** The methods of the paths matching `pathname`, sorted; empty for an unknown path. */
  methodsOf(pathname: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(pathname)) methods.add(route.method);
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  }

  /**
   * The CORS policy of a path and the methods it allows cross-origin; undefined when no route of
   * the path is CORS-enabled. A path mixing policies takes the stricter one (`shop`).
   */
  corsOf(pathname: string): { policy: CorsPolicy; methods: string[] } | undefined {
    const shop: string[] = [];
    const any: string[] = [];
    for (const route of this.routes) {
      if (!route.cors || !route.pattern.test(pathname)) continue;
      (route.cors === "shop" ? shop : any).push(route.method);
    }
    if (shop.length > 0) return { policy: "shop", methods: shop };
    if (any.length > 0) return { policy: "any", methods: any };
    return undefined;
  }
}
