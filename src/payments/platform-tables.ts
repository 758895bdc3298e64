import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "../auth/tables.ts";

// The payments module's control-plane table (DATA_DIR/platform.sqlite). Its tenant tables are in
// tables.ts. Times are epoch milliseconds.

/**
 * Routes of payments made with environment credentials: a provider reference (our attempt id, the
 * provider's ids, the Ifthenpay order reference) → the organization it belongs to. They let a
 * notification sent to org `_` find its tenant, and make those references unique across tenants.
 */
export const paymentRoutes = sqliteTable(
  "payment_routes",
  {
    provider: text("provider").notNull(),
    ref: text("ref").notNull(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.ref] }),
    index("payment_routes_organization_idx").on(t.organizationId),
  ],
);
