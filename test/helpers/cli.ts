import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bun <script> ...args` to its exit as a real process, with `env` over this process's
 * environment (an `undefined` value unsets that variable).
 */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, stdout, stderr };
}

/** Runs `bun src/cli.ts ...args` (see `runScript`). */
export const runCli = (args: string[], env: Record<string, string | undefined>) =>
  runScript("src/cli.ts", args, env);
