import { createHmac } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { findOrganization, listDomains } from "../auth/service.ts";
import { getStore } from "../catalog/store-settings.ts";
import type { ShopView } from "../checkout/adapter.ts";
import type { EventType } from "../core/events.ts";
import type { EventWork } from "../core/module.ts";
import { type Job, RetryAt } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { orderLinkToken, orderPageLink } from "../orders/link-token.ts";
import { orderView } from "../orders/view.ts";
import { endpointPolicy } from "../webhooks/deliveries.ts";
import { deliverWebhook } from "../webhooks/outbound.ts";
import { nextAttemptDelay } from "../webhooks/schedule.ts";
import { findPlatform, signingSecretOf } from "./platforms.ts";
import { orderOf } from "./wire.ts";

// ACP's order webhooks: when an order an ACP platform placed is placed (`order_create`) or changes
// (`order_update`: paid, payment failed, fulfilled, cancelled, refunded), the platform's webhook URL
// receives `{type, data: <the order as it is then>}`, signed with `Merchant-Signature`. Queued in
// the transaction that recorded the event (the outbox), attempted on the webhooks' schedule.

export const ORDER_EVENT_JOB = "acp.order_event";

const ORDER_EVENTS: Partial<Record<EventType, "order_create" | "order_update">> = {
  "order.placed": "order_create",
  "order.paid": "order_update",
  "order.payment_failed": "order_update",
  "order.cancelled": "order_update",
  "order.fulfilled": "order_update",
  "order.refunded": "order_update",
};

interface OrderEventJob {
  type: "order_create" | "order_update";
  orderId: string;
  sessionId: string;
  platformId: string;
}

/** In the recording transaction: an order event of an ACP session queues its webhook. */
export function queueOrderEvent(tenant: TenantDb, event: { id: string; type: EventType }, work: EventWork) {
  const type = ORDER_EVENTS[event.type];
  if (!type) return;
  const found = tenant.sqlite
    .query(
      `SELECT s.id AS sessionId, s.caller AS caller, c.order_id AS orderId
         FROM events e JOIN carts c ON c.order_id = json_extract(e.data, '$.id')
         JOIN checkout_sessions s ON s.cart_id = c.id
        WHERE e.id = ? AND s.protocol = 'acp'`,
    )
    .get(event.id) as { sessionId: string; caller: string; orderId: string } | null;
  if (!found) return;
  const platformId = found.caller.slice("acp:".length);
  const webhook = tenant.sqlite
    .query("SELECT webhook_url FROM acp_platforms WHERE id = ?")
    .get(platformId) as { webhook_url: string | null } | null;
  if (!webhook?.webhook_url) return;
  const job: OrderEventJob = { type, orderId: found.orderId, sessionId: found.sessionId, platformId };
  work.enqueue(ORDER_EVENT_JOB, job);
}

/** `Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the shared secret>`. */
export function merchantSignature(secret: string, body: string, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/**
 * Where the order's page is, with no request to take a host from: the storefront's order page,
 * else the order on the API at the shop's first verified domain (else its platform subdomain).
 */
function webhookShop(ctx: AppContext, tenant: TenantDb): ShopView {
  const orgId = tenant.orgId;
  const store = getStore(tenant);
  const domain = listDomains(ctx.platform, orgId).find((d) => d.verified)?.host;
  const host = domain ?? `${findOrganization(ctx.platform, orgId)?.slug}.${ctx.config.platformDomain}`;
  return {
    host,
    locale: store.defaultLocale,
    orderUrl: (id) =>
      orderPageLink(ctx, orgId, store.orderPageUrl, id) ??
      `https://${host}/v1/orders/${id}?token=${orderLinkToken(ctx, orgId, id)}`,
  };
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
  if (result.error === null) return;
  const delay = nextAttemptDelay(job.attempt);
  if (delay !== null) throw new RetryAt(delay, result.error);
}
