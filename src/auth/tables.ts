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

/**
 * Password reset links of dashboard users: the token's SHA-256 only, valid 30 minutes. A row is
 * deleted when used, and a new request deletes the user's older ones, so a row is a usable link until
 * it expires.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** Invitations to join an organization: the token's SHA-256 only, valid 7 days, used once. */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Stored lower-case. */
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("invitations_organization_idx").on(t.organizationId, t.createdAt)],
);

/**
 * Email of the control plane (dashboard password resets), written in the transaction of the change
 * that sends it and sent after the commit by the service's drainer, retried with back-off: no shop's
 * outbox exists for a user who belongs to none. The message's data is sealed (it holds a link token).
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    /** `pending` (to send at `next_attempt_at`), `sent`, or `failed` (refused for good, or out of attempts). */
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull(),
    /**
     * The sealed `AccountEmail` (src/auth/account-email.ts), recipient included; or a sealed null for a
     * request about an email with no account, which is queued alike so that the answer's timing does
     * not tell them apart, and is marked sent without sending anything.
     */
    message: text("message").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt)],
);
