import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import type { Scope } from "../core/scope.ts";
import { TtlCache } from "../lib/ttl-cache.ts";
import { migrations } from "./migrations/platform/index.ts";
import { migrate, openSqlite } from "./sqlite.ts";

/**
 * Credentials resolved on every request are kept for a moment. This process's own changes
 * (revoking a key, adding a domain) clear them at once; another process's (the CLI's) are seen
 * within this many milliseconds.
 */
export const CREDENTIAL_CACHE_MS = 2000;

export interface ResolvedApiKey {
  id: string;
  orgId: string;
  scopes: Scope[];
  expiresAt: number | null;
}

/** The control plane: organizations, domains, users, memberships, sessions, API keys. */
export interface PlatformDb {
  sqlite: Database;
  db: BunSQLiteDatabase;
  /** Valid API keys (by the key itself) and verified hosts (→ org id), see CREDENTIAL_CACHE_MS. */
  cache: { apiKeys: TtlCache<ResolvedApiKey>; hosts: TtlCache<string> };
}

/** Work on the control plane before one of its migrations applies (`Module.beforePlatformMigration`). */
export type PlatformUpgrade = (platform: Database, dataDir: string) => void;

/**
 * Control-plane writes are few (sign-up, keys, organizations) and must survive power loss,
 * so the file runs with synchronous=FULL throughout.
 */
export function openPlatformDb(
  dataDir: string,
  /** Work before a migration applies, by its tag. */
  before: Readonly<Record<string, PlatformUpgrade>> = {},
): PlatformDb {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = openSqlite(join(dataDir, "platform.sqlite"), { create: true, synchronous: "FULL" });
  // No schema registered: the auth module's tables (src/auth/tables.ts) are used as query builders.
  const db = drizzle({ client: sqlite });
  migrate(
    sqlite,
    db,
    migrations,
    Object.fromEntries(Object.entries(before).map(([tag, work]) => [tag, () => work(sqlite, dataDir)])),
  );
  const cache = {
    apiKeys: new TtlCache<ResolvedApiKey>(CREDENTIAL_CACHE_MS),
    hosts: new TtlCache<string>(CREDENTIAL_CACHE_MS),
  };
  return { sqlite, db, cache };
}

/** Whether an organization with this id exists (a webhook's tenant, a due tenant's outbox). */
export function organizationExists(platform: PlatformDb, orgId: string): boolean {
  return platform.sqlite.query("SELECT 1 FROM organizations WHERE id = ?").get(orgId) !== null;
}
