import { type Json, UcpError } from "./errors.ts";
import {
  componentValue,
  contentDigest,
  parseDictionary,
  type SfItem,
  type SfMember,
  type SignatureParams,
  type SignedRequest,
  signatureBase,
} from "./signing.ts";

// A platform's RFC 9421 request signature (docs/ucp.md#request-signatures), verified against the
// `signing_keys` of the profile its `UCP-Agent` names, as UCP profiles RFC 9421: the algorithm
// follows the key's curve (ES256 on P-256, ES384 on P-384; no `alg` to trust), the signature is the
// raw r‖s, and the body is bound by its `Content-Digest`. Refusals are UCP's signature errors.

/** How far `created` may be from now, either way: a signature older (or from further ahead) is refused. */
const SIGNATURE_MAX_SKEW_S = 5 * 60;

/** The ECDSA parameters of a key's curve (the signature's algorithm), and the r‖s length. */
const CURVES: Record<string, { hash: string; alg: string; jwsAlg: string; bytes: number }> = {
  "P-256": { hash: "SHA-256", alg: "ecdsa-p256-sha256", jwsAlg: "ES256", bytes: 64 },
  "P-384": { hash: "SHA-384", alg: "ecdsa-p384-sha384", jwsAlg: "ES384", bytes: 96 },
};

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const invalid = (message: string) => new UcpError(401, "signature_invalid", message);

/** The request as received: its method, the shop's host it named (`authority`), its path and query, its headers. */
export interface ReceivedRequest {
  request: Request;
  authority: string;
  /** The raw body bytes (empty when none). */
  body: Uint8Array;
}

/** The one signature to verify: the first `Signature-Input` member, and the `Signature` member of the same label. */
function signatureOf(input: string, signature: string) {
  let inputs: Map<string, SfMember>;
  let values: Map<string, SfMember>;
  try {
    inputs = parseDictionary(input);
    values = parseDictionary(signature);
  } catch (error) {
    throw invalid(`Signature-Input or Signature is not a structured field: ${(error as Error).message}`);
  }
  const [label, member] = [...inputs][0] ?? [];
  if (!label || !member) throw invalid("Signature-Input names no signature");
  const bytes = values.get(label)?.value;
  if (bytes === undefined) throw new UcpError(401, "signature_missing", `Signature has no "${label}" member`);
  const components = member.value;
  if (
    !Array.isArray(components) ||
    !components.every((c) => typeof c === "string") ||
    !(bytes instanceof Uint8Array)
  ) {
    throw invalid(`Signature "${label}" is not a list of components and a byte sequence`);
  }
  if (Object.values(member.params).some((p) => p instanceof Uint8Array)) {
    throw invalid(`Signature "${label}" has a parameter this service does not take`);
  }
  return { components: components as string[], params: member.params as SignatureParams, bytes };
}

/** The components UCP requires a signature of this request to cover (docs/ucp.md#request-signatures). */
function requiredComponents({ request, body }: ReceivedRequest): string[] {
  const url = new URL(request.url);
  const has = (name: string) => request.headers.has(name);
  return [
    "@method",
    "@authority",
    "@path",
    ...(url.search ? ["@query"] : []),
    ...(has("ucp-agent") ? ["ucp-agent"] : []),
    ...(WRITES.has(request.method) && has("idempotency-key") ? ["idempotency-key"] : []),
    ...(body.length > 0 ? ["content-digest", "content-type"] : []),
  ];
}

/** The `created`/`expires` window: a `created` more than the skew away from now, or an `expires` past, is refused. */
function checkTimes(params: SignatureParams, now: number): void {
  const { created, expires } = params;
  if (created !== undefined) {
    if (!Number.isInteger(created)) throw invalid("The signature's created is not an integer");
    if (Math.abs(now / 1000 - (created as number)) > SIGNATURE_MAX_SKEW_S) {
      throw invalid(`The signature was created more than ${SIGNATURE_MAX_SKEW_S} seconds from now`);
    }
  }
  if (expires !== undefined && !(Number.isInteger(expires) && (expires as number) > now / 1000)) {
    throw invalid("The signature has expired");
  }
}

