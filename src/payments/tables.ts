import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orders } from "../orders/tables.ts";

// Tenant file. Times are epoch milliseconds, money integer minor units.

/** A registered payment provider's name (`stripe`, `ifthenpay`, `easypay`: src/payments/registry.ts). */
export type Provider = string;

/** One row per configured provider (the file is the tenant). Secret fields hold only ciphertexts. */
export const integrationConfigs = sqliteTable("integration_configs", {
  provider: text("provider").primaryKey(),
  /** False only stops offering the provider's methods; notifications are still verified and applied. */
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** Non-secret fields, as given. */
  settings: text("settings", { mode: "json" }).$type<Record<string, string | number>>().notNull(),
  /** Secret field → `v1.<kid>.<iv>.<ciphertext‖tag>`. */
  secrets: text("secrets", { mode: "json" }).$type<Record<string, string>>().notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
  /** Caller id (`key:…`, `user:…`) of the last change. */
  updatedBy: text("updated_by"),
});

const ATTEMPT_STATUSES = [
  "created",
  "processing",
  "authorized",
  "succeeded",
  "failed",
  "expired",
  "mismatch",
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
const CREDENTIAL_SOURCES = ["tenant", "environment"] as const;
export type CredentialSource = (typeof CREDENTIAL_SOURCES)[number];

/** What the shopper needs to pay (redirect URL, Multibanco reference, MB WAY phone), as stored. */
export interface AttemptInstructions {
  url?: string;
  entity?: string;
  reference?: string;
  phone?: string;
  /** Ifthenpay's `payment_datetime` of the confirming callback, as received. */
  paidAt?: string;
}

/** One payment try of an order. */
export const paymentAttempts = sqliteTable(
  "payment_attempts",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** `card`, `mbway`, `multibanco`. */
    method: text("method").notNull(),
    status: text("status", { enum: ATTEMPT_STATUSES }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    credentialSource: text("credential_source", { enum: CREDENTIAL_SOURCES }).notNull(),
    /** Stripe Checkout Session `cs_…`, Ifthenpay RequestId, Easypay payment id. */
    providerRef: text("provider_ref"),
    /** Stripe PaymentIntent `pi_…`, Ifthenpay order reference (12 digits). */
    providerRef2: text("provider_ref2"),
    instructions: text("instructions", { mode: "json" }).$type<AttemptInstructions>().notNull(),
    lastError: text("last_error"),
    expiresAt: integer("expires_at").notNull(),
    /** What a mismatching success carried. */
    receivedAmount: integer("received_amount"),
    receivedCurrency: text("received_currency"),
    /** The largest cumulative `amount_refunded` the provider reported for this payment. */
    refundedSeen: integer("refunded_seen").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("payment_attempts_order_idx").on(t.orderId, t.createdAt),
    uniqueIndex("payment_attempts_ref_idx").on(t.provider, t.providerRef),
    uniqueIndex("payment_attempts_ref2_idx").on(t.provider, t.providerRef2),
    index("payment_attempts_open_idx").on(t.status, t.expiresAt),
  ],
);

export const EVENT_OUTCOMES = ["applied", "ignored", "stale", "flagged"] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** Every verified notification once, by the provider's event id: idempotency and audit. */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    attemptId: text("attempt_id"),
    orderId: text("order_id"),
    outcome: text("outcome", { enum: EVENT_OUTCOMES }).notNull(),
    reason: text("reason"),
    payloadSha256: text("payload_sha256").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index("payment_events_order_idx").on(t.orderId)],
);

const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
const REFUND_SOURCES = ["admin", "provider", "manual"] as const;

/** Refunds of provider payments, whoever started them (the admin refund, the provider's dashboard). */
export const paymentRefunds = sqliteTable(
  "payment_refunds",
  {
    /** `ref_…`: the same id as the order's refund record. */
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    attemptId: text("attempt_id")
      .notNull()
      .references(() => paymentAttempts.id, { onDelete: "cascade" }),
    /** Stripe `re_…`, Easypay refund id; null until the provider answered. */
    providerRefundId: text("provider_refund_id").unique(),
    amount: integer("amount").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    source: text("source", { enum: REFUND_SOURCES }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("payment_refunds_attempt_idx").on(t.attemptId),
    check("payment_refunds_amount_positive", sql`${t.amount} > 0`),
  ],
);
