import { basename } from "node:path";
import { normalizeHost } from "../auth/service.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../core/errors.ts";
import { REVALIDATE, Representation } from "../http/caching.ts";
import { IMMUTABLE, SECURITY_HEADERS } from "../http/docs.ts";
import { DASHBOARD_BUILD, tailwindPlugin } from "./build-options.ts";
import page from "./index.html";

// The merchant dashboard (docs/dashboard.md): one HTML page for every path under /dashboard and its
// content-hashed scripts and styles under /dashboard/assets/, on the platform host only.

export const DASHBOARD_PATH = "/dashboard";
export const ASSETS_PATH = `${DASHBOARD_PATH}/assets`;

/**
 * Everything the page loads comes from this origin; nothing may frame it. One relaxation: Radix's
 * modal dialogs lock page scrolling with a `<style>` element they write at run time (its content
 * depends on the scrollbar's width, so no hash can name it): `style-src` allows inline styles.
 * Scripts stay `'self'` only.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

interface BuiltFile {
  name: string;
  contentType: string;
  body: Uint8Array;
  isHtml: boolean;
}

export interface DashboardBundle {
  page: Representation;
  assets: Map<string, Representation>;
}

/** Whether the page's files were built into this executable (`bun run build`), not bundled from source now. */
export const DASHBOARD_PREBUILT = page.files !== undefined;

/**
 * The page's files: bundled into the binary by `bun run build` (the HTML import's `files`), or,
 * from source, bundled by Bun now with the same options.
 */
async function builtFiles(): Promise<BuiltFile[]> {
  if (page.files) {
    return Promise.all(
      page.files.map(async (file) => ({
        name: basename(file.path),
        contentType: file.headers["content-type"],
        body: await Bun.file(file.path).bytes(),
        isHtml: file.loader === "html",
      })),
    );
  }
  const result = await Bun.build({
    entrypoints: [page.index],
    ...DASHBOARD_BUILD,
    plugins: [await tailwindPlugin()],
  });
  if (!result.success) throw new AggregateError(result.logs, "the dashboard did not build");
  return Promise.all(
    result.outputs.map(async (output) => ({
      name: basename(output.path),
      contentType: output.type,
      body: new Uint8Array(await output.arrayBuffer()),
      isHtml: output.path.endsWith(".html"),
    })),
  );
}

/**
 * The page and its scripts name the bundle's files from the root (`/x.js`) or beside them
 * (`./x.js`); both become /dashboard/assets/x.js. (In the binary the page's script imports a chunk
 * it shares with the server's code by a root path.)
 */
function relinkAssets(text: string, names: string[]): string {
  let linked = text;
  for (const name of names) {
    linked = linked
      .replaceAll(`"/${name}"`, `"${ASSETS_PATH}/${name}"`)
      .replaceAll(`"./${name}"`, `"${ASSETS_PATH}/${name}"`);
  }
  return linked;
}

export async function buildDashboard(): Promise<DashboardBundle> {
  const files = await builtFiles();
  const html = files.find((file) => file.isHtml);
  if (!html) throw new Error("the dashboard bundle has no HTML page");
  const names = files.filter((file) => !file.isHtml).map((file) => file.name);
  const assets = new Map<string, Representation>();
  for (const file of files) {
    if (file.isHtml) continue;
    const body = /\.(js|css)$/.test(file.name)
      ? Buffer.from(relinkAssets(new TextDecoder().decode(file.body), names))
      : file.body;
    assets.set(
      file.name,
      new Representation(body, {
        ...SECURITY_HEADERS,
        "cache-control": IMMUTABLE,
        vary: "Accept-Encoding",
        "content-type": file.contentType,
      }),
    );
  }
  const body = relinkAssets(new TextDecoder().decode(html.body), names);
  const pageRepresentation = new Representation(body, {
    ...SECURITY_HEADERS,
    // The page changes with every release; the assets it names never do.
    "cache-control": REVALIDATE,
    vary: "Accept-Encoding",
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": DASHBOARD_CSP,
    "x-frame-options": "DENY",
  });
  return { page: pageRepresentation, assets };
}

/**
 * The hosts that serve the dashboard: those of BASE_URL and API_PUBLIC_URL, and outside production
 * the loopback names. A shop's host (its domain or `{slug}.PLATFORM_DOMAIN`) is none of them.
 */
export function platformHosts(config: Config): Set<string> {
  const hosts = new Set([new URL(config.baseUrl).host, new URL(config.apiPublicUrl).host].map(normalizeHost));
  if (!config.production) for (const host of ["localhost", "127.0.0.1", "[::1]"]) hosts.add(host);
  return hosts;
}

/** The host a request is addressed to (a request built in a test may carry it in its URL only). */
export const requestHost = (request: Request) =>
  normalizeHost(request.headers.get("host") ?? new URL(request.url).host);

export const noRoute = (request: Request) =>
  new ApiError("NOT_FOUND", `No route ${request.method} ${new URL(request.url).pathname}`);
