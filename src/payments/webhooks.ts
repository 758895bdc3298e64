import { createHash } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { readRawBody } from "../core/body.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { RawRoute, Service } from "../core/module.ts";
import { errorResponse, JSON_TYPE, jsonResponse } from "../core/respond.ts";
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
import { type Notification, type ReconcileResult, reconcile } from "./reconcile.ts";
import { nowOf, paymentsState } from "./state.ts";
import { findStripeAttempt, parseStripeEvent, readStripeEvent, verifyStripeSignature } from "./stripe.ts";
import type { Provider } from "./tables.ts";

// Provider notifications, in two places:
// - the ingress `GET|POST /api/webhooks/{provider}/{org}` (the URL merchants paste into the
//   provider's dashboard): size and rate limit, provider and org known, the provider's proof
//   verified, then the exact bytes and the proof-carrying headers forwarded to the API route with
//   `x-checkout-secret` (in this process when the API is served here, over HTTP otherwise), and the
//   API's answer relayed;
// - the API route `GET|POST /v1/webhooks/payments/{provider}?org=`: the shared secret, the proof
//   verified again with the same credentials, then reconciliation.
// Logs name the route, provider, org, event id, outcome and status; never query strings (the
// Ifthenpay key travels there), bodies or secret-bearing headers.

export const MAX_WEBHOOK_BYTES = 256 * 1024;
const FORWARDED_HEADERS = [
  "content-type",
  "stripe-signature",
  "authorization",
  "x-request-id",
  "x-forwarded-for",
];
const API_PATH = "/v1/webhooks/payments/:provider";
const INGRESS_PATH = "/api/webhooks/:provider/:org";

const ok = (data: unknown) => jsonResponse(200, { data });

const signatureInvalid = () =>
  new ApiError("WEBHOOK_SIGNATURE_INVALID", "The notification's proof is invalid");
const malformed = (message: string) => new ApiError("VALIDATION_ERROR", message);
const upstream = (message: string) =>
  new ApiError("UPSTREAM_UNAVAILABLE", message, undefined, { "retry-after": "30" });

function unknownProvider(): ApiError {
  return new ApiError("NOT_FOUND", "Unknown payment provider");
}

function orgExists(app: AppContext, orgId: string): boolean {
  return app.platform.sqlite.query("SELECT 1 FROM organizations WHERE id = ?").get(orgId) !== null;
}

/** A GET that carries a callback (Ifthenpay's, with its `key`) rather than asking for readiness. */
const isCallback = (method: string, provider: string, url: URL) =>
  method !== "GET" || (provider === "ifthenpay" && url.searchParams.has("key"));

/** `CHECKOUT_API_SECRET` unset → 503 (fail closed); missing or wrong header → 401. SHA-256 then constant time; no trimming. */
function checkSharedSecret(app: AppContext, given: string | null): void {
  const secret = app.config.checkoutApiSecret;
  if (!secret)
    throw new ApiError("WEBHOOKS_DISABLED", "Payment webhooks are disabled: CHECKOUT_API_SECRET is not set");
  if (given === null || !sameSecret(given, secret)) {
    throw new ApiError("UNAUTHORIZED", "Missing or invalid x-checkout-secret");
  }
}

/** Runs `fn` with the tenant of `org`, or with null for `_`. */
function withTenant<T>(app: AppContext, org: string, fn: (tenant: TenantDb | null) => T): T {
  if (org === "_") return fn(null);
  const tenant = app.tenants.acquire(org);
  try {
    return fn(tenant);
  } finally {
    app.tenants.release(tenant);
  }
}

async function withTenantAsync<T>(
  app: AppContext,
  org: string,
  fn: (tenant: TenantDb) => Promise<T>,
): Promise<T> {
  const tenant = app.tenants.acquire(org);
  try {
    return await fn(tenant);
  } finally {
    app.tenants.release(tenant);
  }
}

const credentials = (app: AppContext, org: string, provider: Provider): Credentials =>
  withTenant(app, org, (tenant) => resolveCredentials(app, tenant, provider, "webhooks"));

