import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Tenant file: where the shop's events are sent (endpoints) and each message to each endpoint
// (deliveries). docs/webhooks.md describes both.

export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  /** JSON array of event types, or `["*"]` for every type. */
  events: text("events").notNull(),
  description: text("description"),
  /** The signing secret sealed with the instance key (core/keyring.ts), never in clear. */
  secret: text("secret").notNull(),
  /** During a rotation: the replaced secret, sealed, and until when it still signs. */
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: integer("previous_secret_expires_at"),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  disabledReason: text("disabled_reason"),
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: integer("failing_since"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    /** Kept here: events are pruned after 30 days, the delivery list still names the type. */
    eventType: text("event_type").notNull(),
    /** The `webhook-id` header: the same on every attempt of this message. */
    messageId: text("message_id").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastDurationMs: integer("last_duration_ms"),
    nextAttemptAt: integer("next_attempt_at"),
    /** The outbox row that attempts it; a retry asked by the merchant replaces it, so one chain runs. */
    jobId: text("job_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_idx").on(t.endpointId, t.eventId),
    index("webhook_deliveries_list_idx").on(t.endpointId, t.createdAt),
  ],
);
