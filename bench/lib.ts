// Shared helpers of the benchmark harness: child processes, wrk runs, medians and tables.
// Run on demand only (see bench/README.md); nothing here is picked up by `bun test`.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

/** The repository root: every child process runs from here. */
export const ROOT = resolve(import.meta.dir, "..");

/** Traffic goes to this address only. */
export const LOOPBACK = "127.0.0.1";

// ---------------------------------------------------------------------------------------------
// Settings from the environment

export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}")`);
  }
  return Number(raw);
}

export interface LoadSettings {
  /** Seconds of each measured wrk run. */
  duration: number;
  /** Seconds of the warm-up run of each target, before the measured rounds. */
  warmup: number;
  connections: number;
  threads: number;
  rounds: number;
  /** wrk's per-request timeout in seconds (wrk's default, 2 s, when unset); slower answers count as timeouts. */
  timeout?: number;
}

export function loadSettings(): LoadSettings {
  return {
    duration: envInt("BENCH_DURATION", 10),
    warmup: envInt("BENCH_WARMUP", 2, 0),
    connections: envInt("BENCH_CONNECTIONS", 50),
    threads: envInt("BENCH_THREADS", 2),
    rounds: envInt("BENCH_ROUNDS", 3),
  };
}

// ---------------------------------------------------------------------------------------------
// Small utilities

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function fmt(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** Prints rows as an aligned text table; numbers are right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

/** Keeps a JSON copy of a run's figures in bench/results/ (ignored by git). */
export function saveResults(name: string, data: unknown): string {
  const dir = join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = join(dir, `${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function makeTempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `commerce-bench-${label}-`));
}

/** A TCP port nobody listens on right now (asked from the kernel on the loopback address). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? done(port) : fail(new Error("no free port"))));
    });
  });
}

const CLOCK_TICKS = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** User + system CPU seconds a process used so far (Linux /proc); NaN where /proc is not readable. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return Number.NaN;
  }
}

/** Settings of an app created in the script's own process on `dataDir`: quiet, no demo shop, no disk floor. */
export function inProcessEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false", MIN_FREE_DISK_MB: "0", ...extra };
}

/** Resident memory of a process now and its high-water mark (VmHWM), in MB (Linux /proc). */
export function rssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: (kb("VmRSS") * 1024) / 1e6, hwm: (kb("VmHWM") * 1024) / 1e6 };
}

/** File descriptors a process holds open (Linux /proc). */
export const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/** Pids of the processes whose parent is `pid` and whose name (`comm`) is `name` (Linux /proc). */
export function childPids(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid && comm === name) found.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** Milliseconds of one GET answered 200 with `host` as its Host header; throws on any other status. */
export async function getMs(base: string, host: string, path = "/v1/products?limit=20"): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { host } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} (${host}) answered ${response.status}: ${text}`);
  return performance.now() - started;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== LOOPBACK) throw new Error(`refusing to send benchmark traffic to ${host}; only ${LOOPBACK}`);
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP calls of the benchmark scripts (loopback only)

export interface Answer {
  status: number;
  text: string;
  ms: number;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** Calls and returns `data` of the envelope, throwing on anything but 2xx. */
export async function must<T>(
  base: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<T> {
  const answer = await call(base, method, path, body, headers);
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  }
  return (JSON.parse(answer.text) as { data: T }).data;
}

/** A Portuguese shipping address the PT shipping method of the purchase benchmarks serves. */
export const PT_ADDRESS = {
  firstName: "Ana",
  lastName: "Silva",
  line1: "Rua Augusta 10",
  city: "Lisboa",
  postalCode: "1100-053",
  country: "PT",
};

// ---------------------------------------------------------------------------------------------
// wrk

/** Makes sure `wrk` is on PATH, installing the Debian package when it is not. */
export function ensureWrk(): string {
  const found = Bun.which("wrk");
  if (found) return found;
  console.log("wrk is not installed: running apt-get update && apt-get install -y wrk ...");
  const result = Bun.spawnSync(["sh", "-c", "apt-get update && apt-get install -y wrk"], {
    stdout: "inherit",
    stderr: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  const installed = Bun.which("wrk");
  if (result.exitCode !== 0 || !installed) {
    throw new Error(`could not install wrk (apt-get exited with ${result.exitCode})`);
  }
  return installed;
}

export interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses with a status outside 2xx/3xx. */
  non2xx: number;
  /** connect + read + write errors + timeouts. */
  socketErrors: number;
  /** Requests not answered within wrk's timeout (part of socketErrors; not in the latency figures). */
  timeouts: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function parseDuration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new Error(`unexpected wrk duration "${text}"`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** Reads the figures out of wrk's text report (`--latency` adds the distribution lines). */
export function parseWrk(output: string): WrkResult {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  const p50 = /^\s+50%\s+(\S+)/m.exec(output);
  const p99 = /^\s+99%\s+(\S+)/m.exec(output);
  const total = /^\s+(\d+) requests in /m.exec(output);
  if (!rps || !p50 || !p99 || !total) throw new Error(`could not parse wrk output:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(rps[1]),
    p50Ms: parseDuration(p50[1]!),
    p99Ms: parseDuration(p99[1]!),
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

export async function runWrk(
  url: string,
  options: {
    duration: number;
    connections: number;
    threads: number;
    headers?: Record<string, string>;
    /** Seconds; wrk's default (2) when unset. */
    timeout?: number;
    /** A Lua script (`wrk -s`) that makes the requests; see WRK_LUA_ROTATION. */
    script?: string;
  },
): Promise<WrkResult> {
  assertLoopback(url);
  const args = [
    "wrk",
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.duration}s`,
    "--latency",
  ];
  if (options.timeout !== undefined) args.push("--timeout", `${options.timeout}s`);
  if (options.script !== undefined) args.push("-s", options.script);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(url);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${err}${out}`);
  return parseWrk(out);
}

/** `text` as a Lua string literal, for generated wrk scripts. */
export const luaString = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * The part every generated wrk script shares: its `init(args)` formats the requests once into
 * `requests[1..n]` (so wrk spends no Lua per request beyond picking the next), each thread knows its
 * index as `tid` (0, 1, …), and `request()` walks the list round and round from `i`.
 */
export const WRK_LUA_ROTATION = `local requests = {}
local n = 0
local i = 0
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function request()
  i = i + 1
  if i > n then i = 1 end
  return requests[i]
end
`;

/**
 * The Lua of create-cart load: POSTs `{"items":[{variantId, quantity: 1}]}` to `/v1/carts` with
 * `Host: host`, alternating the variants (a shopper's first add: a new cart with one line).
 */
export function createCartLua(host: string, variants: string[]): string {
  return `local bodies = { ${variants.map((v) => luaString(JSON.stringify({ items: [{ variantId: v, quantity: 1 }] }))).join(", ")} }
local headers = { ["Host"] = ${luaString(host)}, ["Content-Type"] = "application/json" }
${WRK_LUA_ROTATION}
function init(args)
  for b = 1, #bodies do
    n = n + 1
    requests[n] = wrk.format("POST", "/v1/carts", headers, bodies[b])
  end
end
`;
}

/**
 * The Lua of add-to-cart load: POSTs `{variantId, quantity: 1}` to `/v1/carts/{id}/items` with
 * `Host: host`, walking all carts with the first variant, then all with the next, round and round;
 * each wrk thread starts at its own offset.
 */
export function addToCartLua(host: string, carts: string[], variants: string[]): string {
  return `local carts = { ${carts.map(luaString).join(", ")} }
local bodies = { ${variants.map((v) => luaString(JSON.stringify({ variantId: v, quantity: 1 }))).join(", ")} }
local headers = { ["Host"] = ${luaString(host)}, ["Content-Type"] = "application/json" }
${WRK_LUA_ROTATION}
function init(args)
  for b = 1, #bodies do
    for c = 1, #carts do
      n = n + 1
      requests[n] = wrk.format("POST", "/v1/carts/" .. carts[c] .. "/items", headers, bodies[b])
    end
  end
  i = ((tid or 0) * math.floor(n / 2 + 1)) % n
end
`;
}

// ---------------------------------------------------------------------------------------------
// Child processes: the service, its CLI, the baseline server

export interface Child {
  url: string;
  port: number;
  /** DATA_DIR of the child (a fresh temp dir). */
  dataDir: string;
  proc: Subprocess;
  /** Milliseconds from spawn until `GET /v1/health` (or the ready path) answered as expected. */
  startupMs: number;
  /** What the child wrote to stderr (and to stdout when it was kept) so far. */
  output(): string;
  /** Kills the child and removes its temp dir. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Command to run; default `bun src/server.ts`. */
  command?: string[];
  /** LOG_LEVEL of the child; default: BENCH_LOG_LEVEL, else whatever the environment holds (service default `info`). */
  logLevel?: string;
  demoTenant?: boolean;
  /** Keep the child's stdout in a file (for diagnosis) instead of discarding it. */
  keepStdout?: boolean;
  /** Extra environment. */
  env?: Record<string, string>;
  /** Path polled until it answers `readyStatus`; default /v1/health and 200. */
  readyPath?: string;
  readyStatus?: number;
  /** Give up after this long; default 20 s. */
  timeoutMs?: number;
  /** Poll interval; default 2 ms. */
  pollMs?: number;
  label?: string;
}

async function stopProcess(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), sleep(5000).then(() => false)]);
  if (!exited) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}

/**
 * Spawns a server on a fresh temp DATA_DIR and a free loopback port, then polls until it is ready.
 * stdout is discarded by default (so the request log is written, as in production, but not kept).
 */
export async function spawnServer(options: SpawnOptions = {}): Promise<Child> {
  const tmp = makeTempDir(options.label ?? "server");
  const dataDir = join(tmp, "data");
  const port = await freePort();
  const url = `http://${LOOPBACK}:${port}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: LOOPBACK,
    DEMO_TENANT: options.demoTenant ? "true" : "false",
    ...options.env,
  };
  const logLevel = options.logLevel ?? process.env.BENCH_LOG_LEVEL;
  if (logLevel) env.LOG_LEVEL = logLevel;
  const stdoutFile = join(tmp, "stdout.log");
  const stderrFile = join(tmp, "stderr.log");
  const command = options.command ?? [process.execPath, "src/server.ts"];

  const started = performance.now();
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env,
    stdin: "ignore",
    stdout: options.keepStdout ? Bun.file(stdoutFile) : "ignore",
    stderr: Bun.file(stderrFile),
  });
  const output = () => {
    const out = options.keepStdout ? readText(stdoutFile) : "";
    const err = readText(stderrFile);
    return [out && `stdout:\n${out}`, err && `stderr:\n${err}`].filter(Boolean).join("\n");
  };
  const stop = async () => {
    await stopProcess(proc);
    rmSync(tmp, { recursive: true, force: true });
  };

  const readyUrl = `${url}${options.readyPath ?? "/v1/health"}`;
  const readyStatus = options.readyStatus ?? 200;
  const deadline = started + (options.timeoutMs ?? 20_000);
  const pollMs = options.pollMs ?? 2;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      const code = proc.exitCode ?? proc.signalCode;
      const text = output();
      await stop();
      throw new Error(`${command.join(" ")} exited (${code}) before answering ${readyUrl}\n${text}`);
    }
    try {
      const response = await fetch(readyUrl);
      await response.arrayBuffer();
      if (response.status === readyStatus) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      const text = output();
      await stop();
      throw new Error(`${readyUrl} did not answer ${readyStatus} in time\n${text}`);
    }
    await sleep(pollMs);
  }
  return { url, port, dataDir, proc, startupMs: performance.now() - started, output, stop };
}

