import type { Strings } from "../locale.ts";
import { type OrderView, orderSummary } from "../order-summary.ts";
import { paragraph } from "../render.ts";
import { type ShopNoticeData, shopNoticeTemplate } from "../shop-notice.ts";

export interface NewOrderData extends ShopNoticeData {
  order: OrderView;
}

const STRINGS: Strings<{
  subject: (number: number, total: string) => string;
  title: (number: number) => string;
  from: (email: string) => string;
  note: (note: string) => string;
}> = {
  en: {
    subject: (number, total) => `New order #${number} – ${total}`,
    title: (number) => `New order #${number}`,
    from: (email) => `Placed by ${email}.`,
    note: (note) => `Note from the customer: ${note}`,
  },
  pt: {
    subject: (number, total) => `Nova encomenda n.º ${number} – ${total}`,
    title: (number) => `Nova encomenda n.º ${number}`,
    from: (email) => `Feita por ${email}.`,
    note: (note) => `Nota do cliente: ${note}`,
  },
};

/** To the shop, when an order is placed: who ordered what, and the customer's note. */
export const newOrder = shopNoticeTemplate<NewOrderData>(({ order }, l) => {
  const t = STRINGS[l.lang];
  const blocks = [paragraph(t.from(order.email))];
  if (order.note) blocks.push(paragraph(t.note(order.note)));
  return {
    subject: t.subject(order.number, l.money(order.totals.total)),
    title: t.title(order.number),
    blocks: [...blocks, ...orderSummary(order, l)],
  };
});
