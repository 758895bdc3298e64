import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServer } from "../crash/server-process.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

/** Two nodes on this machine, each a server with its own data directory, sharing NODE_TOKEN. */
export interface TwoNodes {
  /** The first node's data directory, as the test app that prepared it (closed before the node started). */
  t: TestApp;
  nodeA: ServerProcess;
  nodeB: ServerProcess;
  /** A temporary directory of its own (an operator's command line run), removed by `stop`. */
  tempDir(label: string): string;
  stop(): Promise<void>;
}

/** Starts both nodes, the first on a data directory `prepare` filled first (its shops); the second empty. */
export async function startTwoNodes(
  token: string,
  prepare: (t: TestApp) => Promise<void>,
): Promise<TwoNodes> {
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const dir = mkdtempSync(join(tmpdir(), `commerce-${label}-`));
    dirs.push(dir);
    return dir;
  };
  const t = makeTestApp();
  await prepare(t);
  t.close();
  const nodeA = await startServer(t.dataDir, { NODE_TOKEN: token });
  const nodeB = await startServer(tempDir("node-b"), { NODE_TOKEN: token });
  return {
    t,
    nodeA,
    nodeB,
    tempDir,
    async stop() {
      for (const node of [nodeA, nodeB]) if (!node.killed) await node.kill();
      t.cleanup();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
