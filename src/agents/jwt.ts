import { type KeyObject, verify } from "node:crypto";
import { invalidJwt, ProtocolError } from "./errors.ts";
import { standingOf } from "./grants.ts";
import { jwkText, type PublicJwk, parsePublicJwk, thumbprintOf } from "./keys.ts";
import type { AgentRuntime } from "./runtime.ts";
import type { Standing } from "./standings.ts";
import { type AgentRow, type HostRow, hostByThumbprint } from "./store.ts";

// Host and agent JWTs: EdDSA over Ed25519 only, keys from the database (never from a header or a
// URL), exact audiences, at most 60 s of life and 30 s of skew, and single use through the jti cache.
// Steps 1–4 fail as 401 `invalid_jwt`; the state of the host or agent (step 5) as 403.
//
// The token is split and decoded once, and its signature checked with node:crypto on the thread
// pool: a general JWT library decoded it again and wrapped the check in layers of promises, about
// 15 µs of the main thread per request (docs/agents.md, "How a token is checked").

const MAX_TOKEN_LENGTH = 8 * 1024;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_LIFETIME_S = 60;
const SKEW_S = 30;
const ED25519_SIGNATURE_BYTES = 64;

type JsonObject = Record<string, unknown>;

/** A compact JWS read once (its header checked): its claims, what its signature covers and the signature. */
interface ReadToken {
  payload: JsonObject;
  signingInput: Buffer;
  signature: Buffer;
}

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One base64url segment as a JSON object, or null. */
function jsonSegment(segment: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function readUnverified(token: string, typ: "host+jwt" | "agent+jwt"): ReadToken {
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
    throw invalidJwt("The token must be a signed compact JWS of at most 8 KiB");
  }
  const first = token.indexOf(".");
  const last = token.lastIndexOf(".");
  const header = jsonSegment(token.slice(0, first));
  const payload = jsonSegment(token.slice(first + 1, last));
  if (!header || !payload) throw invalidJwt("The token is malformed");
  if (header.alg !== "EdDSA") throw invalidJwt('The token must be signed with alg "EdDSA" (Ed25519)');
  if (typeof header.typ !== "string" || header.typ.toLowerCase() !== typ) {
    throw invalidJwt(`The token's typ must be "${typ}"`);
  }
  // No JWS extension is understood, so a token that makes one critical is refused (RFC 7515, 4.1.11).
  if (header.crit !== undefined) throw invalidJwt("The token's header must not name critical extensions");
  // b64: false (RFC 7797) would sign the payload unencoded; only the standard form is accepted.
  if (header.b64 !== undefined) throw invalidJwt("The token's header must not carry b64");
  return {
    payload,
    signingInput: Buffer.from(token.slice(0, last), "latin1"),
    signature: Buffer.from(token.slice(last + 1), "base64url"),
  };
}

/** The token's kind by its header, without verifying anything (which verifier to use). */
export function tokenKind(token: string): "host" | "agent" | null {
  const dot = token.indexOf(".");
  const typ = dot > 0 ? jsonSegment(token.slice(0, dot))?.typ : undefined;
  if (typeof typ !== "string") return null;
  const kind = typ.toLowerCase();
  return kind === "host+jwt" ? "host" : kind === "agent+jwt" ? "agent" : null;
}

interface Claims extends JsonObject {
  iat: number;
  exp: number;
  jti: string;
}

/** Whether the Ed25519 signature holds, checked on the thread pool. */
function signatureHolds(token: ReadToken, key: KeyObject): Promise<boolean> {
  if (token.signature.length !== ED25519_SIGNATURE_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    verify(null, token.signingInput, key, token.signature, (error, valid) => resolve(!error && valid));
  });
}

const isTime = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** `aud` (a string, or an array of exactly one) names one of the audiences this surface takes. */
function audienceMatches(aud: unknown, audience: string | string[]): boolean {
  if (Array.isArray(aud) && aud.length !== 1) throw invalidJwt("aud must name exactly one audience");
  const named: unknown = Array.isArray(aud) ? aud[0] : aud;
  return (
    typeof named === "string" && (Array.isArray(audience) ? audience.includes(named) : audience === named)
  );
}

async function verifySignatureAndClaims(
  rt: AgentRuntime,
  token: ReadToken,
  key: KeyObject,
  audience: string | string[],
): Promise<Claims> {
  if (!(await signatureHolds(token, key))) throw invalidJwt("The token does not verify: bad signature");
  const now = rt.now() / 1000;
  const { iat, exp, nbf, jti, aud } = token.payload;
  if (!isTime(iat) || !isTime(exp)) throw invalidJwt("iat and exp must be numbers");
  if (exp <= now - SKEW_S) throw invalidJwt("The token has expired");
  if (nbf !== undefined && (!isTime(nbf) || nbf > now + SKEW_S))
    throw invalidJwt("The token is not valid yet (nbf)");
  if (iat > now + SKEW_S) throw invalidJwt("The token's iat is in the future");
  if (now - iat - SKEW_S > MAX_LIFETIME_S) throw invalidJwt("The token is older than 60 s (iat)");
  if (exp - iat > MAX_LIFETIME_S) throw invalidJwt("The token lives longer than 60 s (exp − iat)");
  if (typeof jti !== "string" || jti.length < 16 || jti.length > 128) {
    throw invalidJwt("jti must be a string of 16 to 128 characters");
  }
  if (!audienceMatches(aud, audience)) throw invalidJwt("The token is not for this audience (aud)");
  return token.payload as Claims;
}

/** When a token can no longer verify (its `exp` plus the skew allowed), in ms: how long its use is remembered. */
export const verifiableUntil = (claims: Pick<Claims, "exp">): number => (claims.exp + SKEW_S) * 1000;

async function recordJti(rt: AgentRuntime, principal: string, claims: Claims): Promise<void> {
  if (!(await rt.replay.record(principal, claims.jti, verifiableUntil(claims)))) {
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
  const read = readUnverified(token, "host+jwt");
  const { payload } = read;
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
  const key = rt.keys.get(thumbprint, host ? host.public_key : jwkText(jwk));
  const claims = await verifySignatureAndClaims(rt, read, key, rt.origins.issuer);
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
  const read = readUnverified(token, "agent+jwt");
  const { payload } = read;
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
  const key = rt.keys.get(agent.thumbprint, agent.public_key);
  const claims = await verifySignatureAndClaims(rt, read, key, audience);
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
