import { type TObject, Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { requireManagingCaller } from "../auth/service.ts";
import { CartParams, PaymentMethod } from "../cart/schema.ts";
import { readPricedCart } from "../cart/service.ts";
import { ApiError, type ErrorCode, notFound } from "../core/errors.ts";
import { defineOperation, type Operation, Reply } from "../core/operation.ts";
import { Body, Nullable, named, Text, Timestamp } from "../core/schemas.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import type { PaymentMethodOffer } from "../orders/checkout-payments.ts";
import { canRetryPayment } from "../orders/lifecycle.ts";
import { assertShopReturnUrl } from "../orders/return-url.ts";
import { findReadableOrder, GetOrderQuery, OrderIdParams } from "../orders/routes.ts";
import { Order, ReturnUrl } from "../orders/schema.ts";
import { orderView } from "../orders/view.ts";
import { attemptByRef, findAttempt, instructionsOf, orderAttempts } from "./attempts.ts";
import { awaitPaymentStart, createAttempt, paymentMethods } from "./checkout.ts";
import { checkWithProvider } from "./credential-check.ts";
import { ProviderError } from "./http.ts";
import {
  checkFields,
  deleteIntegration,
  integrationEntry,
  isProvider,
  putIntegration,
  resolveCredentials,
} from "./integrations.ts";
import type { Delivery } from "./provider.ts";
import { reconcileInTransaction } from "./reconcile.ts";
import { allProviders } from "./registry.ts";
import { nowOf } from "./state.ts";
import { retrieveCheckoutSession } from "./stripe.ts";
import type { Provider } from "./tables.ts";
import {
  settle,
  tenantOfVerified,
  type Verified,
  verifyApiDelivery,
  verifyIngressDelivery,
  WEBHOOK_ERRORS,
  WebhookAnswer,
} from "./webhooks.ts";

const ADMIN_TAG = "Admin: payment integrations";

const ProviderParams = Type.Object({
  provider: Type.String({ maxLength: 40, description: "stripe, ifthenpay or easypay" }),
});

const SecretState = Type.Union([
  Type.Object({
    set: Type.Literal(true),
    last4: Nullable(Type.String({ description: "Null when the stored value cannot be decrypted" })),
  }),
  Type.Object({ set: Type.Literal(false) }),
]);

const Integration = named(
  "Integration",
  Type.Object({
    provider: Type.String(),
    source: Type.Union([Type.Literal("tenant"), Type.Literal("environment"), Type.Literal("none")]),
    enabled: Type.Boolean(),
    settings: Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer()])),
    secrets: Type.Record(Type.String(), SecretState),
    webhookUrl: Type.String({ description: "Paste this into the provider's dashboard" }),
    updatedAt: Nullable(Timestamp),
  }),
);

const PutIntegrationBody = Body({
  enabled: Type.Optional(
    Type.Boolean({ description: "false stops offering the provider's methods (default true)" }),
  ),
  fields: Type.Record(
    Type.String({ maxLength: 40 }),
    Type.Union([Type.String({ maxLength: 256 }), Type.Integer({ minimum: 0, maximum: 1000 }), Type.Null()]),
    {
      description:
        "stripe: secretKey*, publishableKey, webhookSecret*; ifthenpay: antiPhishingKey*, mbKey*, mbWayKey*, " +
        "multibancoExpiryDays; easypay: accountId, apiKey*, webhookSecret*, environment (production | sandbox). " +
        "Secrets (*): a string sets, null clears, omitted keeps. Other fields are replaced as given.",
    },
  ),
});

function knownProvider(name: string): Provider {
  if (!isProvider(name)) throw notFound("Payment provider");
  return name;
}

const listIntegrationsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/integrations",
  operationId: "adminListIntegrations",
  summary: "Payment provider settings, one entry per provider",
  description: `Every provider (${allProviders()
    .map((p) => p.name)
    .join(", ")}), configured or not. Secrets show only whether they are set and their last four characters.`,
  tag: ADMIN_TAG,
  access: "admin",
  agent: false,
  response: Type.Array(Integration),
  handler: ({ ctx, tenant, caller }) => {
    requireManagingCaller(ctx.platform, caller);
    return allProviders().map((provider) => integrationEntry(ctx, tenant, provider.name));
  },
});

