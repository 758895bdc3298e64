import type { AppContext } from "../app-context.ts";
import { paymentMethodsFor } from "../cart/service.ts";
import type { Store } from "../catalog/store-settings.ts";
import type { Localized } from "../catalog/tables.ts";
import { ApiError } from "../core/errors.ts";
import type { AfterCommit } from "../core/operation.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { OrderPaymentMethod } from "./tables.ts";

// The boundary between orders and the payment providers. Orders know only this interface; the
// payments module (which comes after orders) implements it, and src/modules.ts hands that
// implementation to the orders module. Without it only manual methods exist and provider refunds
// are refused.

/** A payment method offered for a cart. */
export interface PaymentMethodOffer {
  id: string;
  type: string;
  provider: string;
  /** `redirect`, `reference`, `push`, `offline`. */
  flow: string;
  name: Localized;
  requires: string[];
}

/** The write a payment step runs inside: the tenant in its open transaction, the AppContext, its work after the commit. */
export interface PaymentWrite {
  tenant: TenantDb;
  ctx: AppContext;
  afterCommit: AfterCommit;
}

/**
 * A payment credential the buyer's agent hands over at checkout, charged without the buyer on a
 * payment page: a Stripe Shared Payment Token (`spt_…`), granted by the buyer's agent platform for
 * this shop and at most this amount. Taken by a card method only.
 */
export interface DelegatedCredential {
  type: "stripe_shared_payment_token";
  token: string;
}

/** The order place-order just wrote, as the payment of a provider method needs it. */
export interface OrderToPay {
  orderId: string;
  number: number;
  total: number;
  currency: string;
  email: string;
  /** For MB WAY: the body's `phone`, else the billing or shipping address's. */
  phone: string | null;
  /** Where a redirect flow sends the shopper back to. */
  returnUrl?: string;
  method: PaymentMethodOffer;
  /** Charged at once instead of the method's usual flow. */
  credential?: DelegatedCredential;
}

/** What the service asks a payment provider to refund. */
export interface ProviderRefundRequest {
  orderId: string;
  /** Our refund id (`ref_…`), sent to the provider as its reference / idempotency key. */
  refundId: string;
  amount: number;
  currency: string;
  reason: string | null;
  paymentMethod: OrderPaymentMethod;
}

/** The provider's answer: done, or accepted and settled later (by the call after the commit or a notification). */
export interface ProviderRefundResult {
  status: "pending" | "succeeded";
}

export interface CheckoutPayments {
  /** The methods offered for a cart, in the order shown to the shopper. */
  methods(
    tenant: TenantDb,
    ctx: AppContext,
    cart: { store: Store; currency: string; total: number },
  ): PaymentMethodOffer[];
  /** In place-order's transaction, after the order row is written: starts paying with a provider method. */
  begin(write: PaymentWrite, order: OrderToPay): void;
  /** In the refund's transaction: reserves a refund of a provider payment (the call runs after the commit). */
  requestProviderRefund(write: PaymentWrite, request: ProviderRefundRequest): ProviderRefundResult;
}

/** Manual methods only (bank transfer, cash on delivery), from the store settings. */
export const manualPayments: CheckoutPayments = {
  methods: (_tenant, _ctx, cart) => paymentMethodsFor(cart.store, cart.total),
  begin() {},
  requestProviderRefund(_write, request) {
    throw new ApiError(
      "UNPROCESSABLE",
      `Refunds through ${request.paymentMethod.provider} are not available`,
      [{ path: "/paymentMethod/provider", message: "provider refunds are not available" }],
    );
  },
};
