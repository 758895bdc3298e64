import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations, users } from "../auth/tables.ts";

// Agent Auth in the control plane (DATA_DIR/platform.sqlite). Times are epoch milliseconds.
// Every state change is a compare-and-set (`UPDATE … WHERE id = ? AND status = ?`).

const HOST_STATES = ["pending", "active", "revoked"] as const;
const AGENT_STATES = ["pending", "active", "rejected", "revoked"] as const;
const GRANT_STATES = ["pending", "active", "denied", "revoked"] as const;
const APPROVAL_STATES = ["pending", "approved", "denied", "expired"] as const;
export const AGENT_MODES = ["delegated", "autonomous"] as const;
/**
 * How a host's agents authenticate: `ed25519` (Agent Auth: keys and self-signed JWTs) or `oauth`
 * (an OAuth client a merchant connected on the consent page; its tokens are the oauth module's, and
 * its `public_key` is empty and `thumbprint` is `oauth:<id>`, which no JWT can name).
 */
export const CREDENTIALS = ["ed25519", "oauth"] as const;

export type AgentMode = (typeof AGENT_MODES)[number];

/** A host: the program that holds agent keys. Bound to an organization and a user at its first approval. */
export const agentHosts = sqliteTable(
  "agent_hosts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The Ed25519 public JWK as JSON (`kty`, `crv`, `x` only). */
    publicKey: text("public_key").notNull(),
    /** RFC 7638 SHA-256 thumbprint of the key (base64url): the `iss` of its JWTs. */
    thumbprint: text("thumbprint").notNull().unique(),
    status: text("status", { enum: HOST_STATES }).notNull(),
    credential: text("credential", { enum: CREDENTIALS }).notNull().default("ed25519"),
    /** For `oauth` hosts: the OAuth client (`oauth_clients.id`); one host per client and organization. */
    oauthClientId: text("oauth_client_id"),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    /** The user who approved its first agent (delegated agents act for this user). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    activatedAt: integer("activated_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("agent_hosts_organization_idx").on(t.organizationId),
    uniqueIndex("agent_hosts_oauth_client_idx").on(t.oauthClientId, t.organizationId),
  ],
);

/** An agent: one key, one host, one organization (set once, server-side). */
export const agents = sqliteTable(
  "agents",
  {
    id: text("id").primaryKey(),
    hostId: text("host_id")
      .notNull()
      .references(() => agentHosts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    mode: text("mode", { enum: AGENT_MODES }).notNull(),
    publicKey: text("public_key").notNull(),
    thumbprint: text("thumbprint").notNull().unique(),
    status: text("status", { enum: AGENT_STATES }).notNull(),
    credential: text("credential", { enum: CREDENTIALS }).notNull().default("ed25519"),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    /** Delegated agents only: the host's user. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    activatedAt: integer("activated_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("agents_host_status_idx").on(t.hostId, t.status),
    index("agents_organization_idx").on(t.organizationId),
  ],
);

/** One capability (an operationId) for one agent. Effective = `active` and not past `expires_at`. */
export const agentGrants = sqliteTable(
  "agent_grants",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    capability: text("capability").notNull(),
    status: text("status", { enum: GRANT_STATES }).notNull(),
    /** JSON object keyed by input field, or null. */
    constraints: text("constraints"),
    /** The approving user's id, or `system:auto`. */
    grantedBy: text("granted_by"),
    deniedBy: text("denied_by"),
    reason: text("reason"),
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("agent_grants_agent_capability_idx").on(t.agentId, t.capability)],
);

/** A device-authorization request (RFC 8628): the merchant approves it with its user code. */
export const agentApprovals = sqliteTable(
  "agent_approvals",
  {
    /** Also the `device_code`. */
    id: text("id").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => agentHosts.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    /** JSON array of the capability names it covers. */
    capabilities: text("capabilities").notNull(),
    status: text("status", { enum: APPROVAL_STATES }).notNull(),
    /** HMAC-SHA-256 (server key, hex) of the normalised user code; the code itself is never stored. */
    userCodeHash: text("user_code_hash").notNull(),
    bindingMessage: text("binding_message"),
    reason: text("reason"),
    /** Seconds a poller must wait between token requests. */
    interval: integer("interval").notNull(),
    lastPolledAt: integer("last_polled_at"),
    failedAttempts: integer("failed_attempts").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The organization chosen at the decision. */
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("agent_approvals_pending_code_idx").on(t.userCodeHash).where(sql`status = 'pending'`),
    index("agent_approvals_agent_status_idx").on(t.agentId, t.status),
  ],
);

/**
 * One row (id 1) counting the changes to what an agent's request is decided on: the agents, their
 * hosts, their grants and the members' roles. Triggers add one on every insert, update or delete of
 * those tables, whatever process writes them (migration 0012), so a process keeps the agents it
 * has read in memory and reads them again only when the count moved (src/agents/standings.ts).
 */
export const agentStandingVersion = sqliteTable("agent_standing_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});

/** Server-side secrets of the agents module (a 32-byte key for user-code HMACs and CSRF tokens). */
export const agentServerKeys = sqliteTable("agent_server_keys", {
  name: text("name").primaryKey(),
  /** base64url of the key bytes. */
  key: text("key").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
