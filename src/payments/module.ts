import type { Module } from "../core/module.ts";
import { REFUND_JOB, refundJob, START_JOB, startPaymentJob } from "./checkout.ts";
import { paymentOperations } from "./routes.ts";
import { startPaymentSweep, stopPaymentSweep } from "./sweep.ts";

export { checkoutPayments } from "./checkout.ts";
export { rekeyIntegrations } from "./rekey.ts";

/**
 * Payment providers (Stripe, Ifthenpay, Easypay): per-store settings with encrypted secrets, the
 * payment methods of a cart, starting payments and refunds after the commit (outbox jobs), the
 * webhook ingress and API routes with reconciliation, and the expiry sweep (a timer while the
 * service runs: its `start` and `stop` hooks).
 */
export const paymentsModule: Module = {
  name: "payments",
  tables: { file: "src/payments/tables.ts", database: "tenant" },
  // Which shop a provider's notification is for, when its path names none.
  shopRows: [{ table: "payment_routes", where: "organization_id = ?1" }],
  operations: paymentOperations,
  jobs: { [START_JOB]: startPaymentJob, [REFUND_JOB]: refundJob },
  start: ({ ctx }) => startPaymentSweep(ctx),
  stop: ({ ctx }) => stopPaymentSweep(ctx),
};
