import type { AppContext } from "../app-context.ts";
import { findOrganization, listDomains } from "../auth/service.ts";
import { getStore } from "../catalog/store-settings.ts";
import { POLICY_PAGES, type PolicyLinks, type PolicyPage } from "../catalog/tables.ts";
import { checkJsonDepth, readRawBody } from "../core/body.ts";
import { ApiError } from "../core/errors.ts";
import type { EventType } from "../core/events.ts";
import type { Service } from "../core/module.ts";
import type { Caller, ClientInfo } from "../core/operation.ts";
import { type Job, RetryAt } from "../core/outbox.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { orderLinkToken, orderPageLink } from "../orders/link-token.ts";
import { nextAttemptDelay } from "../webhooks/schedule.ts";
import type { SessionView } from "./sessions.ts";

// What the agentic-commerce protocol adapters (UCP, ACP) share: running a checkout session
// operation as the platform (the same executor, validation, transaction and idempotency as /v1),
// how a shop names its orders to a platform, the facts about a session both translate, and which
// order events of their sessions' orders their platforms' webhooks are sent for.

type Json = Record<string, unknown>;

/** One protocol call: who acts (the platform, as `ucp:<profile>` or `acp:<platform>`) and where. */
export interface AdapterCall {
  requestId: string;
  client: ClientInfo;
  caller: Caller;
  /** The shop's host name, as the request named it. */
  host: string;
  /** The origin the shop's host answers on (for links back to it). */
  origin: string;
}

/** How a shop names things to a platform: its language, its order links, its policy pages. */
export interface ShopView {
  host: string;
  locale: string;
  orderUrl: (id: string) => string;
  policyLinks: PolicyLinks;
}

/** The shop's policy pages as a protocol's `links`: each page the protocol has a link type for. */
export const policyLinksOf = (shop: ShopView, types: Partial<Record<PolicyPage, string>>) =>
  POLICY_PAGES.flatMap((page) => {
    const url = shop.policyLinks[page];
    const type = types[page];
    return url && type ? [{ type, url }] : [];
  });

/** The host a request was sent to (its Host header, which named the shop). */
export const hostOf = (request: Request): string => request.headers.get("host") ?? new URL(request.url).host;

/** The origin a shop's host answers on, as its client named it (the proxy's scheme when trusted). */
export function originOf(service: Service, request: Request): string {
  const forwarded = service.ctx.config.trustProxy ? request.headers.get("x-forwarded-proto") : null;
  return `${forwarded ?? new URL(request.url).protocol.slice(0, -1)}://${hostOf(request)}`;
}

export class SessionRunner {
  constructor(private readonly service: Service) {}

  /** Runs a checkout session operation as the platform: its `data`, or its ApiError thrown. */
  async run(
    call: AdapterCall,
    operationId: string,
    input: Json,
    idempotencyKey?: string,
  ): Promise<SessionView & Json> {
    return (await this.execute(call, operationId, input, idempotencyKey)).data;
  }

  /** As `run`, also saying whether the answer is the one stored for an earlier call with the key. */
  async execute(
    call: AdapterCall,
    operationId: string,
    input: Json,
    idempotencyKey?: string,
  ): Promise<{ data: SessionView & Json; replayed: boolean }> {
    const { envelope, replayed } = await this.answer(call, operationId, input, idempotencyKey);
    return { data: envelope.data as SessionView & Json, replayed };
  }

  /** Any operation of the service run as the platform: its answer's envelope (`data`, and `meta` for lists). */
  async answer(
    call: AdapterCall,
    operationId: string,
    input: Json,
    idempotencyKey?: string,
  ): Promise<{ envelope: { data: unknown; meta?: Json }; replayed: boolean }> {
    const op = this.service.operations.find((o) => o.operationId === operationId)!;
    const outcome = await this.service.executor.execute(op, { caller: call.caller }, input, {
      requestId: call.requestId,
      client: call.client,
      idempotencyKey,
    });
    return { envelope: JSON.parse(outcome.body!), replayed: outcome.replayed };
  }

  /** Reads the call's shop directly (what no operation answers, such as a variant by its SKU). */
  read<T>(call: AdapterCall, fn: (tenant: TenantDb) => T): Promise<T> {
    return this.service.ctx.tenants.with(call.caller.orgId, fn);
  }

  /** How the call's shop names things: its host, its language, its order links. */
  shopOf(call: AdapterCall): ShopView {
    const orgId = call.caller.orgId;
    const tenant = this.service.ctx.tenants.acquire(orgId);
    let store: ReturnType<typeof getStore>;
    try {
      store = getStore(tenant);
    } finally {
      this.service.ctx.tenants.release(tenant);
    }
    return shopNamed(this.service.ctx, orgId, store, call.host, call.origin);
  }
}

/** A localized name in the shop's language (else any it has). */
export const titleOf = (name: Record<string, string>, locale: string) =>
  name[locale] ?? Object.values(name)[0] ?? "";

/**
 * Where the buyer must go to finish: the provider's payment page of an order placed with a card
 * and not paid yet (the platform hands the buyer over until the payment's notification arrives).
 */
export function escalationUrl(order: SessionView["order"]): string | null {
  const action = order?.payment?.action;
  if (!order || order.paymentStatus === "paid" || order.status === "cancelled") return null;
  return action?.type === "redirect" ? action.url : null;
}

