import type { EmailLocale, Strings } from "../locale.ts";
import { type OrderPaymentView, type ShopperOrderData, shopperOrderTemplate } from "../order-summary.ts";
import { type Block, button, facts, paragraph } from "../render.ts";

type PaymentAction = NonNullable<OrderPaymentView["action"]>;

export interface PaymentInstructionsData extends ShopperOrderData {
  /** The attempt to pay (`order.payment` once it has an `action`): what the shopper must do next. */
  payment: OrderPaymentView & { action: PaymentAction };
}

interface InstructionStrings {
  subject: (number: number) => string;
  title: (number: number) => string;
  multibanco: string;
  entity: string;
  reference: string;
  amount: string;
  payBy: string;
  referenceExpires: string;
  mbway: (amount: string, phone: string, until: string) => string;
  offline: (amount: string) => string;
  redirect: (amount: string) => string;
  pay: string;
}

const STRINGS: Strings<InstructionStrings> = {
  en: {
    subject: (number) => `How to pay for order #${number}`,
    title: (number) => `Payment for order #${number}`,
    multibanco: "Pay with this Multibanco reference at an ATM or in your bank's app (Payments → Services):",
    entity: "Entity",
    reference: "Reference",
    amount: "Amount",
    payBy: "Pay by",
    referenceExpires: "After that time the reference no longer accepts payment.",
    mbway: (amount, phone, until) =>
      `Open the MB WAY app on the phone ${phone} and approve the payment of ${amount} by ${until}.`,
    offline: (amount) => `Please pay ${amount} as follows:`,
    redirect: (amount) => `Complete the payment of ${amount} on the payment page:`,
    pay: "Pay now",
  },
  pt: {
    subject: (number) => `Como pagar a encomenda n.º ${number}`,
    title: (number) => `Pagamento da encomenda n.º ${number}`,
    multibanco:
      "Pague com esta referência Multibanco num caixa automático ou na app do seu banco (Pagamentos → Serviços):",
    entity: "Entidade",
    reference: "Referência",
    amount: "Montante",
    payBy: "Pagar até",
    referenceExpires: "Depois dessa data a referência deixa de aceitar pagamentos.",
    mbway: (amount, phone, until) =>
      `Abra a app MB WAY no telemóvel ${phone} e aprove o pagamento de ${amount} até ${until}.`,
    offline: (amount) => `Pague ${amount} da seguinte forma:`,
    redirect: (amount) => `Conclua o pagamento de ${amount} na página de pagamento:`,
    pay: "Pagar agora",
  },
};

/** `123456789` → `123 456 789`, as ATMs and banking apps show a reference. */
const grouped = (reference: string) => reference.replace(/\s/g, "").replace(/(\d{3})(?=\d)/g, "$1 ");

function actionBlocks(
  payment: PaymentInstructionsData["payment"],
  currency: string,
  l: EmailLocale,
): Block[] {
  const t = STRINGS[l.lang];
  const { action } = payment;
  const amount = l.money({ amount: payment.amount, currency });
  switch (action.type) {
    case "reference":
      return [
        paragraph(t.multibanco),
        facts([
          { label: t.entity, value: action.entity, strong: true },
          { label: t.reference, value: grouped(action.reference), strong: true },
          { label: t.amount, value: l.money({ amount: action.amount, currency }), strong: true },
          { label: t.payBy, value: l.dateTime(action.expiresAt) },
        ]),
        paragraph(t.referenceExpires),
      ];
    case "push":
      return [paragraph(t.mbway(amount, action.phone, l.dateTime(action.expiresAt)))];
    case "offline":
      return [paragraph(t.offline(amount)), paragraph(l.text(action.instructions))];
    case "redirect":
      return [paragraph(t.redirect(amount)), button(t.pay, action.url)];
  }
}

/** To the shopper, when a payment waits for them: a Multibanco reference, an MB WAY approval, a transfer. */
export const paymentInstructions = shopperOrderTemplate<PaymentInstructionsData>(({ order, payment }, l) => ({
  subject: STRINGS[l.lang].subject(order.number),
  title: STRINGS[l.lang].title(order.number),
  blocks: actionBlocks(payment, order.currency, l),
}));
