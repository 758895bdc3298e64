// Load benchmark of the foundation: GET /v1/me (API key) and GET /v1/health through the whole service,
// each against a plain Bun.serve baseline answering the identical bytes. Usage: bun bench/foundation.ts
import {
  type Child,
  captureResponse,
  compareWithBaseline,
  createOrgAndKey,
  ensureWrk,
  fmt,
  loadSettings,
  printComparison,
  type Scenario,
  saveResults,
  startBaseline,
  startService,
} from "./lib.ts";

const TARGET_ME_RATIO = 0.6;

const settings = loadSettings();
ensureWrk();
console.log(
  `foundation benchmark: wrk -t${settings.threads} -c${settings.connections} -d${settings.duration}s, ` +
    `${settings.rounds} rounds, warm-up ${settings.warmup}s; service LOG_LEVEL=${
      process.env.BENCH_LOG_LEVEL ?? process.env.LOG_LEVEL ?? "(default: info)"
    }, stdout discarded`,
);

const children: Child[] = [];
try {
  const service = await startService();
  children.push(service);
  const { org, apiKey } = await createOrgAndKey(service.dataDir);
  console.log(`service at ${service.url}, organization ${org.id}, key ${apiKey.id}`);

  const auth = { "x-api-key": apiKey.key };
  const scenarios: Scenario[] = [
    { name: "GET /v1/me", path: "/v1/me", headers: auth },
    { name: "GET /v1/health", path: "/v1/health" },
  ];
  const captured = await Promise.all(scenarios.map((s) => captureResponse(service.url, s.path, s.headers)));
  for (const c of captured) {
    if (c.status !== 200)
      throw new Error(`${c.path} answered ${c.status}: ${new TextDecoder().decode(c.body)}`);
    console.log(`  ${c.path} → ${c.status} ${c.contentType} ${new TextDecoder().decode(c.body)}`);
  }

  const baseline = await startBaseline(captured);
  children.push(baseline);
  console.log(`baseline at ${baseline.url}`);

  const rows = await compareWithBaseline(scenarios, service.url, baseline.url, settings);
  console.log("");
  printComparison(rows);

  const me = rows.find((r) => r.scenario === "GET /v1/me");
  const met = me !== undefined && me.ratio >= TARGET_ME_RATIO;
  console.log(
    `\ntarget: /v1/me ratio ≥ ${TARGET_ME_RATIO}: ${met ? "met" : "NOT met"} (${fmt(me?.ratio ?? Number.NaN)})`,
  );
  const file = saveResults("foundation", { settings, rows, target: { meRatio: TARGET_ME_RATIO, met } });
  console.log(`results saved to ${file}`);
} finally {
  for (const child of children.reverse()) await child.stop();
}
