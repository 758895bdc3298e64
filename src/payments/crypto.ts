import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AppContext } from "../app-context.ts";

// Secret fields of integration settings are encrypted at rest, one value at a time:
// AES-256-GCM under a key derived with HKDF-SHA256 from INTEGRATION_ENCRYPTION_KEY, a fresh 12-byte
// IV per value, and `<orgId>:<provider>:<field>` as additional data, so a value copied to another
// tenant, provider or field does not decrypt. Format: `v1.<kid>.<base64url(iv)>.<base64url(ct ‖ tag)>`,
// where `kid` names the key (rotation: older keys stay usable for decryption until `rekey`).

const SALT = "commerce-service/integration-config";
const INFO = "aes-256-gcm v1";

/** A stored value that cannot be decrypted: unknown version or key, bad encoding, or a tag mismatch. */
export class IntegrationDecryptError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`cannot decrypt integration secret "${field}": ${reason}`);
    this.name = "IntegrationDecryptError";
  }
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

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

export function deriveKey(raw: Uint8Array): DerivedKey {
  const key = Buffer.from(hkdfSync("sha256", raw, SALT, INFO, 32));
  const kid = b64url(createHash("sha256").update(key).digest()).slice(0, 8);
  return { kid, key };
}

export function makeKeyring(current: Uint8Array, previous: Uint8Array[] = []): Keyring {
  const derived = deriveKey(current);
  const byKid = new Map<string, DerivedKey>();
  for (const raw of previous) {
    const old = deriveKey(raw);
    byKid.set(old.kid, old);
  }
  byKid.set(derived.kid, derived);
  return { current: derived, byKid };
}

const keyrings = new WeakMap<AppContext, Keyring>();

/**
 * The keyring of this service: INTEGRATION_ENCRYPTION_KEY (checked at start), or, outside
 * production when it is unset, `DATA_DIR/secrets/integration.key`, created once (32 random bytes,
 * mode 0600) with a warning.
 */
export function keyringOf(app: AppContext): Keyring {
  let ring = keyrings.get(app);
  if (ring) return ring;
  let raw = app.config.integrationEncryptionKey;
  if (!raw) {
    if (app.config.production) throw new Error("INTEGRATION_ENCRYPTION_KEY is required in production");
    raw = generatedKey(app);
  }
  ring = makeKeyring(raw, app.config.payments.previousEncryptionKeys);
  keyrings.set(app, ring);
  return ring;
}

function generatedKey(app: AppContext): Uint8Array {
  const dir = join(app.config.dataDir, "secrets");
  const file = join(dir, "integration.key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32), { mode: 0o600, flag: "wx" });
      app.log.warn(
        "INTEGRATION_ENCRYPTION_KEY is unset: generated a key file; set the variable in production",
        {
          file,
        },
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

const aad = (orgId: string, provider: string, field: string) => Buffer.from(`${orgId}:${provider}:${field}`);

export function encryptSecret(
  ring: Keyring,
  where: { orgId: string; provider: string; field: string },
  plaintext: string,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  cipher.setAAD(aad(where.orgId, where.provider, where.field));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${ring.current.kid}.${b64url(iv)}.${b64url(body)}`;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

export function decryptSecret(
  ring: Keyring,
  where: { orgId: string; provider: string; field: string },
  stored: string,
): string {
  const fail = (reason: string) => new IntegrationDecryptError(where.field, reason);
  const parts = stored.split(".");
  if (parts.length !== 4 || parts[0] !== "v1") throw fail("unknown format version");
  const [, kid, ivText, bodyText] = parts as [string, string, string, string];
  const key = ring.byKid.get(kid);
  if (!key) throw fail(`unknown key id ${kid}`);
  if (!B64URL.test(ivText) || !B64URL.test(bodyText)) throw fail("bad encoding");
  const iv = Buffer.from(ivText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (iv.length !== 12 || body.length < 16) throw fail("bad encoding");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, iv);
    decipher.setAAD(aad(where.orgId, where.provider, where.field));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw fail("authentication failed");
  }
}

/** The kid a stored value names (for rotation counts), or null when it is not in the v1 format. */
export function kidOf(stored: string): string | null {
  const parts = stored.split(".");
  return parts.length === 4 && parts[0] === "v1" ? parts[1]! : null;
}
