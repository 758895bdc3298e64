import { isHttpUrl } from "../html.ts";
import type { Strings } from "../locale.ts";
import { type OrderView, type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { type Block, button, type Fact, facts, paragraph } from "../render.ts";

export interface OrderShippedData extends ShopperOrderData {
  /** The shipment this email announces (one of `order.fulfillments`). */
  fulfillment: OrderView["fulfillments"][number];
}

const STRINGS: Strings<{
  subject: (number: number) => string;
  title: string;
  body: (number: number) => string;
  carrier: string;
  trackingNumber: string;
  track: string;
}> = {
  en: {
    subject: (number) => `Order #${number} has shipped`,
    title: "Your order is on its way",
    body: (number) => `Order #${number} has left us.`,
    carrier: "Carrier",
    trackingNumber: "Tracking number",
    track: "Track your parcel",
  },
  pt: {
    subject: (number) => `A encomenda n.º ${number} foi enviada`,
    title: "A sua encomenda está a caminho",
    body: (number) => `A encomenda n.º ${number} já foi enviada.`,
    carrier: "Transportadora",
    trackingNumber: "Número de seguimento",
    track: "Seguir a encomenda",
  },
};

/** To the shopper, when a shipment is recorded: the carrier, the tracking number and link when known. */
export const orderShipped = shopperOrderTemplate<OrderShippedData>(({ order, fulfillment }, l) => {
  const t = STRINGS[l.lang];
  const details: Fact[] = [];
  if (fulfillment.carrier) details.push({ label: t.carrier, value: fulfillment.carrier });
  if (fulfillment.trackingNumber)
    details.push({ label: t.trackingNumber, value: fulfillment.trackingNumber });
  const blocks: Block[] = [paragraph(t.body(order.number))];
  if (details.length > 0) blocks.push(facts(details));
  // A tracking link is whatever the merchant typed: only an http(s) one becomes a link.
  if (fulfillment.trackingUrl && isHttpUrl(fulfillment.trackingUrl)) {
    blocks.push(button(t.track, fulfillment.trackingUrl));
  }
  return { subject: t.subject(order.number), title: t.title, blocks };
});
