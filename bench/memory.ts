// Resident memory (VmRSS) of the service at rest: started as a process on a fresh DATA_DIR, read one
// second after `GET /v1/health` answers; then after its API reference was first loaded as a browser
// loads it (the page, its two scripts, the OpenAPI document), then after a first MCP conversation
// (initialize, tools/list, tools/call), with how long the first viewer request (uncompressed) and the
// first MCP request took. The floor is bench/baseline-server.ts, a bare Bun.serve.
// Usage: bun bench/memory.ts   (BENCH_STARTS starts per row, default 5; BENCH_BINARY=1 adds dist/commerce,
// built first with `bun run build`; BENCH_BINARY=<path> measures that executable instead; BENCH_SOURCE=0
// leaves out `bun src/server.ts`)
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Child,
  envInt,
  fmt,
  makeTempDir,
  median,
  printTable,
  ROOT,
  runCliCommand,
  saveResults,
  sleep,
  spawnServer,
} from "./lib.ts";

const STARTS = envInt("BENCH_STARTS", 5);
const SETTLE_MS = 1000;
/** What a browser sends: the service answers the viewer compressed, as it would in use. */
const BROWSER = { "accept-encoding": "br, gzip" };
const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const SHOP_HOST = "memory-bench.example";

/** VmRSS of a process in MB (10^6 bytes), from Linux /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!kib) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return (Number(kib[1]) * 1024) / 1e6;
}

async function settledRss(child: Child): Promise<number> {
  await sleep(SETTLE_MS);
  return rssMb(child.proc.pid);
}

async function get(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/**
 * The API reference as a browser first loads it: the page, then what it names, then the document.
 * Returns the milliseconds of a first, uncompressed request for the viewer, made before.
 */
