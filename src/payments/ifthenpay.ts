import { createHash, timingSafeEqual } from "node:crypto";
import type { AttemptRow } from "./attempts.ts";
import { type ProviderEndpoint, ProviderError, providerFetch } from "./http.ts";
import type { PaymentOutcome } from "./reconcile.ts";

// Ifthenpay: Multibanco references and MB WAY requests, and the callback Ifthenpay sends (a GET
// filled from the merchant's template) once a payment is confirmed. The proof is the anti-phishing
// key in the query string; it is compared by its SHA-256, in constant time, and never logged.

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
