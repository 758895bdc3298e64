import type { Strings } from "../locale.ts";
import { type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { paragraph } from "../render.ts";

const STRINGS: Strings<{
  subject: (number: number) => string;
  title: string;
  body: (number: number) => string;
  paid: string;
}> = {
  en: {
    subject: (number) => `Order #${number} cancelled`,
    title: "Order cancelled",
    body: (number) => `Order #${number} has been cancelled.`,
    paid: "Anything you paid for it will be refunded; we will write when the refund is issued.",
  },
  pt: {
    subject: (number) => `Encomenda n.º ${number} cancelada`,
    title: "Encomenda cancelada",
    body: (number) => `A encomenda n.º ${number} foi cancelada.`,
    paid: "O que tiver pago será reembolsado; voltaremos a escrever quando o reembolso for efetuado.",
  },
};

/** To the shopper, when the order is cancelled (by the shop, or unpaid in time). */
export const orderCancelled = shopperOrderTemplate<ShopperOrderData>(({ order }, l) => {
  const t = STRINGS[l.lang];
  const blocks = [paragraph(t.body(order.number))];
  // Only a paid order has money to give back: an unpaid one says nothing about refunds.
  if (order.paidAt !== null) blocks.push(paragraph(t.paid));
  return { subject: t.subject(order.number), title: t.title, blocks };
});
