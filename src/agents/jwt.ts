import { decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from "jose";
import { invalidJwt, ProtocolError } from "./errors.ts";
import { standingOf } from "./grants.ts";
import { jwkText, type PublicJwk, parsePublicJwk, thumbprintOf } from "./keys.ts";
import type { AgentRuntime } from "./runtime.ts";
import type { Standing } from "./standings.ts";
import { type AgentRow, type HostRow, hostByThumbprint } from "./store.ts";

// Host and agent JWTs: EdDSA over Ed25519 only, keys from the database (never from a header or a
// URL), exact audiences, at most 60 s of life and 30 s of skew, and single use through the jti cache.
// Steps 1–4 fail as 401 `invalid_jwt`; the state of the host or agent (step 5) as 403.

const MAX_TOKEN_LENGTH = 8 * 1024;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_LIFETIME_S = 60;
const SKEW_S = 30;

function readUnverified(token: string, typ: "host+jwt" | "agent+jwt"): JWTPayload {
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
    throw invalidJwt("The token must be a signed compact JWS of at most 8 KiB");
  }
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    throw invalidJwt("The token is malformed");
  }
  if (header.alg !== "EdDSA") throw invalidJwt('The token must be signed with alg "EdDSA" (Ed25519)');
  if (typeof header.typ !== "string" || header.typ.toLowerCase() !== typ) {
    throw invalidJwt(`The token's typ must be "${typ}"`);
  }
  // No JWS extension is understood, so a token that makes one critical is refused (RFC 7515, 4.1.11).
  if (header.crit !== undefined) throw invalidJwt("The token's header must not name critical extensions");
  return payload;
}

/** The token's kind by its header, without verifying anything (which verifier to use). */
export function tokenKind(token: string): "host" | "agent" | null {
  try {
    const typ = decodeProtectedHeader(token).typ?.toLowerCase();
    return typ === "host+jwt" ? "host" : typ === "agent+jwt" ? "agent" : null;
  } catch {
    return null;
  }
}

interface Claims extends JWTPayload {
  iat: number;
  exp: number;
  jti: string;
}

async function verifySignatureAndClaims(
  rt: AgentRuntime,
  token: string,
  key: CryptoKey,
  audience: string | string[],
): Promise<Claims> {
  const now = rt.now();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["EdDSA"],
      audience,
      maxTokenAge: `${MAX_LIFETIME_S}s`,
      clockTolerance: SKEW_S,
      currentDate: new Date(now),
      requiredClaims: ["iat", "exp", "jti"],
    }));
  } catch (error) {
    throw invalidJwt(`The token does not verify: ${error instanceof Error ? error.message : "invalid"}`);
  }
  const { iat, exp, jti, aud } = payload;
  if (typeof iat !== "number" || typeof exp !== "number") throw invalidJwt("iat and exp must be numbers");
  if (exp - iat > MAX_LIFETIME_S) throw invalidJwt("The token lives longer than 60 s (exp − iat)");
  if (iat > now / 1000 + SKEW_S) throw invalidJwt("The token's iat is in the future");
  if (typeof jti !== "string" || jti.length < 16 || jti.length > 128) {
    throw invalidJwt("jti must be a string of 16 to 128 characters");
  }
  if (Array.isArray(aud) && aud.length !== 1) throw invalidJwt("aud must name exactly one audience");
  return payload as Claims;
}

/** When a token can no longer verify (its `exp` plus the skew allowed), in ms: its replay row's expiry. */
export const verifiableUntil = (claims: Pick<Claims, "exp">): number => (claims.exp + SKEW_S) * 1000;

async function recordJti(rt: AgentRuntime, principal: string, claims: Claims): Promise<void> {
  if (!(await rt.replay.record(principal, claims.jti, verifiableUntil(claims), rt.now()))) {
    throw invalidJwt("This token was already used (jti replay): sign a fresh one per request");
  }
}

export interface HostAuth {
  /** The stored host; null on a register from a host not known yet. */
  host: HostRow | null;
  thumbprint: string;
  jwk: PublicJwk;
  claims: Claims;
}

/**
 * Verifies a host JWT (`typ: host+jwt`, `aud` = the issuer). `register`: an unknown host may sign
 * with the `host_public_key` it sends, whose thumbprint must be its `iss`; `agent_public_key` is
 * accepted only there.
 */