/** Starts the service (`bun src/server.ts`) as a child; DEMO_TENANT=false unless asked. */
export function startService(options: Omit<SpawnOptions, "command"> = {}): Promise<Child> {
  return spawnServer({ label: "service", ...options });
}

export interface CliResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a CLI command against DATA_DIR (default `bun src/cli.ts`). PORT/HOST point at a free loopback
 * port so that, should the command start a server instead, it cannot bind a public address; it is
 * killed after `timeoutMs`.
 */
export async function runCliCommand(
  dataDir: string,
  args: string[],
  options: { command?: string[]; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const command = [...(options.command ?? [process.execPath, "src/cli.ts"]), ...args];
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: LOOPBACK,
      ...options.env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, options.timeoutMs ?? 20_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr, timedOut };
}

/** Runs a `--json` CLI command and parses what it printed; throws with its output when it failed. */
export async function cliJson<T>(
  dataDir: string,
  args: string[],
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const result = await runCliCommand(dataDir, [...args, "--json"], options);
  if (result.exitCode !== 0) {
    throw new Error(
      `cli ${args.join(" ")} exited ${result.exitCode}${result.timedOut ? " (timed out)" : ""}:\n` +
        `${result.stderr}${result.stdout}`,
    );
  }
  return JSON.parse(result.stdout) as T;
}

