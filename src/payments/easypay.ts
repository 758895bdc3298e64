import type { AppContext } from "../app-context.ts";
import { checkJsonDepth } from "../core/body.ts";
import { iso } from "../lib/time.ts";
import { type ProviderEndpoint, providerFetch } from "./http.ts";
import { sameSecret } from "./ifthenpay.ts";
import type { Fields } from "./integrations.ts";
import type { PaymentOutcome } from "./reconcile.ts";
import type { RefundStatus } from "./tables.ts";

// Easypay 2.0: single payments (Multibanco, MB WAY), refunds, and its generic notification, which is
// only a trigger: the resource is fetched again from Easypay's API with the account's credentials
// and only the fetched state is trusted.

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
