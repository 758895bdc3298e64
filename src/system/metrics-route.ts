import { createHash, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import type { RawRoute } from "../core/module.ts";
import { jsonResponse } from "../core/respond.ts";

// `GET /metrics` for the operator's Prometheus (docs/operations.md, "Metrics"): served only when
// METRICS_TOKEN is set, to a scraper presenting it as a bearer token (compared in constant time).

const digest = (text: string) => createHash("sha256").update(text).digest();

export function metricsRoute(ctx: AppContext): RawRoute {
  return {
    method: "GET",
    path: "/metrics",
    async handle(request) {
      const token = ctx.config.metricsToken;
      if (token === undefined)
        return jsonResponse(404, { error: "Not found", code: "NOT_FOUND", status: 404 });
      const given = /^bearer[ \t]+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(given), digest(token))) {
        return jsonResponse(
          401,
          { error: "Send Authorization: Bearer <METRICS_TOKEN>", code: "UNAUTHORIZED", status: 401 },
          { "www-authenticate": 'Bearer realm="metrics"' },
        );
      }
      return new Response(await ctx.metrics.scrape(), {
        headers: { "content-type": ctx.metrics.registry.contentType },
      });
    },
  };
}
