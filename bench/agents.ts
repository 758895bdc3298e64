// Load benchmark of agent authentication and MCP, each against the API-key REST request it replaces:
//   1. GET /v1/products with a fresh Ed25519-signed agent JWT per request (replay cache on) vs the
//      same request with an API key;
//   2. the same agent request vs its floor (bench/agent-floor-server.ts: a bare Bun.serve checking
//      the token's Ed25519 signature and sending the same bytes);
//   3. MCP tools/call listProducts (POST /mcp, API key) vs GET /v1/products (same API key);
//   4. the same MCP call vs its floor (bench/mcp-floor-server.ts: a bare Bun.serve reading the
//      request's body and sending the same bytes), and that floor vs the REST read: how much of
//      the gap is the MCP answer's size alone; and that floor vs the REST read's floor (a bare
//      Bun.serve sending the listing's bytes, bench/baseline-server.ts): what bare servers reach for
//      MCP ÷ REST on this machine, before any of the service's work;
//   5. the same MCP call with an OAuth access token (a client connected on the consent page) vs
//      with the API key.
// One service process (bench/agents-server.ts) serves both sides of each comparison but the floors.
// Usage: bun bench/agents.ts
import { createHash, sign as edSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Child,
  captureResponse,
  createApiKey,
  ensureWrk,
  envInt,
  fmt,
  luaString,
  makeTempDir,
  median,
  printTable,
  runWrk,
  saveResults,
  seedProducts,
  spawnServer,
  startBaseline,
  summarizeRuns,
  WRK_LUA_ROTATION,
  type WrkResult,
} from "./lib.ts";

const settings = {
  duration: envInt("BENCH_DURATION", 5),
  warmup: envInt("BENCH_WARMUP", 2, 0),
  connections: envInt("BENCH_CONNECTIONS", 50),
  threads: envInt("BENCH_THREADS", 2),
  rounds: envInt("BENCH_ROUNDS", 3),
};
const PRODUCTS = envInt("BENCH_PRODUCTS", 100);
/** Tokens per measured second are this many times the API-key side's warm-up req/s (an upper bound). */
const TOKEN_MARGIN = 1.3;

// ---------------------------------------------------------------------------------------------
// Ed25519 JWTs, signed with node:crypto (the same compact JWS jose makes; much faster in bulk)

const b64url = (data: string | Uint8Array) => Buffer.from(data).toString("base64url");

interface Ed25519Key {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string };
  thumbprint: string;
}

function newKey(): Ed25519Key {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const { kty, crv, x } = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  const jwk = { kty, crv, x };
  // RFC 7638 thumbprint of an OKP key: SHA-256 of the required members in lexical order.
  const thumbprint = b64url(createHash("sha256").update(JSON.stringify({ crv, kty, x })).digest());
  return { privateKey, jwk, thumbprint };
}

function signJwt(key: KeyObject, typ: string, claims: Record<string, unknown>): string {
  const iat = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: "EdDSA", typ }));
  const payload = b64url(JSON.stringify({ ...claims, jti: crypto.randomUUID(), iat, exp: iat + 60 }));
  const input = `${header}.${payload}`;
  return `${input}.${b64url(edSign(null, Buffer.from(input), key))}`;
}

// ---------------------------------------------------------------------------------------------
// Where the service's CPU goes: its main thread (user, system) and its other threads

const CLOCK_TICKS = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

interface ThreadCpu {
  mainUser: number;
  mainSystem: number;
  others: number;
}

/** CPU seconds a process used so far, per thread kind (Linux /proc; zeros where it is not readable). */
function threadCpu(pid: number): ThreadCpu {
  const total: ThreadCpu = { mainUser: 0, mainSystem: 0, others: 0 };
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return total;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const [user, system] = [Number(fields[11]) / CLOCK_TICKS, Number(fields[12]) / CLOCK_TICKS];
      if (tid === String(pid)) Object.assign(total, { mainUser: user, mainSystem: system });
      else total.others += user + system;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return total;
}

