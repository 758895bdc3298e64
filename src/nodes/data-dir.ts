import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../core/errors.ts";

// A whole data directory back from a `backup` (docs/scaling.md): its control plane and every
// shop's file copied into place, before any process opens the directory. Refused over a directory
// that already holds an organization, so a restore never mixes two nodes' shops.

const ORG_FILE = /^org_[A-Za-z0-9]+\.sqlite$/;

export function restoreDataDir(backupDir: string, dataDir: string) {
  const platformCopy = join(backupDir, "platform.sqlite");
  if (!existsSync(platformCopy))
    throw new ApiError("NOT_FOUND", `${backupDir} holds no backup (no platform.sqlite)`);
  const platformFile = join(dataDir, "platform.sqlite");
  if (existsSync(platformFile)) {
    const here = new Database(platformFile, { readonly: true });
    try {
      const held = here.query("SELECT count(*) AS n FROM organizations").get() as { n: number };
      if (held.n > 0) throw new ApiError("CONFLICT", `${dataDir} already holds ${held.n} organizations`);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // A file without the table was never a control plane in use: it is replaced.
    } finally {
      here.close();
    }
  }
  mkdirSync(join(dataDir, "tenants"), { recursive: true });
  for (const suffix of ["-wal", "-shm"])
    if (existsSync(`${platformFile}${suffix}`)) throw new ApiError("CONFLICT", `${dataDir} is in use`);
  copyFileSync(platformCopy, platformFile);
  const tenants = readdirSync(join(backupDir, "tenants")).filter((name) => ORG_FILE.test(name));
  for (const name of tenants) copyFileSync(join(backupDir, "tenants", name), join(dataDir, "tenants", name));
  return { dataDir, files: tenants.length + 1 };
}
