import type { AppContext } from "../app-context.ts";
import { ApiError, notFound } from "../core/errors.ts";
import {
  EVENT_RETENTION_MS,
  type EventType,
  findEvent,
  PRUNE_EVERY_MS,
  recordEvent,
} from "../core/events.ts";
import { tidyNowAndThen } from "../core/housekeeping.ts";
import type { EventWork } from "../core/module.ts";
import type { AfterCommit } from "../core/operation.ts";
import { type Job, RetryAt } from "../core/outbox.ts";
import { immediately } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso, isoOrNull } from "../lib/time.ts";
import type { EndpointPolicy } from "./endpoint-url.ts";
import {
  disableEndpoint,
  type EndpointRow,
  endpointView,
  findEndpoint,
  getEndpoint,
  signingSecrets,
} from "./endpoints.ts";
import { type DeliveryResult, deliverWebhook } from "./outbound.ts";
import { nextAttemptDelay } from "./schedule.ts";
import { signatureHeaders } from "./signing.ts";

// Deliveries: one message of one event to one endpoint. The row is written with the event (fan-out
// runs in the recording transaction), and its attempts are run by the outbox job `webhooks.deliver`,
// which keeps the webhook schedule (schedule.ts, about 3.5 days) by rescheduling itself with
// `RetryAt` rather than the outbox's own back-off. docs/webhooks.md tells the rules.

export const DELIVER_JOB = "webhooks.deliver";

/** An endpoint failing this long without a success is disabled. */
export const FAILING_LIMIT_MS = 3 * 24 * 3600 * 1000;

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  message_id: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: number | null;
  job_id: string | null;
  created_at: number;
  updated_at: number;
}

/** The delay before the next attempt per service: the schedule, or what a test put in its place. */
const schedules = new WeakMap<AppContext, (attempts: number) => number | null>();

/** Tests only: replaces the retry schedule of a service (the real one spans days). */
export function setRetrySchedule(ctx: AppContext, delay: (attempts: number) => number | null): void {
  schedules.set(ctx, delay);
}

export const endpointPolicy = (ctx: AppContext): EndpointPolicy => ({
  allowHttpLocalhost: ctx.config.webhooks.allowHttpLocalhost,
});

const deliveryView = (row: DeliveryRow) => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  messageId: row.message_id,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastDurationMs: row.last_duration_ms,
  nextAttemptAt: isoOrNull(row.next_attempt_at),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** In the recording transaction: a delivery and its job for each enabled endpoint taking the type. */
export function fanOut(tenant: TenantDb, event: { id: string; type: EventType }, work: EventWork): void {
  const endpoints = tenant.sqlite
    .query(
      `SELECT id FROM webhook_endpoints WHERE enabled = 1
          AND EXISTS (SELECT 1 FROM json_each(events) WHERE value IN ('*', ?))`,
    )
    .all(event.type) as { id: string }[];
  const now = Date.now();
  // Settled deliveries are kept as long as the events they carried.
  tidyNowAndThen(tenant, "webhook deliveries", PRUNE_EVERY_MS, now, () =>
    tenant.sqlite
      .query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ?")
      .run(now - EVENT_RETENTION_MS),
  );
  for (const { id: endpointId } of endpoints) {
    const id = newId("whd");
    const jobId = work.enqueue(DELIVER_JOB, { deliveryId: id });
    tenant.sqlite
      .query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, message_id, status, attempts,
            next_attempt_at, job_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
      )
      .run(id, endpointId, event.id, event.type, newId("msg"), now, jobId, now, now);
  }
}

/** One signed POST of `body` to the endpoint, with every secret that signs now. */
export function sendSigned(
  ctx: AppContext,
  tenant: TenantDb,
  endpoint: EndpointRow,
  messageId: string,
  body: string,
): Promise<DeliveryResult> {
  const headers = signatureHeaders({
    secrets: signingSecrets(ctx, tenant, endpoint),
    msgId: messageId,
    timestamp: Date.now(),
    body,
  });
  return deliverWebhook({ url: endpoint.url, headers, body, policy: endpointPolicy(ctx) });
}

const findDelivery = (tenant: TenantDb, id: string) =>
  tenant.sqlite.query("SELECT * FROM webhook_deliveries WHERE id = ?").get(id) as DeliveryRow | null;

/** Settles a delivery that will not be attempted again. */
function settle(
  tenant: TenantDb,
  id: string,
  status: "succeeded" | "failed",
  error: string | null,
  now: number,
) {
  tenant.sqlite
    .query(
      `UPDATE webhook_deliveries SET status = ?, last_error = COALESCE(?, last_error), next_attempt_at = NULL,
          updated_at = ? WHERE id = ?`,
    )
    .run(status, error, now, id);
}

/**
 * Disables an endpoint the service gave up on and records `webhook_endpoint.disabled`: the shop is
 * told by email (the email module's reaction) and its other endpoints receive it.
 */
function disableFailing(
  tenant: TenantDb,
  endpoint: EndpointRow,
  reason: string,
  lastStatusCode: number | null,
  now: number,
): void {
  disableEndpoint(tenant, endpoint.id, reason, now);
  const disabled = endpointView(findEndpoint(tenant, endpoint.id)!, now);
  recordEvent(tenant, "webhook_endpoint.disabled", { ...disabled, lastStatusCode }, now);
}

