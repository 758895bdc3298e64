import { createHash, generateKeyPairSync } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { instanceKeyring, type KeyPurpose, seal, unseal } from "../core/keyring.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import type { ucpSigningKeys } from "./tables.ts";

// The shop's signatures under UCP (docs/ucp.md#order-webhooks): RFC 9421 HTTP Message Signatures
// as UCP profiles them. ES256 over P-256 with the raw r‖s signature (WebCrypto's own encoding, not
// DER), the body bound by `Content-Digest: sha-256=:…:` (RFC 9530) over its raw bytes, `keyid` the
// `kid` of a key the shop's profile publishes in `signing_keys`. A shop's key pair is made the first
// time it is needed (its profile read, or a webhook signed); the private half is sealed with the
// instance key, bound to the organization and the key.

type KeyRow = Row<typeof ucpSigningKeys>;

/** A public key as a UCP profile's `signing_keys` entry (a JWK). */
export interface SigningKey {
  kid: string;
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  alg: "ES256";
  use: "sig";
}

const PRIVATE_KEYS: KeyPurpose = { salt: "commerce-service/ucp-signing-keys", info: "aes-256-gcm v1" };

const boundTo = (tenant: TenantDb, kid: string) => `${tenant.orgId}:ucp-signing-key:${kid}`;

const keyRows = (tenant: TenantDb): KeyRow[] =>
  tenant.sqlite.query("SELECT * FROM ucp_signing_keys ORDER BY created_at DESC, id DESC").all() as KeyRow[];

/** The shop's keys, newest first; its first one made now when it has none. */
function keysOf(ctx: AppContext, tenant: TenantDb): KeyRow[] {
  const rows = keyRows(tenant);
  if (rows.length > 0) return rows;
  const kid = newId("ucpk");
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  // One statement, inserting only into an empty table: two first readers make one key, not two.
  tenant.sqlite
    .query(
      `INSERT INTO ucp_signing_keys (id, x, y, private_key, created_at)
       SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM ucp_signing_keys)`,
    )
    .run(
      kid,
      jwk.x!,
      jwk.y!,
      seal(instanceKeyring(ctx, PRIVATE_KEYS), boundTo(tenant, kid), JSON.stringify(jwk)),
      Date.now(),
    );
  return keyRows(tenant);
}

const publicKey = (row: KeyRow): SigningKey => ({
  kid: row.id,
  kty: "EC",
  crv: "P-256",
  x: row.x,
  y: row.y,
  alg: "ES256",
  use: "sig",
});

/** The shop's public keys, as its profile's `signing_keys` (every one a signature may name). */
export function shopSigningKeys(ctx: AppContext, orgId: string): Promise<SigningKey[]> {
  return ctx.tenants.with(orgId, (tenant) => keysOf(ctx, tenant).map(publicKey));
}

/** `sha-256=:<base64 of the SHA-256 of the raw body>:` (RFC 9530). */
const contentDigest = (body: string): string =>
  `sha-256=:${createHash("sha256").update(body).digest("base64")}:`;

/**
 * The header fields signed when present, in this order, after the request's target (`@method`,
 * `@authority`, `@path`, `@query`): UCP's required ones, and a webhook's id and time, so neither can
 * be changed under a valid signature.
 */
const SIGNED_FIELDS = [
  "ucp-agent",
  "idempotency-key",
  "webhook-id",
  "webhook-timestamp",
  "content-digest",
  "content-type",
];

/** A request to sign: header names in lower case. */
export interface RequestToSign {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * RFC 9421's signature base of a request over `components`, and its `@signature-params` (the
 * `Signature-Input` member's value): one `"<name>": <value>` line per component, that line last.
 */
function signatureBase(
  request: RequestToSign,
  components: string[],
  params: string,
): { base: string; signatureParams: string } {
  const url = new URL(request.url);
  const derived: Record<string, string> = {
    "@method": request.method.toUpperCase(),
    "@authority": url.host,
    "@path": url.pathname || "/",
    "@query": url.search,
  };
  const signatureParams = `(${components.map((c) => `"${c}"`).join(" ")})${params}`;
  const lines = components.map((c) => `"${c}": ${derived[c] ?? request.headers[c]?.trim()}`);
  return { base: [...lines, `"@signature-params": ${signatureParams}`].join("\n"), signatureParams };
}

/**
 * The request's headers with `Content-Digest`, `Signature-Input` and `Signature` added: signed
 * (label `sig1`) with the shop's newest key at `at`.
 */
export async function signedHeaders(
  ctx: AppContext,
  tenant: TenantDb,
  request: RequestToSign,
  at = Date.now(),
): Promise<Record<string, string>> {
  const key = keysOf(ctx, tenant)[0]!;
  const headers: Record<string, string> = {
    ...request.headers,
    "content-digest": contentDigest(request.body),
  };
  const components = [
    "@method",
    "@authority",
    "@path",
    ...(new URL(request.url).search ? ["@query"] : []),
    ...SIGNED_FIELDS.filter((name) => headers[name] !== undefined),
  ];
  const params = `;created=${Math.floor(at / 1000)};keyid="${key.id}"`;
  const { base, signatureParams } = signatureBase({ ...request, headers }, components, params);
  const jwk = JSON.parse(
    unseal(instanceKeyring(ctx, PRIVATE_KEYS), boundTo(tenant, key.id), key.private_key),
  );
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    jwk,
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  // WebCrypto's ECDSA signature is already the fixed-width r‖s (64 bytes) RFC 9421 asks for.
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    privateKey,
    new TextEncoder().encode(base),
  );
  return {
    ...headers,
    "signature-input": `sig1=${signatureParams}`,
    signature: `sig1=:${Buffer.from(signature).toString("base64")}:`,
  };
}