/** What the buyer does to pay a completed session's order: the reference, the MB WAY request or the instructions. */
export function paymentInstructions(order: NonNullable<SessionView["order"]>, locale: string): string | null {
  const action = order.payment?.action;
  const amount = (minor: number) => `${(minor / 100).toFixed(2)} ${order.currency}`;
  if (action?.type === "reference") {
    return `Pay by Multibanco before ${action.expiresAt}: entity ${action.entity}, reference ${action.reference}, amount ${amount(action.amount)}.`;
  }
  if (action?.type === "push") {
    return `Approve the payment in the MB WAY app of ${action.phone} before ${action.expiresAt}.`;
  }
  if (action?.type === "offline") {
    return titleOf(action.instructions as Record<string, string>, locale) || null;
  }
  return null;
}

/** A string field of a request body, or undefined. */
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** An object field of a request body, or `{}`. */
export const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};

/** The JSON object a protocol's write carries (an empty body is `{}`); anything else is a 400 VALIDATION_ERROR. */
export async function jsonObjectBody(request: Request, limit: number): Promise<Json> {
  return jsonObjectOf(await readRawBody(request, limit));
}

/** `jsonObjectBody` of a body already read (its raw bytes needed besides, as for a signed request's digest). */
export function jsonObjectOf(bytes: Uint8Array): Json {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return {};
  checkJsonDepth(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("VALIDATION_ERROR", "The body must be JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError("VALIDATION_ERROR", "The body must be a JSON object");
  }
  return body as Json;
}

/**
 * The delegated card credential a protocol's payment instrument carries, as a session's completion
 * takes it: a Stripe Shared Payment Token, `{ type: "spt", token: "spt_…" }` in both protocols.
 * Anything else carries none (the business handlers take no credential).
 */
export function delegatedCredential(raw: unknown): Json | undefined {
  const credential = obj(raw);
  if (credential.type !== "spt") return undefined;
  return { type: "stripe_shared_payment_token", token: credential.token };
}

/** The session's order was cancelled unpaid (a delegated card declined, or its payment expired): the checkout is over. */
export const orderCancelled = (session: SessionView): boolean => session.order?.status === "cancelled";

/** Completing charged a delegated card, and the card was declined. */
export const paymentDeclined = (session: SessionView): boolean =>
  orderCancelled(session) && session.order?.payment?.status === "failed";

/** A shop's view on `host` (links back to it on `origin`), in its store's language. */
function shopNamed(
  ctx: AppContext,
  orgId: string,
  store: ReturnType<typeof getStore>,
  host: string,
  origin: string,
): ShopView {
  return {
    host,
    locale: store.defaultLocale,
    // The storefront's order page, else the order on the API; both open with the order's link token.
    orderUrl: (id) =>
      orderPageLink(ctx, orgId, store.orderPageUrl, id) ??
      `${origin}/v1/orders/${id}?token=${orderLinkToken(ctx, orgId, id)}`,
    policyLinks: store.policyLinks,
  };
}

// ---------------------------------------------------------------- order webhooks

/** The order events a platform is told of: the order placed (created), then each change (updated). */
const ORDER_EVENTS: Partial<Record<EventType, "created" | "updated">> = {
  "order.placed": "created",
  "order.paid": "updated",
  "order.payment_failed": "updated",
  "order.cancelled": "updated",
  "order.fulfilled": "updated",
  "order.refunded": "updated",
};

/** An order event of an order a protocol's session placed: which, the session and when it happened. */
export interface OrderEventOfSession {
  kind: "created" | "updated";
  orderId: string;
  sessionId: string;
  /** The session's owner, `<protocol>:<platform>`. */
  caller: string;
  /** Epoch milliseconds. */
  occurredAt: number;
}

/** In the recording transaction: the session of `protocol` that placed the order `event` is about, if any. */
export function orderEventSession(
  tenant: TenantDb,
  event: { id: string; type: EventType },
  protocol: "ucp" | "acp",
): OrderEventOfSession | null {
  const kind = ORDER_EVENTS[event.type];
  if (!kind) return null;
  const found = tenant.sqlite
    .query(
      `SELECT s.id AS sessionId, s.caller AS caller, c.order_id AS orderId, e.created_at AS occurredAt
         FROM events e JOIN carts c ON c.order_id = json_extract(e.data, '$.id')
         JOIN checkout_sessions s ON s.cart_id = c.id
        WHERE e.id = ? AND s.protocol = ?`,
    )
    .get(event.id, protocol) as Omit<OrderEventOfSession, "kind"> | null;
  return found && { kind, ...found };
}

/**
 * How a shop names things with no request to take a host from (an order webhook): its first
 * verified domain (else its platform subdomain), over https.
 */
export function webhookShop(ctx: AppContext, tenant: TenantDb): ShopView {
  const orgId = tenant.orgId;
  const domain = listDomains(ctx.platform, orgId).find((d) => d.verified)?.host;
  const host = domain ?? `${findOrganization(ctx.platform, orgId)?.slug}.${ctx.config.platformDomain}`;
  return shopNamed(ctx, orgId, getStore(tenant), host, `https://${host}`);
}

/** A delivery that failed is attempted again on the webhooks' schedule (until its last attempt). */
export function retryOnSchedule(job: Job, error: string): void {
  const delay = nextAttemptDelay(job.attempt);
  if (delay !== null) throw new RetryAt(delay, error);
}
