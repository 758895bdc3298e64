import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A local S3 server for Litestream to stream to, on a port of the kernel's choosing, in a process
// of its own (s3-server.ts says why, and how it is made to list as S3 does).

export interface S3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startS3(bucket = "shops"): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "commerce-s3-"));
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "s3-server.ts")], {
    env: { ...process.env, S3_DIRECTORY: directory, S3_BUCKET: bucket },
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
    if (done) throw new Error(`the S3 server exited before listening: ${text}`);
    text += decoder.decode(value, { stream: true });
    port = /listening (\d+)/.exec(text)?.[1];
  }
  reader.releaseLock();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
