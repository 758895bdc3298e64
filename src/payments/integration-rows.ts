import type { TenantDb } from "../db/tenant-pool.ts";
import type { Provider } from "./tables.ts";

// A store's own settings row of a provider, as stored. integrations.ts reads and writes it; kept
// apart from that file (which reaches providers through the registry) so that a provider can read
// its own row without an import cycle.

export interface ConfigRow {
  provider: Provider;
  enabled: number;
  settings: string;
  secrets: string;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

export function configRow(tenant: TenantDb, provider: Provider): ConfigRow | null {
  return tenant.sqlite
    .query("SELECT * FROM integration_configs WHERE provider = ?")
    .get(provider) as ConfigRow | null;
}
