// The compiled executable: `bun run build`, binary size, start-up time (spawn → GET /v1/health 200)
// without and with demo tenant creation, and the CLI subcommand `commerce org list --json`.
// Usage: bun bench/binary.ts
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  type Child,
  type CliResult,
  envInt,
  fmt,
  median,
  printTable,
  ROOT,
  runCliCommand,
  saveResults,
  spawnServer,
} from "./lib.ts";

const STARTS = envInt("BENCH_STARTS", 5);
const PROJECT_BINARY = join(ROOT, "dist", "commerce");

interface Build {
  command: string[];
  ok: boolean;
  exitCode: number | null;
  seconds: number;
  output: string;
}

function build(command: string[]): Build {
  console.log(`$ ${command.join(" ")}`);
  const t0 = performance.now();
  const result = Bun.spawnSync(command, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const output = `${result.stdout.toString()}${result.stderr.toString()}`;
  const seconds = (performance.now() - t0) / 1000;
  console.log(output.trimEnd().replace(/^/gm, "  | "));
  return { command, ok: result.exitCode === 0, exitCode: result.exitCode, seconds, output };
}

/** Start-up times of `count` starts, each on a fresh DATA_DIR; an entry is the error text when a start failed. */
async function startups(
  command: string[],
  count: number,
  demoTenant: boolean,
  during?: (child: Child) => Promise<void>,
): Promise<{ times: number[]; failures: string[]; demoAnnounced: number }> {
  const times: number[] = [];
  const failures: string[] = [];
  let demoAnnounced = 0;
  for (let i = 0; i < count; i++) {
    try {
      const child = await spawnServer({ command, demoTenant, keepStdout: true, label: "binary" });
      times.push(child.startupMs);
      try {
        if (during && i === count - 1) await during(child);
      } finally {
        await Bun.sleep(50); // let the start-up lines reach the stdout file
        if (child.output().includes("Demo admin API key")) demoAnnounced++;
        await child.stop();
      }
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  return { times, failures, demoAnnounced };
}

const report: Record<string, unknown> = {};
let exitCode = 0;

// 1. The project's build script.
const projectBuild = build([process.execPath, "run", "build"]);
report.projectBuild = { ok: projectBuild.ok, exitCode: projectBuild.exitCode, output: projectBuild.output };
const binary = PROJECT_BINARY;
const label = "dist/commerce (bun run build)";
if (!projectBuild.ok || !existsSync(PROJECT_BINARY)) {
  console.log(`\n!! bun run build FAILED (exit ${projectBuild.exitCode}); dist/commerce was not produced.`);
  saveResults("binary", report);
  process.exit(1);
}

try {
  const bytes = statSync(binary).size;
  console.log(`\nbinary measured: ${label}`);
  console.log(`size: ${fmt(bytes / 1e6, 1)} MB (${fmt(bytes / 2 ** 20, 1)} MiB, ${bytes} bytes)`);

  // 2. Start-up: spawn → GET /v1/health answers 200 (polled every 2 ms), fresh DATA_DIR each time.
  console.log(`\nstart-up, ${STARTS} starts each, fresh DATA_DIR per start:`);
  let cli: CliResult | undefined;
  let healthUp: CliResult | undefined;
  let healthDown: CliResult | undefined;
  const plain = await startups([binary], STARTS, false);
  const demo = await startups([binary], STARTS, true, async (child) => {
    // 3. The CLI subcommand, against the DATA_DIR of the running binary that just created the demo org.
    cli = await runCliCommand(child.dataDir, ["org", "list", "--json"], {
      command: [binary],
      timeoutMs: 15_000,
    });
    // `commerce healthcheck` (the Dockerfile's HEALTHCHECK): 0 against the running server, 1 on a free port.
    healthUp = await runCliCommand(child.dataDir, ["healthcheck"], {
      command: [binary],
      timeoutMs: 15_000,
      env: { PORT: String(child.port) },
    });
    healthDown = await runCliCommand(child.dataDir, ["healthcheck"], {
      command: [binary],
      timeoutMs: 15_000,
    });
  });
  const source = await startups([process.execPath, "src/server.ts"], STARTS, false);

  const row = (name: string, r: { times: number[]; failures: string[] }) => [
    name,
    fmt(median(r.times), 1),
    r.times.map((t) => fmt(t, 1)).join(" "),
    `${r.failures.length}/${STARTS}`,
  ];
  printTable(
    ["start-up (spawn → /v1/health 200)", "median ms", "runs ms", "failed"],
    [
      row("binary, DEMO_TENANT=false", plain),
      row("binary, first start with demo tenant", demo),
      row("reference: bun src/server.ts", source),
    ],
  );
  console.log(`demo start printed the demo API key in ${demo.demoAnnounced}/${demo.times.length} starts`);
  for (const [name, r] of [
    ["binary", plain],
    ["binary+demo", demo],
    ["bun src/server.ts", source],
  ] as const) {
    for (const failure of r.failures) console.log(`!! ${name} start failed: ${failure}`);
  }
  if (plain.failures.length + demo.failures.length > 0) exitCode = 1;

  // Report of the CLI check.
  let cliOk = false;
  let cliJson: unknown;
  if (cli) {
    try {
      cliJson = JSON.parse(cli.stdout);
      cliOk =
        cli.exitCode === 0 &&
        Array.isArray(cliJson) &&
        cliJson.some((o: { slug?: string }) => o.slug === "demo");
    } catch {
      cliOk = false;
    }
    console.log(
      `\nCLI check: ${label.startsWith("dist") ? "dist/commerce" : "<binary>"} org list --json → ` +
        `exit ${cli.exitCode}${cli.timedOut ? " (killed after 15 s: it did not exit)" : ""}`,
    );
    console.log(`  stdout: ${cli.stdout.trim() || "(empty)"}`);
    if (cli.stderr.trim()) console.log(`  stderr: ${cli.stderr.trim()}`);
    console.log(`  CLI subcommand worked (JSON array listing the demo org): ${cliOk ? "yes" : "NO"}`);
  } else {
    console.log("\nCLI check: not run (the demo start failed)");
  }
  if (!cliOk) exitCode = 1;

  const describe = (r: CliResult | undefined) =>
    r ? `exit ${r.exitCode}${r.timedOut ? " (killed: did not exit)" : ""}` : "not run";
  const healthOk = healthUp?.exitCode === 0 && healthDown?.exitCode === 1;
  console.log(
    `healthcheck subcommand: against the running server ${describe(healthUp)} (want 0), ` +
      `against a free port ${describe(healthDown)} (want 1): ${healthOk ? "as expected" : "NOT as expected"}`,
  );
  for (const r of [healthUp, healthDown]) {
    const text = `${r?.stdout ?? ""}${r?.stderr ?? ""}`.trim();
    if (text) console.log(`  output: ${text}`);
  }
  if (!healthOk) exitCode = 1;

  report.binary = { label, bytes };
  report.startup = { plain, demo, source };
  report.cli = { ok: cliOk, result: cli, json: cliJson };
  report.healthcheck = { ok: healthOk, up: healthUp, down: healthDown };
  console.log(`results saved to ${saveResults("binary", report)}`);
} finally {
}
process.exit(exitCode);
