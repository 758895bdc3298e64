import type { AppContext } from "../app-context.ts";
import { checkJsonDepth } from "../core/body.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { iso } from "../lib/time.ts";
import { type AttemptRow, attemptByRef, findAttempt, instructionsOf, routeOf } from "./attempts.ts";
import type { Credentials, Fields } from "./fields.ts";
import { pattern, UUID } from "./fields.ts";
import { type ProviderEndpoint, ProviderError, providerFetch } from "./http.ts";
import { sameSecret } from "./ifthenpay.ts";
import {
  isOpened,
  MBWAY_WINDOW_MS,
  malformed,
  mbWayExpiry,
  noRoute,
  type OpenedAttempt,
  type OpenedPayment,
  type PaymentProvider,
  type Polled,
  type Received,
  referenceExpiry,
  type StartInput,
  sha256,
  signatureInvalid,
  upstream,
} from "./provider.ts";
import type { Notification, PaymentOutcome } from "./reconcile.ts";
import type { RefundStatus } from "./tables.ts";

// Easypay 2.0: single payments (Multibanco, MB WAY), refunds, and its generic notification, which is
// only a trigger: the resource is fetched again from Easypay's API with the account's credentials
// and only the fetched state is trusted. `easypayProvider` is built on them.

/** Days a Multibanco reference is asked for; Easypay's answer decides (see `openSingle`). */
const MULTIBANCO_DAYS = 3;

const ORIGINS = { production: "https://api.prod.easypay.pt", sandbox: "https://api.test.easypay.pt" };

/** The API origin: the operator's EASYPAY_BASE_URL, else the tenant's environment's (never a tenant-set URL). */
function easypayBase(ctx: AppContext, fields: Fields): string {
  return (
    ctx.config.payments.easypayBaseUrl ??
    (fields.environment === "sandbox" ? ORIGINS.sandbox : ORIGINS.production)
  );
}

const endpoint = (ctx: AppContext, fields: Fields): ProviderEndpoint => ({
  base: easypayBase(ctx, fields),
  headers: { AccountId: String(fields.accountId), ApiKey: String(fields.apiKey) },
  timeoutMs: 5_000,
});

/** When a webhook secret applies: `authorization: Basic …` whose password equals it (the user part is ignored). */
export function easypayBasicAuthValid(header: string | null, secret: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon >= 0 && sameSecret(decoded.slice(colon + 1), secret);
}

interface EasypayNotification {
  id: string;
  key?: string;
  type: string;
  status?: string;
}

export function parseEasypayNotification(body: Uint8Array): EasypayNotification | null {
  const text = Buffer.from(body).toString("utf8");
  checkJsonDepth(text);
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value?.id !== "string" || value.id === "" || typeof value.type !== "string") return null;
    return {
      id: value.id,
      key: typeof value.key === "string" && value.key !== "" ? value.key : undefined,
      type: value.type,
      status: typeof value.status === "string" ? value.status : undefined,
    };
  } catch {
    return null;
  }
}

interface EasypaySingle {
  id: string;
  key?: string;
  value: number;
  currency: string;
  payment_status: string;
  method?: { type?: string; entity?: string | number; reference?: string };
  expiration_time?: string;
}

/** Decimal euros → minor units (rounded). */
const minorOf = (value: number) => Math.round(value * 100);

/** Easypay's `YYYY-MM-DD HH:mm`, written in UTC (the service reads its answers back the same way). */
export const easypayTime = (ms: number) => iso(ms).slice(0, 16).replace("T", " ");

/** Easypay's `expiration_time` (`YYYY-MM-DD HH:mm`, optional seconds) as epoch ms in UTC, or null. */
export function parseEasypayTime(text: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text ?? "");
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const ms = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  // Date.UTC rolls 2026-02-30 over into March: such a time is not one Easypay meant.
  return easypayTime(ms) === `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}` ? ms : null;
}

export async function fetchSingle(
  ctx: AppContext,
  fields: Fields,
  paymentId: string,
): Promise<EasypaySingle> {
  return (await providerFetch(
    endpoint(ctx, fields),
    "GET",
    `/2.0/single/${encodeURIComponent(paymentId)}`,
  )) as EasypaySingle;
}

