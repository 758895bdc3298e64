import type { PaymentEnvVar } from "../config.ts";
import type { CredentialSource } from "./tables.ts";

// What a provider's settings are made of: each field, whether it is secret, its rule, and the
// environment variable a tenant without settings of its own falls back to. Each provider declares
// its own (`fields` and `needs` of `PaymentProvider`, src/payments/provider.ts).

export interface FieldSpec {
  name: string;
  secret: boolean;
  /** Why a value is refused, or null when it is valid. */
  check(value: unknown): string | null;
  env?: PaymentEnvVar;
  /** Used when the field is absent (non-secret fields only). */
  fallback?: string | number;
}

export const pattern = (re: RegExp, what: string) => (value: unknown) =>
  typeof value === "string" && re.test(value) ? null : `must be ${what}`;

export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** What a task needs of a provider's fields; an environment set counts only when all of them are set. */
export type Task = "webhooks" | "card" | "multibanco" | "mbway" | "refunds";

/** A provider's settings by field name, secrets in clear (in memory only). */
export type Fields = Record<string, string | number>;

/** The settings a call uses, and where they came from (the store's own, or the environment's). */
export interface Credentials {
  source: CredentialSource;
  fields: Fields;
}
