import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runScript } from "../helpers/cli.ts";

// The dashboard's calls are typed by examples/api-types.ts, generated from the OpenAPI document.
// This proves the type-check is a real guard: a mirror of what `tsc -p src/dashboard/app` reads (the
// pages, both tsconfigs, node_modules) with the types changed the way an API change would fails,
// naming the page each change breaks. One tsc run (≈ 6 s; a second, unaltered mirror doubled the
// file's time): that the unaltered tree passes is `bun run typecheck`, which CI runs on every
// change, and here every error of the altered mirror must be one the changes explain, so the
// mirror is otherwise clean.

const ROOT = resolve(import.meta.dir, "../..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

let base: string;

function mirror(name: string, alter: (types: string) => string): string {
  const dir = join(base, name);
  mkdirSync(join(dir, "examples"), { recursive: true });
  cpSync(join(ROOT, "src/dashboard/app"), join(dir, "src/dashboard/app"), { recursive: true });
  cpSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const types = readFileSync(join(ROOT, "examples/api-types.ts"), "utf8");
  writeFileSync(join(dir, "examples/api-types.ts"), alter(types));
  return dir;
}

/** `tsc --noEmit -p <dir>/src/dashboard/app`, as `bun run typecheck` runs it on the real tree. */
async function typecheck(dir: string): Promise<{ exitCode: number; output: string }> {
  const run = await runScript(
    TSC,
    ["--noEmit", "--pretty", "false", "-p", join(dir, "src/dashboard/app")],
    {},
  );
  return { exitCode: run.code, output: run.stdout + run.stderr };
}

/** The generated `Order` schema with its `number` field renamed, as a renamed response field would be. */
function renameOrderNumber(types: string): string {
  const order = /(\n {4}Order: \{\n[\s\S]*?\n {6})number: number;/;
  expect(types).toMatch(order);
  return types.replace(order, "$1orderNumber: number;");
}

/** The generated types without the order-cancelling path, as a removed operation would be. */
function removeCancelOrder(types: string): string {
  const path = /\n {2}"\/v1\/admin\/orders\/\{id\}\/cancel": \{\n[\s\S]*?\n {2}\};/;
  expect(types).toMatch(path);
  return types.replace(path, "");
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "dashboard-drift-"));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("the dashboard type-check follows the API's generated types", () => {
  test("a renamed response field and a removed operation fail the dashboard's type-check, naming the page that uses them", async () => {
    const { exitCode, output } = await typecheck(
      mirror("altered", (types) => removeCancelOrder(renameOrderNumber(types))),
    );

    expect(exitCode).not.toBe(0);
    const errors = output
      .trim()
      .split("\n")
      .filter((line) => /error TS\d+/.test(line));
    expect(errors).toContainEqual(
      expect.stringMatching(
        /\/src\/dashboard\/app\/orders\.tsx\(\d+,\d+\): error TS\d+: Property 'number' does not exist/,
      ),
    );
    expect(errors).toContainEqual(
      expect.stringMatching(
        /\/src\/dashboard\/app\/orders\.tsx\(\d+,\d+\): error TS\d+: .*"\/v1\/admin\/orders\/\{id\}\/cancel"/,
      ),
    );
    for (const error of errors)
      expect(error).toMatch(/Property 'number' does not exist|\/v1\/admin\/orders\/\{id\}\/cancel/);
  }, 60_000);
});