/** Microseconds of service CPU per answered request during one run, per thread kind. */
const cpuPerRequest = (before: ThreadCpu, after: ThreadCpu, requests: number): ThreadCpu => ({
  mainUser: ((after.mainUser - before.mainUser) * 1e6) / requests,
  mainSystem: ((after.mainSystem - before.mainSystem) * 1e6) / requests,
  others: (Math.max(0, after.others - before.others) * 1e6) / requests,
});

// ---------------------------------------------------------------------------------------------
// wrk with a Lua script: the same script for both sides of every comparison

interface Target {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A file with one token a line: each request sends the next one as `Authorization: Bearer`. */
  tokenFile?: string;
  /** Another server than the service (a floor), and its process (whose CPU is counted). */
  server?: Child;
}

/** One request per token (or a single one); thread k of n takes the tokens on lines k, k+n, k+2n… */
function writeScript(file: string, target: Target): void {
  const headers = Object.entries(target.headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
    .join(", ");
  const text = `-- Generated by bench/agents.ts
local method = ${luaString(target.method)}
local path = ${luaString(target.path)}
local body = ${target.body === undefined ? "nil" : luaString(target.body)}
local headers = { ${headers} }
local tokenFile = ${target.tokenFile ? luaString(target.tokenFile) : "nil"}
local nthreads = ${settings.threads}
${WRK_LUA_ROTATION}
function init(args)
  if tokenFile then
    local line = 0
    for token in io.lines(tokenFile) do
      if line % nthreads == tid then
        headers["Authorization"] = "Bearer " .. token
        n = n + 1
        requests[n] = wrk.format(method, path, headers, body)
      end
      line = line + 1
    end
  else
    n = 1
    requests[1] = wrk.format(method, path, headers, body)
  end
end
`;
  writeFileSync(file, text);
}

const tmp = makeTempDir("agents-wrk");
let scriptSeq = 0;

async function runTarget(baseUrl: string, target: Target, duration: number): Promise<WrkResult> {
  const script = join(tmp, `run-${++scriptSeq}.lua`);
  writeScript(script, target);
  try {
    return await runWrk(`${baseUrl}${target.path}`, {
      duration,
      connections: settings.connections,
      threads: settings.threads,
      script,
    });
  } finally {
    rmSync(script, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Setup: a dashboard owner, an organization, an API key, a seeded catalog, an approved agent

ensureWrk();
console.log(
  `agents benchmark: wrk -t${settings.threads} -c${settings.connections}, ${settings.rounds} rounds of ` +
    `${settings.duration}s (warm-up ${settings.warmup}s), ${PRODUCTS} products`,
);

const children: Child[] = [];
let service!: Child;
const serviceUrl = () => service.url;

async function call(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: any; response: Response }> {
  const response = await fetch(`${serviceUrl()}${path}`, {
    method,
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, response };
}

function must<T extends { status: number; body: any }>(what: string, result: T, status: number): T {
  if (result.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
  }
  return result;
}

/**
 * An MCP client connected the way a merchant connects one: registered, allowed `listProducts` on
 * the consent page (over HTTP, as the browser posts it), the code exchanged with PKCE. Its access token.
 */
async function connectOAuthClient(origin: string, cookie: string, orgId: string): Promise<string> {
  const redirectUri = "http://127.0.0.1:9/callback";
  const client = must(
    "oauth register",
    await call("POST", "/oauth/register", {
      body: { client_name: "Bench client", redirect_uris: [redirectUri] },
    }),
    201,
  ).body.client_id as string;
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client,
    redirect_uri: redirectUri,
    code_challenge: b64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    resource: `${origin}/mcp`,
  }).toString();
  const form = (fields: [string, string][], headers: Record<string, string>): RequestInit => ({
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  // The owner signed up moments ago: the password check is fresh, the session cookie is enough.
  const page = await (
    await fetch(`${serviceUrl()}/oauth/authorize?${query}`, { headers: { cookie } })
  ).text();
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page)?.[1];
  if (!csrf) throw new Error(`oauth consent page: ${page.slice(0, 300)}`);
  const decision = await fetch(
    `${serviceUrl()}/oauth/authorize/decision`,
    form(
      [
        ["request", query],
        ["csrf", csrf],
        ["organization_id", orgId],
        ["capability", "listProducts"],
        ["duration", "1h"],
        ["action", "approve"],
      ],
      { cookie },
    ),
  );
  const code = new URL(decision.headers.get("location") ?? "http://x/").searchParams.get("code");
  if (!code) throw new Error(`oauth consent: ${decision.status} ${await decision.text()}`);
  const tokens = await fetch(`${serviceUrl()}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client,
    }).toString(),
  });
  const body = (await tokens.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`oauth token: ${tokens.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

interface Scenario {
  name: string;
  /** Side A (measured) and side B (reference); ratio = A req/s ÷ B req/s. */
  a: { label: string; target: () => Target };
  b: { label: string; target: () => Target };
}

type Side = ReturnType<typeof summarizeRuns> & { cpu: ThreadCpu };

interface Row {
  scenario: string;
  a: Side & { label: string };
  b: Side & { label: string };
  ratio: number;
  roundRatios: number[];
}

const medianCpu = (runs: ThreadCpu[]): ThreadCpu => ({
  mainUser: median(runs.map((c) => c.mainUser)),
  mainSystem: median(runs.map((c) => c.mainSystem)),
  others: median(runs.map((c) => c.others)),
});

const results: { rows: Row[]; setup: Record<string, unknown> } = { rows: [], setup: {} };
const problems: string[] = [];

try {
  service = await spawnServer({ label: "service", command: [process.execPath, "bench/agents-server.ts"] });
  children.push(service);
  const base = service.url;
  // BASE_URL is unset, so the service's own origin (the agent JWTs' audience) is http://localhost:PORT.
  const origin = `http://localhost:${service.port}`;

  // Dashboard owner and organization (the agent's approver), an API key and the catalog.
  const signUp = must(
    "sign-up",
    await call("POST", "/api/auth/sign-up/email", {
      body: { email: "owner@bench.example", password: "correct horse battery" },
    }),
    201,
  );
  const cookie = signUp.response.headers.get("set-cookie")!.split(";")[0]!;
  const org = must(
    "organization create",
    await call("POST", "/api/auth/organization/create", { headers: { cookie }, body: { name: "Bench" } }),
    201,
  ).body.data as { id: string };
  const apiKey = (await createApiKey(service.dataDir, org.id, "admin,storefront")).key;
  await seedProducts(service.dataDir, org.id, PRODUCTS);

  // A host and an agent with real Ed25519 keys; the owner approves listProducts for the organization.
  const hostKey = newKey();
  const agentKey = newKey();
  const issuer = `${origin}/api/auth`;
  const hostJwt = signJwt(hostKey.privateKey, "host+jwt", {
    iss: hostKey.thumbprint,
    aud: issuer,
    host_public_key: hostKey.jwk,
    agent_public_key: agentKey.jwk,
  });
  const registered = must(
    "agent register",
    await call("POST", "/api/auth/agent/register", {
      headers: { authorization: `Bearer ${hostJwt}` },
      body: { name: "Bench agent", capabilities: ["listProducts"] },
    }),
    201,
  ).body as { agent_id: string; approval: { approval_id: string; user_code: string } };
  must(
    "agent approve",
    await call("POST", "/api/auth/agent/approve", {
      headers: { cookie },
      body: {
        approval_id: registered.approval.approval_id,
        user_code: registered.approval.user_code,
        organization_id: org.id,
      },
    }),
    200,
  );
  const agentToken = () =>
    signJwt(agentKey.privateKey, "agent+jwt", {
      iss: hostKey.thumbprint,
      sub: registered.agent_id,
      aud: origin,
    });

  // The compared requests answer the same body (the agent acts in the same organization).
  const LIST = "/v1/products";
  const viaKey = must(
    "GET /v1/products (API key)",
    await call("GET", LIST, { headers: { "x-api-key": apiKey } }),
    200,
  );
  const viaAgent = must(
    "GET /v1/products (agent)",
    await call("GET", LIST, { headers: { authorization: `Bearer ${agentToken()}` } }),
    200,
  );
  if (JSON.stringify(viaAgent.body) !== JSON.stringify(viaKey.body)) {
    throw new Error("the agent's GET /v1/products differs from the API key's");
  }
  // The agent floor answers the API key's bytes after checking the token's signature.
  const bodyFile = join(tmp, "list-body.json");
  const listed = await fetch(`${base}${LIST}`, { headers: { "x-api-key": apiKey } });
  writeFileSync(bodyFile, new Uint8Array(await listed.arrayBuffer()));
  const floor = await spawnServer({
    label: "agent-floor",
    command: [process.execPath, "bench/agent-floor-server.ts"],
    env: { AGENT_PUBLIC_JWK: JSON.stringify(agentKey.jwk), BODY_FILE: bodyFile },
  });
  children.push(floor);

  const replayToken = agentToken();
  must(
    "first use of a token",
    await call("GET", LIST, { headers: { authorization: `Bearer ${replayToken}` } }),
    200,
  );
  must(
    "replayed token",
    await call("GET", LIST, { headers: { authorization: `Bearer ${replayToken}` } }),
    401,
  );

  const MCP_HEADERS = {
    "x-api-key": apiKey,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  const MCP_BODY = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "listProducts", arguments: {} },
  });
  const mcp = await fetch(`${base}/mcp`, { method: "POST", headers: MCP_HEADERS, body: MCP_BODY });
  const mcpBody = (await mcp.json()) as { result?: { structuredContent?: unknown; isError?: boolean } };
  if (mcp.status !== 200 || mcpBody.result?.isError) {
    throw new Error(`MCP tools/call listProducts: ${mcp.status} ${JSON.stringify(mcpBody)}`);
  }
  if (JSON.stringify(mcpBody.result?.structuredContent) !== JSON.stringify(viaKey.body)) {
    throw new Error("MCP listProducts answers another envelope than GET /v1/products");
  }
  // The MCP floor answers the MCP call's bytes after reading the request's body.
  const mcpBodyFile = join(tmp, "mcp-body.json");
  const mcpAnswer = await fetch(`${base}/mcp`, { method: "POST", headers: MCP_HEADERS, body: MCP_BODY });
  writeFileSync(mcpBodyFile, new Uint8Array(await mcpAnswer.arrayBuffer()));
  const mcpFloor = await spawnServer({
    label: "mcp-floor",
    command: [process.execPath, "bench/mcp-floor-server.ts"],
    env: { BODY_FILE: mcpBodyFile },
  });
  children.push(mcpFloor);
  // The REST read's floor: the listing's bytes, sent by a bare server without reading any header.
  const restFloor = await startBaseline([await captureResponse(base, LIST, { "x-api-key": apiKey })]);
  children.push(restFloor);
  const oauthToken = await connectOAuthClient(origin, cookie, org.id);
  const viaOAuth = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "x-api-key": "", authorization: `Bearer ${oauthToken}` },
    body: MCP_BODY,
  });
  if (viaOAuth.status !== 200 || (await viaOAuth.text()) !== JSON.stringify(mcpBody)) {
    throw new Error("MCP listProducts with the OAuth token answers another body than with the API key");
  }
  const listBytes = JSON.stringify(viaKey.body).length;
  results.setup = {
    orgId: org.id,
    products: PRODUCTS,
    listBytes,
    mcpResponseBytes: JSON.stringify(mcpBody).length,
  };

  // Tokens: enough for a run at the API-key side's warm-up rate (the agent side does strictly more work).
  let tokenRate = 0;
  const tokenFile = join(tmp, "tokens.txt");
  const tokensFor = (seconds: number): Target => {
    const count = Math.ceil(tokenRate * TOKEN_MARGIN * seconds) + 1000 * settings.threads;
    const started = performance.now();
    const lines: string[] = new Array(count);
    for (let i = 0; i < count; i++) lines[i] = agentToken();
    writeFileSync(tokenFile, `${lines.join("\n")}\n`);
    console.log(`  ${count} agent tokens signed in ${fmt((performance.now() - started) / 1000)} s`);
    return { method: "GET", path: LIST, headers: {}, tokenFile };
  };

  const mcpTarget: Target = { method: "POST", path: "/mcp", headers: MCP_HEADERS, body: MCP_BODY };
  const { "x-api-key": _key, ...mcpWithoutKey } = MCP_HEADERS;
  const oauthHeaders = { ...mcpWithoutKey, authorization: `Bearer ${oauthToken}` };
  let currentDuration = settings.duration;
  const keyGet: Target = { method: "GET", path: LIST, headers: { "x-api-key": apiKey } };
  const allScenarios: Scenario[] = [
    {
      name: "agent JWT vs API key: GET /v1/products",
      a: { label: "agent JWT", target: () => tokensFor(currentDuration) },
      b: { label: "API key", target: () => keyGet },
    },
    {
      name: "agent JWT vs its floor: GET /v1/products",
      a: { label: "agent JWT", target: () => tokensFor(currentDuration) },
      b: { label: "floor", target: () => ({ ...tokensFor(currentDuration), server: floor }) },
    },
    {
      name: "MCP tools/call listProducts vs GET /v1/products (API key)",
      a: {
        label: "MCP",
        target: () => ({ method: "POST", path: "/mcp", headers: MCP_HEADERS, body: MCP_BODY }),
      },
      b: { label: "REST", target: () => keyGet },
    },
    {
      name: "MCP tools/call listProducts vs its floor",
      a: { label: "MCP", target: () => mcpTarget },
      b: { label: "floor", target: () => ({ ...mcpTarget, server: mcpFloor }) },
    },
    {
      name: "MCP floor vs GET /v1/products (API key)",
      a: { label: "MCP floor", target: () => ({ ...mcpTarget, server: mcpFloor }) },
      b: { label: "REST", target: () => keyGet },
    },
    {
      name: "MCP floor vs REST floor",
      a: { label: "MCP floor", target: () => ({ ...mcpTarget, server: mcpFloor }) },
      b: { label: "REST floor", target: () => ({ ...keyGet, server: restFloor }) },
    },
    {
      name: "MCP tools/call listProducts: OAuth token vs API key",
      a: { label: "OAuth", target: () => ({ ...mcpTarget, headers: oauthHeaders }) },
      b: { label: "API key", target: () => mcpTarget },
    },
  ];

  // BENCH_ONLY: run only the comparisons whose name contains it (say "agent JWT" or "MCP").
  const only = process.env.BENCH_ONLY?.trim();
  const scenarios = only ? allScenarios.filter((s) => s.name.includes(only)) : allScenarios;
  if (scenarios.length === 0) throw new Error(`BENCH_ONLY=${only} names no comparison`);

  const check = (label: string, result: WrkResult, target: Target) => {
    const line =
      `${label}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors` +
      (target.tokenFile ? ` (${result.requests} requests)` : "");
    if (result.non2xx > 0 || result.socketErrors > 0) {
      problems.push(line);
      console.warn(`  warning: ${line}`);
    }
  };

  // Warm-up: the API key first (its rate sizes the token files), then each side of each scenario.
  const warm = Math.max(settings.warmup, 1);
  console.log(`warm-up ${warm}s: API key GET ${LIST}`);
  const keyWarm = await runTarget(base, keyGet, warm);
  check("warm-up API key", keyWarm, keyGet);
  tokenRate = keyWarm.rps;
  if (settings.warmup > 0) {
    for (const scenario of scenarios) {
      for (const side of [scenario.a, scenario.b]) {
        currentDuration = settings.warmup;
        const target = side.target();
        console.log(`warm-up ${settings.warmup}s: ${scenario.name} / ${side.label}`);
        const result = await runTarget(target.server?.url ?? base, target, settings.warmup);
        check(`warm-up ${side.label}`, result, target);
        // Token files are sized by the fastest side seen (a side faster than its tokens would replay them).
        tokenRate = Math.max(tokenRate, result.rps);
      }
    }
  }

  const runs = new Map(
    scenarios.map((s) => [
      s.name,
      { a: [] as WrkResult[], b: [] as WrkResult[], cpuA: [] as ThreadCpu[], cpuB: [] as ThreadCpu[] },
    ]),
  );
  currentDuration = settings.duration;
  for (let round = 1; round <= settings.rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 1 ? (["a", "b"] as const) : (["b", "a"] as const);
      for (const which of order) {
        const side = scenario[which];
        const target = side.target();
        const pid = (target.server ?? service).proc.pid;
        const cpuBefore = threadCpu(pid);
        const result = await runTarget(target.server?.url ?? base, target, settings.duration);
        const cpu = cpuPerRequest(cpuBefore, threadCpu(pid), result.requests);
        check(`${scenario.name} ${side.label} round ${round}`, result, target);
        const run = runs.get(scenario.name)!;
        run[which].push(result);
        (which === "a" ? run.cpuA : run.cpuB).push(cpu);
        console.log(
          `round ${round}/${settings.rounds} ${side.label.padEnd(9)} ${fmt(result.rps, 0).padStart(8)} req/s  ` +
            `p50 ${fmt(result.p50Ms)} ms  p99 ${fmt(result.p99Ms)} ms`,
        );
      }
    }
  }

  for (const scenario of scenarios) {
    const { a, b, cpuA, cpuB } = runs.get(scenario.name)!;
    const roundRatios = a.map((r, i) => r.rps / b[i]!.rps);
    results.rows.push({
      scenario: scenario.name,
      a: { label: scenario.a.label, ...summarizeRuns(a), cpu: medianCpu(cpuA) },
      b: { label: scenario.b.label, ...summarizeRuns(b), cpu: medianCpu(cpuB) },
      ratio: median(roundRatios),
      roundRatios,
    });
  }
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(tmp, { recursive: true, force: true });
}

console.log();
const cpuCells = (side: Side) => [
  fmt(side.cpu.mainUser, 0),
  fmt(side.cpu.mainSystem, 0),
  fmt(side.cpu.others, 0),
];
printTable(
  [
    "scenario",
    "side",
    "req/s",
    "p50 ms",
    "p99 ms",
    "ratio a/b (rounds)",
    "main usr µs",
    "main sys µs",
    "other µs",
  ],
  results.rows.flatMap((row) => [
    [
      row.scenario,
      row.a.label,
      fmt(row.a.rps, 0),
      fmt(row.a.p50Ms),
      fmt(row.a.p99Ms),
      `${fmt(row.ratio)} (${row.roundRatios.map((x) => fmt(x)).join(", ")})`,
      ...cpuCells(row.a),
    ],
    ["", row.b.label, fmt(row.b.rps, 0), fmt(row.b.p50Ms), fmt(row.b.p99Ms), "", ...cpuCells(row.b)],
  ]),
);
if (problems.length > 0) console.warn(`\n${problems.length} run(s) had errors (see above)`);
const file = saveResults("agents", { settings, ...results, problems });
console.log(`\nresults: ${file}`);
if (problems.length > 0) process.exit(1);
