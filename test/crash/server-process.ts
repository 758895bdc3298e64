import { type SpawnedServer, spawnServer } from "../helpers/server-process.ts";

export interface ServerProcess {
  url: string;
  child: SpawnedServer["child"];
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
  const { child, url } = await spawnServer(
    {
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
    "inherit",
  );
  const server: ServerProcess = {
    url,
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
