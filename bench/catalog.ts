// Load benchmark of the storefront catalog: product listing, product detail and full-text search on a
// seeded tenant. The service's answers are first proven right against bench/catalog-floor-server.ts
// (a bare Bun.serve running the same SQL over the same tenant file, byte for byte); the reads are then
// measured against the floor of a kept answer: a bare Bun.serve sending the service's own bytes and
// headers (bench/baseline-server.ts). Usage: bun bench/catalog.ts
import { join } from "node:path";
import {
  type Child,
  type ComparisonRow,
  captureResponse,
  compareWithBaseline,
  createOrg,
  ensureWrk,
  envInt,
  fmt,
  loadSettings,
  printTable,
  type Scenario,
  saveResults,
  seedProducts,
  spawnServer,
  startBaseline,
  startService,
} from "./lib.ts";

const TARGET_RATIO = 0.6;
const TARGET_LIST_P99_MS = 15;
/** The storefront Host of the benchmark organization: the service resolves the caller from it. */
const HOST = "shop.bench.example";
/** Search word: a prefix of "cotton" (about 15 % of the seeded products, in names, descriptions and tags). */
const SEARCH = process.env.BENCH_SEARCH?.trim() || "cott";
const SEED_TIMEOUT_MS = 15 * 60_000;

function sizesFromEnv(): number[] {
  const raw = process.env.BENCH_SIZES?.trim();
  if (!raw) return [envInt("BENCH_PRODUCTS", 1000)];
  return raw.split(",").map((part) => {
    const text = part.trim().replace(/_/g, "");
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1_000_000) {
      throw new Error(`BENCH_SIZES takes product counts from 1 to 1000000, comma-separated (got "${raw}")`);
    }
    return Number(text);
  });
}

interface ProductSummary {
  slug: string;
  status: string;
  variants: unknown[];
}

interface SizeResult {
  products: number;
  seedMs: number;
  orgId: string;
  scenarios: { name: string; path: string; bytes: number; total?: number }[];
  rows: ComparisonRow[];
  targets: { ratio: number; listP99Ms: number; ratiosMet: boolean; listP99Met: boolean };
}

// wrk gives up on a request after `timeout` seconds (its default is 2): searches over 100 000 products
// take longer than that at 50 connections, and timed-out requests are left out of wrk's percentiles.
const settings = { ...loadSettings(), timeout: envInt("BENCH_WRK_TIMEOUT", 10) };
const sizes = sizesFromEnv();
ensureWrk();
console.log(
  `catalog benchmark: products ${sizes.join(", ")}; wrk -t${settings.threads} -c${settings.connections} ` +
    `-d${settings.duration}s, ${settings.rounds} rounds, warm-up ${settings.warmup}s; service LOG_LEVEL=${
      process.env.BENCH_LOG_LEVEL ?? process.env.LOG_LEVEL ?? "(default: info)"
    }, stdout discarded; caller: storefront Host ${HOST}`,
);

const decoder = new TextDecoder();
// "Host" spelled as wrk spells it: given as "host", wrk would send its own Host header as well.
const headers = { Host: HOST };
// wrk asks no compression; fetch would ask for it unless told otherwise, so the checks ask identity.
const checkHeaders = { ...headers, "Accept-Encoding": "identity" };
/** Headers whose value is new on every answer: both must send them, with any value. */
const PER_ANSWER = new Set(["date", "x-request-id"]);

/** Differences between two answers' headers: names on one side only, or other values. */
function headerProblems(service: Record<string, string>, floor: Record<string, string>): string[] {
  const names = new Set([...Object.keys(service), ...Object.keys(floor)]);
  return [...names]
    .filter(
      (name) =>
        !(name in service) || !(name in floor) || (!PER_ANSWER.has(name) && service[name] !== floor[name]),
    )
    .map((name) => `${name}: "${service[name] ?? "(absent)"}" vs "${floor[name] ?? "(absent)"}"`);
}

