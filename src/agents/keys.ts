import { createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint } from "jose";
import { ProtocolError } from "./errors.ts";

/** An Ed25519 public key as an inline JWK: nothing else is accepted. */
export interface PublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
}

const unsupported = (message: string) => new ProtocolError(400, "unsupported_algorithm", message);

/**
 * Checks a public key sent by a host or an agent: `{kty: "OKP", crv: "Ed25519", x}` with a 32-byte
 * `x`; a private part (`d`), another key type or curve, or anything not an object → 400
 * `unsupported_algorithm`. Other members (`alg`, `use`, `kid`) are dropped.
 */
export function parsePublicJwk(value: unknown, what: string): PublicJwk {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw unsupported(`${what} must be an inline Ed25519 public JWK`);
  }
  const jwk = value as Record<string, unknown>;
  if ("d" in jwk) throw unsupported(`${what} contains a private key part ("d"): send the public key only`);
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") {
    throw unsupported(`${what} must be an Ed25519 key (kty "OKP", crv "Ed25519")`);
  }
  if (typeof jwk.x !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(jwk.x)) {
    throw unsupported(`${what}: "x" must be 43 base64url characters (32 bytes)`);
  }
  return { kty: "OKP", crv: "Ed25519", x: jwk.x };
}

/** RFC 7638 SHA-256 thumbprint (base64url): the name of a key. */
export const thumbprintOf = (jwk: PublicJwk): Promise<string> => calculateJwkThumbprint(jwk, "sha256");

export const jwkText = (jwk: PublicJwk): string => JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x });

/** Imported keys by thumbprint: a thumbprint names exactly one key, so an entry never goes stale. */
export class KeyCache {
  private readonly keys = new Map<string, KeyObject>();

  get(thumbprint: string, jwkJson: string): KeyObject {
    let key = this.keys.get(thumbprint);
    if (!key) {
      key = createPublicKey({ key: JSON.parse(jwkJson) as PublicJwk, format: "jwk" });
      if (this.keys.size >= 10_000) this.keys.clear();
      this.keys.set(thumbprint, key);
    }
    return key;
  }
}