export interface OrgAndKey {
  org: { id: string; slug: string; name: string; host: string | null };
  apiKey: { id: string; key: string; orgId: string; scopes: string[] };
}

/** Creates an organization with the project's CLI; `host` makes it the storefront of that Host. */
export function createOrg(
  dataDir: string,
  options: { name?: string; host?: string } = {},
): Promise<OrgAndKey["org"]> {
  const args = ["org", "create", "--name", options.name ?? "Bench"];
  if (options.host) args.push("--host", options.host);
  return cliJson(dataDir, args);
}

/** Creates an API key of the organization with the project's CLI; `scopes` comma-separated. */
export function createApiKey(dataDir: string, orgId: string, scopes: string): Promise<OrgAndKey["apiKey"]> {
  return cliJson(dataDir, ["apikey", "create", "--org", orgId, "--scopes", scopes]);
}

/** Adds `products` generated products to the organization with the project's CLI (`seed`). */
export async function seedProducts(
  dataDir: string,
  orgId: string,
  products: number,
  options: { timeoutMs?: number } = {},
): Promise<{ orgId: string; created: number; ms: number }> {
  const seed = await cliJson<{ orgId: string; created: number; ms: number }>(
    dataDir,
    ["seed", "--products", String(products), "--org", orgId],
    options,
  );
  if (seed.created !== products) throw new Error(`seed created ${seed.created} products, not ${products}`);
  return seed;
}

