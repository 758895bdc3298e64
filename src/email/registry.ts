import type { RenderedEmail, Template } from "./render.ts";
import * as samples from "./samples.ts";
import { lowStock } from "./templates/low-stock.ts";
import { memberInvite } from "./templates/member-invite.ts";
import { newOrder } from "./templates/new-order.ts";
import { orderCancelled } from "./templates/order-cancelled.ts";
import { orderConfirmation } from "./templates/order-confirmation.ts";
import { orderRefunded } from "./templates/order-refunded.ts";
import { orderShipped } from "./templates/order-shipped.ts";
import { passwordReset } from "./templates/password-reset.ts";
import { paymentInstructions } from "./templates/payment-instructions.ts";
import { paymentReceived } from "./templates/payment-received.ts";
import { webhookFailing } from "./templates/webhook-failing.ts";

/** Who receives an email: the order's shopper, the shop's team, or the holder of an account. */
export type Audience = "shopper" | "shop" | "account";

export interface TemplateEntry<D> {
  audience: Audience;
  render: Template<D>;
  /** Data to preview it with. */
  sample: D;
  /** `render(sample, locale)`. */
  preview(locale: string): RenderedEmail;
}

const entry = <D>(audience: Audience, render: Template<D>, sample: D): TemplateEntry<D> => ({
  audience,
  render,
  sample,
  preview: (locale) => render(sample, locale),
});

/** Every email the service sends, by name. */
export const TEMPLATES = {
  order_confirmation: entry("shopper", orderConfirmation, samples.shopperOrderSample),
  payment_instructions: entry("shopper", paymentInstructions, samples.paymentInstructionsSample),
  payment_received: entry("shopper", paymentReceived, samples.paymentReceivedSample),
  order_shipped: entry("shopper", orderShipped, samples.orderShippedSample),
  order_refunded: entry("shopper", orderRefunded, samples.orderRefundedSample),
  order_cancelled: entry("shopper", orderCancelled, samples.orderCancelledSample),
  new_order: entry("shop", newOrder, samples.newOrderSample),
  low_stock: entry("shop", lowStock, samples.lowStockSample),
  webhook_failing: entry("shop", webhookFailing, samples.webhookFailingSample),
  password_reset: entry("account", passwordReset, samples.passwordResetSample),
  member_invite: entry("account", memberInvite, samples.memberInviteSample),
};

export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

export const isTemplateName = (name: string): name is TemplateName => Object.hasOwn(TEMPLATES, name);

/** A template rendered with its sample data, in `locale` (English when the locale has no strings). */
export const renderPreview = (name: TemplateName, locale: string): RenderedEmail =>
  TEMPLATES[name].preview(locale);
