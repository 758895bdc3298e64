import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import * as tables from "../auth/tables.ts";
import { migrations } from "./migrations/platform/index.ts";
import { migrate, openSqlite } from "./sqlite.ts";

export type PlatformSchema = typeof tables;

/** The control plane: organizations, domains, users, memberships, sessions, API keys. */
export interface PlatformDb {
  sqlite: Database;
  db: BunSQLiteDatabase<PlatformSchema>;
}

/**
 * Control-plane writes are few (sign-up, keys, organizations) and must survive power loss,
 * so the file runs with synchronous=FULL throughout.
 */
export function openPlatformDb(dataDir: string): PlatformDb {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = openSqlite(join(dataDir, "platform.sqlite"), { create: true, synchronous: "FULL" });
  const db = drizzle({ client: sqlite, schema: tables });
  migrate(sqlite, db, migrations);
  return { sqlite, db };
}
