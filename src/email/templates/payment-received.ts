import type { Strings } from "../locale.ts";
import { type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { paragraph } from "../render.ts";

const STRINGS: Strings<{
  subject: (number: number) => string;
  title: string;
  body: (amount: string, number: number) => string;
  next: string;
}> = {
  en: {
    subject: (number) => `Payment received for order #${number}`,
    title: "Payment received",
    body: (amount, number) => `We have received your payment of ${amount} for order #${number}.`,
    next: "We are preparing your order and will write again when it ships.",
  },
  pt: {
    subject: (number) => `Pagamento recebido da encomenda n.º ${number}`,
    title: "Pagamento recebido",
    body: (amount, number) => `Recebemos o seu pagamento de ${amount} da encomenda n.º ${number}.`,
    next: "Estamos a preparar a sua encomenda e voltaremos a escrever quando for enviada.",
  },
};

/** To the shopper, once the order is paid. */
export const paymentReceived = shopperOrderTemplate<ShopperOrderData>(({ order }, l) => {
  const t = STRINGS[l.lang];
  return {
    subject: t.subject(order.number),
    title: t.title,
    blocks: [paragraph(t.body(l.money(order.totals.total), order.number)), paragraph(t.next)],
  };
});
