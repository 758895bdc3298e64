// Every benchmark scenario with its floor in one run, then one table of medians and ratios.
// Each script runs as its own child (its output shown as it goes) with this process's environment,
// so BENCH_DURATION, BENCH_ROUNDS and the rest apply to all of them; the table is read from the
// JSON each script saves in bench/results/. A script that fails is a row saying so, not the end of
// the run. Usage: bun bench/all.ts (BENCH_SCENARIOS=catalog,http runs only those).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fmt, median, printTable, ROOT, saveResults } from "./lib.ts";

/** One line of the table: what was measured, the floor it is set against, their ratio, the target. */
interface Row {
  scenario: string;
  figure: string;
  value: number;
  floor?: number;
  ratio?: number;
  target?: string;
}

// The saved JSON of each script is read loosely: a field it no longer writes shows as n/a.
type Saved = any;

interface WrkSide {
  rps: number;
}

/** A ComparisonRow of bench/lib.ts (service against its floor, wrk req/s). */
const comparison = (prefix: string, r: Saved, target?: string): Row => ({
  scenario: `${prefix}: ${r.scenario}`,
  figure: "req/s",
  value: r.service.rps,
  floor: r.baseline.rps,
  ratio: r.ratio,
  target,
});

const againstFloor = (
  scenario: string,
  figure: string,
  value: number,
  floor: number,
  target?: string,
): Row => ({
  scenario,
  figure,
  value,
  floor,
  ratio: value / floor,
  target,
});

function purchaseRows(saved: Saved): Row[] {
  const rows: Row[] = [];
  const { addRatio, createRatio, purchases } = saved.targets;
  for (const [key, label, target] of [
    ["addToCart", "add-to-cart", `ratio ≥ ${addRatio}`],
    ["createCartWithItem", "create cart with item", `ratio ≥ ${createRatio}`],
  ] as const) {
    const part = saved[key] as Record<string, WrkSide & { ratio: number }> | undefined;
    if (!part) continue;
    for (const state of ["uncached", "cached"]) {
      const side = part[`service-${state}`]!;
      rows.push({
        scenario: `purchase: ${label}, settings ${state}`,
        figure: "req/s",
        value: side.rps,
        floor: part.floor!.rps,
        ratio: side.ratio,
        target,
      });
    }
  }
  for (const state of ["uncached", "cached"]) {
    const buy = saved.purchases?.[state];
    if (buy?.purchasesPerSecond === undefined) continue;
    rows.push({
      scenario: `purchase: ${saved.buyers} buyers, settings ${state}`,
      figure: "purchases/s",
      value: buy.purchasesPerSecond,
      target: `≥ ${purchases}/s`,
    });
  }
  return rows;
}

function eventsOutRows(saved: Saved): Row[] {
  const rows: Row[] = [];
  for (const part of saved.deliveries ?? []) {
    const runs = part.runs as {
      shops: number;
      deliveriesPerSecond: number;
      floorPerSecond: number;
      ratio: number;
    }[];
    rows.push({
      scenario: `events-out: deliveries, ${runs[0]?.shops} shop(s)`,
      figure: "deliveries/s",
      value: median(runs.map((r) => r.deliveriesPerSecond)),
      floor: median(runs.map((r) => r.floorPerSecond)),
      ratio: median(runs.map((r) => r.ratio)),
    });
  }
  const orders = (saved.orders?.rows ?? []) as {
    variant: string;
    purchasesPerSecond: number;
    ratios: number[];
  }[];
  const before = orders.find((r) => r.variant === "before events");
  for (const r of orders) {
    if (r === before) continue;
    rows.push({
      scenario: `events-out: orders, ${r.variant}`,
      figure: "purchases/s",
      value: r.purchasesPerSecond,
      floor: before?.purchasesPerSecond,
      ratio: before ? median(r.ratios) : undefined,
    });
  }
  return rows;
}

