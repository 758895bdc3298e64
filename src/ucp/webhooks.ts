import type { AppContext } from "../app-context.ts";
import { getStore } from "../catalog/store-settings.ts";
import { obj, orderEventSession, retryOnSchedule, str, webhookShop } from "../checkout/adapter.ts";
import type { EventType } from "../core/events.ts";
import type { EventWork } from "../core/module.ts";
import type { Job } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { orderView } from "../orders/view.ts";
import { endpointPolicy } from "../webhooks/deliveries.ts";
import { deliverWebhook } from "../webhooks/outbound.ts";
import { type Json, UcpError } from "./errors.ts";
import { platformProfiles } from "./profiles.ts";
import { signedHeaders } from "./signing.ts";
import { ORDER, orderOf } from "./wire.ts";

// UCP's order webhooks (docs/ucp.md#order-webhooks): when an order a UCP platform placed is placed
// or changes (paid, payment failed, fulfilled, cancelled, refunded), the `webhook_url` of the order
// capability in the platform's profile receives the whole order as `GET /ucp/v1/orders/{id}` answers
// it, signed by the shop under RFC 9421. Queued in the transaction that recorded the event (the
// outbox), attempted on the webhooks' schedule; the profile is read when the job runs, so a platform
// that adds or moves its URL is told of what happens next.

export const ORDER_WEBHOOK_JOB = "ucp.order_webhook";

interface OrderWebhookJob {
  orderId: string;
  sessionId: string;
  /** The platform's profile URL (the session's owner). */
  profile: string;
  /** When the event happened, epoch milliseconds (`Webhook-Timestamp`). */
  occurredAt: number;
}

/** In the recording transaction: an order event of a UCP session queues its webhook. */
export function queueOrderWebhook(tenant: TenantDb, event: { id: string; type: EventType }, work: EventWork) {
  const found = orderEventSession(tenant, event, "ucp");
  if (!found) return;
  const job: OrderWebhookJob = {
    orderId: found.orderId,
    sessionId: found.sessionId,
    profile: found.caller.slice("ucp:".length),
    occurredAt: found.occurredAt,
  };
  work.enqueue(ORDER_WEBHOOK_JOB, job);
}

/** Where a platform's profile wants order events: its order capability's `config.webhook_url`, if any. */
function orderWebhookUrl(profile: Json): string | undefined {
  const entries = obj(obj(profile.ucp).capabilities)[ORDER];
  if (!Array.isArray(entries)) return undefined;
  return entries.map((entry) => str(obj(obj(entry).config).webhook_url)).find((url) => url !== undefined);
}

/** The job: one signed POST of the order as it is now; a failure is retried on the webhooks' schedule. */
export async function deliverOrderWebhook(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { orderId, sessionId, profile, occurredAt } = job.payload as OrderWebhookJob;
  let url: string | undefined;
  try {
    url = orderWebhookUrl(await platformProfiles(ctx).get(profile));
  } catch (error) {
    // The platform's profile is down or broken: as a receiver that is down, tried again later.
    if (!(error instanceof UcpError)) throw error;
    return retryOnSchedule(job, error.message);
  }
  // The platform takes no order events.
  if (!url) return;
  const shop = webhookShop(ctx, tenant);
  const session = {
    id: sessionId,
    order: orderView(tenant, orderId),
    cart: { pricesIncludeTax: getStore(tenant).pricesIncludeTax },
  };
  const body = JSON.stringify(orderOf(session, shop));
  const headers = await signedHeaders(ctx, tenant, {
    method: "POST",
    url,
    headers: {
      "content-type": "application/json",
      "ucp-agent": `profile="https://${shop.host}/.well-known/ucp"`,
      // The same on every attempt: the platform sees a retry as the message it may already have.
      "webhook-id": job.id,
      "webhook-timestamp": String(Math.floor(occurredAt / 1000)),
    },
    body,
  });
  const result = await deliverWebhook({ url, headers, body, policy: endpointPolicy(ctx) });
  ctx.metrics.delivered("ucp", result.error === null ? "succeeded" : "failed");
  if (result.error !== null) retryOnSchedule(job, result.error);
}
