import { createHash } from "node:crypto";
import { type Static, Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { checkJsonDepth } from "../core/body.ts";
import { ApiError, ERROR_STATUS, type ErrorCode, type ErrorDetail, notFound } from "../core/errors.ts";
import { named } from "../core/schemas.ts";
import { organizationExists } from "../db/platform.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { type AttemptRow, attemptByRef, attemptByRef2, findAttempt, routeOf } from "./attempts.ts";
import {
  easypayBasicAuthValid,
  fetchRefund,
  fetchSingle,
  parseEasypayNotification,
  refundStatusOf,
  singleOutcome,
} from "./easypay.ts";
import { ProviderError } from "./http.ts";
import {
  callbackFields,
  ifthenpayEventId,
  parseEuroAmount,
  readIfthenpayCallback,
  sameSecret,
} from "./ifthenpay.ts";
import { type Credentials, isProvider, resolveCredentials } from "./integrations.ts";
import { type Notification, reconcileInTransaction } from "./reconcile.ts";
import { nowOf, paymentsState } from "./state.ts";
import { findStripeAttempt, parseStripeEvent, readStripeEvent, verifyStripeSignature } from "./stripe.ts";
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
// proof holds.
// Logs name the provider, org, event id and outcome (the request's line adds route and status);
// never query strings (the Ifthenpay key travels there), bodies or secret-bearing headers.

const MAX_WEBHOOK_BYTES = 256 * 1024;
const FORWARDED_HEADERS = ["content-type", "stripe-signature", "authorization", "x-forwarded-for"];

/** What a webhook operation was sent, as the executor hands it over. */
export interface Delivery {
  method: "GET" | "POST";
  provider: string;
  /** The organization the path (ingress) or the `org` query parameter (API) names. */
  org: string | undefined;
  /** The provider's parameters in the query (Ifthenpay's callback), as declared. */
  query: Record<string, string | undefined>;
  headers: Headers;
  body: Uint8Array;
}

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

/** What `prepare` hands on: an answer that needs no tenant, or what the notification means for one. */
export type Verified =
  | { kind: "answer"; answer: Answer }
  /** Verified, and about nothing this service records (no route, an Easypay notice not confirmed). */
  | { kind: "ignored"; provider: Provider; org: string; eventId?: string; reason: string }
  | { kind: "notification"; org: string; notification: Notification };

const signatureInvalid = () =>
  new ApiError("WEBHOOK_SIGNATURE_INVALID", "The notification's proof is invalid");
const malformed = (message: string) => new ApiError("VALIDATION_ERROR", message);
const upstream = (message: string) =>
  new ApiError("UPSTREAM_UNAVAILABLE", message, undefined, { "retry-after": "30" });
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

/** A GET that carries a callback (Ifthenpay's, with its `key`) rather than asking for readiness. */
const isCallback = (d: Delivery) =>
  d.method !== "GET" || (d.provider === "ifthenpay" && d.query.key !== undefined);

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

/** The Ifthenpay callback's parameters: the query (GET), or a form or JSON body (POST); never `org`. */
function ifthenpayParams(d: Delivery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(d.query)) if (value !== undefined) params[key] = value;
  if (d.method === "GET" || d.body.length === 0) return params;
  const text = Buffer.from(d.body).toString("utf8");
  const type = d.headers.get("content-type") ?? "";
  if (/json/i.test(type)) {
    // Checked before the key is compared: `String` of a deeply nested array recurses.
    checkJsonDepth(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw malformed("The callback body is not valid JSON");
    }
    if (value && typeof value === "object") {
      for (const [key, v] of Object.entries(value)) if (key !== "org" && v !== null) params[key] = String(v);
    }
  } else {
    for (const [key, value] of new URLSearchParams(text)) if (key !== "org") params[key] = value;
  }
  return params;
}

/**
 * Verifies a notification's proof with the credentials that apply to `org` (shared by the ingress and
 * the API). Stripe's and Ifthenpay's proofs are looked for before any credentials are read.
 */
function verifyProof(ctx: AppContext, provider: Provider, org: string, d: Delivery): Credentials {
  if (provider === "stripe") {
    const header = d.headers.get("stripe-signature");
    if (!header) throw signatureInvalid();
    const creds = credentials(ctx, org, provider);
    if (!verifyStripeSignature(header, d.body, String(creds.fields.webhookSecret), nowOf(ctx)))
      throw signatureInvalid();
    return creds;
  }
  if (provider === "ifthenpay") {
    const key = ifthenpayParams(d).key;
    if (key === undefined) throw signatureInvalid();
    const creds = credentials(ctx, org, provider);
    if (!sameSecret(key, String(creds.fields.antiPhishingKey))) throw signatureInvalid();
    return creds;
  }
  const creds = credentials(ctx, org, provider);
  const secret = creds.fields.webhookSecret;
  if (secret !== undefined && !easypayBasicAuthValid(d.headers.get("authorization"), String(secret))) {
    throw signatureInvalid();
  }
  return creds;
}

const sha256 = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");

const noRoute = (provider: Provider, eventId?: string): Verified => ({
  kind: "ignored",
  provider,
  org: "_",
  eventId,
  reason: "no_route",
});

function receiveStripe(ctx: AppContext, org: string, creds: Credentials, body: Uint8Array): Verified {
  const event = parseStripeEvent(body);
  if (!event) throw malformed("The event has no id, type or data.object");
  const reading = readStripeEvent(event);
  const target =
    org === "_" ? routeOf(ctx, "stripe", [reading.attemptId, reading.objectId, reading.paymentIntent]) : org;
  if (!target) return noRoute("stripe", event.id);
  return {
    kind: "notification",
    org: target,
    notification: {
      provider: "stripe",
      eventId: event.id,
      kind: event.type,
      payloadSha256: sha256(body),
      source: creds.source,
      find: (tenant) => findStripeAttempt(tenant, reading),
      orgId: reading.orgId,
      ref2: reading.ref2 ?? (reading.objectId?.startsWith("pi_") ? reading.objectId : undefined),
      outcome: reading.outcome,
    },
  };
}

