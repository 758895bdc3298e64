import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { agents } from "../agents/tables.ts";

// OAuth 2.1 for MCP clients, in the control plane (DATA_DIR/platform.sqlite). Times are epoch
// milliseconds. A consent is an agent of an `oauth` host (src/agents/tables.ts): its grants, its
// organization and its revocation are the agents module's; these tables hold the clients and the
// tokens that stand for such an agent.

const CLIENT_KINDS = ["registered", "metadata_document"] as const;
const TOKEN_KINDS = ["code", "access", "refresh"] as const;

/**
 * A public client: registered here (RFC 7591, id `oc_…`) or named by the URL of its client ID
 * metadata document (the id is that URL; the document is fetched and kept until `refresh_after`).
 */
export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: CLIENT_KINDS }).notNull(),
  name: text("name").notNull(),
  /** JSON array of exact redirect URIs. */
  redirectUris: text("redirect_uris").notNull(),
  clientUri: text("client_uri"),
  /** The logo its registration names (http or https); shown on the consent page once fetched and checked. */
  logoUri: text("logo_uri"),
  /** The address a registration came from (registrations are limited per address). */
  registeredFrom: text("registered_from"),
  /** Metadata documents: when the fetched copy must be fetched again. */
  refreshAfter: integer("refresh_after"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Authorization codes, access tokens and refresh tokens, by the SHA-256 of the token (the token
 * itself is never stored). A family is everything issued from one code: a code or refresh token
 * presented twice revokes its whole family.
 */
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    /** SHA-256 of the token, hex. */
    hash: text("hash").primaryKey(),
    kind: text("kind", { enum: TOKEN_KINDS }).notNull(),
    familyId: text("family_id").notNull(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    /** The protected resource (RFC 8707) the token is for: its audience. */
    resource: text("resource").notNull(),
    scope: text("scope").notNull(),
    /** Codes only: the PKCE S256 challenge and the exact redirect URI. */
    codeChallenge: text("code_challenge"),
    redirectUri: text("redirect_uri"),
    expiresAt: integer("expires_at").notNull(),
    /** Codes and refresh tokens: when they were exchanged (each works once). */
    usedAt: integer("used_at"),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("oauth_tokens_family_idx").on(t.familyId), index("oauth_tokens_expires_idx").on(t.expiresAt)],
);
