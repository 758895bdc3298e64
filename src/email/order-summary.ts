import type { Static } from "@sinclair/typebox";
import type { Store } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import type { Order } from "../orders/schema.ts";
import type { EmailLocale, Strings } from "./locale.ts";
import { type Block, button, type EmailContent, type Fact, facts, paragraph, template } from "./render.ts";

// What the order emails share: the data they are given, the order's lines, totals and addresses,
// and the shopper's footer.

/** The order as the admin API renders it (`orderView`). */
export type OrderView = Static<typeof Order>;
export type OrderPaymentView = OrderView["payments"][number];
type AddressView = NonNullable<OrderView["shippingAddress"]>;

/** The shop an email speaks for: its name signs the message, its contact email is where to ask. */
export type EmailStore = Pick<Store, "name" | "contactEmail">;

/** Every email to the shopper about an order. */
export interface ShopperOrderData {
  store: EmailStore;
  order: OrderView;
  /**
   * The shopper's page of this order, carrying a token that opens it (`…?token=`), so a guest can;
   * null when the shop has no order page (no link then).
   */
  orderUrl: string | null;
}

interface SummaryStrings {
  item: string;
  quantity: string;
  lineTotal: string;
  subtotal: string;
  discount: string;
  shipping: string;
  vat: string;
  vatIncluded: string;
  total: string;
  shippingAddress: string;
  billingAddress: string;
  questions: (email: string) => string;
  hello: (name: string) => string;
  helloAnonymous: string;
  view: string;
}

const STRINGS: Strings<SummaryStrings> = {
  en: {
    item: "Item",
    quantity: "Qty",
    lineTotal: "Total",
    subtotal: "Subtotal",
    discount: "Discount",
    shipping: "Shipping",
    vat: "VAT",
    vatIncluded: "VAT included",
    total: "Total",
    shippingAddress: "Shipping address",
    billingAddress: "Billing address",
    questions: (email) => `Questions? Reply to this email or write to ${email}.`,
    hello: (name) => `Hello ${name},`,
    helloAnonymous: "Hello,",
    view: "View your order",
  },
  pt: {
    item: "Artigo",
    quantity: "Qtd.",
    lineTotal: "Total",
    subtotal: "Subtotal",
    discount: "Desconto",
    shipping: "Envio",
    vat: "IVA",
    vatIncluded: "IVA incluído",
    total: "Total",
    shippingAddress: "Morada de envio",
    billingAddress: "Morada de faturação",
    questions: (email) => `Dúvidas? Responda a este email ou escreva para ${email}.`,
    hello: (name) => `Olá ${name},`,
    helloAnonymous: "Olá,",
    view: "Ver a encomenda",
  },
};

/** "Linen shirt (M)"; a product's only variant is titled "Default", and naming it would say nothing. */
export const variantName = (productName: Localized, title: string, l: EmailLocale): string =>
  title === "Default" ? l.text(productName) : `${l.text(productName)} (${title})`;

function addressLines(address: AddressView, l: EmailLocale): string[] {
  return [
    `${address.firstName} ${address.lastName}`,
    address.company,
    address.line1,
    address.line2,
    [address.postalCode, address.city].filter(Boolean).join(" "),
    address.region,
    l.country(address.country),
    address.phone,
  ].filter((line): line is string => Boolean(line));
}

function totalsRows(order: OrderView, l: EmailLocale, t: SummaryStrings): Fact[] {
  const { subtotal, discount, shipping, tax, total } = order.totals;
  // Prices that include VAT add up without it; the order's own amounts say which kind it has.
  const included = subtotal.amount - discount.amount + shipping.amount === total.amount;
  return [
    { label: t.subtotal, value: l.money(subtotal) },
    ...(discount.amount > 0 ? [{ label: t.discount, value: `−${l.money(discount)}` }] : []),
    { label: t.shipping, value: l.money(shipping) },
    { label: included ? t.vatIncluded : t.vat, value: l.money(tax) },
    { label: t.total, value: l.money(total), strong: true },
  ];
}

/** The order's lines, totals and addresses. */
export function orderSummary(order: OrderView, l: EmailLocale): Block[] {
  const t = STRINGS[l.lang];
  const blocks: Block[] = [
    {
      kind: "items",
      head: [t.item, t.quantity, t.lineTotal],
      rows: order.items.map((item) => ({
        name: variantName(item.productName, item.variantTitle, l),
        quantity: item.quantity,
        total: l.money(item.total),
      })),
    },
    facts(totalsRows(order, l, t)),
  ];
  const addresses: [string, OrderView["shippingAddress"]][] = [
    [t.shippingAddress, order.shippingAddress],
    [t.billingAddress, order.billingAddress],
  ];
  for (const [title, address] of addresses) {
    if (address) blocks.push({ kind: "address", title, lines: addressLines(address, l) });
  }
  return blocks;
}

/** The shopper's small print: the shop's name and where to write. */
function shopperFooter(store: EmailStore, l: EmailLocale): string[] {
  return store.contactEmail ? [store.name, STRINGS[l.lang].questions(store.contactEmail)] : [store.name];
}

/** "Hello Ana," from the billing (else shipping) address, or a plain "Hello," without one. */
function greeting(order: OrderView, l: EmailLocale): string {
  const name = (order.billingAddress ?? order.shippingAddress)?.firstName;
  return name ? STRINGS[l.lang].hello(name) : STRINGS[l.lang].helloAnonymous;
}

/**
 * A template of an email to the shopper about their order: `write` says the subject, title and
 * what is new; the greeting, the link to the order and the shop's footer are the same in each.
 */
export function shopperOrderTemplate<D extends ShopperOrderData>(
  write: (data: D, l: EmailLocale) => Pick<EmailContent, "subject" | "title" | "blocks">,
) {
  return template<D>((data, l) => {
    const { subject, title, blocks } = write(data, l);
    return {
      subject,
      title,
      blocks: [
        paragraph(greeting(data.order, l)),
        ...blocks,
        ...(data.orderUrl ? [button(STRINGS[l.lang].view, data.orderUrl)] : []),
      ],
      footer: shopperFooter(data.store, l),
    };
  });
}
