import { orderExample, placeOrderExample } from "../orders/examples.ts";
import type { EmailStore, OrderView, ShopperOrderData } from "./order-summary.ts";
import type { LowStockData } from "./templates/low-stock.ts";
import type { MemberInviteData } from "./templates/member-invite.ts";
import type { NewOrderData } from "./templates/new-order.ts";
import type { OrderRefundedData } from "./templates/order-refunded.ts";
import type { OrderShippedData } from "./templates/order-shipped.ts";
import type { PasswordResetData } from "./templates/password-reset.ts";
import type { PaymentInstructionsData } from "./templates/payment-instructions.ts";
import type { WebhookFailingData } from "./templates/webhook-failing.ts";

// Sample data for previews (`renderPreview`): the orders module's example order (a real answer of
// the service), a store whose name needs escaping, and plausible links.

const store: EmailStore = { name: "Linen & Co.", contactEmail: "hello@linen.example" };
const order: OrderView = orderExample;
const shop = "https://linen.example";
const dashboard = "https://shops.example.com/dashboard";

const multibanco: PaymentInstructionsData["payment"] = {
  attemptId: "pay_0VbsQ4kQ1fGmW3xYtZrLkP2a",
  provider: "ifthenpay",
  method: "multibanco",
  status: "created",
  amount: order.totals.total.amount,
  expiresAt: "2026-11-27T08:19:15.102Z",
  action: {
    type: "reference",
    entity: "11249",
    reference: "123456789",
    amount: order.totals.total.amount,
    expiresAt: "2026-11-27T08:19:15.102Z",
  },
};

export const shopperOrderSample: ShopperOrderData = {
  store,
  order,
  orderUrl: `${shop}/orders/${order.id}?token=${placeOrderExample.response.accessToken}`,
};

const paidOrder: OrderView = {
  ...order,
  paymentStatus: "paid",
  paidAt: "2026-11-24T09:02:41.530Z",
  payments: [{ ...multibanco, status: "succeeded" }],
};

export const paymentInstructionsSample: PaymentInstructionsData = {
  ...shopperOrderSample,
  order: { ...order, payment: multibanco, payments: [multibanco] },
  payment: multibanco,
};

export const paymentReceivedSample: ShopperOrderData = { ...shopperOrderSample, order: paidOrder };

export const orderShippedSample: OrderShippedData = {
  ...shopperOrderSample,
  order: { ...paidOrder, fulfillmentStatus: "fulfilled" },
  fulfillment: {
    id: "ful_0VbsQ4kR7hJkL9mNpQrStUvW",
    carrier: "CTT",
    trackingNumber: "RR123456789PT",
    trackingUrl: "https://www.ctt.pt/feapl_2/app/open/objectSearch/objectSearch.jspx?objects=RR123456789PT",
    createdAt: "2026-11-25T10:15:00.000Z",
  },
};

export const orderRefundedSample: OrderRefundedData = {
  ...shopperOrderSample,
  order: paidOrder,
  refund: {
    id: "ref_0VbsQ4kS2aBcDeFgHiJkLmNo",
    amount: { amount: 4500, currency: "EUR" },
    reason: "One shirt returned",
    status: "succeeded",
    createdAt: "2026-11-28T14:00:00.000Z",
  },
};

export const orderCancelledSample: ShopperOrderData = {
  ...shopperOrderSample,
  order: { ...order, status: "cancelled", cancelledAt: "2026-11-27T08:20:00.000Z" },
};

export const newOrderSample: NewOrderData = { store, order, adminUrl: `${dashboard}/orders/${order.id}` };

const line = order.items[0]!;
export const lowStockSample: LowStockData = {
  store,
  adminUrl: `${dashboard}/products/${line.productId}`,
  variant: { productName: line.productName, title: "M", sku: line.sku },
  stock: 3,
  threshold: 5,
};

export const webhookFailingSample: WebhookFailingData = {
  store,
  adminUrl: `${dashboard}/webhooks`,
  endpointUrl: "https://hooks.linen.example/commerce",
  failingSince: "2026-11-24T06:00:00.000Z",
  lastStatus: 502,
};

export const passwordResetSample: PasswordResetData = {
  siteName: store.name,
  resetUrl: `${shop}/account/reset-password?token=Zq8Xr2LmN5pT7vW9yB1cD3fG`,
};

export const memberInviteSample: MemberInviteData = {
  organizationName: store.name,
  inviterName: "Ana Silva",
  role: "admin",
  inviteUrl: `${dashboard}/invitations/inv_0VbsQ4kT4uVwXyZaBcDeFgHi`,
};