const getIntegrationOp = defineOperation({
  method: "GET",
  path: "/v1/admin/integrations/{provider}",
  operationId: "adminGetIntegration",
  summary: "One payment provider's settings, with the webhook URL to paste into its dashboard",
  description:
    "`source` says which credentials apply: the store's own (`tenant`), the operator's (`environment`) or none.",
  tag: ADMIN_TAG,
  access: "admin",
  agent: false,
  params: ProviderParams,
  response: Integration,
  handler: ({ ctx, tenant, caller, params }) => {
    requireManagingCaller(ctx.platform, caller);
    return integrationEntry(ctx, tenant, knownProvider(params.provider));
  },
});

const putIntegrationOp = defineOperation({
  method: "PUT",
  path: "/v1/admin/integrations/{provider}",
  operationId: "adminPutIntegration",
  summary: "Set a payment provider's settings (201 when created, 200 when replaced)",
  description:
    "Secret fields are stored encrypted and never returned. A secret given a string is set, `null` clears it, " +
    "omitting it keeps it; non-secret fields are replaced as given. Unknown fields, invalid values and Stripe keys " +
    "of different modes (test/live) are a 400 and nothing is stored. New credentials are checked with the provider " +
    "before anything is stored (Stripe: a `secretKey` sent; Easypay: an `accountId` sent, with its API key): a " +
    "refusal is a 422 UNPROCESSABLE naming the provider, details at the fields; a provider that cannot be reached is " +
    "a 503 UPSTREAM_UNAVAILABLE with Retry-After. Ifthenpay keys are not checked (no call of Ifthenpay's checks a " +
    "key without starting a payment). Once a store has settings for a provider, only they are used for it (delete " +
    "them to go back to the operator's).",
  tag: ADMIN_TAG,
  access: "admin",
  agent: false,
  durable: true,
  alsoStatus: 201,
  errors: ["IDEMPOTENCY_CONFLICT", "UNPROCESSABLE", "UPSTREAM_UNAVAILABLE"],
  params: ProviderParams,
  body: PutIntegrationBody,
  response: Integration,
  // Outside the transaction: who may, which provider, the fields' rules, then the provider's verdict.
  prepare: async ({ ctx, tenant, caller, params, body }) => {
    requireManagingCaller(ctx.platform, caller);
    const provider = knownProvider(params.provider);
    checkFields(provider, body.fields);
    await checkWithProvider(ctx, tenant, provider, body.fields);
    return provider;
  },
  handler: ({ ctx, tenant, caller, body, prepared: provider }) => {
    const { created } = putIntegration(ctx, tenant, provider, body, caller.id, nowOf(ctx));
    return new Reply(integrationEntry(ctx, tenant, provider), { status: created ? 201 : 200 });
  },
});

const deleteIntegrationOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/integrations/{provider}",
  operationId: "adminDeleteIntegration",
  summary: "Delete a payment provider's settings (the operator's credentials apply again)",
  description:
    "The store's own credentials for this provider are deleted; payments then use the operator's credentials, if any. Owners and admins only when called from the dashboard; 404 when none were set.",
  tag: ADMIN_TAG,
  access: "admin",
  agent: false,
  durable: true,
  status: 204,
  params: ProviderParams,
  handler: ({ ctx, tenant, caller, params }) => {
    requireManagingCaller(ctx.platform, caller);
    if (!deleteIntegration(tenant, knownProvider(params.provider))) throw notFound("Integration");
    return undefined;
  },
});

// ---------------------------------------------------------------- storefront

const listPaymentMethodsOp = defineOperation({
  method: "GET",
  path: "/v1/carts/{id}/payment-methods",
  operationId: "listCartPaymentMethods",
  summary: "Payment methods offered for this cart",
  description:
    "Card (Stripe), then MB WAY and Multibanco (EUR carts only; Ifthenpay or Easypay), then the store's manual " +
    'methods. `requires: ["phone"]`: place-order needs a phone number. A cart total of 0 offers none.',
  tag: "Carts",
  access: "storefront",
  autoGrant: true,
  params: CartParams,
  response: Type.Array(PaymentMethod),
  handler: ({ ctx, tenant, params }) => {
    const state = readPricedCart(tenant, params.id);
    return paymentMethods(tenant, ctx, {
      store: state.store,
      currency: state.cart.currency,
      total: state.priced.totals.total,
    });
  },
});

