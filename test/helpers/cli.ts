import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bun src/cli.ts ...args` as a real process, with `env` over this process's environment. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, "src/cli.ts", ...args], {
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
