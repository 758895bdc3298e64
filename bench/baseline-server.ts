// The baseline of the load benchmarks: plain Bun.serve answering each path with the bytes the service
// answered (status, content-type, body), read from the JSON file named by BASELINE_ROUTES. Nothing else.
import { readFileSync } from "node:fs";

interface Route {
  path: string;
  status: number;
  contentType: string;
  body: string; // base64
}

const file = process.env.BASELINE_ROUTES;
if (!file) throw new Error("BASELINE_ROUTES (a JSON file of routes) is required");
const routes = new Map(
  (JSON.parse(readFileSync(file, "utf8")) as Route[]).map((r) => [
    r.path,
    { status: r.status, contentType: r.contentType, body: Buffer.from(r.body, "base64") },
  ]),
);

Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch(request) {
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const route = routes.get(end === -1 ? url.slice(start) : url.slice(start, end));
    if (!route) return new Response(null, { status: 404 });
    return new Response(route.body, { status: route.status, headers: { "content-type": route.contentType } });
  },
});
