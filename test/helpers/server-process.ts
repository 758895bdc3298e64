import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

export interface SpawnedServer {
  child: Subprocess<"ignore", "pipe", "pipe" | "inherit">;
  url: string;
  port: string;
  /** Everything the server wrote to stdout, once it has exited (read all along: a full pipe would block it). */
  stdout: Promise<string>;
  /** Everything it wrote to stderr, once it has exited; empty when stderr goes to the test's own. */
  stderr: Promise<string>;
}

export interface SpawnServerOptions {
  /** What to run instead of `bun src/server.ts`: anything that starts it and passes its stdout on. */
  command?: string[];
  /** Where to run it; the repository by default. */
  cwd?: string;
}

/**
 * Starts `bun src/server.ts` with `env` (which should ask for `PORT=0`) and resolves once it
 * printed the address it listens on.
 */
export async function spawnServer(
  env: Record<string, string | undefined>,
  stderr: "pipe" | "inherit" = "pipe",
  { command = [process.execPath, "src/server.ts"], cwd = ROOT }: SpawnServerOptions = {},
): Promise<SpawnedServer> {
  const child = Bun.spawn(command, {
    cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr,
  });
  const errors = child.stderr ? new Response(child.stderr).text() : Promise.resolve("");
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let port: string | undefined;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${text}\n${await errors}`);
    text += decoder.decode(value, { stream: true });
    port = /listening on \S*:(\d+)/.exec(text)?.[1];
  }
  const stdout = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  })();
  return { child, url: `http://127.0.0.1:${port}`, port, stdout, stderr: errors };
}
