import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Control plane (DATA_DIR/platform.sqlite). Times are epoch milliseconds.

export const organizations = sqliteTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    /**
     * Earliest expiry + grace of the organization's unpaid payment attempts, or null when it has
     * none; maintained by the payments module so its expiry sweep opens only the tenants it must.
     */
    nextPaymentDeadline: integer("next_payment_deadline"),
    /**
     * Earliest time a row of the organization's outbox may need running, or null when it has none;
     * maintained by core/outbox.ts so a restart opens only the tenants with work left.
     */
    outboxDueAt: integer("outbox_due_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("organizations_next_payment_deadline_idx").on(t.nextPaymentDeadline),
    index("organizations_outbox_due_idx").on(t.outboxDueAt),
  ],
);

/** Storefront hosts: an exact, verified host name → organization. */
export const domains = sqliteTable(
  "domains",
  {
    host: text("host").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("domains_organization_idx").on(t.organizationId)],
);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  /** Stored lower-case; unique. */
  email: text("email").notNull().unique(),
  name: text("name"),
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("members_organization_user_idx").on(t.organizationId, t.userId),
    index("members_user_idx").on(t.userId),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    /** SHA-256 (hex) of the opaque token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activeOrganizationId: text("active_organization_id").references(() => organizations.id, {
      onDelete: "set null",
    }),
    expiresAt: integer("expires_at").notNull(),
    /** Last password check; agent approvals ask for a recent one. */
    authenticatedAt: integer("authenticated_at").notNull(),
    userAgent: text("user_agent"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** First characters of the key, shown in lists so a merchant can tell keys apart. */
    start: text("start").notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text("key_hash").notNull().unique(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** JSON array of `storefront` / `admin`. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("api_keys_organization_idx").on(t.organizationId)],
);
