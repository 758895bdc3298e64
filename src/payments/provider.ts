import { createHash } from "node:crypto";
import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { DelegatedCredential } from "../orders/checkout-payments.ts";
import type { OrderRow } from "../orders/view.ts";
import type { AttemptRow } from "./attempts.ts";
import type { Credentials, FieldSpec, Fields, Task } from "./fields.ts";
import type { Notification, PaymentOutcome } from "./reconcile.ts";
import type { AttemptInstructions, CredentialSource, Provider, RefundStatus } from "./tables.ts";

// The one shape of a payment provider. Checkout, refunds, webhooks, the expiry sweep and the
// credential check reach a provider only through it (`providerOf`, registry.ts), so a provider, or
// a new way for one to start a payment, is added in its own file rather than as a branch in each
// of them. What the methods share (order, attempt, refund records, reconciliation) stays outside.

/** The payment methods a provider can take (the tasks that start a payment). */
export type MethodType = Exclude<Task, "webhooks" | "refunds">;

export interface PaymentProvider {
  name: Provider;
  /** How merchants know it (`Stripe`), in messages. */
  label: string;
  /** The methods it takes; two providers taking one method: see `paymentMethods` (checkout.ts). */
  methods: readonly MethodType[];
  /** Its settings (a store's own, or the environment's): which are secret, their rules. */
  fields: readonly FieldSpec[];
  /** The fields each task needs; a task it has no entry for needs none. */
  needs: Partial<Record<Task, readonly string[]>>;
  /**
   * A rule across fields, checked before a store's settings are saved (`value` reads each as it
   * will be kept, secrets decrypted when asked): the field it names and why, or null.
   */
  checkSettings?(
    value: (field: string) => string | number | undefined,
  ): { field: string; message: string } | null;
  /** What a new attempt starts with, decided in place-order's transaction (no network call). */
  plan(draft: AttemptDraft): AttemptPlan;
  /** Opens the payment at the provider, after the commit; throws ProviderError. */
  start(input: StartInput): Promise<OpenedPayment>;
  /**
   * Asks the provider for a reserved refund; throws ProviderError. Absent: the provider has no
   * refund call, so the merchant refunds in its back office and the refund is recorded at once.
   */
  refund?(input: RefundInput): Promise<RefundAnswer>;
  /** A GET that carries a notification (a callback) rather than asking for readiness. */
  notifiesByGet?(query: Delivery["query"]): boolean;
  /**
   * Checks a notification's proof (401 WEBHOOK_SIGNATURE_INVALID) and returns the credentials that
   * verified it. `credentials` reads them, opening the store's file: a proof that is missing
   * altogether is refused before.
   */
  verifyNotification(d: Delivery, credentials: () => Credentials, now: number): Credentials;
  /** What a verified notification means, and for which store (`org` `_`: found from the payment). */
  parseNotification(
    ctx: AppContext,
    org: string,
    credentials: Credentials,
    d: Delivery,
  ): Received | Promise<Received>;
  /** Asks the provider the state of an opened payment (the sweep, before expiring it); throws ProviderError. */
  poll?(ctx: AppContext, fields: Fields, attempt: OpenedAttempt): Promise<Polled>;
  /** Checks new credentials before they are saved; absent: the provider has no call to check them with. */
  credentialCheck?: CredentialCheck;
}

// ---------------------------------------------------------------- starting a payment

export interface AttemptDraft {
  ctx: AppContext;
  tenant: TenantDb;
  method: MethodType;
  source: CredentialSource;
  now: number;
}

export interface AttemptPlan {
  expiresAt: number;
  /** A reference chosen by us before the provider is asked (Ifthenpay's order reference). */
  providerRef2?: string;
}

/**
 * What `start` is given: the attempt with its order and the credentials it was created with, and
 * how the shopper goes on. One object, so that a further way to start (a payment credential the
 * shopper's agent hands over at checkout) is one more field the providers that accept it read,
 * not another entry point.
 */
