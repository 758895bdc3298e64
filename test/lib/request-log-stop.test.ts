import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../helpers/server-process.ts";

// Request log lines are batched (one write every few milliseconds); a clean stop (SIGTERM, SIGINT)
// writes what is pending before the process exits, so no answered request goes unlogged.

const dataDir = mkdtempSync(join(tmpdir(), "commerce-log-stop-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the request log on a clean stop", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`every request answered before ${signal} has its line, even those answered just before it`, async () => {
      const server = await spawnServer({
        ...process.env,
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        DEMO_TENANT: "false",
      });
      const ids: string[] = [];
      // Concurrent bursts, the last answered right before the signal: lines still in the batch.
      for (let burst = 0; burst < 5; burst++) {
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => {
            const id = `${signal}-${burst}-${i}`;
            ids.push(id);
            return fetch(`${server.url}/v1/health`, { headers: { "x-request-id": id } }).then(
              (r) => r.status,
            );
          }),
        );
        expect(answers.every((status) => status === 200)).toBe(true);
      }
      server.child.kill(signal);
      expect(await server.child.exited).toBe(0);
      const logged = new Set(
        (await server.stdout)
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { msg: string; requestId?: string })
          .filter((line) => line.msg === "request")
          .map((line) => line.requestId),
      );
      expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    });
  }
});