/** The profile's key `keyid` names, imported for verifying with its curve's algorithm. */
async function keyOf(profile: Json, params: SignatureParams) {
  const { keyid, alg } = params;
  const jwk = (profile.signing_keys as Json[] | undefined)?.find((k) => k.kid === keyid);
  if (typeof keyid !== "string" || !jwk) {
    throw new UcpError(
      401,
      "key_not_found",
      `The platform's profile has no signing key kid=${String(keyid)}`,
    );
  }
  const curve = jwk.kty === "EC" ? CURVES[jwk.crv as string] : undefined;
  // The key decides the algorithm; an `alg` (key's or signature's) saying another one is refused.
  if (
    !curve ||
    (jwk.alg !== undefined && jwk.alg !== curve.jwsAlg) ||
    (alg !== undefined && alg !== curve.alg)
  ) {
    throw new UcpError(
      400,
      "algorithm_unsupported",
      `Key kid=${keyid} is not an ES256 (P-256) or ES384 (P-384) key`,
    );
  }
  try {
    const publicJwk = { kty: "EC", crv: jwk.crv as string, x: jwk.x as string, y: jwk.y as string };
    const key = await crypto.subtle.importKey(
      "jwk",
      publicJwk,
      { name: "ECDSA", namedCurve: jwk.crv as string },
      false,
      ["verify"],
    );
    return { key, curve };
  } catch {
    throw invalid(`Key kid=${keyid} of the platform's profile is not a valid public key`);
  }
}

/**
 * Verifies the request's signature, when it carries one, against `profile`'s `signing_keys`: the
 * components UCP requires covered, `created` recent, the key found, the body's digest matching its
 * bytes, and the signature valid. A request without a signature is left alone (UCP has platforms
 * authenticate by signature or otherwise); one with half of one is `signature_missing`.
 */
export async function verifyRequestSignature(
  received: ReceivedRequest,
  profile: Json,
  now = Date.now(),
): Promise<void> {
  const { request, authority, body } = received;
  const input = request.headers.get("signature-input");
  const value = request.headers.get("signature");
  if (input === null && value === null) return;
  if (input === null || value === null) {
    throw new UcpError(401, "signature_missing", "Signature-Input and Signature go together");
  }
  const signature = signatureOf(input, value);
  const url = new URL(request.url);
  const signed: SignedRequest = {
    method: request.method,
    url: `${url.protocol}//${authority.toLowerCase()}${url.pathname}${url.search}`,
    headers: Object.fromEntries(request.headers),
  };
  const uncovered = requiredComponents(received).filter((c) => !signature.components.includes(c));
  if (uncovered.length > 0) throw invalid(`The signature does not cover ${uncovered.join(", ")}`);
  const absent = signature.components.filter((c) => componentValue(signed, c) === undefined);
  if (absent.length > 0)
    throw invalid(`The signature covers what the request does not have: ${absent.join(", ")}`);
  checkTimes(signature.params, now);
  const { key, curve } = await keyOf(profile, signature.params);
  if (signature.components.includes("content-digest")) checkDigest(signed.headers["content-digest"]!, body);
  const { base } = signatureBase(signed, signature.components, signature.params);
  const valid =
    signature.bytes.length === curve.bytes &&
    (await crypto.subtle.verify(
      { name: "ECDSA", hash: curve.hash },
      key,
      signature.bytes,
      new TextEncoder().encode(base),
    ));
  if (!valid) throw invalid(`Request signature verification failed for key kid=${signature.params.keyid}`);
}

/** `Content-Digest`'s `sha-256` is the digest of the body's raw bytes (UCP asks for sha-256). */
function checkDigest(header: string, body: Uint8Array): void {
  let sent: SfItem | undefined;
  try {
    sent = parseDictionary(header).get("sha-256")?.value as SfItem | undefined;
  } catch {
    sent = undefined;
  }
  const expected = contentDigest(body);
  if (!(sent instanceof Uint8Array) || `sha-256=:${Buffer.from(sent).toString("base64")}:` !== expected) {
    throw new UcpError(400, "digest_mismatch", "Content-Digest is not the sha-256 of the body");
  }
}