function receiveIfthenpay(ctx: AppContext, org: string, creds: Credentials, d: Delivery): Verified {
  const callback = callbackFields(ifthenpayParams(d));
  if (!callback.orderId || !callback.amount) throw malformed("The callback needs orderId and amount");
  if (parseEuroAmount(callback.amount) === null)
    throw malformed("The callback's amount is not a decimal amount");
  const target = org === "_" ? routeOf(ctx, "ifthenpay", [callback.orderId]) : org;
  const eventId = ifthenpayEventId(callback);
  if (!target) return noRoute("ifthenpay", eventId);
  const orderId = callback.orderId;
  return {
    kind: "notification",
    org: target,
    notification: {
      provider: "ifthenpay",
      eventId,
      kind: callback.entity !== undefined || callback.reference !== undefined ? "multibanco" : "mbway",
      // The callback's fields without the key (it is a secret; its hash is not kept either).
      payloadSha256: sha256(Buffer.from(JSON.stringify({ ...callback, key: undefined }))),
      source: creds.source,
      find: (tenant) => attemptByRef2(tenant, "ifthenpay", orderId),
      outcome: (attempt) => readIfthenpayCallback(callback, attempt),
      instructions: callback.paymentDatetime ? { paidAt: callback.paymentDatetime } : undefined,
    },
  };
}

/** Easypay's API answered that the resource is not there (401) or could not be asked (503). */
function fetchFailure(error: unknown): never {
  if (error instanceof ProviderError) {
    if (error.status === 404 || error.status === 403) throw signatureInvalid();
    throw upstream("Easypay's API is unavailable");
  }
  throw error;
}

const CONFIRMED_BY_FETCH = new Set(["capture", "authorisation", "void", "chargeback"]);

/** What an Easypay notice means once Easypay's API confirmed it: read from the store's file, asked over the network. */
async function receiveEasypay(
  ctx: AppContext,
  org: string,
  creds: Credentials,
  body: Uint8Array,
): Promise<Verified> {
  const note = parseEasypayNotification(body);
  if (!note) throw malformed("The notification has no id or type");
  const target = org === "_" ? routeOf(ctx, "easypay", [note.key, note.id]) : org;
  if (!target) return noRoute("easypay");
  const base = {
    provider: "easypay" as const,
    kind: note.type,
    payloadSha256: sha256(body),
    source: creds.source,
  };
  const notification = (
    eventId: string,
    attemptId: string | null,
    outcome: Notification["outcome"],
  ): Verified => ({
    kind: "notification",
    org: target,
    notification: {
      ...base,
      eventId,
      find: (tenant) => (attemptId ? findAttempt(tenant, attemptId) : null),
      outcome,
    },
  });
  const notRecorded = (reason: string): Verified => ({
    kind: "ignored",
    provider: "easypay",
    org: target,
    reason,
  });
  // Network calls happen here, before any transaction.
  return ctx.tenants.with(target, async (tenant: TenantDb): Promise<Verified> => {
    if (CONFIRMED_BY_FETCH.has(note.type)) {
      const byKey = note.key ? findAttempt(tenant, note.key) : null;
      const attempt: AttemptRow | null =
        byKey?.provider === "easypay" ? byKey : attemptByRef(tenant, "easypay", note.id);
      if (!attempt?.provider_ref) return notRecorded("unknown_order");
      if (attempt.credential_source !== creds.source) return notRecorded("credential_source_mismatch");
      if (note.type === "chargeback" && note.status !== "success") return notRecorded("not_confirmed");
      const single = await fetchSingle(ctx, creds.fields, attempt.provider_ref).catch(fetchFailure);
      const eventId = `${note.type}:${note.id}:${single.payment_status}`;
      if (note.type === "chargeback") return notification(eventId, attempt.id, { kind: "CHARGEBACK" });
      const outcome = singleOutcome(single, attempt);
      // A forged or early notice must never use up the id the real capture arrives under.
      if (!outcome) return notRecorded("not_confirmed");
      return notification(eventId, attempt.id, outcome);
    }
    if (note.type === "refund") {
      const refund = tenant.sqlite
        .query("SELECT id, attempt_id, amount FROM payment_refunds WHERE provider_refund_id = ?")
        .get(note.id) as { id: string; attempt_id: string; amount: number } | null;
      if (!refund) return notRecorded("unknown_refund");
      const attempt = findAttempt(tenant, refund.attempt_id)!;
      if (attempt.credential_source !== creds.source) return notRecorded("credential_source_mismatch");
      const fetched = await fetchRefund(ctx, creds.fields, note.id).catch(fetchFailure);
      const status = refundStatusOf(fetched.status);
      return notification(`refund:${note.id}:${fetched.status}`, attempt.id, {
        kind: "REFUND_SYNC",
        refunds: [{ providerRefundId: note.id, refundId: refund.id, amount: refund.amount, status }],
      });
    }
    return notification(`${note.type}:${note.id}`, null, { kind: "IGNORED", reason: "unhandled_kind" });
  });
}

function receive(
  ctx: AppContext,
  provider: Provider,
  org: string,
  creds: Credentials,
  d: Delivery,
): Verified | Promise<Verified> {
  if (provider === "stripe") return receiveStripe(ctx, org, creds, d.body);
  if (provider === "ifthenpay") return receiveIfthenpay(ctx, org, creds, d);
  return receiveEasypay(ctx, org, creds, d.body);
}

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