export interface StartInput {
  ctx: AppContext;
  tenant: TenantDb;
  attempt: AttemptRow;
  order: OrderRow;
  fields: Fields;
  now: number;
  /** `Order #1001`: how the payment is named at the provider. */
  description: string;
  /** Where a redirect flow sends the shopper back; null: the order's page on the shop's platform host. */
  returnUrl: string | null;
  /** A credential the buyer's agent handed over: the provider charges it at once (cards only). */
  credential?: DelegatedCredential;
}

/** What the provider's answer changes on the attempt; what it leaves out stays as it was. */
export interface OpenedPayment {
  providerRef: string;
  providerRef2?: string;
  expiresAt?: number;
  instructions?: Partial<AttemptInstructions>;
  /**
   * What the provider already decided when it was asked (a delegated credential charged at once,
   * or declined): applied as a notification of it would be. The provider's own notification of the
   * same result, when it comes, changes nothing more.
   */
  settled?: PaymentOutcome;
}

const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const MBWAY_WINDOW_MS = 5 * MINUTE;

/** A reference payable for `days` (0: until the end of the day). */
export const referenceExpiry = (days: number, now: number) =>
  days === 0 ? Math.ceil((now + 1) / DAY) * DAY : now + days * DAY;

/** An MB WAY request leaves the shopper the whole approval window from now. */
export const mbWayExpiry = ({ attempt, now }: StartInput) =>
  Math.max(attempt.expires_at, now + MBWAY_WINDOW_MS);

// ---------------------------------------------------------------- refunds

export interface RefundInput {
  ctx: AppContext;
  tenant: TenantDb;
  attempt: AttemptRow;
  refund: { id: string; orderId: string; amount: number };
  fields: Fields;
}

export interface RefundAnswer {
  /** The provider's refund id; null when the refund could not even be asked for. */
  providerRefundId: string | null;
  status: RefundStatus;
  /** Written in the order's history. */
  note?: string;
}

// ---------------------------------------------------------------- notifications

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

/** A verified notification: about nothing this service records, or what it means for a store. */
export type Received =
  | { kind: "ignored"; provider: Provider; org: string; eventId?: string; reason: string }
  | { kind: "notification"; org: string; notification: Notification };

export const signatureInvalid = () =>
  new ApiError("WEBHOOK_SIGNATURE_INVALID", "The notification's proof is invalid");
export const malformed = (message: string) => new ApiError("VALIDATION_ERROR", message);
export const upstream = (message: string) =>
  new ApiError("UPSTREAM_UNAVAILABLE", message, undefined, { "retry-after": "30" });

export const sha256 = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");

/** A `_` notification no `payment_routes` entry names. */
export const noRoute = (provider: Provider, eventId?: string): Received => ({
  kind: "ignored",
  provider,
  org: "_",
  eventId,
  reason: "no_route",
});

// ---------------------------------------------------------------- the sweep and the credential check

/** An attempt the provider opened: it has the provider's reference. */
export type OpenedAttempt = AttemptRow & { provider_ref: string };

export const isOpened = (attempt: AttemptRow): attempt is OpenedAttempt => Boolean(attempt.provider_ref);

export interface Polled {
  /** The provider's own word for the state, kept in the event id. */
  state: string;
  /** What it means; null while the payment is not settled either way. */
  outcome: PaymentOutcome | null;
}

export interface CredentialCheck {
  /** The fields the check depends on: a refusal is reported at those of them the request sent. */
  fields: readonly string[];
  /**
   * The credentials to check once `given` is saved (a secret it leaves out read with `kept`); null
   * when it sends nothing new to check, or not enough to check it with.
   */
  toCheck(given: Record<string, unknown>, kept: (name: string) => unknown): Fields | null;
  /** One cheap authenticated call; throws ProviderError. */
  run(ctx: AppContext, fields: Fields): Promise<void>;
}