/** The scripts bench:all runs, in this order, each with what its saved JSON gives the table. */
const SCRIPTS: {
  name: string;
  file: string;
  /** Set for this script only (a script measuring several parts runs one of them per entry). */
  env?: Record<string, string>;
  rows: (saved: Saved) => Row[];
}[] = [
  {
    name: "foundation",
    file: "foundation.ts",
    rows: (s) =>
      s.rows.map((r: Saved) =>
        comparison(
          "foundation",
          r,
          r.scenario.includes("/v1/me") ? `ratio ≥ ${s.target.meRatio}` : undefined,
        ),
      ),
  },
  {
    name: "catalog",
    file: "catalog.ts",
    rows: (s) =>
      s.sizes.flatMap((size: Saved) => [
        ...size.rows.map((r: Saved) =>
          comparison(`catalog ${size.products}`, r, `ratio ≥ ${size.targets.ratio} (1000 products)`),
        ),
        {
          scenario: `catalog ${size.products}: ${size.rows[0].scenario}`,
          figure: "p99 ms",
          value: size.rows[0].service.p99Ms,
          floor: size.rows[0].baseline.p99Ms,
          target: `< ${size.targets.listP99Ms} ms (1000 products)`,
        },
      ]),
  },
  { name: "purchase", file: "purchase.ts", rows: purchaseRows },
  {
    name: "webhooks",
    file: "webhooks.ts",
    rows: (s) =>
      Object.entries(s.rows as Record<string, { service: number[]; floor: number[] }>).map(([load, r]) =>
        againstFloor(`webhooks: ${load} events`, "events/s", median(r.service), median(r.floor)),
      ),
  },
  {
    name: "agents",
    file: "agents.ts",
    rows: (s) =>
      s.rows.map((r: Saved) => ({
        scenario: `agents: ${r.scenario}`,
        figure: "req/s",
        value: r.a.rps,
        floor: r.b.rps,
        ratio: r.ratio,
      })),
  },
  {
    name: "http",
    file: "http.ts",
    env: { BENCH_PARTS: "listing" },
    rows: (s) => {
      const rps = (name: string) => median((s.runs[name] as WrkSide[]).map((r) => r.rps));
      return [
        {
          scenario: "http: 200 gzip vs identity",
          figure: "req/s",
          value: rps("200 gzip"),
          floor: rps("200 identity"),
          ratio: s.ratios.gzipOverIdentity,
          target: `ratio ≥ ${s.target.ratio}`,
        },
        {
          scenario: "http: 304 vs 200 gzip",
          figure: "req/s",
          value: rps("304 gzip"),
          floor: rps("200 gzip"),
          ratio: s.ratios.notModifiedOverFull,
        },
      ];
    },
  },
  {
    name: "http-carts",
    file: "http.ts",
    env: { BENCH_PARTS: "carts" },
    rows: (s) =>
      (s.rows as Saved[]).map((r) => ({
        scenario: `cart writes: ${r.scenario}`,
        figure: "req/s",
        value: r.service.rps,
        floor: r.floor.rps,
        ratio: r.ratio,
        target: `ratio ≥ ${r.target}`,
      })),
  },
  {
    name: "storage",
    file: "storage.ts",
    rows: (s) =>
      Object.entries(s.commits as Record<string, { median: number }>).map(([mode, r]) => ({
        scenario: `storage: commits, ${mode}`,
        figure: "commits/s",
        value: r.median,
      })),
  },
  { name: "events-out", file: "events-out.ts", rows: eventsOutRows },
  {
    name: "memory",
    file: "memory.ts",
    rows: (s) => {
      const idle = (row: Saved) => median(row.samples.map((x: { idle: number }) => x.idle));
      const [floor, ...rest] = s.rows as Saved[];
      return rest.map((row) => againstFloor(`memory: ${row.name}`, "idle MB", idle(row), idle(floor)));
    },
  },
  {
    name: "many-shops",
    file: "many-shops.ts",
    rows: (s) =>
      (s.rows as [string, number, number | null, string][]).map(([figure, value, floor, target]) => ({
        scenario: `many-shops ${s.shops}, pool ${s.pool}`,
        figure,
        value,
        floor: floor ?? undefined,
        ratio: floor ? value / floor : undefined,
        target: target || undefined,
      })),
  },
  {
    name: "big-catalog",
    file: "big-catalog.ts",
    rows: (s) =>
      s.results.map((r: { name: string; p50Ms: number }) => ({
        scenario: `big-catalog ${s.products}: ${r.name}`,
        figure: "p50 ms",
        value: r.p50Ms,
      })),
  },
];