const RetryPaymentBody = Body({ returnUrl: Type.Optional(ReturnUrl) });

const retryPaymentOp = defineOperation({
  method: "POST",
  path: "/v1/orders/{id}/payment",
  operationId: "retryOrderPayment",
  summary: "Try the order's payment again",
  description:
    "Same access as reading the order. When the provider could not be reached at place-order (`payment.status` " +
    "`created` without `action`, with `error` and `retry` naming this operation), asks it again; otherwise starts a new payment with the order's method (a new " +
    "card session, reference or MB WAY request). The body is optional: `returnUrl` is where a card payment sends " +
    "the shopper back, under place-order's rule (one of the shop's hosts or an origin of its `allowedOrigins`, " +
    "else a 422 at `/body/returnUrl`); without it, the order's page on the shop's platform host. Answers the " +
    "order. 409 when the order is not open, is already paid or processing, or is paid by a manual method.",
  tag: "Orders",
  access: "storefront",
  customerSession: "optional",
  durable: true,
  errors: ["CONFLICT", "UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
  idempotencyScope: (input) => `order:${String(input.id)}`,
  params: OrderIdParams,
  query: GetOrderQuery,
  body: RetryPaymentBody,
  response: Order,
  handler: (call) => {
    const { tenant, ctx, params, query, body } = call;
    const row = findReadableOrder(call, call.caller, params.id, query.token, () => call.customer);
    const method = parseJsonOrNull<{ id: string; provider: string; type: string }>(row.payment_method);
    const state = `${row.status} / ${row.payment_status}`;
    if (!method || method.provider === "manual") {
      throw new ApiError(
        "CONFLICT",
        `Cannot retry the payment: the order is not paid through a provider (${state})`,
      );
    }
    if (!canRetryPayment(row))
      throw new ApiError("CONFLICT", `Cannot retry the payment: the order is ${state}`);
    if (body.returnUrl !== undefined) assertShopReturnUrl(ctx, tenant, body.returnUrl);
    const latest = orderAttempts(tenant, row.id).at(-1);
    if (latest && latest.status === "created" && latest.provider_ref === null) {
      awaitPaymentStart(call.afterCommit, latest.id, body.returnUrl ?? null);
    } else {
      const offer: PaymentMethodOffer = {
        id: method.id,
        type: method.type,
        provider: method.provider,
        flow: "",
        name: {},
        requires: [],
      };
      createAttempt(
        { tenant, ctx, afterCommit: call.afterCommit },
        {
          orderId: row.id,
          total: row.total,
          currency: row.currency,
          phone: latest ? (instructionsOf(latest).phone ?? null) : null,
          returnUrl: body.returnUrl,
        },
        offer,
      );
    }
    return orderView(tenant, row.id);
  },
  reload: ({ tenant, params }) => orderView(tenant, params.id),
});

const ConfirmBody = Body({
  sessionId: Text({
    min: 4,
    max: 255,
    pattern: "^cs_[A-Za-z0-9_]+$",
    description: "The `session_id` Stripe appended to the return URL",
  }),
});

const confirmPaymentOp = defineOperation({
  method: "POST",
  path: "/v1/orders/{id}/payment/confirm",
  operationId: "confirmOrderPayment",
  summary: "Confirm a card payment when the shopper comes back from Stripe",
  description:
    "Same access as reading the order. Reads the Checkout Session back from Stripe and applies what it says " +
    "(paid, or processing for an asynchronous method) exactly as the webhook would, once: a later " +
    "`checkout.session.completed` changes nothing more. Answers the order. 503 UPSTREAM_UNAVAILABLE when " +
    "Stripe cannot be reached (the webhook still completes the order).",
  tag: "Orders",
  access: "storefront",
  customerSession: "optional",
  durable: true,
  errors: ["UNPROCESSABLE", "UPSTREAM_UNAVAILABLE", "IDEMPOTENCY_CONFLICT"],
  idempotencyScope: (input) => `order:${String(input.id)}`,
  params: OrderIdParams,
  query: GetOrderQuery,
  body: ConfirmBody,
  response: Order,
  prepare: async (call) => {
    const { tenant, ctx, params, query, body } = call;
    const row = findReadableOrder(call, call.caller, params.id, query.token, () => call.customer);
    const attempt = attemptByRef(tenant, "stripe", body.sessionId);
    if (!attempt || attempt.order_id !== row.id) {
      throw new ApiError("UNPROCESSABLE", "This Checkout Session is not a payment of this order", [
        { path: "/body/sessionId", message: "unknown session" },
      ]);
    }
    const creds = resolveCredentials(
      ctx,
      attempt.credential_source === "tenant" ? tenant : null,
      "stripe",
      "refunds",
    );
    try {
      const session = await retrieveCheckoutSession(
        ctx.config.payments.stripeApiBase,
        String(creds.fields.secretKey),
        body.sessionId,
      );
      return { attemptId: attempt.id, source: attempt.credential_source, session };
    } catch (error) {
      if (error instanceof ProviderError) {
        throw new ApiError(
          "UPSTREAM_UNAVAILABLE",
          "Stripe could not be asked about this payment",
          undefined,
          { "retry-after": "5" },
        );
      }
      throw error;
    }
  },
  handler: (call) => {
    const { tenant, ctx, params } = call;
    const { attemptId, source, session } = call.prepared;
    const paid = session.payment_status === "paid";
    const processing = session.payment_status === "unpaid" && session.status === "complete";
    if (paid || processing) {
      reconcileInTransaction(ctx, tenant, {
        provider: "stripe",
        eventId: `return:${session.id}${paid ? "" : ":unpaid"}`,
        kind: "return confirmation",
        payloadSha256: "",
        source,
        find: (tenant) => findAttempt(tenant, attemptId),
        orgId: session.metadata?.orgId,
        ref2: typeof session.payment_intent === "string" ? session.payment_intent : undefined,
        outcome: paid
          ? { kind: "SUCCEEDED", amount: session.amount_total ?? -1, currency: session.currency ?? "" }
          : { kind: "PROCESSING" },
      });
    }
    return orderView(tenant, params.id);
  },
});

// ---------------------------------------------------------------- provider notifications (webhooks.ts)

const WEBHOOK_TAG = "Payment webhooks";

const callbackParam = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));
/** Ifthenpay's callback parameters, in the query of its GET (no other provider sends any). */
const CallbackQuery = {
  key: callbackParam("Ifthenpay: the anti-phishing key, the proof of its callback"),
  orderId: callbackParam("Ifthenpay: the payment's order reference"),
  amount: callbackParam("Ifthenpay: the amount paid in euros (`24.89`)"),
  requestId: callbackParam("Ifthenpay: the payment request's id"),
  entity: callbackParam("Ifthenpay, Multibanco: the entity"),
  reference: callbackParam("Ifthenpay, Multibanco: the reference"),
  payment_datetime: callbackParam("Ifthenpay: when the payment was made"),
};
const ORG =
  "The organization's id, or `_` for the platform's own accounts (the store is found from the payment)";
