import type { PaymentEnvVar } from "../config.ts";
import type { Provider } from "./tables.ts";

// The settings each provider takes: which are secret, their rules, and the environment variable a
// tenant without settings of its own falls back to.

interface FieldSpec {
  name: string;
  secret: boolean;
  /** Why a value is refused, or null when it is valid. */
  check(value: unknown): string | null;
  env?: PaymentEnvVar;
  /** Used when the field is absent (non-secret fields only). */
  fallback?: string | number;
}

const pattern = (re: RegExp, what: string) => (value: unknown) =>
  typeof value === "string" && re.test(value) ? null : `must be ${what}`;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const FIELDS: Record<Provider, FieldSpec[]> = {
  stripe: [
    {
      name: "secretKey",
      secret: true,
      check: pattern(/^(sk|rk)_(test|live)_\w+$/, "a Stripe secret or restricted key (sk_… or rk_…)"),
      env: "STRIPE_SECRET_KEY",
    },
    {
      name: "publishableKey",
      secret: false,
      check: pattern(/^pk_(test|live)_\w+$/, "a Stripe publishable key (pk_…)"),
      env: "STRIPE_PUBLISHABLE_KEY",
    },
    {
      name: "webhookSecret",
      secret: true,
      check: pattern(/^whsec_[A-Za-z0-9+/=]+$/, "a Stripe webhook signing secret (whsec_…)"),
      env: "STRIPE_WEBHOOK_SECRET",
    },
  ],
  ifthenpay: [
    {
      name: "antiPhishingKey",
      secret: true,
      check: pattern(/^[\x21-\x7e]{1,64}$/, "1 to 64 printable characters"),
      env: "IFTHENPAY_ANTIPHISHING_KEY",
    },
    {
      name: "mbKey",
      secret: true,
      check: pattern(/^[A-Za-z0-9-]{3,32}$/, "3 to 32 letters, digits or dashes"),
      env: "IFTHENPAY_MB_KEY",
    },
    {
      name: "mbWayKey",
      secret: true,
      check: pattern(/^[A-Za-z0-9-]{3,32}$/, "3 to 32 letters, digits or dashes"),
      env: "IFTHENPAY_MBWAY_KEY",
    },
    {
      name: "multibancoExpiryDays",
      secret: false,
      check: (value) =>
        Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 31
          ? null
          : "must be a whole number from 0 to 31",
      fallback: 3,
    },
  ],
  easypay: [
    { name: "accountId", secret: false, check: pattern(UUID, "a UUID"), env: "EASYPAY_ACCOUNT_ID" },
    { name: "apiKey", secret: true, check: pattern(UUID, "a UUID"), env: "EASYPAY_API_KEY" },
    {
      name: "webhookSecret",
      secret: true,
      check: pattern(/^[\x20-\x7e]{16,128}$/, "16 to 128 printable characters"),
      env: "EASYPAY_WEBHOOK_SECRET",
    },
    {
      name: "environment",
      secret: false,
      check: (value) =>
        value === "production" || value === "sandbox" ? null : "must be production or sandbox",
      fallback: "production",
    },
  ],
};

/** What a task needs of a provider's fields; an environment set counts only when all of them are set. */
export type Task = "webhooks" | "card" | "multibanco" | "mbway" | "refunds";

export const NEEDED: Record<Provider, Partial<Record<Task, string[]>>> = {
  stripe: {
    webhooks: ["webhookSecret"],
    card: ["secretKey", "publishableKey"],
    refunds: ["secretKey"],
  },
  ifthenpay: {
    webhooks: ["antiPhishingKey"],
    multibanco: ["mbKey"],
    mbway: ["mbWayKey"],
  },
  easypay: {
    webhooks: ["accountId", "apiKey"],
    multibanco: ["accountId", "apiKey"],
    mbway: ["accountId", "apiKey"],
    refunds: ["accountId", "apiKey"],
  },
};

/** Stripe keys carry their mode: `sk_test_…` and `pk_live_…` never go together. */
export const stripeMode = (key: string): "test" | "live" | null =>
  /^(?:sk|rk|pk)_(test|live)_/.exec(key)?.[1] as "test" | "live" | null;
