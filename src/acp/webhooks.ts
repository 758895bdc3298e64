import { createHmac } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { getStore } from "../catalog/store-settings.ts";
import { orderEventSession, retryOnSchedule, webhookShop } from "../checkout/adapter.ts";
import type { EventType } from "../core/events.ts";
import type { EventWork } from "../core/module.ts";
import type { Job } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { orderView } from "../orders/view.ts";
import { endpointPolicy } from "../webhooks/deliveries.ts";
import { deliverWebhook } from "../webhooks/outbound.ts";
import { findPlatform, signingSecretOf } from "./platforms.ts";
import { orderOf } from "./wire.ts";

// ACP's order webhooks: when an order an ACP platform placed is placed (`order_create`) or changes
// (`order_update`: paid, payment failed, fulfilled, cancelled, refunded), the platform's webhook URL
// receives `{type, data: <the order as it is then>}`, signed with `Merchant-Signature`. Queued in
// the transaction that recorded the event (the outbox), attempted on the webhooks' schedule.

export const ORDER_EVENT_JOB = "acp.order_event";

interface OrderEventJob {
  type: "order_create" | "order_update";
  orderId: string;
  sessionId: string;
  platformId: string;
}

/** In the recording transaction: an order event of an ACP session queues its webhook. */
export function queueOrderEvent(tenant: TenantDb, event: { id: string; type: EventType }, work: EventWork) {
  const found = orderEventSession(tenant, event, "acp");
  if (!found) return;
  const platformId = found.caller.slice("acp:".length);
  const webhook = tenant.sqlite
    .query("SELECT webhook_url FROM acp_platforms WHERE id = ?")
    .get(platformId) as { webhook_url: string | null } | null;
  if (!webhook?.webhook_url) return;
  const job: OrderEventJob = {
    type: found.kind === "created" ? "order_create" : "order_update",
    orderId: found.orderId,
    sessionId: found.sessionId,
    platformId,
  };
  work.enqueue(ORDER_EVENT_JOB, job);
}

/** `Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the shared secret>`. */
export function merchantSignature(secret: string, body: string, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** The job: one signed POST of the order as it is now; a failure is retried on the webhooks' schedule. */
export async function deliverOrderEvent(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { type, orderId, sessionId, platformId } = job.payload as OrderEventJob;
  const platform = findPlatform(tenant, platformId);
  // The merchant removed the platform or its URL meanwhile: nothing to send.
  if (!platform?.webhook_url) return;
  const data = orderOf(
    sessionId,
    orderView(tenant, orderId),
    getStore(tenant).pricesIncludeTax,
    webhookShop(ctx, tenant),
  );
  const body = JSON.stringify({ type, data });
  const result = await deliverWebhook({
    url: platform.webhook_url,
    headers: {
      "merchant-signature": merchantSignature(signingSecretOf(ctx, tenant, platform), body),
      "request-id": job.id,
      timestamp: new Date().toISOString(),
    },
    body,
    policy: endpointPolicy(ctx),
  });
  ctx.metrics.delivered("acp", result.error === null ? "succeeded" : "failed");
  if (result.error !== null) retryOnSchedule(job, result.error);
}
