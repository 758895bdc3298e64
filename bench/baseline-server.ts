// The baseline of the load benchmarks: plain Bun.serve answering each path with the bytes the service
// answered (status, content-type, body; or every header, when the route lists them), read from the
// JSON file named by BASELINE_ROUTES. Nothing else. A route's path may carry its query string: the
// whole path and query is looked up first, then the path alone.
import { readFileSync } from "node:fs";

interface Route {
  path: string;
  status: number;
  contentType: string;
  /** Every header to send, when the answer's whole header set is the floor's (a kept catalog read). */
  headers?: Record<string, string>;
  body: string; // base64
}

const file = process.env.BASELINE_ROUTES;
if (!file) throw new Error("BASELINE_ROUTES (a JSON file of routes) is required");
const routes = new Map(
  (JSON.parse(readFileSync(file, "utf8")) as Route[]).map((r) => [
    r.path,
    {
      status: r.status,
      headers: r.headers ?? { "content-type": r.contentType },
      // A Blob, which a Response takes without copying its bytes.
      body: new Blob([Buffer.from(r.body, "base64")]),
    },
  ]),
);

Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch(request) {
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const route =
      routes.get(url.slice(start)) ?? (end === -1 ? undefined : routes.get(url.slice(start, end)));
    if (!route) return new Response(null, { status: 404 });
    return new Response(route.body, { status: route.status, headers: route.headers });
  },
});
