import type { AppContext } from "../app-context.ts";
import {
  type DerivedKey,
  deriveKey as deriveFor,
  instanceKeyring,
  type KeyPurpose,
  type Keyring,
  makeKeyring as makeFor,
  seal,
  UnsealError,
  unseal,
} from "../core/keyring.ts";

// Secret fields of integration settings are sealed at rest one value at a time with the instance
// key (src/core/keyring.ts), under their own derived key and with `<orgId>:<provider>:<field>` as
// additional data, so a value copied to another tenant, provider or field does not decrypt.
// Rotation: older keys stay usable for decryption until `rekey`.

const INTEGRATION_SECRETS: KeyPurpose = {
  salt: "commerce-service/integration-config",
  info: "aes-256-gcm v1",
};

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

export const deriveKey = (raw: Uint8Array): DerivedKey => deriveFor(INTEGRATION_SECRETS, raw);

export const makeKeyring = (current: Uint8Array, previous: Uint8Array[] = []): Keyring =>
  makeFor(INTEGRATION_SECRETS, current, previous);

/** The keyring of integration secrets (see `instanceKeyring` for where the key comes from). */
export const keyringOf = (ctx: AppContext): Keyring => instanceKeyring(ctx, INTEGRATION_SECRETS);

type Where = { orgId: string; provider: string; field: string };

const aad = (where: Where) => `${where.orgId}:${where.provider}:${where.field}`;

export const encryptSecret = (ring: Keyring, where: Where, plaintext: string): string =>
  seal(ring, aad(where), plaintext);

export function decryptSecret(ring: Keyring, where: Where, stored: string): string {
  try {
    return unseal(ring, aad(where), stored);
  } catch (error) {
    if (error instanceof UnsealError) throw new IntegrationDecryptError(where.field, error.reason);
    throw error;
  }
}
