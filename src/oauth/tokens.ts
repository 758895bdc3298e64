import { timingSafeEqual } from "node:crypto";
import { sha256Hex } from "../auth/crypto.ts";
import { immediately } from "../db/sqlite.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { invalidGrant, invalidRequest, OAuthError } from "./errors.ts";
import { type OAuthRuntime, SCOPE } from "./runtime.ts";

// Codes, access tokens and refresh tokens: random strings with a kind prefix, stored only as their
// SHA-256. Everything issued from one code is a family: the code, each access token, each refresh
// token. A code or a refresh token works once; presented again, it revokes its whole family (a
// stolen copy and the real one cannot both go on). Access tokens are looked up on every request,
// so a revocation (of the family here, or of the agent from the dashboard) holds from the next one.

const CODE_TTL_MS = 60_000;
/** Expired rows deleted per row added: more than come of age, so the table stays the live tokens. */
const SWEEP_PER_TOKEN = 2;
const USED_CODE_KEPT_MS = 86_400_000;
export const ACCESS_TTL_MS = 3600_000;
const PREFIX = { code: "mcp_ac_", access: "mcp_at_", refresh: "mcp_rt_" } as const;
type Kind = keyof typeof PREFIX;

interface TokenRow {
  hash: string;
  kind: Kind;
  family_id: string;
  agent_id: string;
  client_id: string;
  resource: string;
  scope: string;
  code_challenge: string | null;
  redirect_uri: string | null;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

const hashOf = (token: string) => sha256Hex(token);

function insertToken(
  rt: OAuthRuntime,
  kind: Kind,
  fields: { familyId: string; agentId: string; clientId: string; resource: string; expiresAt: number },
  code?: { challenge: string; redirectUri: string },
): string {
  const token = `${PREFIX[kind]}${randomBase62(43)}`;
  const now = rt.agents.now();
  // An expired token can do nothing any more, reuse detection included (no token of a family
  // outlives the grants). A used code is kept a day longer: a replay of it still revokes its family.
  rt.sqlite
    .query(
      `DELETE FROM oauth_tokens WHERE hash IN
         (SELECT hash FROM oauth_tokens
           WHERE expires_at < +?1 AND (kind <> 'code' OR used_at IS NULL OR expires_at < +?1 - ?3)
           ORDER BY expires_at LIMIT ?2)`,
    )
    .run(now, SWEEP_PER_TOKEN, USED_CODE_KEPT_MS);
  rt.sqlite
    .query(
      `INSERT INTO oauth_tokens (hash, kind, family_id, agent_id, client_id, resource, scope, code_challenge,
         redirect_uri, expires_at, used_at, revoked_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, NULL, NULL, ?11, ?11)`,
    )
    .run(
      hashOf(token),
      kind,
      fields.familyId,
      fields.agentId,
      fields.clientId,
      fields.resource,
      SCOPE,
      code?.challenge ?? null,
      code?.redirectUri ?? null,
      fields.expiresAt,
      now,
    );
  return token;
}

/** A code for an agent the merchant just approved (in the consent's transaction). */
export function issueCode(
  rt: OAuthRuntime,
  input: { agentId: string; clientId: string; resource: string; codeChallenge: string; redirectUri: string },
): string {
  return insertToken(
    rt,
    "code",
    {
      familyId: newId("ofam"),
      agentId: input.agentId,
      clientId: input.clientId,
      resource: input.resource,
      expiresAt: rt.agents.now() + CODE_TTL_MS,
    },
    { challenge: input.codeChallenge, redirectUri: input.redirectUri },
  );
}

const tokenRow = (rt: OAuthRuntime, token: string, kind: Kind) =>
  token.startsWith(PREFIX[kind])
    ? (rt.sqlite
        .query("SELECT * FROM oauth_tokens WHERE hash = ? AND kind = ?")
        .get(hashOf(token), kind) as TokenRow | null)
    : null;

function revokeFamily(rt: OAuthRuntime, familyId: string): void {
  const now = rt.agents.now();
  rt.sqlite
    .query(
      "UPDATE oauth_tokens SET revoked_at = ?1, updated_at = ?1 WHERE family_id = ?2 AND revoked_at IS NULL",
    )
    .run(now, familyId);
}

/** The S256 challenge of a verifier (RFC 7636 §4.2), compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(new Bun.CryptoHasher("sha256").update(verifier).digest()).toString(
    "base64url",
  );
  const a = Buffer.from(computed);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** When the agent's grants end (the latest expiry of its active grants): refresh tokens live no longer. */
function grantsEnd(rt: OAuthRuntime, agentId: string): number | null {
  const row = rt.sqlite
    .query(
      `SELECT MAX(expires_at) AS until, SUM(expires_at IS NULL) AS open FROM agent_grants
        WHERE agent_id = ? AND status = 'active'`,
    )
    .get(agentId) as { until: number | null; open: number | null };
  if (row.open) return Number.MAX_SAFE_INTEGER;
  return row.until !== null && row.until > rt.agents.now() ? row.until : null;
}

/** The agent behind a family must still be active with some grant in force; else the grant is void. */
function assertAgentLive(rt: OAuthRuntime, agentId: string): number {
  const agent = rt.sqlite
    .query(
      `SELECT a.status AS agent, h.status AS host FROM agents a JOIN agent_hosts h ON h.id = a.host_id WHERE a.id = ?`,
    )
    .get(agentId) as { agent: string; host: string } | null;
  if (agent?.agent !== "active" || agent.host !== "active")
    throw invalidGrant("The authorization was revoked");
  const until = grantsEnd(rt, agentId);
  if (until === null) throw invalidGrant("The approved capabilities have expired: authorize again");
  return until;
}

/** The token answer (RFC 6749 §5.1): a new access token and a new refresh token in the same family. */
function issuePair(rt: OAuthRuntime, row: TokenRow) {
  const until = assertAgentLive(rt, row.agent_id);
  const now = rt.agents.now();
  const fields = {
    familyId: row.family_id,
    agentId: row.agent_id,
    clientId: row.client_id,
    resource: row.resource,
  };
  const accessToken = insertToken(rt, "access", {
    ...fields,
    expiresAt: Math.min(until, now + ACCESS_TTL_MS),
  });
  const refreshToken = insertToken(rt, "refresh", { ...fields, expiresAt: until });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: Math.floor((Math.min(until, now + ACCESS_TTL_MS) - now) / 1000),
    refresh_token: refreshToken,
    scope: SCOPE,
  };
}