/** An organization id or `_`: anything else cannot name a store, so it is refused before any proof is read. */
const OrgOfDelivery = Type.String({
  pattern: "^(_|org_[0-9A-Za-z]{1,64})$",
  maxLength: 68,
  description: ORG,
});

interface WebhookRoute {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  params: TObject;
  query: TObject;
  errors: ErrorCode[];
  checkoutSecret?: "required" | "optional";
  verify(ctx: AppContext, delivery: Delivery, requestId: string): Promise<Verified>;
}

/**
 * A webhook operation: `prepare` verifies the delivery before any tenant is taken, the executor then
 * writes to the tenant the notification is about (none for a readiness check or an ignored one).
 * Providers send in bursts: notifications to one store arriving together share one durable commit.
 */
function webhookOperation(method: "GET" | "POST", route: WebhookRoute): Operation {
  const { verify, ...declared } = route;
  return defineOperation({
    ...declared,
    method,
    tag: WEBHOOK_TAG,
    access: "webhook",
    agent: false,
    durable: "grouped",
    response: WebhookAnswer,
    prepare: (call) => {
      const { org: queryOrg, ...query } = call.query as Record<string, string | undefined>;
      const params = call.params as { provider: string; org?: string };
      const delivery = { method, provider: params.provider, org: params.org ?? queryOrg, query };
      return verify(call.ctx, { ...delivery, headers: call.headers, body: call.rawBody }, call.requestId);
    },
    tenantOf: (_input, verified) => tenantOfVerified(verified),
    handler: (call) => settle(call, call.prepared),
  });
}

