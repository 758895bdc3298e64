#!/usr/bin/env bun
/**
 * Lints the OpenAPI document the service serves with Redocly (`.redocly.yaml`, `recommended`) and
 * Spectral (`.spectral.yaml`, `spectral:oas`).
 *
 *   bun run lint:openapi
 *
 * Fails on any error, and on any warning that is not one of the known ones below, each of which
 * docs/api-conventions.md ("OpenAPI lint") explains. The document is the answer of
 * `GET /v1/openapi.json` with the default settings (the same code path as a running service).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { servedOpenApiDocument } from "./client-gen.ts";

const ROOT = resolve(import.meta.dir, "..");
const bin = (name: string) => join(ROOT, "node_modules/.bin", name);

interface Problem {
  linter: "redocly" | "spectral";
  severity: "error" | "warning";
  rule: string;
  /** JSON pointer of the place in the document. */
  where: string;
  message: string;
}

/** The warnings that stay, with their reasons in docs/api-conventions.md ("OpenAPI lint"). */
const KNOWN_WARNINGS = [
  "redocly info-license #/info",
  "spectral info-contact #/info",
  "redocly no-server-example.com #/servers/0/url",
  "redocly operation-4xx-response #/paths/~1v1~1health/get/responses",
];

const key = (problem: Problem) => `${problem.linter} ${problem.rule} ${problem.where}`;

/** Runs a linter with JSON output; its exit code is ignored (the problems say it all). */
async function run(command: string[]): Promise<unknown> {
  const child = Bun.spawn(command, {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    // No usage reports or update checks from the linters.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  const [out, err] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  await child.exited;
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`${command[0]} ${command[1]} gave no JSON report:\n${out}\n${err}`);
  }
}

async function redocly(file: string): Promise<Problem[]> {
  // Under Bun, as everything else here (and without Node's version banner).
  const report = (await run([
    "bun",
    "--bun",
    bin("redocly"),
    "lint",
    "--config",
    join(ROOT, ".redocly.yaml"),
    "--format=json",
    file,
  ])) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  return report.problems.map((p) => ({
    linter: "redocly",
    severity: p.severity === "error" ? "error" : "warning",
    rule: p.ruleId,
    where: p.location[0]?.pointer ?? "#",
    message: p.message,
  }));
}

async function spectral(file: string): Promise<Problem[]> {
  const report = (await run([
    bin("spectral"),
    "lint",
    "--ruleset",
    join(ROOT, ".spectral.yaml"),
    "--format=json",
    "--quiet",
    file,
  ])) as { code: string; severity: number; message: string; path: string[] }[];
  const pointer = (path: string[]) =>
    `#/${path.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
  return report.map((p) => ({
    linter: "spectral",
    // Spectral: 0 error, 1 warning, 2 information, 3 hint.
    severity: p.severity === 0 ? "error" : "warning",
    rule: p.code,
    where: pointer(p.path),
    message: p.message,
  }));
}

const dir = mkdtempSync(join(tmpdir(), "commerce-openapi-lint-"));
let problems: Problem[];
try {
  const file = join(dir, "openapi.json");
  await Bun.write(file, JSON.stringify(await servedOpenApiDocument(), null, 2));
  problems = [...(await redocly(file)), ...(await spectral(file))];
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const errors = problems.filter((p) => p.severity === "error");
const warnings = problems.filter((p) => p.severity === "warning");
const unknown = warnings.filter((p) => !KNOWN_WARNINGS.includes(key(p)));
for (const p of errors) console.error(`error    ${key(p)}: ${p.message}`);
for (const p of unknown) console.error(`warning  ${key(p)}: ${p.message} (not a known warning)`);
for (const p of warnings.filter((w) => !unknown.includes(w))) console.log(`known    ${key(p)}: ${p.message}`);
console.log(
  `OpenAPI lint: ${errors.length} errors, ${warnings.length} warnings (${unknown.length} not known), ` +
    "Redocly recommended and Spectral spectral:oas",
);
if (errors.length > 0 || unknown.length > 0) {
  console.error(
    "Fix the document (the operation declarations or src/http/openapi.ts); a warning that must stay goes " +
      'into KNOWN_WARNINGS here and, with its reason, into docs/api-conventions.md ("OpenAPI lint").',
  );
  process.exit(1);
}
