import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Facts about the tenant file itself; `organization_id` guards against opening a file under the wrong org. */
export const tenantMeta = sqliteTable("tenant_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