function selected() {
  const raw = process.env.BENCH_SCENARIOS?.trim();
  if (!raw) return SCRIPTS;
  const names = raw.split(",").map((n) => n.trim());
  const unknown = names.filter((n) => !SCRIPTS.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_SCENARIOS: unknown ${unknown.join(", ")} (known: ${SCRIPTS.map((s) => s.name).join(", ")})`,
    );
  }
  return SCRIPTS.filter((s) => names.includes(s.name));
}

const RESULTS = join(ROOT, "bench", "results");

/** The newest `<name>-<stamp>.json` saved since `since` (ISO stamps sort by time), if any. */
function savedSince(name: string, since: string): string | undefined {
  const stamp = since.replace(/[:.]/g, "-");
  let files: string[] = [];
  try {
    files = readdirSync(RESULTS);
  } catch {
    return undefined;
  }
  const pattern = new RegExp(`^${name}-(\\d{4}-.*)\\.json$`);
  const newest = files
    .map((f) => pattern.exec(f))
    .filter((m): m is RegExpExecArray => m !== null && m[1]! >= stamp)
    .map((m) => m[0])
    .sort()
    .at(-1);
  return newest && join(RESULTS, newest);
}

interface Outcome {
  name: string;
  exitCode: number | null;
  seconds: number;
  file?: string;
  rows: Row[];
  problem?: string;
}

async function runScript(script: (typeof SCRIPTS)[number]): Promise<Outcome> {
  console.log(`\n##### ${script.name}: bun bench/${script.file}\n`);
  const since = new Date().toISOString();
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, `bench/${script.file}`], {
    cwd: ROOT,
    env: { ...process.env, ...script.env },
    stdin: "ignore",
    stdout: "inherit",
    stderr: "inherit",
  });
  const exitCode = await proc.exited;
  const outcome: Outcome = {
    name: script.name,
    exitCode,
    seconds: (performance.now() - started) / 1000,
    rows: [],
  };
  // Some scripts save their figures and then exit 1 for a missed target: the figures still count.
  outcome.file = savedSince(script.name, since);
  if (!outcome.file) {
    outcome.problem = `failed: exit ${exitCode}, no results saved`;
    return outcome;
  }
  try {
    outcome.rows = script.rows(JSON.parse(readFileSync(outcome.file, "utf8")));
  } catch (error) {
    outcome.problem = `results not readable: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (exitCode !== 0) outcome.problem ??= `exit ${exitCode} (figures saved)`;
  return outcome;
}

/** The figures of the whole run as a Markdown table (kept with the JSON, ready for bench/README.md). */
function markdown(outcomes: Outcome[]): string[][] {
  return outcomes.flatMap((o) => [
    ...o.rows.map((r) => [
      r.scenario,
      r.figure,
      fmt(r.value, r.value >= 100 ? 0 : 2),
      r.floor === undefined ? "–" : fmt(r.floor, r.floor >= 100 ? 0 : 2),
      r.ratio === undefined ? "–" : fmt(r.ratio),
      r.target ?? "",
    ]),
    ...(o.problem ? [[o.name, o.problem, "", "", "", ""]] : []),
  ]);
}

const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  bun: Bun.version,
  commit: Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim(),
  loadBefore: loadavg().map((x) => Number(x.toFixed(2))),
};
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("BENCH_")));
const scripts = selected();
console.log(
  `bench:all: ${scripts.map((s) => s.name).join(", ")}; ${machine.cores} × ${machine.cpu}, load ` +
    `${machine.loadBefore.join(" ")}; settings ${JSON.stringify(env)}`,
);

const outcomes: Outcome[] = [];
for (const script of scripts) outcomes.push(await runScript(script));

const header = ["scenario", "figure", "median", "floor", "ratio", "target"];
const table = markdown(outcomes);
const loadAfter = loadavg().map((x) => Number(x.toFixed(2)));
console.log(
  `\n##### bench:all, ${new Date().toISOString()}: ${machine.cores} × ${machine.cpu}, commit ${machine.commit}, ` +
    `load ${machine.loadBefore.join(" ")} → ${loadAfter.join(" ")}; ratio = median ÷ floor (per-round medians where the script keeps them)\n`,
);
printTable(header, table);
for (const o of outcomes)
  console.log(`  ${o.name}: ${o.seconds.toFixed(0)} s, ${o.problem ?? "ok"}${o.file ? `, ${o.file}` : ""}`);

const md = [header, header.map(() => "---"), ...table].map((r) => `| ${r.join(" | ")} |`).join("\n");
const file = saveResults("all", {
  machine: { ...machine, loadAfter },
  settings: env,
  outcomes,
  markdown: md,
});
writeFileSync(file.replace(/\.json$/, ".md"), `${md}\n`);
console.log(`\nresults saved to ${file} (and the table as .md)`);
if (outcomes.some((o) => o.problem)) process.exitCode = 1;