async function loadDocs(base: string): Promise<number> {
  const page = await get(`${base}/v1/docs`, BROWSER);
  const scripts = [...page.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
  if (scripts.length !== 2) throw new Error(`the docs page names ${scripts.length} scripts, not 2`);
  const started = performance.now();
  await get(`${base}${scripts[0]}`);
  const viewerMs = performance.now() - started;
  for (const path of [...scripts, "/v1/openapi.json"]) await get(`${base}${path}`, BROWSER);
  return viewerMs;
}

async function mcp(base: string, id: number, method: string, params: unknown): Promise<void> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, host: SHOP_HOST },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true') || text.includes('"error":{')) {
    throw new Error(`MCP ${method} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/**
 * A client's first conversation: initialize (the SDK's way), then the two directly answered requests.
 * Returns the milliseconds of the first request.
 */
async function firstMcpConversation(base: string): Promise<number> {
  const started = performance.now();
  await mcp(base, 1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "memory-bench", version: "1.0.0" },
  });
  const initializeMs = performance.now() - started;
  await mcp(base, 2, "tools/list", {});
  await mcp(base, 3, "tools/call", { name: "listProducts", arguments: {} });
  return initializeMs;
}

interface Sample {
  idle: number;
  docs?: number;
  mcp?: number;
  viewerMs?: number;
  mcpMs?: number;
}

/** What is started; `cli`, the same build's command line, marks the service (the floor has none). */
interface Target {
  command: string[];
  cli?: string[];
  demoTenant?: boolean;
  env?: Record<string, string>;
  /** Measure a second start on the data of a first one (the demo store then exists already). */
  restart?: boolean;
}

/** A shop made by the target's own command line (another process), so that MCP calls have a tenant. */
async function createShop(dataDir: string, cli: string[]): Promise<void> {
  const args = ["org", "create", "--name", "Memory bench", "--host", SHOP_HOST, "--json"];
  const result = await runCliCommand(dataDir, args, { command: cli });
  if (result.exitCode !== 0) throw new Error(`org create exited ${result.exitCode}: ${result.stderr}`);
}

/** One start: idle RSS, and for the service RSS after the first docs load and the first MCP conversation. */
async function sample({ command, cli, demoTenant, env, restart }: Target) {
  const kept = restart ? makeTempDir("memory-restart") : undefined;
  const options = {
    command,
    label: "memory",
    logLevel: "warn",
    demoTenant,
    env: kept ? { ...env, DATA_DIR: kept } : env,
  };
  if (kept) await (await spawnServer(options)).stop();
  const child = await spawnServer(options);
  try {
    const result: Sample = { idle: await settledRss(child) };
    if (!cli) return result;
    result.viewerMs = await loadDocs(child.url);
    result.docs = await settledRss(child);
    await createShop(kept ?? child.dataDir, cli);
    result.mcpMs = await firstMcpConversation(child.url);
    result.mcp = await settledRss(child);
    return result;
  } finally {
    await child.stop();
    if (kept) rmSync(kept, { recursive: true, force: true });
  }
}

interface Row {
  name: string;
  samples: Sample[];
}

async function measure(name: string, target: Target): Promise<Row> {
  const samples: Sample[] = [];
  for (let i = 0; i < STARTS; i++) {
    samples.push(await sample(target));
    console.log(`${name} start ${i + 1}/${STARTS}: ${JSON.stringify(samples.at(-1))}`);
  }
  return { name, samples };
}

// The floor answers /v1/health the way the service does, and nothing else.
const floorDir = makeTempDir("memory-floor");
const floorRoutes = join(floorDir, "routes.json");
writeFileSync(
  floorRoutes,
  JSON.stringify([
    {
      path: "/v1/health",
      status: 200,
      contentType: "application/json",
      body: Buffer.from('{"data":{"status":"ok"}}').toString("base64"),
    },
  ]),
);

const bun = process.execPath;
const rows: Row[] = [];
try {
  rows.push(
    await measure("floor: bench/baseline-server.ts", {
      command: [bun, "bench/baseline-server.ts"],
      env: { BASELINE_ROUTES: floorRoutes },
    }),
  );
  const bunCli = [bun, "src/cli.ts"];
  if (process.env.BENCH_SOURCE !== "0") {
    const source = { command: [bun, "src/server.ts"], cli: bunCli };
    rows.push(await measure("bun src/server.ts, first start (demo)", { ...source, demoTenant: true }));
    rows.push(await measure("bun src/server.ts, DEMO_TENANT=false", source));
    rows.push(
      await measure("bun src/server.ts, second start (demo)", { ...source, demoTenant: true, restart: true }),
    );
  }
  const binarySetting = process.env.BENCH_BINARY;
  if (binarySetting) {
    const binary = binarySetting === "1" ? join(ROOT, "dist", "commerce") : binarySetting;
    const name = binarySetting === "1" ? "dist/commerce" : binary;
    const compiled = { command: [binary], cli: [binary] };
    rows.push(await measure(`${name}, first start (demo)`, { ...compiled, demoTenant: true }));
    rows.push(await measure(`${name}, DEMO_TENANT=false`, compiled));
    rows.push(
      await measure(`${name}, second start (demo)`, { ...compiled, demoTenant: true, restart: true }),
    );
  }
} finally {
  rmSync(floorDir, { recursive: true, force: true });
}

const floor = median(rows[0]!.samples.map((s) => s.idle));
const cell = (row: Row, key: keyof Sample, digits = 1) => {
  const values = row.samples.map((s) => s[key]).filter((v): v is number => v !== undefined);
  return values.length > 0 ? fmt(median(values), digits) : "";
};
console.log(`\nVmRSS in MB, medians of ${STARTS} starts; ${navigator.hardwareConcurrency} cores`);
printTable(
  ["process", "idle", "idle ÷ floor", "after docs", "after MCP", "1st viewer ms", "1st MCP ms"],
  rows.map((row) => [
    row.name,
    cell(row, "idle"),
    fmt(median(row.samples.map((s) => s.idle)) / floor, 2),
    cell(row, "docs"),
    cell(row, "mcp"),
    cell(row, "viewerMs"),
    cell(row, "mcpMs"),
  ]),
);
console.log(`results saved to ${saveResults("memory", { starts: STARTS, rows })}`);
