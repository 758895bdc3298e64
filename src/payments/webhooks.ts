import { type Static, Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { ApiError, ERROR_STATUS, type ErrorCode, type ErrorDetail, notFound } from "../core/errors.ts";
import { named } from "../core/schemas.ts";
import { organizationExists } from "../db/platform.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { Credentials } from "./fields.ts";
import { sameSecret } from "./ifthenpay.ts";
import { isProvider, resolveCredentials } from "./integrations.ts";
import { type Delivery, malformed, type Received, upstream } from "./provider.ts";
import { reconcileInTransaction } from "./reconcile.ts";
import { providerOf } from "./registry.ts";
import { nowOf, paymentsState } from "./state.ts";
import { EVENT_OUTCOMES, type Provider } from "./tables.ts";

// Provider notifications arrive at two pairs of `webhook` operations (declared in routes.ts):
// - the ingress `GET|POST /api/webhooks/{provider}/{org}` (the URL merchants paste into the
//   provider's dashboard): size and rate limit, provider and org known, the provider's proof
//   verified; then reconciled here when this process serves the API, else the exact bytes and the
//   proof-carrying headers are forwarded to the API route with `x-checkout-secret` and its answer
//   relayed;
// - the API route `GET|POST /v1/webhooks/payments/{provider}?org=`: the shared secret, the proof
//   verified again with the same credentials, then reconciliation.
// All of it up to what a notification means (Easypay's API asked) runs in the operation's
// `prepare`, before the executor takes any tenant; the tenant the notification is about (for `_`,
// found from the payment) is then written in the executor's transaction. A store's own webhook
// secret lives in its file, so verifying with it reads that file; nothing is written before the
// proof holds. What differs between providers (the proof, what a notification says, how to find
// its payment) is each provider's `verifyNotification` and `parseNotification` (provider.ts).
// Logs name the provider, org, event id and outcome (the request's line adds route and status);
// never query strings (the Ifthenpay key travels there), bodies or secret-bearing headers.

const MAX_WEBHOOK_BYTES = 256 * 1024;
const FORWARDED_HEADERS = ["content-type", "stripe-signature", "authorization", "x-forwarded-for"];

export const WebhookAnswer = named(
  "PaymentWebhookAnswer",
  Type.Union([
    Type.Object(
      {
        received: Type.Literal(true),
        outcome: Type.Union(
          [...EVENT_OUTCOMES, "duplicate" as const].map((o) => Type.Literal(o)),
          {
            description:
              "`applied`; `duplicate` (seen before: nothing done again); `ignored` (about nothing of this " +
              "store's); `stale` (out of date); `flagged` (needs the merchant: see the order's paymentFlags)",
          },
        ),
      },
      { description: "A verified notification, handled: providers stop retrying" },
    ),
    Type.Object(
      { provider: Type.String(), ready: Type.Literal(true) },
      { description: "A readiness check (a GET without callback parameters)" },
    ),
  ]),
);
type Answer = Static<typeof WebhookAnswer>;

/** What the API route can answer besides 200, and so what the ingress relays from it. */
export const WEBHOOK_ERRORS: ErrorCode[] = [
  "VALIDATION_ERROR",
  "UNAUTHORIZED",
  "WEBHOOK_SIGNATURE_INVALID",
  "NOT_FOUND",
  "PAYLOAD_TOO_LARGE",
  "INTERNAL",
  "UNAVAILABLE",
  "WEBHOOKS_DISABLED",
  "PROVIDER_NOT_CONFIGURED",
  "UPSTREAM_UNAVAILABLE",
];

/**
 * What `prepare` hands on: an answer that needs no tenant, or what a verified notification means
 * (about nothing this service records: no route, an Easypay notice not confirmed; or for a store).
 */
export type Verified = { kind: "answer"; answer: Answer } | Received;

const disabled = () =>
  new ApiError("WEBHOOKS_DISABLED", "Payment webhooks are disabled: CHECKOUT_API_SECRET is not set");

function knownProvider(provider: string): Provider {
  if (!isProvider(provider)) throw new ApiError("NOT_FOUND", "Unknown payment provider");
  return provider;
}

function existingOrg(ctx: AppContext, org: string): string {
  if (org !== "_" && !organizationExists(ctx.platform, org)) throw notFound("Organization");
  return org;
}

function checkSize(d: Delivery): void {
  if (d.body.length > MAX_WEBHOOK_BYTES)
    throw new ApiError("PAYLOAD_TOO_LARGE", `Notification bodies are limited to ${MAX_WEBHOOK_BYTES} bytes`);
}

/** A GET that carries a callback (the provider says: Ifthenpay's, by its `key`) rather than asking for readiness. */
const isCallback = (d: Delivery) =>
  d.method !== "GET" || (isProvider(d.provider) && providerOf(d.provider).notifiesByGet?.(d.query) === true);

const readiness = (d: Delivery): Verified => ({
  kind: "answer",
  answer: { provider: knownProvider(d.provider), ready: true },
});

/** `CHECKOUT_API_SECRET` unset → 503 (fail closed); missing or wrong header → 401. SHA-256 then constant time; no trimming. */
function checkSharedSecret(ctx: AppContext, given: string | null): void {
  const secret = ctx.config.checkoutApiSecret;
  if (!secret) throw disabled();
  if (given === null || !sameSecret(given, secret)) {
    throw new ApiError("UNAUTHORIZED", "Missing or invalid x-checkout-secret");
  }
}

/** The credentials that apply to `org` (the environment's for `_`), read with a short lease of its file. */
function credentials(ctx: AppContext, org: string, provider: Provider): Credentials {
  if (org === "_") return resolveCredentials(ctx, null, provider, "webhooks");
  const tenant = ctx.tenants.acquire(org);
  try {
    return resolveCredentials(ctx, tenant, provider, "webhooks");
  } finally {
    ctx.tenants.release(tenant);
  }
}

/**
 * Verifies a notification's proof with the credentials that apply to `org` (shared by the ingress and
 * the API). A provider looks for its proof before any credentials are read (Stripe's, Ifthenpay's).
 */
function verifyProof(ctx: AppContext, provider: Provider, org: string, d: Delivery): Credentials {
  return providerOf(provider).verifyNotification(d, () => credentials(ctx, org, provider), nowOf(ctx));
}

const receive = (ctx: AppContext, provider: Provider, org: string, creds: Credentials, d: Delivery) =>
  providerOf(provider).parseNotification(ctx, org, creds, d);

/** The API route, in order: readiness, shared secret, provider, org, size, proof; then what the notification means. */
export async function verifyApiDelivery(ctx: AppContext, d: Delivery): Promise<Verified> {
  if (!isCallback(d)) return readiness(d);
  checkSharedSecret(ctx, d.headers.get("x-checkout-secret"));
  const provider = knownProvider(d.provider);
  if (d.org === undefined) throw malformed("Exactly one org query parameter is required");
  const org = existingOrg(ctx, d.org);
  checkSize(d);
  return receive(ctx, provider, org, verifyProof(ctx, provider, org, d), d);
}

/** The ingress, in order: readiness, size, rate limit, switched on, provider, org, proof; then handled here or forwarded. */
export async function verifyIngressDelivery(
  ctx: AppContext,
  d: Delivery,
  requestId: string,
): Promise<Verified> {
  if (!isCallback(d)) return readiness(d);
  checkSize(d);
  paymentsState(ctx).limiter.hit(`${d.provider}:${d.org}`);
  if (!ctx.config.checkoutApiSecret) throw disabled();
  const provider = knownProvider(d.provider);
  const org = existingOrg(ctx, d.org ?? "");
  const creds = verifyProof(ctx, provider, org, d);
  // The API route of this process would verify the same bytes with the same credentials again.
  if (ctx.config.apiPublicUrl === ctx.config.baseUrl) return receive(ctx, provider, org, creds, d);
  return { kind: "answer", answer: await forward(ctx, provider, org, d, requestId) };
}

/** Sends the exact bytes and the proof-carrying headers to the API route of another process. */
async function forward(
  ctx: AppContext,
  provider: Provider,
  org: string,
  d: Delivery,
  requestId: string,
): Promise<Answer> {
  // Our own `org` first, then the provider's parameters.
  const query = new URLSearchParams({ org });
  for (const [key, value] of Object.entries(d.query)) if (value !== undefined) query.append(key, value);
  const headers = new Headers({
    "x-checkout-secret": ctx.config.checkoutApiSecret!,
    "x-request-id": requestId,
  });
  for (const name of FORWARDED_HEADERS) {
    const value = d.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  let answer: { status: number; retryAfter: string | null; text: string };
  try {
    const response = await fetch(`${ctx.config.apiPublicUrl}/v1/webhooks/payments/${provider}?${query}`, {
      method: d.method,
      headers,
      body: d.method === "GET" ? undefined : d.body,
      signal: AbortSignal.timeout(10_000),
      redirect: "error",
    });
    answer = {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      text: await response.text(),
    };
  } catch {
    throw upstream("The payment API could not be reached");
  }
  return relayed(answer);
}

/** The API route's answer as the ingress's own: its data, or its error when it is one the route declares; else a 503. */
function relayed(answer: { status: number; retryAfter: string | null; text: string }): Answer {
  let body: { data?: Answer; error?: unknown; code?: ErrorCode; details?: ErrorDetail[] } | null = null;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // Not ours (a proxy's page): answered below as the API being unreachable.
  }
  if (answer.status === 200 && body?.data) return body.data;
  const code = body?.code;
  if (code && WEBHOOK_ERRORS.includes(code) && ERROR_STATUS[code] === answer.status) {
    const headers = answer.retryAfter ? { "retry-after": answer.retryAfter } : undefined;
    throw new ApiError(code, String(body?.error), body?.details, headers);
  }
  throw upstream(`The payment API answered ${answer.status}`);
}

/** The tenant a verified delivery is written to: the one its notification is about, else none. */
export const tenantOfVerified = (verified: Verified): string | null =>
  verified.kind === "notification" ? verified.org : null;

/**
 * The operations' handler: reconciles a notification in the executor's transaction on its tenant
 * (`tenant` is read only then), or answers what needs no tenant.
 */
export function settle(
  call: { ctx: AppContext; requestId: string; tenant: TenantDb },
  verified: Verified,
): Answer {
  if (verified.kind === "answer") return verified.answer;
  const { ctx, requestId } = call;
  const result =
    verified.kind === "ignored"
      ? { outcome: "ignored" as const, reason: verified.reason, eventId: verified.eventId }
      : {
          ...reconcileInTransaction(ctx, call.tenant, verified.notification),
          eventId: verified.notification.eventId,
        };
  ctx.log.info("payment webhook", {
    provider: verified.kind === "ignored" ? verified.provider : verified.notification.provider,
    org: verified.org,
    eventId: result.eventId ?? null,
    outcome: result.outcome,
    reason: result.reason ?? null,
    requestId,
  });
  return { received: true, outcome: result.outcome };
}
