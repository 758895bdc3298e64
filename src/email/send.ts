import type { AppContext } from "../app-context.ts";
import { listMembers } from "../auth/service.ts";
import { getProduct } from "../catalog/products.ts";
import { getStore, type Store } from "../catalog/store-settings.ts";
import { type EventType, findEvent, type StoredEvent } from "../core/events.ts";
import type { EventWork } from "../core/module.ts";
import { type Job, RetryAt } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { orderPageLink } from "../orders/link-token.ts";
import { orderView } from "../orders/view.ts";
import { createMailer, isPermanentFailure, type Mailer, type MailMessage } from "./mailer.ts";
import type { OrderView } from "./order-summary.ts";
import { TEMPLATES, type TemplateName } from "./registry.ts";
import type { RenderedEmail } from "./render.ts";

// Which emails each event sends, queued in the event's transaction (one outbox row per email) and
// sent after the commit: retried while the SMTP server is unreachable, never queued for a change
// that did not happen. The email is written when it is sent, from the event's object (the order as
// it was then), except payment instructions, which need the payment the order started after it
// was placed: while the provider has not answered that start yet, the email waits for it.

export const EMAIL_JOB = "email.send";

type Recipient = "shopper" | "shop";

const SENT_ON: Partial<Record<EventType, { template: TemplateName; to: Recipient }[]>> = {
  "order.placed": [
    { template: "order_confirmation", to: "shopper" },
    { template: "payment_instructions", to: "shopper" },
    { template: "new_order", to: "shop" },
  ],
  "order.paid": [{ template: "payment_received", to: "shopper" }],
  "order.fulfilled": [{ template: "order_shipped", to: "shopper" }],
  "order.refunded": [{ template: "order_refunded", to: "shopper" }],
  "order.cancelled": [{ template: "order_cancelled", to: "shopper" }],
  "inventory.low_stock": [{ template: "low_stock", to: "shop" }],
  "webhook_endpoint.disabled": [{ template: "webhook_failing", to: "shop" }],
};

interface EmailJob {
  eventId: string;
  template: TemplateName;
  to: Recipient;
}

/** The module's reaction to an event: one outbox row per email it sends; without SMTP_URL, a log line each. */
export function queueEmails(
  _tenant: TenantDb,
  event: { id: string; type: EventType },
  work: EventWork,
): void {
  for (const email of SENT_ON[event.type] ?? []) {
    if (!work.ctx.config.mail.smtpUrl) {
      work.ctx.log.info("email not sent: SMTP_URL is unset", { template: email.template, eventId: event.id });
      continue;
    }
    work.enqueue(EMAIL_JOB, { eventId: event.id, ...email } satisfies EmailJob);
  }
}

const mailers = new WeakMap<AppContext, Mailer>();

/** The process's mailer (one pool of SMTP connections per service). */
export function mailerOf(ctx: AppContext): Mailer {
  let mailer = mailers.get(ctx);
  if (!mailer) {
    const created = createMailer(ctx.config);
    // Every email, the shop's and the accounts', counted by outcome (docs/operations.md, "Metrics").
    mailer = {
      ...created,
      send: (message) =>
        created.send(message).then(
          (sent) => {
            ctx.metrics.emailed("sent");
            return sent;
          },
          (error: unknown) => {
            ctx.metrics.emailed("failed");
            throw error;
          },
        ),
    };
    mailers.set(ctx, mailer);
  }
  return mailer;
}

/** Closes the SMTP connections at shutdown. */
export function closeMailer(ctx: AppContext): void {
  mailers.get(ctx)?.close();
  mailers.delete(ctx);
}