export async function verifyHostJwt(rt: AgentRuntime, token: string, register = false): Promise<HostAuth> {
  const payload = readUnverified(token, "host+jwt");
  if (payload.host_jwks_url !== undefined || payload.agent_jwks_url !== undefined) {
    throw new ProtocolError(
      400,
      "unsupported_algorithm",
      "JWKS URLs are not supported: send inline Ed25519 JWKs",
    );
  }
  if (typeof payload.iss !== "string" || payload.iss === "")
    throw invalidJwt("iss must be the host key thumbprint");
  if (payload.agent_public_key !== undefined && !register) {
    throw invalidJwt("agent_public_key is only sent on register");
  }
  // An OAuth client's host holds no key: no JWT can be its.
  const found = hostByThumbprint(rt.sqlite, payload.iss);
  const host = found?.credential === "ed25519" ? found : null;
  if (found && !host) throw invalidJwt("Unknown host");
  let jwk: PublicJwk;
  if (host) {
    jwk = JSON.parse(host.public_key) as PublicJwk;
    if (payload.host_public_key !== undefined) {
      const sent = parsePublicJwk(payload.host_public_key, "host_public_key");
      if (jwkText(sent) !== host.public_key) throw invalidJwt("host_public_key differs from the host's key");
    }
  } else {
    if (!register || payload.host_public_key === undefined) throw invalidJwt("Unknown host");
    jwk = parsePublicJwk(payload.host_public_key, "host_public_key");
    if ((await thumbprintOf(jwk)) !== payload.iss) {
      throw invalidJwt("iss must be the RFC 7638 thumbprint of host_public_key");
    }
  }
  const thumbprint = payload.iss;
  const key = await rt.keys.get(thumbprint, host ? host.public_key : jwkText(jwk));
  const claims = await verifySignatureAndClaims(rt, token, key, rt.origins.issuer);
  await recordJti(rt, thumbprint, claims);
  if (host?.status === "revoked") throw new ProtocolError(403, "host_revoked", "The host is revoked");
  return { host, thumbprint, jwk, claims };
}

export interface AgentAuth {
  agent: AgentRow;
  host: HostRow;
  claims: Claims;
  /** The token's `capabilities` claim: narrows it to these (intersected with the grants). */
  capabilities?: string[];
  /** The user's role and the grants, read with the agent. */
  standing: Standing;
}

const STATE_ERRORS: Record<string, [string, string]> = {
  pending: ["agent_pending", "The agent is waiting for approval"],
  rejected: ["agent_rejected", "The agent was rejected"],
  revoked: ["agent_revoked", "The agent is revoked"],
};

/**
 * Verifies an agent JWT (`typ: agent+jwt`, `sub` = agent id, `iss` = its host's thumbprint) for one
 * surface's audience (introspection passes all of them and `record: false`).
 */
export async function verifyAgentJwt(
  rt: AgentRuntime,
  token: string,
  audience: string | string[],
  options: { record?: boolean; checkState?: boolean } = {},
): Promise<AgentAuth> {
  const payload = readUnverified(token, "agent+jwt");
  if (payload.cnf !== undefined) throw invalidJwt("cnf (proof of possession) is not supported");
  if (typeof payload.sub !== "string" || typeof payload.iss !== "string") {
    throw invalidJwt("sub must be the agent id and iss its host's key thumbprint");
  }
  const agentId = payload.sub;
  const found = standingOf(rt, agentId);
  if (found?.agent.credential !== "ed25519" || found.host.thumbprint !== payload.iss) {
    throw invalidJwt("Unknown agent or issuer");
  }
  const { agent, host, standing } = found;
  const key = await rt.keys.get(agent.thumbprint, agent.public_key);
  const claims = await verifySignatureAndClaims(rt, token, key, audience);
  const capabilities = payload.capabilities;
  if (
    capabilities !== undefined &&
    (!Array.isArray(capabilities) ||
      capabilities.length > 500 ||
      !capabilities.every((c) => typeof c === "string"))
  ) {
    throw invalidJwt("capabilities must be an array of capability names");
  }
  if (options.record !== false) await recordJti(rt, agent.id, claims);
  if (options.checkState !== false) {
    if (host.status === "revoked")
      throw new ProtocolError(403, "host_revoked", "The agent's host is revoked");
    const state = STATE_ERRORS[agent.status];
    if (state) throw new ProtocolError(403, state[0], state[1]);
  }
  return { agent, host, claims, capabilities: capabilities as string[] | undefined, standing };
}
