import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AppContext } from "../app-context.ts";

// Values kept at rest that must not be readable from the file or a backup of it are sealed with the
// instance key (INTEGRATION_ENCRYPTION_KEY, older ones in INTEGRATION_ENCRYPTION_PREVIOUS_KEYS):
// AES-256-GCM under a key derived with HKDF-SHA256 per purpose (payment-provider secrets, stored
// answers holding a bearer token), so a value sealed for one purpose never opens for another; a
// fresh 12-byte IV per value, and additional data naming where the value belongs, so a value copied
// elsewhere does not open. Format: `v1.<kid>.<base64url(iv)>.<base64url(ct ‖ tag)>`, where `kid`
// names the derived key: a value sealed under an older key opens while that key is listed.

/** What a derived key is for: its HKDF salt and info. */
export interface KeyPurpose {
  salt: string;
  info: string;
}

export interface DerivedKey {
  kid: string;
  key: Buffer;
}

export interface Keyring {
  current: DerivedKey;
  /** Every key by kid, the current one included. */
  byKid: Map<string, DerivedKey>;
}

/** A sealed value that does not open: unknown version or key, bad encoding, or a tag mismatch. */
export class UnsealError extends Error {
  constructor(readonly reason: string) {
    super(`cannot open sealed value: ${reason}`);
    this.name = "UnsealError";
  }
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

export function deriveKey(purpose: KeyPurpose, raw: Uint8Array): DerivedKey {
  const key = Buffer.from(hkdfSync("sha256", raw, purpose.salt, purpose.info, 32));
  const kid = b64url(createHash("sha256").update(key).digest()).slice(0, 8);
  return { kid, key };
}

export function makeKeyring(purpose: KeyPurpose, current: Uint8Array, previous: Uint8Array[] = []): Keyring {
  const derived = deriveKey(purpose, current);
  const byKid = new Map<string, DerivedKey>();
  for (const raw of previous) {
    const old = deriveKey(purpose, raw);
    byKid.set(old.kid, old);
  }
  byKid.set(derived.kid, derived);
  return { current: derived, byKid };
}

const keyrings = new WeakMap<AppContext, Map<KeyPurpose, Keyring>>();

/**
 * The service's keyring for a purpose: INTEGRATION_ENCRYPTION_KEY (required in production, checked
 * at start), or, outside production when it is unset, `DATA_DIR/secrets/integration.key`, created
 * once (32 random bytes, mode 0600) with a warning.
 */
export function instanceKeyring(ctx: AppContext, purpose: KeyPurpose): Keyring {
  let rings = keyrings.get(ctx);
  if (!rings) {
    rings = new Map();
    keyrings.set(ctx, rings);
  }
  let ring = rings.get(purpose);
  if (ring) return ring;
  let raw = ctx.config.integrationEncryptionKey;
  if (!raw) {
    if (ctx.config.production) throw new Error("INTEGRATION_ENCRYPTION_KEY is required in production");
    raw = generatedKey(ctx);
  }
  ring = makeKeyring(purpose, raw, ctx.config.payments.previousEncryptionKeys);
  rings.set(purpose, ring);
  return ring;
}

function generatedKey(ctx: AppContext): Uint8Array {
  const dir = join(ctx.config.dataDir, "secrets");
  const file = join(dir, "integration.key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32), { mode: 0o600, flag: "wx" });
      ctx.log.warn(
        "INTEGRATION_ENCRYPTION_KEY is unset: generated a key file; set the variable in production",
        { file },
      );
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  chmodSync(file, 0o600);
  const bytes = readFileSync(file);
  if (bytes.length !== 32) throw new Error(`${file} must hold exactly 32 bytes`);
  return Uint8Array.from(bytes);
}

/** Seals `plaintext` under the ring's current key, bound to `additionalData`. */
export function seal(ring: Keyring, additionalData: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  cipher.setAAD(Buffer.from(additionalData));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${ring.current.kid}.${b64url(iv)}.${b64url(body)}`;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/** Opens a sealed value with the key its kid names; throws `UnsealError`. */
export function unseal(ring: Keyring, additionalData: string, stored: string): string {
  const parts = stored.split(".");
  if (parts.length !== 4 || parts[0] !== "v1") throw new UnsealError("unknown format version");
  const [, kid, ivText, bodyText] = parts as [string, string, string, string];
  const key = ring.byKid.get(kid);
  if (!key) throw new UnsealError(`unknown key id ${kid}`);
  if (!B64URL.test(ivText) || !B64URL.test(bodyText)) throw new UnsealError("bad encoding");
  const iv = Buffer.from(ivText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (iv.length !== 12 || body.length < 16) throw new UnsealError("bad encoding");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, iv);
    decipher.setAAD(Buffer.from(additionalData));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new UnsealError("authentication failed");
  }
}
