import { readFileSync } from "node:fs";
// The Scalar viewer's browser build (pinned in package.json), embedded as a file so that the reference
// page works without internet and the compiled binary carries it. It is imported by path because
// the package's `exports` do not list its browser build. A file import gives its path (inside the
// binary, a path of Bun's embedded file system): its 4.35 MB are read on the first request for it,
// not held by every process from its start (docs/operations.md, "Memory").
import viewerFile from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with {
  type: "file",
};
import { version as viewerVersion } from "../../node_modules/@scalar/api-reference/package.json" with {
  type: "json",
};

/** A document the service serves as it is (the API reference page and what it loads). */
export interface StaticAsset {
  path: string;
  contentType: string;
  /** A function gives a large body on first use (src/http/caching.ts, `Representation`). */
  body: string | Uint8Array | (() => Uint8Array);
  /** Extra response headers, such as the page's Content-Security-Policy. */
  headers?: Record<string, string>;
}

/**
 * What the page allows: scripts from this origin only (the viewer and its start script, no inline
 * script); requests to this origin only (the document, and "try it" calls when the API has the
 * same origin). Styles allow inline because the viewer builds its theme and component styles as
 * `<style>` elements at run time, with no nonce to give them; a style cannot run code. Images may be
 * `data:` URIs (the viewer's icons, and the page's empty icon, which spares a `/favicon.ico` request). No fonts are loaded: the viewer's default fonts come from its
 * vendor's CDN and are turned off, so the system fonts are used.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  // The page's URL tells nothing private, but no request it makes needs to say where it came from.
  "referrer-policy": "no-referrer",
};

/** Content-addressed asset names never change meaning, so browsers may keep them for good. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

const short = (text: string) => Bun.hash(text).toString(36);
// Named by the viewer's version, which the exact pin in package.json ties to one content: the name
// is known at start without reading the file.
const VIEWER_PATH = `/v1/docs/scalar.${short(viewerVersion)}.js`;

// Everything the viewer would fetch from its vendor is turned off: fonts, the AI agent drawer
// (which talks to the vendor's API), the MCP button, telemetry; no request proxy is set, so
// "try it" calls go straight to the API.
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
};
// The page names the document it shows (`data-url`); the start script reads it from there.
const START_SCRIPT =
  `const root = document.getElementById("app");\n` +
  `Scalar.createApiReference(root, { url: root.dataset.url, ...${JSON.stringify(CONFIGURATION)} });\n`;
const START_PATH = `/v1/docs/start.${short(START_SCRIPT)}.js`;

/** The interactive API reference: the page and the scripts it loads, for the document at `specUrl`. */
export function docsAssets(specUrl: string): StaticAsset[] {
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commerce API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app" data-url="${specUrl.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"></div>
<script src="${VIEWER_PATH}"></script>
<script src="${START_PATH}"></script>
</body>
</html>
`;
  const script = "text/javascript; charset=utf-8";
  return [
    {
      path: "/v1/docs",
      contentType: "text/html; charset=utf-8",
      body: page,
      headers: { ...SECURITY_HEADERS, "content-security-policy": PAGE_CSP },
    },
    {
      path: VIEWER_PATH,
      contentType: script,
      body: () => readFileSync(viewerFile),
      headers: { ...SECURITY_HEADERS, "cache-control": IMMUTABLE },
    },
    {
      path: START_PATH,
      contentType: script,
      body: START_SCRIPT,
      headers: { ...SECURITY_HEADERS, "cache-control": IMMUTABLE },
    },
  ];
}