/** The outbox job: writes the email and sends it; a server's permanent refusal is logged, not retried. */
export async function sendEmailJob(job: Job, tenant: TenantDb, ctx: AppContext): Promise<void> {
  const { eventId, template, to } = job.payload as EmailJob;
  const event = findEvent(tenant, eventId);
  if (!event) return; // older than the events kept: too late to tell anyone
  const message = composeEmail(ctx, tenant, { template, to }, event);
  if (!message) return;
  try {
    await mailerOf(ctx).send({ id: job.id, ...message });
  } catch (error) {
    if (!isPermanentFailure(error)) throw error;
    ctx.log.warn("email refused by the SMTP server", {
      template,
      eventId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** How long payment instructions wait for the provider to open the payment before none are sent. */
const PAYMENT_START_WAIT_MS = 24 * 3600 * 1000;

/**
 * The payment is not open yet: its start runs after the commit and is retried while the provider
 * cannot be reached, and the shopper may start it again. The instructions are sent once the
 * order's latest payment is open, asked again after half the event's age (1 s to 5 min), for a day
 * at most.
 */
function waitForPaymentStart(event: StoredEvent): void {
  const age = Date.now() - Date.parse(event.createdAt);
  if (age > PAYMENT_START_WAIT_MS) return;
  throw new RetryAt(Math.min(Math.max(age / 2, 1000), 5 * 60_000), "waiting for the payment to start");
}

/** Where the shop's notices go: its contact email, else its owners. */
function shopRecipients(ctx: AppContext, tenant: TenantDb, store: Store): string[] {
  if (store.contactEmail) return [store.contactEmail];
  const { items } = listMembers(ctx.platform, tenant.orgId, { page: 1, limit: 100 });
  return items.filter((member) => member.role === "owner").map((member) => member.email);
}

/** The storefront's page of the order with a token that opens it, or null when the shop has none. */
const orderUrl = (ctx: AppContext, tenant: TenantDb, store: Store, orderId: string): string | null =>
  orderPageLink(ctx, tenant.orgId, store.orderPageUrl, orderId);

type Composed = Omit<MailMessage, "id">;

/** The email `template` says for `event`, addressed; null when there is nothing to say or no one to tell. */
function composeEmail(
  ctx: AppContext,
  tenant: TenantDb,
  { template, to }: { template: TemplateName; to: Recipient },
  event: StoredEvent,
): Composed | null {
  const store = getStore(tenant);
  const data = templateData(ctx, tenant, store, template, event);
  if (!data) return null;
  // `templateData` builds the data of the template it is asked for.
  const render = TEMPLATES[template].render as (data: unknown, locale: string) => RenderedEmail;
  const { subject, html, text } = render(data, store.defaultLocale);
  const recipients =
    to === "shopper" ? [(event.data.object as OrderView).email] : shopRecipients(ctx, tenant, store);
  if (recipients.length === 0) return null;
  return {
    to: recipients.join(", "),
    subject,
    html,
    text,
    fromName: store.emailSenderName ?? store.name,
    replyTo: store.emailReplyTo ?? store.contactEmail,
  };
}

/** The data a template is written from, or null when the event gives it nothing to say. */
function templateData(
  ctx: AppContext,
  tenant: TenantDb,
  store: Store,
  template: TemplateName,
  event: StoredEvent,
) {
  const dashboard = `${ctx.config.baseUrl}/dashboard`;
  const shop = { name: store.name, contactEmail: store.emailReplyTo ?? store.contactEmail };
  if (template === "low_stock") {
    const level = event.data.object as {
      productId: string;
      variantId: string;
      onHand: number;
      lowStockThreshold: number;
    };
    const product = getProduct(tenant, level.productId, false);
    const variant = product.variants.find((v) => v.id === level.variantId);
    if (!variant) return null;
    return {
      store: shop,
      adminUrl: `${dashboard}/products/${product.id}`,
      variant: { productName: product.name, title: variant.title, sku: variant.sku },
      stock: level.onHand,
      threshold: level.lowStockThreshold,
    };
  }
  if (template === "webhook_failing") {
    const endpoint = event.data.object as {
      url: string;
      failingSince: string | null;
      lastStatusCode: number | null;
    };
    return {
      store: shop,
      adminUrl: `${dashboard}/settings/webhooks`,
      endpointUrl: endpoint.url,
      failingSince: endpoint.failingSince ?? event.createdAt,
      lastStatus: endpoint.lastStatusCode,
    };
  }
  const order = event.data.object as OrderView;
  if (template === "new_order") return { store: shop, order, adminUrl: `${dashboard}/orders/${order.id}` };
  const base = { store: shop, order, orderUrl: orderUrl(ctx, tenant, store, order.id) };
  switch (template) {
    case "payment_instructions": {
      // The payment place-order started is on the order once its start answered (after the commit).
      const current = orderView(tenant, order.id) as OrderView;
      const payment = current.payment;
      if (payment?.action)
        return { ...base, order: current, payment: { ...payment, action: payment.action } };
      if (payment?.status === "created") waitForPaymentStart(event);
      return null;
    }
    case "order_shipped": {
      const fulfillment = order.fulfillments.at(-1);
      return fulfillment ? { ...base, fulfillment } : null;
    }
    case "order_refunded": {
      const refund = order.refunds.at(-1);
      return refund ? { ...base, refund } : null;
    }
    default:
      return base;
  }
}
