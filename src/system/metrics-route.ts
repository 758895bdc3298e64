import { createHash, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import type { RawRoute } from "../core/module.ts";
import { jsonResponse } from "../core/respond.ts";

// The operator's routes (docs/operations.md, "Metrics"): `GET /metrics` for Prometheus here, and the
// readiness of the nodes module; served only when METRICS_TOKEN is set, to a caller presenting it
// as a bearer token (compared in constant time).

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * The refusal of a request to an operator's route (metrics and readiness: METRICS_TOKEN; the
 * nodes' `/ops`: NODE_TOKEN), or null when it presents the token: 404 while the token is unset
 * (the routes are not served), else 401.
 */
export function operatorRefusal(
  ctx: AppContext,
  request: Request,
  which: "metricsToken" | "nodeToken" = "metricsToken",
): Response | null {
  const token = ctx.config[which];
  if (token === undefined) return jsonResponse(404, { error: "Not found", code: "NOT_FOUND", status: 404 });
  const given = /^bearer[ \t]+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (timingSafeEqual(digest(given), digest(token))) return null;
  const name = which === "metricsToken" ? "METRICS_TOKEN" : "NODE_TOKEN";
  return jsonResponse(
    401,
    { error: `Send Authorization: Bearer <${name}>`, code: "UNAUTHORIZED", status: 401 },
    { "www-authenticate": `Bearer realm="${which === "metricsToken" ? "metrics" : "ops"}"` },
  );
}

export function metricsRoute(ctx: AppContext): RawRoute {
  return {
    method: "GET",
    path: "/metrics",
    async handle(request) {
      const refused = operatorRefusal(ctx, request);
      if (refused) return refused;
      return new Response(await ctx.metrics.scrape(), {
        headers: { "content-type": ctx.metrics.contentType },
      });
    },
  };
}
