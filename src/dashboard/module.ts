import type { Module, RawRoute } from "../core/module.ts";
import {
  ASSETS_PATH,
  buildDashboard,
  DASHBOARD_PATH,
  DASHBOARD_PREBUILT,
  type DashboardBundle,
  noRoute,
  platformHosts,
  requestHost,
} from "./serve.ts";

// Built once per process, on first use: from source that is a bundling of a few seconds, which a
// serving process starts at once (`start`) and tests that never open the dashboard never pay. The
// binary holds the page's files already built: it reads them (about 0.5 MB) only when first asked.
let bundle: Promise<DashboardBundle> | undefined;
const dashboard = () => {
  bundle ??= buildDashboard();
  return bundle;
};

/**
 * The merchant dashboard's routes. They are module routes (answered by `app.fetch`), not
 * `Bun.serve` routes, so that the Host check, the CSP and the request log apply to them as to
 * every other answer.
 */
export const dashboardModule: Module = {
  name: "dashboard",
  operations: [],
  routes: ({ ctx }) => {
    const hosts = platformHosts(ctx.config);
    const onPlatform = (request: Request) => hosts.has(requestHost(request));
    const page = async (request: Request) => {
      if (!onPlatform(request)) throw noRoute(request);
      return (await dashboard()).page.respond(request);
    };
    const routes: RawRoute[] = [
      {
        method: "GET",
        path: "/",
        handle: (request) => {
          if (!onPlatform(request)) throw noRoute(request);
          return new Response(null, { status: 302, headers: { location: DASHBOARD_PATH } });
        },
      },
      { method: "GET", path: DASHBOARD_PATH, handle: page },
      { method: "GET", path: `${DASHBOARD_PATH}/*`, handle: page },
      {
        method: "GET",
        path: `${ASSETS_PATH}/:name`,
        handle: async (request, params) => {
          const asset = onPlatform(request) ? (await dashboard()).assets.get(params.name ?? "") : undefined;
          if (!asset) throw noRoute(request);
          return asset.respond(request);
        },
      },
    ];
    return routes;
  },
  start: ({ ctx }) => {
    if (DASHBOARD_PREBUILT) return;
    dashboard().catch((error: unknown) => ctx.log.error("dashboard build failed", { error: String(error) }));
  },
};