export async function fetchRefund(
  ctx: AppContext,
  fields: Fields,
  refundId: string,
): Promise<{ id: string; status: string; value?: number }> {
  return (await providerFetch(
    endpoint(ctx, fields),
    "GET",
    `/2.0/refund/${encodeURIComponent(refundId)}`,
  )) as {
    id: string;
    status: string;
    value?: number;
  };
}

/**
 * Checks an account's credentials with the cheapest authenticated call Easypay documents (one page
 * of one payment from its payments report). Easypay answers 403 to unknown or blocked credentials.
 */
export async function checkEasypayCredentials(ctx: AppContext, fields: Fields): Promise<void> {
  await providerFetch(endpoint(ctx, fields), "GET", "/2.0/single?page=1&records_per_page=1");
}

export async function createSingle(
  ctx: AppContext,
  fields: Fields,
  body: Record<string, unknown>,
): Promise<EasypaySingle & { status?: string }> {
  return (await providerFetch(endpoint(ctx, fields), "POST", "/2.0/single", {
    json: body,
  })) as EasypaySingle & {
    status?: string;
  };
}

export async function createEasypayRefund(
  ctx: AppContext,
  fields: Fields,
  paymentId: string,
  body: { transaction_key: string; value: number },
): Promise<{ id: string; status?: string }> {
  return (await providerFetch(endpoint(ctx, fields), "POST", `/2.0/refund/${encodeURIComponent(paymentId)}`, {
    json: body,
  })) as { id: string; status?: string };
}

/** A payment's fetched state → outcome; null for `pending`/`active` (not confirmed: nothing is recorded). */
export function singleOutcome(
  single: EasypaySingle,
  attempt: { id: string; provider_ref: string | null },
): PaymentOutcome | null {
  switch (single.payment_status) {
    case "paid": {
      const forceMismatch =
        single.id !== attempt.provider_ref || (single.key !== undefined && single.key !== attempt.id);
      return {
        kind: "SUCCEEDED",
        amount: minorOf(Number(single.value)),
        currency: String(single.currency ?? ""),
        forceMismatch,
      };
    }
    case "authorised":
      return { kind: "AUTHORIZED" };
    case "failed":
    case "error":
      return { kind: "FAILED_FINAL", error: single.payment_status };
    case "deleted":
    case "voided":
      return { kind: "EXPIRED", reason: single.payment_status };
    default:
      return null;
  }
}

export function refundStatusOf(status: string): RefundStatus {
  if (status === "success") return "succeeded";
  if (status === "failed") return "failed";
  return "pending";
}

// ---------------------------------------------------------------- the provider

/** A single payment, by Multibanco reference or MB WAY request. */
async function openSingle(input: StartInput): Promise<OpenedPayment> {
  const { ctx, attempt, order } = input;
  const multibanco = attempt.method === "multibanco";
  const phone = instructionsOf(attempt).phone;
  const single = await createSingle(ctx, input.fields, {
    type: "sale",
    key: attempt.id,
    value: attempt.amount / 100,
    currency: attempt.currency,
    method: attempt.method === "mbway" ? "mbw" : "mb",
    customer: {
      email: order.email,
      key: order.customer_id,
      ...(phone ? { phone, phone_indicative: "+351" } : {}),
    },
    capture: { transaction_key: attempt.id, descriptive: input.description },
    ...(multibanco ? { expiration_time: easypayTime(attempt.expires_at) } : {}),
  });
  if (!multibanco) return { providerRef: single.id, expiresAt: mbWayExpiry(input) };
  return {
    providerRef: single.id,
    instructions: {
      entity: single.method?.entity === undefined ? undefined : String(single.method.entity),
      reference: single.method?.reference?.replace(/\s/g, ""),
    },
    // Easypay decides how long the reference stays payable: its answer is the attempt's expiry.
    expiresAt: parseEasypayTime(single.expiration_time) ?? attempt.expires_at,
  };
}

