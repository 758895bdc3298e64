import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

export interface ServerProcess {
  url: string;
  child: Subprocess<"ignore", "pipe", "inherit">;
  /** Set as the kill is sent: requests failing from then on failed because of it. */
  killed: boolean;
  /** SIGKILL: no shutdown hook runs, the databases are left as the kernel found them. */
  kill(): Promise<void>;
}

/**
 * Starts `bun src/server.ts` on `dataDir` and a port of the kernel's choosing, and resolves once it
 * printed the address it listens on. The same data directory can be started again after a kill.
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      DEMO_TENANT: "false",
      // Set only so the start-up does not warn that payment webhooks are off.
      CHECKOUT_API_SECRET: "crash-test-checkout-secret-0123456789",
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let port: string | undefined;
  while (!port) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${text}`);
    text += decoder.decode(value, { stream: true });
    port = /listening on \S*:(\d+)/.exec(text)?.[1];
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read()).done) {}
  })();
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    killed: false,
    async kill() {
      server.killed = true;
      child.kill("SIGKILL");
      await child.exited;
    },
  };
  return server;
}
