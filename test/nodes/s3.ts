import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../helpers/server-process.ts";

// A local S3 server for Litestream to stream to, on a port of the kernel's choosing, in a process
// of its own (s3-server.ts says why, and how it is made to list as S3 does).

export interface S3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startS3(bucket = "shops"): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "commerce-s3-"));
  const { child, url } = await spawnServer(
    { ...process.env, S3_DIRECTORY: directory, S3_BUCKET: bucket },
    "inherit",
    { command: [process.execPath, join(import.meta.dir, "s3-server.ts")] },
  );
  return {
    endpoint: url,
    bucket,
    async close() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
