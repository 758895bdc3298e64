// What a first visit to /dashboard loads: the page and every script and style it names, raw and
// gzip bytes, against the budget of 300 KB gzip of JavaScript. Built from source as the service
// does on its first dashboard request (the same bundler options as the binary).
// Usage: bun bench/dashboard-bundle.ts
import { rmSync } from "node:fs";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { fmt, makeTempDir, printTable, saveResults } from "./lib.ts";

const JS_BUDGET_GZIP = 300 * 1024;

const dataDir = makeTempDir("dashboard-bundle");
const app = createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false" }));
const load = async (path: string) => {
  const response = await app.fetch(new Request(`http://localhost${path}`));
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    path,
    type: response.headers.get("content-type") ?? "",
    raw: bytes.length,
    gzip: Bun.gzipSync(bytes).length,
  };
};

try {
  const started = performance.now();
  const page = await load("/dashboard");
  const buildMs = performance.now() - started;
  const html = await (await app.fetch(new Request("http://localhost/dashboard"))).text();
  const assets = await Promise.all(
    [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => load(match[1]!)),
  );
  const files = [page, ...assets];
  const sum = (kind: string, key: "raw" | "gzip") =>
    files.filter((file) => file.type.includes(kind)).reduce((total, file) => total + file[key], 0);
  const kb = (bytes: number) => fmt(bytes / 1024, 1);
  printTable(
    ["file", "raw KB", "gzip KB"],
    files.map((file) => [file.path, kb(file.raw), kb(file.gzip)]),
  );
  const totals = {
    jsRaw: sum("javascript", "raw"),
    jsGzip: sum("javascript", "gzip"),
    cssRaw: sum("css", "raw"),
    cssGzip: sum("css", "gzip"),
    htmlRaw: page.raw,
    firstBuildMs: Math.round(buildMs),
  };
  console.log(
    `\nfirst visit: JavaScript ${kb(totals.jsRaw)} KB (${kb(totals.jsGzip)} KB gzip), CSS ${kb(totals.cssRaw)} KB (${kb(totals.cssGzip)} KB gzip); budget ${kb(JS_BUDGET_GZIP)} KB gzip of JavaScript`,
  );
  console.log(`first request, bundling from source included: ${totals.firstBuildMs} ms`);
  console.log(`results: ${saveResults("dashboard-bundle", { files, totals })}`);
  if (totals.jsGzip > JS_BUDGET_GZIP) {
    console.error("over budget");
    process.exitCode = 1;
  }
} finally {
  app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