/** The Ifthenpay callback's parameters: the query (GET, minus `org`), or a form or JSON body (POST). */
function ifthenpayParams(request: Request, url: URL, body: Uint8Array): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (key !== "org") params[key] = value;
  if (request.method === "GET" || body.length === 0) return params;
  const text = Buffer.from(body).toString("utf8");
  const type = request.headers.get("content-type") ?? "";
  if (/json/i.test(type)) {
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

/** Verifies a notification's proof with the credentials that apply to `org` (shared by the ingress and the API). */
function verifyProof(
  app: AppContext,
  provider: Provider,
  org: string,
  request: Request,
  url: URL,
  body: Uint8Array,
): Credentials {
  if (provider === "stripe") {
    const header = request.headers.get("stripe-signature");
    if (!header) throw signatureInvalid();
    const creds = credentials(app, org, provider);
    if (!verifyStripeSignature(header, body, String(creds.fields.webhookSecret), nowOf(app)))
      throw signatureInvalid();
    return creds;
  }
  if (provider === "ifthenpay") {
    const key = ifthenpayParams(request, url, body).key;
    if (key === undefined) throw signatureInvalid();
    const creds = credentials(app, org, provider);
    if (!sameSecret(key, String(creds.fields.antiPhishingKey))) throw signatureInvalid();
    return creds;
  }
  const creds = credentials(app, org, provider);
  const secret = creds.fields.webhookSecret;
  if (secret !== undefined && !easypayBasicAuthValid(request.headers.get("authorization"), String(secret))) {
    throw signatureInvalid();
  }
  return creds;
}

interface Received {
  outcome: ReconcileResult["outcome"];
  reason?: string;
  eventId?: string;
}

const sha256 = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");

/** Reconciles in the target tenant, mapping a database busy past its timeout to a 503. */
function apply(app: AppContext, org: string, n: Notification): Received {
  try {
    const result = withTenant(app, org, (tenant) => reconcile(app, tenant!, n));
    return { outcome: result.outcome, reason: result.reason, eventId: n.eventId };
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY"))
      throw upstream("The store's database is busy");
    throw error;
  }
}

function noRoute(app: AppContext, provider: Provider, eventId?: string): Received {
  app.log.info("payment webhook without a route", { provider, org: "_", eventId: eventId ?? null });
  return { outcome: "ignored", reason: "no_route", eventId };
}

async function receiveStripe(
  app: AppContext,
  org: string,
  creds: Credentials,
  body: Uint8Array,
): Promise<Received> {
  const event = parseStripeEvent(body);
  if (!event) throw malformed("The event has no id, type or data.object");
  const reading = readStripeEvent(event);
  const target =
    org === "_" ? routeOf(app, "stripe", [reading.attemptId, reading.objectId, reading.paymentIntent]) : org;
  if (!target) return noRoute(app, "stripe", event.id);
  return apply(app, target, {
    provider: "stripe",
    eventId: event.id,
    kind: event.type,
    payloadSha256: sha256(body),
    source: creds.source,
    find: (tenant) => findStripeAttempt(tenant, reading),
    orgId: reading.orgId,
    ref2: reading.ref2 ?? (reading.objectId?.startsWith("pi_") ? reading.objectId : undefined),
    outcome: reading.outcome,
  });
}

function receiveIfthenpay(
  app: AppContext,
  org: string,
  creds: Credentials,
  request: Request,
  url: URL,
  body: Uint8Array,
): Received {
  const callback = callbackFields(ifthenpayParams(request, url, body));
  if (!callback.orderId || !callback.amount) throw malformed("The callback needs orderId and amount");
  if (parseEuroAmount(callback.amount) === null)
    throw malformed("The callback's amount is not a decimal amount");
  const target = org === "_" ? routeOf(app, "ifthenpay", [callback.orderId]) : org;
  const eventId = ifthenpayEventId(callback);
  if (!target) return noRoute(app, "ifthenpay", eventId);
  const orderId = callback.orderId;
  return apply(app, target, {
    provider: "ifthenpay",
    eventId,
    kind: callback.entity !== undefined || callback.reference !== undefined ? "multibanco" : "mbway",
    // The callback's fields without the key (it is a secret; its hash is not kept either).
    payloadSha256: sha256(Buffer.from(JSON.stringify({ ...callback, key: undefined }))),
    source: creds.source,
    find: (tenant) => attemptByRef2(tenant, "ifthenpay", orderId),
    outcome: (attempt) => readIfthenpayCallback(callback, attempt),
    instructions: callback.paymentDatetime ? { paidAt: callback.paymentDatetime } : undefined,
  });
}

/** Easypay's API answered that the resource is not there (401) or could not be asked (503). */
function fetchFailure(error: unknown): never {
  if (error instanceof ProviderError) {
    if (error.status === 404 || error.status === 403) throw signatureInvalid();
    throw upstream("Easypay's API is unavailable");
  }
  throw error;
}

async function receiveEasypay(
  app: AppContext,
  org: string,
  creds: Credentials,
  body: Uint8Array,
): Promise<Received> {
  const note = parseEasypayNotification(body);
  if (!note) throw malformed("The notification has no id or type");
  const target = org === "_" ? routeOf(app, "easypay", [note.key, note.id]) : org;
  if (!target) return noRoute(app, "easypay");
  const payloadSha256 = sha256(body);
  const base = { provider: "easypay" as const, kind: note.type, payloadSha256, source: creds.source };
  // Network calls happen here, outside any transaction.
  return withTenantAsync(app, target, async (tenant): Promise<Received> => {
    const findPayment = (): AttemptRow | null => {
      const byKey = note.key ? findAttempt(tenant, note.key) : null;
      return byKey?.provider === "easypay" ? byKey : attemptByRef(tenant, "easypay", note.id);
    };
    const notRecorded = (reason: string): Received => ({ outcome: "ignored", reason });
    if (
      note.type === "capture" ||
      note.type === "authorisation" ||
      note.type === "void" ||
      note.type === "chargeback"
    ) {
      const attempt = findPayment();
      if (!attempt?.provider_ref) return notRecorded("unknown_order");
      if (attempt.credential_source !== creds.source) return notRecorded("credential_source_mismatch");
      if (note.type === "chargeback" && note.status !== "success") return notRecorded("not_confirmed");
      const single = await fetchSingle(app, creds.fields, attempt.provider_ref).catch(fetchFailure);
      const eventId = `${note.type}:${note.id}:${single.payment_status}`;
      const find = (t: TenantDb) => findAttempt(t, attempt.id);
      if (note.type === "chargeback")
        return apply(app, target, { ...base, eventId, find, outcome: { kind: "CHARGEBACK" } });
      const outcome = singleOutcome(single, attempt);
      // A forged or early notice must never use up the id the real capture arrives under.
      if (!outcome) return notRecorded("not_confirmed");
      return apply(app, target, { ...base, eventId, find, outcome });
    }
    if (note.type === "refund") {
      const refund = tenant.sqlite
        .query("SELECT id, attempt_id, amount FROM payment_refunds WHERE provider_refund_id = ?")
        .get(note.id) as { id: string; attempt_id: string; amount: number } | null;
      if (!refund) return notRecorded("unknown_refund");
      const attempt = findAttempt(tenant, refund.attempt_id)!;
      if (attempt.credential_source !== creds.source) return notRecorded("credential_source_mismatch");
      const fetched = await fetchRefund(app, creds.fields, note.id).catch(fetchFailure);
      return apply(app, target, {
        ...base,
        eventId: `refund:${note.id}:${fetched.status}`,
        find: (t) => findAttempt(t, attempt.id),
        outcome: {
          kind: "REFUND_SYNC",
          refunds: [
            {
              providerRefundId: note.id,
              refundId: refund.id,
              amount: refund.amount,
              status: refundStatusOf(fetched.status),
            },
          ],
        },
      });
    }
    return apply(app, target, {
      ...base,
      eventId: `${note.type}:${note.id}`,
      find: () => null,
      outcome: { kind: "IGNORED", reason: "unhandled_kind" },
    });
  });
}

/** The API route: shared secret, provider, org, body, credentials, proof, reconciliation. */
async function apiWebhook(
  app: AppContext,
  request: Request,
  provider: string,
  requestId: string,
): Promise<Response> {
  const url = new URL(request.url);
  let org: string | null = null;
  let received: Received | undefined;
  let status = 200;
  try {
    if (!isCallback(request.method, provider, url)) {
      if (!isProvider(provider)) throw unknownProvider();
      return ok({ provider, ready: true });
    }
    checkSharedSecret(app, request.headers.get("x-checkout-secret"));
    if (!isProvider(provider)) throw unknownProvider();
    const orgs = url.searchParams.getAll("org");
    if (orgs.length !== 1) throw malformed("Exactly one org query parameter is required");
    org = orgs[0]!;
    if (org !== "_" && !orgExists(app, org)) throw notFound("Organization");
    const body = await readRawBody(request, MAX_WEBHOOK_BYTES);
    const creds = verifyProof(app, provider, org, request, url, body);
    if (provider === "stripe") received = await receiveStripe(app, org, creds, body);
    else if (provider === "ifthenpay") received = receiveIfthenpay(app, org, creds, request, url, body);
    else received = await receiveEasypay(app, org, creds, body);
    return ok({ received: true, outcome: received.outcome });
  } catch (error) {
    const response = errorResponse(error, app.log, requestId);
    status = response.status;
    return response;
  } finally {
    app.log.info("payment webhook", {
      route: API_PATH,
      provider,
      org,
      eventId: received?.eventId ?? null,
      outcome: received?.outcome ?? null,
      reason: received?.reason ?? null,
      status,
      requestId,
    });
  }
}

/** The ingress: verify, forward the exact bytes, relay the API's answer. */
async function ingressWebhook(
  app: AppContext,
  request: Request,
  provider: string,
  org: string,
  requestId: string,
  api: (request: Request) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (!isCallback(request.method, provider, url)) {
      if (!isProvider(provider)) throw unknownProvider();
      return ok({ provider, ready: true });
    }
    const declared = request.headers.get("content-length");
    if (declared !== null && Number(declared) > MAX_WEBHOOK_BYTES) {
      throw new ApiError(
        "PAYLOAD_TOO_LARGE",
        `Notification bodies are limited to ${MAX_WEBHOOK_BYTES} bytes`,
      );
    }
    paymentsState(app).limiter.hit(`${provider}:${org}`);
    if (!app.config.checkoutApiSecret) {
      throw new ApiError(
        "WEBHOOKS_DISABLED",
        "Payment webhooks are disabled: CHECKOUT_API_SECRET is not set",
      );
    }
    if (!isProvider(provider)) throw unknownProvider();
    if (org !== "_" && !orgExists(app, org)) throw notFound("Organization");
    const body = await readRawBody(request, MAX_WEBHOOK_BYTES);
    verifyProof(app, provider, org, request, url, body);

    // Our own `org` first, then the provider's parameters (a provider parameter named org is dropped).
    const query = new URLSearchParams({ org });
    for (const [key, value] of url.searchParams) if (key !== "org") query.append(key, value);
    const headers = new Headers({ "x-checkout-secret": app.config.checkoutApiSecret });
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    if (!headers.has("x-request-id")) headers.set("x-request-id", requestId);
    const target = `${app.config.apiPublicUrl}/v1/webhooks/payments/${provider}?${query}`;
    const init: RequestInit = {
      method: request.method,
      headers,
      body: request.method === "GET" ? undefined : body,
    };
    let answer: Response;
    if (app.config.apiPublicUrl === app.config.baseUrl) answer = await api(new Request(target, init));
    else {
      try {
        answer = await fetch(target, { ...init, signal: AbortSignal.timeout(10_000), redirect: "error" });
      } catch {
        throw upstream("The payment API could not be reached");
      }
    }
    const relayed = new Headers({ "content-type": JSON_TYPE });
    const retryAfter = answer.headers.get("retry-after");
    if (retryAfter) relayed.set("retry-after", retryAfter);
    return new Response(await answer.arrayBuffer(), { status: answer.status, headers: relayed });
  } catch (error) {
    return errorResponse(error, app.log, requestId);
  }
}

/** The four webhook routes (outside the operation registry: they read headers and find their tenant after the proof). */
export function paymentWebhookRoutes(service: Service): RawRoute[] {
  const app = service.ctx;
  const api = (request: Request, provider: string, requestId: string) =>
    apiWebhook(app, request, provider, requestId);
  const ingress: RawRoute["handle"] = (request, params, requestId) =>
    ingressWebhook(app, request, params.provider!, params.org!, requestId, (forwarded) =>
      api(forwarded, params.provider!, forwarded.headers.get("x-request-id") ?? requestId),
    );
  const apiRoute: RawRoute["handle"] = (request, params, requestId) =>
    api(request, params.provider!, requestId);
  return [
    { method: "POST", path: API_PATH, handle: apiRoute },
    { method: "GET", path: API_PATH, handle: apiRoute },
    { method: "POST", path: INGRESS_PATH, handle: ingress },
    { method: "GET", path: INGRESS_PATH, handle: ingress },
  ];
}