/** The job: one attempt of a delivery, then its outcome recorded and the next attempt scheduled. */
export async function deliverJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { deliveryId } = job.payload as { deliveryId: string };
  const delivery = findDelivery(tenant, deliveryId);
  // Deleted with its endpoint, already settled, or superseded by a retry the merchant asked for.
  if (delivery?.status !== "pending" || delivery.job_id !== job.id) return;
  const endpoint = findEndpoint(tenant, delivery.endpoint_id);
  if (!endpoint) return;
  if (endpoint.enabled === 0) return settle(tenant, delivery.id, "failed", "endpoint disabled", Date.now());
  const event = findEvent(tenant, delivery.event_id);
  if (!event) return settle(tenant, delivery.id, "failed", "event no longer kept", Date.now());
  const result = await sendSigned(ctx, tenant, endpoint, delivery.message_id, JSON.stringify(event));
  ctx.metrics.delivered("endpoint", result.error === null ? "succeeded" : "failed");
  const delay = immediately(tenant.sqlite, () => recordAttempt(ctx, tenant, delivery.id, job.id, result));
  if (delay !== null) throw new RetryAt(delay, result.error ?? "failed attempt");
}

/** Records an attempt's outcome in the delivery and its endpoint; answers the delay before the next attempt, if any. */
function recordAttempt(
  ctx: AppContext,
  tenant: TenantDb,
  deliveryId: string,
  jobId: string,
  result: DeliveryResult,
): number | null {
  const now = Date.now();
  const delivery = tenant.sqlite
    .query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = ?, last_error = ?,
          last_duration_ms = ?, updated_at = ? WHERE id = ? RETURNING *`,
    )
    .get(result.status, result.error, result.durationMs, now, deliveryId) as DeliveryRow | null;
  // Read again after the await: the endpoint may have been deleted or the delivery retried meanwhile.
  const endpoint = delivery && findEndpoint(tenant, delivery.endpoint_id);
  if (!delivery || !endpoint || delivery.job_id !== jobId) return null;
  if (result.error === null) {
    settle(tenant, deliveryId, "succeeded", null, now);
    tenant.sqlite.query("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?").run(endpoint.id);
    return null;
  }
  if (result.status === 410) {
    disableFailing(tenant, endpoint, "the endpoint answered 410 Gone", result.status, now);
    settle(tenant, deliveryId, "failed", null, now);
    return null;
  }
  const failingSince = endpoint.failing_since ?? now;
  tenant.sqlite
    .query("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
    .run(failingSince, endpoint.id);
  if (now - failingSince >= FAILING_LIMIT_MS) {
    disableFailing(tenant, endpoint, "deliveries failed for 3 days", result.status, now);
    settle(tenant, deliveryId, "failed", null, now);
    return null;
  }
  const delay = (schedules.get(ctx) ?? nextAttemptDelay)(delivery.attempts);
  if (delay === null) {
    settle(tenant, deliveryId, "failed", null, now);
    return null;
  }
  tenant.sqlite
    .query("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?")
    .run(now + delay, deliveryId);
  return delay;
}

export function listDeliveries(tenant: TenantDb, endpointId: string, page: { page: number; limit: number }) {
  getEndpoint(tenant, endpointId);
  const rows = tenant.sqlite
    .query(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC
        LIMIT ? OFFSET ?`,
    )
    .all(endpointId, page.limit, (page.page - 1) * page.limit) as DeliveryRow[];
  const { total } = tenant.sqlite
    .query("SELECT count(*) AS total FROM webhook_deliveries WHERE endpoint_id = ?")
    .get(endpointId) as { total: number };
  return { items: rows.map(deliveryView), total };
}

function endpointDelivery(tenant: TenantDb, endpointId: string, deliveryId: string): DeliveryRow {
  const delivery = findDelivery(tenant, deliveryId);
  if (!delivery || delivery.endpoint_id !== endpointId) throw notFound("Webhook delivery");
  return delivery;
}

export const getDelivery = (tenant: TenantDb, endpointId: string, deliveryId: string) =>
  deliveryView(endpointDelivery(tenant, endpointId, deliveryId));

/**
 * The merchant's retry: the delivery is pending again and attempted right after the commit, by a
 * new job that replaces any one still scheduled; a failure goes on with the schedule from there.
 */
export function retryDelivery(tenant: TenantDb, endpointId: string, deliveryId: string, after: AfterCommit) {
  const endpoint = getEndpoint(tenant, endpointId);
  endpointDelivery(tenant, endpointId, deliveryId);
  if (endpoint.enabled === 0) {
    throw new ApiError("CONFLICT", "The endpoint is disabled: enable it before retrying its deliveries");
  }
  const jobId = after.await(DELIVER_JOB, { deliveryId });
  const now = Date.now();
  tenant.sqlite
    .query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, job_id = ?, updated_at = ?
        WHERE id = ?`,
    )
    .run(now, jobId, now, deliveryId);
  return getDelivery(tenant, endpointId, deliveryId);
}

/**
 * A test message to the endpoint, sent at once and signed as any delivery, whether or not the
 * endpoint is enabled: `{type: "ping", createdAt, data: {object: {id, url}}}`. It is attempted once
 * and not kept.
 */
export async function pingEndpoint(ctx: AppContext, tenant: TenantDb, endpointId: string) {
  const endpoint = getEndpoint(tenant, endpointId);
  const messageId = newId("msg");
  const body = JSON.stringify({
    type: "ping",
    createdAt: iso(Date.now()),
    data: { object: { id: endpoint.id, url: endpoint.url } },
  });
  const result = await sendSigned(ctx, tenant, endpoint, messageId, body);
  return {
    succeeded: result.error === null,
    messageId,
    statusCode: result.status,
    error: result.error,
    durationMs: result.durationMs,
  };
}