const PROOFS =
  "Proofs: Stripe's `stripe-signature` over the exact bytes (5 minutes' tolerance), Ifthenpay's `key`, " +
  "Easypay's Basic password when a `webhookSecret` is set (and Easypay's API is always asked).";
const ANSWERS =
  "Providers retry anything but a 200: a verified notification is answered 200 whatever it meant " +
  "(`applied`, `duplicate`, `ignored`, `stale`, `flagged`).";

const apiRoute = {
  path: "/v1/webhooks/payments/{provider}",
  params: ProviderParams,
  query: Type.Object({
    org: Type.Optional(OrgOfDelivery),
    ...CallbackQuery,
  }),
  errors: WEBHOOK_ERRORS,
  verify: verifyApiDelivery,
};
const ingressRoute = {
  path: "/api/webhooks/{provider}/{org}",
  params: Type.Object({
    ...ProviderParams.properties,
    org: OrgOfDelivery,
  }),
  query: Type.Object(CallbackQuery),
  errors: [...WEBHOOK_ERRORS, "RATE_LIMITED" as const],
  verify: verifyIngressDelivery,
};

const webhookOperations = [
  webhookOperation("POST", {
    ...apiRoute,
    operationId: "paymentWebhook",
    summary: "Process a payment notification forwarded by the ingress",
    description:
      "Called by the ingress (or a forwarder holding `CHECKOUT_API_SECRET`), never by providers. Exactly one `org`. " +
      `The provider's proof is verified again before anything changes. ${PROOFS} ${ANSWERS} ` +
      "503 `WEBHOOKS_DISABLED` while `CHECKOUT_API_SECRET` is unset.",
    checkoutSecret: "required",
  }),
  webhookOperation("GET", {
    ...apiRoute,
    operationId: "paymentWebhookGet",
    summary: "Readiness check, or an Ifthenpay callback forwarded by the ingress",
    description:
      "Without callback parameters: the same readiness answer for any `org`, no secret needed. With Ifthenpay's " +
      `\`key\`: a callback, handled as the POST is (shared secret, \`org\`, proof). ${ANSWERS}`,
    checkoutSecret: "optional",
  }),
  webhookOperation("POST", {
    ...ingressRoute,
    operationId: "paymentWebhookIngress",
    summary: "Receive a payment provider's notification (the URL merchants paste into the provider)",
    description:
      "Served at `CHECKOUT_URL` (shown as `webhookUrl` in the store's integration settings). Past " +
      "`WEBHOOK_RATE_LIMIT_PER_MIN` notifications per provider and organization, a 429. The proof is verified with " +
      `the credentials that apply to the organization. ${PROOFS} Handled here when this process serves the API, ` +
      `else forwarded with the exact bytes to \`${apiRoute.path}\` and its answer relayed. ${ANSWERS}`,
  }),
  webhookOperation("GET", {
    ...ingressRoute,
    operationId: "paymentWebhookIngressGet",
    summary: "Readiness check, or an Ifthenpay callback",
    description:
      "Without callback parameters: the same readiness answer for any organization. With Ifthenpay's `key`: its " +
      `callback, handled as the POST is. ${ANSWERS}`,
  }),
];

export const paymentOperations: Operation[] = [
  listIntegrationsOp,
  getIntegrationOp,
  putIntegrationOp,
  deleteIntegrationOp,
  listPaymentMethodsOp,
  retryPaymentOp,
  confirmPaymentOp,
  ...webhookOperations,
];