/** The payment's state as Easypay's API tells it. */
async function poll(ctx: AppContext, fields: Fields, attempt: OpenedAttempt): Promise<Polled> {
  const single = await fetchSingle(ctx, fields, attempt.provider_ref);
  return { state: single.payment_status, outcome: singleOutcome(single, attempt) };
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
async function receiveNotice(
  ctx: AppContext,
  org: string,
  creds: Credentials,
  body: Uint8Array,
): Promise<Received> {
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
  ): Received => ({
    kind: "notification",
    org: target,
    notification: {
      ...base,
      eventId,
      find: (tenant) => (attemptId ? findAttempt(tenant, attemptId) : null),
      outcome,
    },
  });
  const notRecorded = (reason: string): Received => ({
    kind: "ignored",
    provider: "easypay",
    org: target,
    reason,
  });
  // Network calls happen here, before any transaction.
  return ctx.tenants.with(target, async (tenant: TenantDb): Promise<Received> => {
    if (CONFIRMED_BY_FETCH.has(note.type)) {
      const byKey = note.key ? findAttempt(tenant, note.key) : null;
      const attempt: AttemptRow | null =
        byKey?.provider === "easypay" ? byKey : attemptByRef(tenant, "easypay", note.id);
      if (!attempt || !isOpened(attempt)) return notRecorded("unknown_order");
      if (attempt.credential_source !== creds.source) return notRecorded("credential_source_mismatch");
      if (note.type === "chargeback" && note.status !== "success") return notRecorded("not_confirmed");
      const polled = await poll(ctx, creds.fields, attempt).catch(fetchFailure);
      const eventId = `${note.type}:${note.id}:${polled.state}`;
      if (note.type === "chargeback") return notification(eventId, attempt.id, { kind: "CHARGEBACK" });
      // A forged or early notice must never use up the id the real capture arrives under.
      if (!polled.outcome) return notRecorded("not_confirmed");
      return notification(eventId, attempt.id, polled.outcome);
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

export const easypayProvider: PaymentProvider = {
  name: "easypay",
  label: "Easypay",
  methods: ["mbway", "multibanco"],
  fields: [
    { name: "accountId", secret: false, check: pattern(UUID, "a UUID"), env: "EASYPAY_ACCOUNT_ID" },
    { name: "apiKey", secret: true, check: pattern(UUID, "a UUID"), env: "EASYPAY_API_KEY" },
    {
      name: "webhookSecret",
      secret: true,
      check: pattern(/^[\x20-\x7e]{16,128}$/, "16 to 128 printable characters"),
      env: "EASYPAY_WEBHOOK_SECRET",
    },
    {
      name: "environment",
      secret: false,
      check: (value) =>
        value === "production" || value === "sandbox" ? null : "must be production or sandbox",
      fallback: "production",
    },
  ],
  needs: {
    webhooks: ["accountId", "apiKey"],
    multibanco: ["accountId", "apiKey"],
    mbway: ["accountId", "apiKey"],
    refunds: ["accountId", "apiKey"],
  },
  plan: ({ method, now }) => ({
    expiresAt: method === "mbway" ? now + MBWAY_WINDOW_MS : referenceExpiry(MULTIBANCO_DAYS, now),
  }),
  start: openSingle,
  async refund({ ctx, attempt, refund, fields }) {
    const answer = await createEasypayRefund(ctx, fields, attempt.provider_ref!, {
      transaction_key: refund.id,
      value: refund.amount / 100,
    });
    // Easypay confirms the refund later, by a notification.
    return { providerRefundId: answer.id, status: "pending" };
  },
  verifyNotification(d, credentials) {
    const creds = credentials();
    const secret = creds.fields.webhookSecret;
    if (secret !== undefined && !easypayBasicAuthValid(d.headers.get("authorization"), String(secret))) {
      throw signatureInvalid();
    }
    return creds;
  },
  parseNotification: (ctx, org, creds, d) => receiveNotice(ctx, org, creds, d.body),
  poll,
  credentialCheck: {
    fields: ["accountId", "apiKey", "environment"],
    toCheck(given, kept) {
      if (typeof given.accountId !== "string") return null;
      // Non-secret fields are replaced as given (so accountId is the one sent); an omitted secret is kept.
      const apiKey = given.apiKey === undefined ? kept("apiKey") : given.apiKey;
      if (typeof apiKey !== "string") return null;
      return {
        accountId: given.accountId,
        apiKey,
        environment: typeof given.environment === "string" ? given.environment : "production",
      };
    },
    run: checkEasypayCredentials,
  },
};
