import type { Strings } from "../locale.ts";
import { orderSummary, type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { paragraph } from "../render.ts";

const STRINGS: Strings<{
  subject: (number: number, shop: string) => string;
  title: (number: number) => string;
  intro: string;
}> = {
  en: {
    subject: (number, shop) => `Order #${number} confirmed – ${shop}`,
    title: (number) => `Thank you for your order #${number}`,
    intro: "We have received your order. We will write again when it is paid and when it ships.",
  },
  pt: {
    subject: (number, shop) => `Encomenda n.º ${number} confirmada – ${shop}`,
    title: (number) => `Obrigado pela sua encomenda n.º ${number}`,
    intro: "Recebemos a sua encomenda. Voltaremos a escrever quando estiver paga e quando for enviada.",
  },
};

/** To the shopper, once the order is placed: what was ordered, what it costs, where it goes. */
export const orderConfirmation = shopperOrderTemplate<ShopperOrderData>(({ store, order }, l) => {
  const t = STRINGS[l.lang];
  return {
    subject: t.subject(order.number, store.name),
    title: t.title(order.number),
    blocks: [paragraph(t.intro), ...orderSummary(order, l)],
  };
});