/** Creates an organization and an admin+storefront API key with the project's CLI. */
export async function createOrgAndKey(dataDir: string, name = "Bench"): Promise<OrgAndKey> {
  const org = await createOrg(dataDir, { name });
  const apiKey = await createApiKey(dataDir, org.id, "admin,storefront");
  return { org, apiKey };
}

/** One path answered by the baseline server exactly as the service answered it. */
export interface CapturedResponse {
  path: string;
  status: number;
  contentType: string;
  /** Every response header, names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array;
}

export async function captureResponse(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<CapturedResponse> {
  assertLoopback(baseUrl);
  const response = await fetch(`${baseUrl}${path}`, { headers });
  return {
    path,
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Headers Bun.serve writes itself on every answer: a floor sending captured headers leaves them out. */
const SERVER_WRITTEN = new Set(["date", "content-length", "transfer-encoding", "connection", "keep-alive"]);

/**
 * Starts `bench/baseline-server.ts` (plain Bun.serve) answering each captured path with the same
 * status, content-type and body bytes, and checks that it does. `allHeaders`: it sends every header
 * the service sent too (the same `x-request-id` each time), the floor of an answer the service keeps.
 */
export async function startBaseline(
  responses: CapturedResponse[],
  options: { allHeaders?: boolean; requestHeaders?: Record<string, string> } = {},
): Promise<Child> {
  const first = responses[0];
  if (!first) throw new Error("the baseline needs at least one response");
  const tmp = makeTempDir("baseline-routes");
  const routesFile = join(tmp, "routes.json");
  writeFileSync(
    routesFile,
    JSON.stringify(
      responses.map((r) => ({
        path: r.path,
        status: r.status,
        contentType: r.contentType,
        headers: options.allHeaders
          ? Object.fromEntries(Object.entries(r.headers).filter(([name]) => !SERVER_WRITTEN.has(name)))
          : undefined,
        body: Buffer.from(r.body).toString("base64"),
      })),
    ),
  );
  try {
    const child = await spawnServer({
      label: "baseline",
      command: [process.execPath, "bench/baseline-server.ts"],
      env: { BASELINE_ROUTES: routesFile },
      readyPath: first.path,
      readyStatus: first.status,
    });
    for (const expected of responses) {
      const got = await captureResponse(child.url, expected.path, options.requestHeaders);
      if (
        got.status !== expected.status ||
        got.contentType !== expected.contentType ||
        !sameBytes(got.body, expected.body)
      ) {
        await child.stop();
        throw new Error(`baseline answers ${expected.path} differently from the service`);
      }
    }
    return child;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Service against baseline

export interface Scenario {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

export interface ComparisonRow {
  scenario: string;
  service: { rps: number; p50Ms: number; p99Ms: number; runs: WrkResult[] };
  baseline: { rps: number; p50Ms: number; p99Ms: number; runs: WrkResult[] };
  /** Median of the per-round ratios service req/s ÷ baseline req/s (each from back-to-back runs). */
  ratio: number;
  roundRatios: number[];
}

/** Medians of a target's measured runs (the runs kept alongside). */
export const summarizeRuns = (runs: WrkResult[]) => ({
  rps: median(runs.map((r) => r.rps)),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
  runs,
});

/**
 * Warm-up of each target, then `rounds` rounds in which every scenario runs against the service and
 * the baseline back to back (order swapped each round). Reports medians.
 */
export async function compareWithBaseline(
  scenarios: Scenario[],
  serviceUrl: string,
  baselineUrl: string,
  settings: LoadSettings,
): Promise<ComparisonRow[]> {
  const targets = { service: serviceUrl, baseline: baselineUrl } as const;
  const load = (duration: number, scenario: Scenario) => ({
    duration,
    connections: settings.connections,
    threads: settings.threads,
    headers: scenario.headers,
    timeout: settings.timeout,
  });
  const check = (label: string, result: WrkResult) => {
    if (result.non2xx > 0 || result.socketErrors > 0) {
      console.warn(
        `  warning: ${label}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`,
      );
    }
  };

  if (settings.warmup > 0) {
    for (const scenario of scenarios) {
      for (const [name, url] of Object.entries(targets)) {
        console.log(`warm-up ${settings.warmup}s: ${scenario.name} on ${name}`);
        check(`warm-up ${name}`, await runWrk(`${url}${scenario.path}`, load(settings.warmup, scenario)));
      }
    }
  }

  const runs = new Map(
    scenarios.map((s) => [s.name, { service: [] as WrkResult[], baseline: [] as WrkResult[] }]),
  );
  for (let round = 1; round <= settings.rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 1 ? (["service", "baseline"] as const) : (["baseline", "service"] as const);
      for (const name of order) {
        const result = await runWrk(`${targets[name]}${scenario.path}`, load(settings.duration, scenario));
        check(`${scenario.name} ${name} round ${round}`, result);
        runs.get(scenario.name)![name].push(result);
        console.log(
          `round ${round}/${settings.rounds} ${scenario.name.padEnd(16)} ${name.padEnd(8)} ` +
            `${fmt(result.rps, 0).padStart(8)} req/s  p50 ${fmt(result.p50Ms)} ms  p99 ${fmt(result.p99Ms)} ms`,
        );
      }
    }
  }

  return scenarios.map((scenario) => {
    const { service, baseline } = runs.get(scenario.name)!;
    const roundRatios = service.map((s, i) => s.rps / baseline[i]!.rps);
    return {
      scenario: scenario.name,
      service: summarizeRuns(service),
      baseline: summarizeRuns(baseline),
      ratio: median(roundRatios),
      roundRatios,
    };
  });
}

export function printComparison(rows: ComparisonRow[]): void {
  printTable(
    [
      "scenario",
      "req/s (service)",
      "p50 ms",
      "p99 ms",
      "req/s (baseline)",
      "base p50 ms",
      "base p99 ms",
      "ratio svc/base",
    ],
    rows.map((r) => [
      r.scenario,
      fmt(r.service.rps, 0),
      fmt(r.service.p50Ms),
      fmt(r.service.p99Ms),
      fmt(r.baseline.rps, 0),
      fmt(r.baseline.p50Ms),
      fmt(r.baseline.p99Ms),
      fmt(r.ratio),
    ]),
  );
  for (const r of rows) {
    console.log(`  ${r.scenario}: per-round ratios ${r.roundRatios.map((x) => fmt(x)).join(", ")}`);
  }
}
