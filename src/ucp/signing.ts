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
// instance key, bound to the organization and the key. The RFC 9421 pieces (digest, signature base,
// structured fields) serve the verifying of platforms' signatures too (verify.ts).

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
export const contentDigest = (body: string | Uint8Array): string =>
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

/** A request as its signature sees it: header names in lower case (the body is bound by `Content-Digest`). */
export interface SignedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** A request to sign. */
export interface RequestToSign extends SignedRequest {
  body: string;
}

/** A signature's parameters (RFC 9421 §2.3): `keyid`, `created`, `alg`… */
export type SignatureParams = Record<string, string | number | boolean>;

/** An RFC 8941 string (quotes and backslashes escaped). */
const sfString = (value: string) => `"${value.replace(/[\\"]/g, "\\$&")}"`;

/** RFC 8941's serialization of an inner list of strings and its parameters (`@signature-params`). */
const serializeSignatureParams = (components: string[], params: SignatureParams): string =>
  `(${components.map(sfString).join(" ")})${Object.entries(params)
    .map(([name, value]) =>
      value === true ? `;${name}` : `;${name}=${typeof value === "string" ? sfString(value) : value}`,
    )
    .join("")}`;

/** An RFC 8941 bare item: a string or token, an integer or decimal, a boolean, a byte sequence. */
export type SfItem = string | number | boolean | Uint8Array<ArrayBuffer>;

/** An RFC 8941 dictionary member: an item or an inner list (of items without parameters), and its parameters. */
export interface SfMember {
  value: SfItem | SfItem[];
  params: Record<string, SfItem>;
}

const KEY = /[a-z*][a-z0-9_.*-]*/y;
const TOKEN = /[A-Za-z*][!#$%&'*+.^_`|~0-9A-Za-z:/-]*/y;
const NUMBER = /-?\d{1,15}(\.\d{1,3})?/y;
const BYTES = /:([A-Za-z0-9+/=]*):/y;
const STRING = /"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"/y;

/** RFC 8941's parser of what signatures carry (`Signature-Input`, `Signature`, `Content-Digest`). */
class SfParser {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The dictionary the whole text is; a SyntaxError when it is not one. */
  dictionary(): Map<string, SfMember> {
    const members = new Map<string, SfMember>();
    this.skip(/[ \t]*/y);
    while (this.at < this.text.length) {
      const key = this.match(KEY)[0];
      const value = this.eat("=") ? (this.text[this.at] === "(" ? this.innerList() : this.bareItem()) : true;
      members.set(key, { value, params: this.params() });
      this.skip(/[ \t]*/y);
      if (this.at === this.text.length) break;
      if (!this.eat(",")) throw new SyntaxError(`Expected "," at ${this.at}`);
      this.skip(/[ \t]*/y);
      if (this.at === this.text.length) throw new SyntaxError("Trailing comma");
    }
    return members;
  }

  private innerList(): SfItem[] {
    this.eat("(");
    const items: SfItem[] = [];
    for (;;) {
      this.skip(/ */y);
      if (this.eat(")")) return items;
      items.push(this.bareItem());
      // Components with parameters of their own (`;sf`, `;key=`) are not among what UCP signs.
      if (!/[ )]/.test(this.text[this.at] ?? "")) throw new SyntaxError(`Unexpected character at ${this.at}`);
    }
  }

  private params(): Record<string, SfItem> {
    const params: Record<string, SfItem> = {};
    while (this.eat(";")) {
      this.skip(/ */y);
      const key = this.match(KEY)[0];
      params[key] = this.eat("=") ? this.bareItem() : true;
    }
    return params;
  }

  private bareItem(): SfItem {
    const char = this.text[this.at] ?? "";
    if (char === '"') return this.match(STRING)[1]!.replace(/\\(.)/g, "$1");
    if (char === ":") return new Uint8Array(Buffer.from(this.match(BYTES)[1]!, "base64"));
    if (char === "?") return this.match(/\?[01]/y)[0] === "?1";
    if (char === "-" || (char >= "0" && char <= "9")) return Number(this.match(NUMBER)[0]);
    return this.match(TOKEN)[0];
  }

  private match(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) throw new SyntaxError(`Unexpected character at ${this.at}`);
    this.at = pattern.lastIndex;
    return found;
  }

  private skip(pattern: RegExp): void {
    this.match(pattern);
  }

  private eat(char: string): boolean {
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }
}

/** An RFC 8941 dictionary header field's members; a SyntaxError when the field is not one. */
export const parseDictionary = (text: string): Map<string, SfMember> => new SfParser(text).dictionary();

/** A derived component of a request (RFC 9421 §2.2), or undefined for a header field. */
function derivedComponent(request: SignedRequest, component: string): string | undefined {
  const url = new URL(request.url);
  switch (component) {
    case "@method":
      return request.method.toUpperCase();
    case "@authority":
      return url.host;
    case "@path":
      return url.pathname || "/";
    case "@query":
      return url.search || "?";
    default:
      return undefined;
  }
}

/** A component's value in the signature base; undefined when the request has none (a header not sent). */
export const componentValue = (request: SignedRequest, component: string): string | undefined =>
  component.startsWith("@") ? derivedComponent(request, component) : request.headers[component]?.trim();

/**
 * RFC 9421's signature base of a request over `components`, and its `@signature-params` (the
 * `Signature-Input` member's value): one `"<name>": <value>` line per component, that line last.
 * Every component must have a value (`componentValue`): the caller checks first.
 */
export function signatureBase(
  request: SignedRequest,
  components: string[],
  params: SignatureParams,
): { base: string; signatureParams: string } {
  const signatureParams = serializeSignatureParams(components, params);
  const lines = components.map((c) => `"${c}": ${componentValue(request, c)}`);
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
  const params = { created: Math.floor(at / 1000), keyid: key.id };
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
