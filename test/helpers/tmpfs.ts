import { mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Storage failures are tested on a real small file system that fills up: a tmpfs mounted for the
// test file (needs root, or CAP_SYS_ADMIN in a container). Like the browser tests, they skip
// locally where mounting is not permitted, and fail in CI (CI set) instead.

export interface SmallDisk {
  /** The mount point, an empty directory of `size` bytes. */
  dir: string;
  /** Unmounts it (every file on it goes) and removes the mount point. */
  unmount(): void;
}

function run(args: string[]): { success: boolean; output: string } {
  try {
    const done = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
    return { success: done.success, output: done.stderr.toString().trim() || `exit ${done.exitCode}` };
  } catch (error) {
    return { success: false, output: String(error) }; // no such program
  }
}

/** A tmpfs of `size` bytes, or null (the reason printed) when it cannot be mounted and CI is unset. */
export function mountSmallDisk(file: string, size: number): SmallDisk | null {
  const dir = mkdtempSync(join(tmpdir(), "commerce-disk-"));
  const mounted = run(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  if (!mounted.success) {
    rmdirSync(dir);
    const why = `mount -t tmpfs failed: ${mounted.output}`;
    if (process.env.CI) throw new Error(`${file}: ${why}`);
    console.warn(`${file}: storage tests SKIPPED: ${why} (run as root). In CI (CI set) they fail instead.`);
    return null;
  }
  return {
    dir,
    unmount() {
      // A closed bun:sqlite connection whose statements are not yet collected still holds its files
      // (on a busy machine their finalizers may take a moment after the collection): tried for 5 s.
      Bun.gc(true);
      let unmounted = run(["umount", dir]);
      for (let tries = 0; !unmounted.success && tries < 50; tries++) {
        Bun.gc(true);
        Bun.sleepSync(100);
        unmounted = run(["umount", dir]);
      }
      if (!unmounted.success) throw new Error(`umount ${dir}: ${unmounted.output}`);
      rmdirSync(dir);
    },
  };
}