/** Fetches `path` from both servers and fails unless status, headers and body bytes are identical. */
async function assertSameAnswer(service: Child, floor: Child, path: string) {
  const [a, b] = await Promise.all([
    captureResponse(service.url, path, checkHeaders),
    captureResponse(floor.url, path, checkHeaders),
  ]);
  const problems: string[] = [];
  if (a.status !== b.status) problems.push(`status ${a.status} vs ${b.status}`);
  problems.push(...headerProblems(a.headers, b.headers));
  if (Buffer.compare(a.body, b.body) !== 0) {
    const [x, y] = [decoder.decode(a.body), decoder.decode(b.body)];
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    problems.push(
      `bodies differ (${a.body.length} vs ${b.body.length} bytes) at ${at}:\n` +
        `  service: …${x.slice(Math.max(0, at - 80), at + 80)}\n  floor:   …${y.slice(Math.max(0, at - 80), at + 80)}`,
    );
  }
  if (problems.length > 0) {
    throw new Error(`the floor does not answer GET ${path} like the service: ${problems.join("; ")}`);
  }
  return a;
}

async function runSize(products: number): Promise<SizeResult> {
  console.log(`\n=== ${products} products ===`);
  const children: Child[] = [];
  try {
    const service = await startService();
    children.push(service);
    const org = await createOrg(service.dataDir, { host: HOST });
    const seedStarted = performance.now();
    const seed = await seedProducts(service.dataDir, org.id, products, { timeoutMs: SEED_TIMEOUT_MS });
    console.log(
      `service at ${service.url}, organization ${org.id}: seeded ${seed.created} products in ${seed.ms} ms ` +
        `(CLI run ${Math.round(performance.now() - seedStarted)} ms)`,
    );

    // The detail page: the first product of the newest 100 with the most variants.
    const probe = await captureResponse(service.url, "/v1/products?limit=100", headers);
    if (probe.status !== 200)
      throw new Error(`GET /v1/products answered ${probe.status}: ${decoder.decode(probe.body)}`);
    const listed = (JSON.parse(decoder.decode(probe.body)) as { data: ProductSummary[] }).data;
    const detail = listed.reduce<ProductSummary | undefined>(
      (best, p) => (p.status === "active" && p.variants.length > (best?.variants.length ?? 0) ? p : best),
      undefined,
    );
    if (!detail) throw new Error("no active product to show");

    const scenarios: Scenario[] = [
      { name: "list limit=20", path: "/v1/products?limit=20", headers },
      { name: "detail", path: `/v1/products/${encodeURIComponent(detail.slug)}`, headers },
      {
        name: `search "${SEARCH}"`,
        path: `/v1/products?query=${encodeURIComponent(SEARCH)}&limit=20`,
        headers,
      },
    ];

    const tenantFile = join(service.dataDir, "tenants", `${org.id}.sqlite`);
    const floor = await spawnServer({
      label: "floor",
      command: [process.execPath, "bench/catalog-floor-server.ts"],
      env: { FLOOR_DB: tenantFile },
      readyPath: "/v1/products?limit=1",
    });
    children.push(floor);
    console.log(`floor at ${floor.url} on ${tenantFile}`);

    // Same bytes from both, for the measured paths and a few more (other pages, sizes, searches, a miss).
    const described: SizeResult["scenarios"] = [];
    for (const s of scenarios) {
      const answer = await assertSameAnswer(service, floor, s.path);
      if (answer.status !== 200) throw new Error(`${s.path} answered ${answer.status}`);
      const body = JSON.parse(decoder.decode(answer.body)) as { meta?: { total: number } };
      described.push({ name: s.name, path: s.path, bytes: answer.body.length, total: body.meta?.total });
      console.log(
        `  ${s.name.padEnd(16)} GET ${s.path} → ${answer.status}, ${answer.body.length} bytes` +
          (body.meta ? `, ${body.meta.total} matching products` : `, ${detail.variants.length} variants`),
      );
    }
    const extra = [
      "/v1/products?limit=7&page=3",
      "/v1/products?limit=100",
      "/v1/products?query=linen%20dress&limit=5&page=2",
      `/v1/products?query=${encodeURIComponent(SEARCH)}&limit=100`,
      "/v1/products?query=%20&limit=3",
      "/v1/products?query=zzzqqq",
      `/v1/products/${encodeURIComponent(listed.at(-1)!.slug)}`,
      "/v1/products/no-such-product",
    ];
    for (const path of extra) await assertSameAnswer(service, floor, path);
    console.log(
      `  byte-identical answers from service and SQL floor on ${scenarios.length + extra.length} paths`,
    );
    await floor.stop();

    // The measured floor: the service's own answers (every header, the same bytes) sent by Bun.serve.
    const kept = [];
    for (const s of scenarios) kept.push(await captureResponse(service.url, s.path, checkHeaders));
    const bytesFloor = await startBaseline(kept, { allHeaders: true, requestHeaders: checkHeaders });
    children.push(bytesFloor);
    for (const s of scenarios) await assertSameAnswer(service, bytesFloor, s.path);
    console.log(`bytes floor at ${bytesFloor.url}: the same status, headers and bytes`);

    const rows = await compareWithBaseline(scenarios, service.url, bytesFloor.url, settings);
    for (const r of rows) {
      for (const [name, runs] of [
        ["service", r.service.runs],
        ["floor", r.baseline.runs],
      ] as const) {
        const bad = runs.filter((run) => run.non2xx > 0 || run.socketErrors > run.timeouts);
        if (bad.length > 0) {
          throw new Error(
            `${r.scenario} on the ${name}: ${bad.length} of ${runs.length} runs had non-2xx responses or ` +
              "connect/read/write errors; the figures would not measure the catalog",
          );
        }
      }
    }
    const list = rows[0]!;
    const result: SizeResult = {
      products,
      seedMs: seed.ms,
      orgId: org.id,
      scenarios: described,
      rows,
      targets: {
        ratio: TARGET_RATIO,
        listP99Ms: TARGET_LIST_P99_MS,
        ratiosMet: rows.every((r) => r.ratio >= TARGET_RATIO),
        listP99Met: list.service.p99Ms < TARGET_LIST_P99_MS,
      },
    };
    printSize(result);
    return result;
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}

function printSize(result: SizeResult): void {
  console.log(`\n${result.products} products (medians of ${settings.rounds} rounds):`);
  printTable(
    [
      "scenario",
      "req/s service",
      "p50 ms",
      "p99 ms",
      "req/s floor",
      "floor p50 ms",
      "floor p99 ms",
      "ratio svc/floor",
    ],
    result.rows.map((r) => [
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
  for (const r of result.rows) {
    const timeouts = (runs: { timeouts: number }[]) => runs.reduce((sum, run) => sum + run.timeouts, 0);
    const late = [timeouts(r.service.runs), timeouts(r.baseline.runs)];
    console.log(
      `  ${r.scenario}: per-round ratios ${r.roundRatios.map((x) => fmt(x)).join(", ")}` +
        (late[0]! + late[1]! > 0
          ? `; requests over the ${settings.timeout} s wrk timeout (not in the percentiles): ` +
            `service ${late[0]}, floor ${late[1]}`
          : ""),
    );
  }
  const list = result.rows[0]!;
  const low = result.rows.filter((r) => r.ratio < TARGET_RATIO).map((r) => r.scenario);
  console.log(
    `targets (${result.products} products, ${settings.connections} connections): ` +
      `every ratio ≥ ${TARGET_RATIO}: ${result.targets.ratiosMet ? "met" : `NOT met (${low.join(", ")})`}; ` +
      `listing p99 < ${TARGET_LIST_P99_MS} ms: ${result.targets.listP99Met ? "met" : "NOT met"} ` +
      `(${fmt(list.service.p99Ms)} ms)`,
  );
}

const results: SizeResult[] = [];
for (const products of sizes) results.push(await runSize(products));

if (results.length > 1) {
  console.log("\nsummary:");
  for (const result of results) printSize(result);
}
console.log(
  `\nThe targets are stated for 1000 products at 50 connections; other sizes are reported for reference.`,
);
const file = saveResults("catalog", {
  settings,
  host: HOST,
  search: SEARCH,
  sizes: results,
});
console.log(`results saved to ${file}`);
