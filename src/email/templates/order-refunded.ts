import type { Strings } from "../locale.ts";
import { type OrderView, type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { type Block, paragraph } from "../render.ts";

export interface OrderRefundedData extends ShopperOrderData {
  /** The refund this email announces (one of `order.refunds`). */
  refund: OrderView["refunds"][number];
}

const STRINGS: Strings<{
  subject: (amount: string, number: number) => string;
  title: string;
  body: (amount: string, number: number) => string;
  reason: (reason: string) => string;
  timing: string;
}> = {
  en: {
    subject: (amount, number) => `Refund of ${amount} for order #${number}`,
    title: "Refund issued",
    body: (amount, number) => `We have refunded ${amount} of order #${number}.`,
    reason: (reason) => `Reason: ${reason}`,
    timing: "Depending on your bank and payment method, it can take a few days to appear.",
  },
  pt: {
    subject: (amount, number) => `Reembolso de ${amount} da encomenda n.º ${number}`,
    title: "Reembolso efetuado",
    body: (amount, number) => `Reembolsámos ${amount} da encomenda n.º ${number}.`,
    reason: (reason) => `Motivo: ${reason}`,
    timing: "Consoante o banco e o meio de pagamento, pode demorar alguns dias a aparecer.",
  },
};

/** To the shopper, when a refund is issued: its amount and the merchant's reason. */
export const orderRefunded = shopperOrderTemplate<OrderRefundedData>(({ order, refund }, l) => {
  const t = STRINGS[l.lang];
  const amount = l.money(refund.amount);
  const blocks: Block[] = [paragraph(t.body(amount, order.number))];
  if (refund.reason) blocks.push(paragraph(t.reason(refund.reason)));
  blocks.push(paragraph(t.timing));
  return { subject: t.subject(amount, order.number), title: t.title, blocks };
});
