import { createHash, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { checkJsonDepth } from "../core/body.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { type AttemptRow, attemptByRef2, claimRoute, instructionsOf, routeOf } from "./attempts.ts";
import type { Credentials } from "./fields.ts";
import { pattern } from "./fields.ts";
import { type ProviderEndpoint, ProviderError, providerFetch } from "./http.ts";
import { configRow } from "./integration-rows.ts";
import {
  type AttemptDraft,
  DAY,
  type Delivery,
  MBWAY_WINDOW_MS,
  malformed,
  mbWayExpiry,
  noRoute,
  type OpenedPayment,
  type PaymentProvider,
  type Received,
  referenceExpiry,
  type StartInput,
  sha256,
  signatureInvalid,
} from "./provider.ts";
import type { PaymentOutcome } from "./reconcile.ts";
import type { CredentialSource } from "./tables.ts";

// Ifthenpay: Multibanco references and MB WAY requests, and the callback Ifthenpay sends (a GET
// filled from the merchant's template) once a payment is confirmed. The proof is the anti-phishing
// key in the query string; it is compared by its SHA-256, in constant time, and never logged.
// Ifthenpay has no refund call for these payments and no call that checks a key without creating
// a payment, so `ifthenpayProvider` has neither `refund` nor `credentialCheck`.

/** Equal by SHA-256 and a constant-time comparison (no trimming). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

const AMOUNT = /^(\d+)(?:[.,](\d{1,2}))?$/;

/** `"12.3"`, `"12,30"`, `"0.01"` → minor units, by string arithmetic; null when malformed. */
export function parseEuroAmount(text: string): number | null {
  const match = AMOUNT.exec(text);
  if (!match || match[1]!.length > 12) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** Minor units → `"12.30"`. */
const euroText = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;

interface IfthenpayCallback {
  key?: string;
  orderId?: string;
  amount?: string;
  requestId?: string;
  entity?: string;
  reference?: string;
  paymentDatetime?: string;
}

/** The callback's fields from query parameters or a form/JSON body. */
export function callbackFields(params: Record<string, string>): IfthenpayCallback {
  const pick = (name: string) =>
    params[name] === undefined || params[name] === "" ? undefined : params[name];
  return {
    key: params.key,
    orderId: pick("orderId"),
    amount: pick("amount"),
    requestId: pick("requestId"),
    entity: pick("entity"),
    reference: pick("reference"),
    paymentDatetime: pick("payment_datetime"),
  };
}

/** Event id: the RequestId; when absent, `<orderId>:<reference or "mbway">:<amount>`. */
export const ifthenpayEventId = (c: IfthenpayCallback) =>
  c.requestId ?? `${c.orderId}:${c.reference ?? "mbway"}:${c.amount}`;

/** A confirmed payment: SUCCEEDED with the amount in EUR, a mismatch when method or references differ. */
export function readIfthenpayCallback(c: IfthenpayCallback, attempt: AttemptRow | null): PaymentOutcome {
  const amount = parseEuroAmount(c.amount ?? "") ?? -1;
  if (!attempt) return { kind: "SUCCEEDED", amount, currency: "EUR" };
  const multibanco = c.entity !== undefined || c.reference !== undefined;
  const instructions = JSON.parse(attempt.instructions) as { entity?: string; reference?: string };
  const differs =
    (multibanco ? attempt.method !== "multibanco" : attempt.method !== "mbway") ||
    (c.requestId !== undefined && c.requestId !== attempt.provider_ref) ||
    (multibanco &&
      (c.entity !== instructions.entity || c.reference?.replace(/\s/g, "") !== instructions.reference));
  return { kind: "SUCCEEDED", amount, currency: "EUR", forceMismatch: differs };
}

// ---------------------------------------------------------------- API calls

const endpoint = (base: string): ProviderEndpoint => ({ base, headers: {}, timeoutMs: 10_000 });

interface MultibancoReference {
  requestId: string;
  entity: string;
  reference: string;
}

export async function createMultibancoReference(
  base: string,
  input: { mbKey: string; orderId: string; amount: number; description: string; expiryDays: number },
): Promise<MultibancoReference> {
  const answer = (await providerFetch(endpoint(base), "POST", "/multibanco/reference/init", {
    json: {
      mbKey: input.mbKey,
      orderId: input.orderId,
      amount: euroText(input.amount),
      description: input.description,
      expiryDays: input.expiryDays,
    },
  })) as Record<string, unknown>;
  if (
    String(answer.Status) !== "0" ||
    typeof answer.Reference !== "string" ||
    typeof answer.Entity !== "string"
  ) {
    throw new ProviderError(`ifthenpay multibanco: refused (${String(answer.Status)})`, true, 200);
  }
  return { requestId: String(answer.RequestId), entity: answer.Entity, reference: answer.Reference };
}

export async function createMbWayRequest(
  base: string,
  input: {
    mbWayKey: string;
    orderId: string;
    amount: number;
    phone: string;
    email: string;
    description: string;
  },
): Promise<{ requestId: string }> {
  const answer = (await providerFetch(endpoint(base), "POST", "/spg/payment/mbway", {
    json: {
      mbWayKey: input.mbWayKey,
      orderId: input.orderId,
      amount: euroText(input.amount),
      mobileNumber: `351#${input.phone}`,
      email: input.email,
      description: input.description,
    },
  })) as Record<string, unknown>;
  if (String(answer.Status) !== "000" || typeof answer.RequestId !== "string") {
    throw new ProviderError(`ifthenpay mbway: refused (${String(answer.Status)})`, true, 200);
  }
  return { requestId: answer.RequestId };
}

// ---------------------------------------------------------------- the provider

/**
 * 12 random digits, unused by this tenant's attempts; with environment credentials also claimed in
 * `payment_routes` (a reference another organization's route holds is drawn again).
 */
function newOrderReference(ctx: AppContext, tenant: TenantDb, source: CredentialSource): string {
  for (;;) {
    const digits = Array.from(crypto.getRandomValues(new Uint32Array(12)), (n) => n % 10).join("");
    const taken =
      tenant.sqlite
        .query("SELECT 1 FROM payment_attempts WHERE provider = 'ifthenpay' AND provider_ref2 = ?")
        .get(digits) !== null ||
      (source === "environment" && !claimRoute(ctx, tenant.orgId, "ifthenpay", digits));
    if (!taken) return digits;
  }
}

function multibancoDays(tenant: TenantDb, source: CredentialSource): number {
  if (source === "environment") return 3;
  const settings = parseJsonOrNull<Record<string, unknown>>(configRow(tenant, "ifthenpay")?.settings ?? null);
  const days = settings?.multibancoExpiryDays;
  return Number.isInteger(days) ? (days as number) : 3;
}

/** The order reference is ours, chosen before Ifthenpay is asked: its callback names the payment by it. */
function plan({ ctx, tenant, method, source, now }: AttemptDraft) {
  const providerRef2 = newOrderReference(ctx, tenant, source);
  const expiresAt =
    method === "mbway" ? now + MBWAY_WINDOW_MS : referenceExpiry(multibancoDays(tenant, source), now);
  return { expiresAt, providerRef2 };
}

async function openReference(input: StartInput): Promise<OpenedPayment> {
  const { ctx, attempt } = input;
  const ref = await createMultibancoReference(ctx.config.payments.ifthenpayBaseUrl, {
    mbKey: String(input.fields.mbKey),
    orderId: attempt.provider_ref2!,
    amount: attempt.amount,
    description: input.description,
    expiryDays: Math.max(0, Math.round((attempt.expires_at - attempt.created_at) / DAY)),
  });
  return {
    providerRef: ref.requestId,
    instructions: { entity: ref.entity, reference: ref.reference.replace(/\s/g, "") },
  };
}

async function openMbWay(input: StartInput): Promise<OpenedPayment> {
  const { ctx, attempt, order } = input;
  const ref = await createMbWayRequest(ctx.config.payments.ifthenpayBaseUrl, {
    mbWayKey: String(input.fields.mbWayKey),
    orderId: attempt.provider_ref2!,
    amount: attempt.amount,
    phone: instructionsOf(attempt).phone!,
    email: order.email,
    description: input.description,
  });
  return { providerRef: ref.requestId, expiresAt: mbWayExpiry(input) };
}

/** The callback's parameters: the query (GET), or a form or JSON body (POST); never `org`. */
function callbackParams(d: Delivery): Record<string, string> {
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

function receiveCallback(ctx: AppContext, org: string, creds: Credentials, d: Delivery): Received {
  const callback = callbackFields(callbackParams(d));
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

export const ifthenpayProvider: PaymentProvider = {
  name: "ifthenpay",
  label: "Ifthenpay",
  methods: ["mbway", "multibanco"],
  fields: [
    {
      name: "antiPhishingKey",
      secret: true,
      check: pattern(/^[\x21-\x7e]{1,64}$/, "1 to 64 printable characters"),
      env: "IFTHENPAY_ANTIPHISHING_KEY",
    },
    {
      name: "mbKey",
      secret: true,
      check: pattern(/^[A-Za-z0-9-]{3,32}$/, "3 to 32 letters, digits or dashes"),
      env: "IFTHENPAY_MB_KEY",
    },
    {
      name: "mbWayKey",
      secret: true,
      check: pattern(/^[A-Za-z0-9-]{3,32}$/, "3 to 32 letters, digits or dashes"),
      env: "IFTHENPAY_MBWAY_KEY",
    },
    {
      name: "multibancoExpiryDays",
      secret: false,
      check: (value) =>
        Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 31
          ? null
          : "must be a whole number from 0 to 31",
      fallback: 3,
    },
  ],
  needs: {
    webhooks: ["antiPhishingKey"],
    multibanco: ["mbKey"],
    mbway: ["mbWayKey"],
  },
  plan,
  start: (input) => (input.attempt.method === "multibanco" ? openReference(input) : openMbWay(input)),
  // Its callback is a GET carrying the anti-phishing key.
  notifiesByGet: (query) => query.key !== undefined,
  verifyNotification(d, credentials) {
    const key = callbackParams(d).key;
    if (key === undefined) throw signatureInvalid();
    const creds = credentials();
    if (!sameSecret(key, String(creds.fields.antiPhishingKey))) throw signatureInvalid();
    return creds;
  },
  parseNotification: receiveCallback,
};