/**
 * Marks a code or refresh token used. Used before (or revoked): the family is revoked and the
 * request refused, in a transaction of its own so the revocation stays whatever happens next.
 */
function consume(rt: OAuthRuntime, row: TokenRow | null, clientId: string, what: string): TokenRow {
  if (!row) throw invalidGrant(`Unknown ${what}`);
  if (row.client_id !== clientId) throw invalidGrant(`The ${what} was issued to another client`);
  const now = rt.agents.now();
  const fresh =
    rt.sqlite
      .query(
        "UPDATE oauth_tokens SET used_at = ?1, updated_at = ?1 WHERE hash = ?2 AND used_at IS NULL AND revoked_at IS NULL",
      )
      .run(now, row.hash).changes === 1;
  if (!fresh && row.revoked_at !== null) throw invalidGrant(`The ${what} was revoked`);
  if (!fresh) {
    revokeFamily(rt, row.family_id);
    throw invalidGrant(`The ${what} was already used: every token issued from it is revoked`);
  }
  if (row.expires_at <= now) throw invalidGrant(`The ${what} has expired`);
  return row;
}

function checkResource(row: TokenRow, resource: string | undefined): void {
  if (resource !== undefined && resource !== row.resource) {
    throw new OAuthError(400, "invalid_target", `The resource must be ${row.resource}, as authorized`);
  }
}

export interface TokenRequest {
  grantType: string;
  clientId: string;
  code?: string;
  redirectUri?: string;
  codeVerifier?: string;
  refreshToken?: string;
  resource?: string;
}

/** `POST /oauth/token`: `authorization_code` (PKCE) or `refresh_token` (rotated). */
export function exchange(rt: OAuthRuntime, request: TokenRequest) {
  if (request.grantType === "authorization_code") {
    const { code, redirectUri, codeVerifier } = request;
    if (!code || !redirectUri || !codeVerifier) {
      throw invalidRequest("code, redirect_uri and code_verifier are required");
    }
    return immediatelyThen(rt, () => {
      const row = consume(rt, tokenRow(rt, code, "code"), request.clientId, "code");
      if (row.redirect_uri !== redirectUri)
        throw invalidGrant("redirect_uri differs from the authorization request's");
      if (!verifierMatches(codeVerifier, row.code_challenge ?? "")) {
        throw invalidGrant("code_verifier does not match the code_challenge (PKCE S256)");
      }
      checkResource(row, request.resource);
      return row;
    });
  }
  if (request.grantType === "refresh_token") {
    const { refreshToken } = request;
    if (!refreshToken) throw invalidRequest("refresh_token is required");
    return immediatelyThen(rt, () => {
      const row = consume(rt, tokenRow(rt, refreshToken, "refresh"), request.clientId, "refresh token");
      checkResource(row, request.resource);
      return row;
    });
  }
  throw new OAuthError(400, "unsupported_grant_type", "grant_type is authorization_code or refresh_token");
}

/**
 * Consumes in one transaction (kept even when a later check refuses: a code tried with a wrong
 * verifier is spent), then issues the pair in another with every check passed.
 */
function immediatelyThen(rt: OAuthRuntime, consumeAndCheck: () => TokenRow) {
  let failure: unknown;
  const row = immediately(rt.sqlite, () => {
    try {
      return consumeAndCheck();
    } catch (error) {
      failure = error;
      return null;
    }
  });
  if (!row) throw failure;
  return immediately(rt.sqlite, () => issuePair(rt, row));
}

/** `POST /oauth/revoke` (RFC 7009): the token's family, if the token is the client's; else nothing. */
export function revoke(rt: OAuthRuntime, token: string, clientId: string): void {
  const row = tokenRow(rt, token, "refresh") ?? tokenRow(rt, token, "access") ?? tokenRow(rt, token, "code");
  if (row && row.client_id === clientId) revokeFamily(rt, row.family_id);
}

/** Which agent an access token stands for, if it is live and made for `resource` (its audience). */
export function accessTokenAgent(rt: OAuthRuntime, token: string, resource: string): string {
  const row = tokenRow(rt, token, "access");
  const invalid = (why: string) => new OAuthError(401, "invalid_token", why);
  if (!row || row.revoked_at !== null) throw invalid("Unknown or revoked access token");
  if (row.expires_at <= rt.agents.now()) throw invalid("The access token has expired");
  if (row.resource !== resource) throw invalid(`The access token is for ${row.resource}, not ${resource}`);
  return row.agent_id;
}

export const isOAuthToken = (token: string): boolean =>
  token.startsWith(PREFIX.access) || token.startsWith(PREFIX.refresh) || token.startsWith(PREFIX.code);
