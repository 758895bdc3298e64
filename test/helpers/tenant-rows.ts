import { Database } from "bun:sqlite";
import { join } from "node:path";

/** Every row of every table of an organization's file, read on a connection of its own. */
export function tenantRows(dataDir: string, orgId: string): Record<string, Record<string, unknown>[]> {
  const sqlite = new Database(join(dataDir, "tenants", `${orgId}.sqlite`), { readonly: true });
  try {
    const tables = sqlite
      .query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as {
      name: string;
    }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        sqlite.query(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[],
      ]),
    );
  } finally {
    sqlite.close();
  }
}
