import { getStore } from "../catalog/store-settings.ts";
import type { SessionView } from "../checkout/sessions.ts";
import { checkJsonDepth, readRawBody } from "../core/body.ts";
import { ApiError } from "../core/errors.ts";
import type { RawRoute, Service } from "../core/module.ts";
import type { Caller, ClientInfo } from "../core/operation.ts";
import { jsonResponse } from "../core/respond.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import { orderLinkToken, orderPageLink } from "../orders/link-token.ts";
import {
  CHECKOUT,
  checkoutOf,
  FULFILLMENT,
  paymentHandlers,
  sessionInputOf,
  UCP_VERSION,
  unsupportedHandler,
} from "./wire.ts";

// UCP's REST binding on each shop's host (docs/ucp.md): the business profile at /.well-known/ucp,
// and checkout sessions under /ucp/v1, each call handed to the checkout session operation it
// stands for (same validation, transaction, idempotency and tenant as on /v1) and its answer or
// refusal translated. The caller is the shop's Host (or a storefront key), acting as the platform
// named by `UCP-Agent`: sessions belong to that profile.

const BASE = "/ucp/v1";
type Json = Record<string, unknown>;

/** A protocol error (a non-2xx status with `{code, content}`). */
class UcpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The platform's profile URL from `UCP-Agent: profile="https://…"` (an RFC 8941 dictionary member). */
function platformProfile(request: Request): string {
  const header = request.headers.get("ucp-agent") ?? "";
  const url = /(?:^|,)\s*profile\s*=\s*"([^"]{1,2000})"/.exec(header)?.[1];
  if (!url)
    throw new UcpError(400, "invalid_profile_url", 'UCP-Agent must name the platform: profile="https://…"');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("scheme");
  } catch {
    throw new UcpError(400, "invalid_profile_url", "UCP-Agent's profile is not an absolute URL");
  }
  return url;
}

/** The host a request was sent to (its Host header, which named the shop). */
const hostOf = (request: Request): string => request.headers.get("host") ?? new URL(request.url).host;

/** The origin a shop's host answers on, as its client named it (the proxy's scheme when trusted). */
function originOf(service: Service, request: Request): string {
  const forwarded = service.ctx.config.trustProxy ? request.headers.get("x-forwarded-proto") : null;
  return `${forwarded ?? new URL(request.url).protocol.slice(0, -1)}://${hostOf(request)}`;
}

/** API refusals in UCP's terms: the same status with `{code, content}` (business outcomes are answered apart). */
function protocolError(error: ApiError): UcpError {
  const code =
    {
      VALIDATION_ERROR: "invalid_request",
      IDEMPOTENCY_CONFLICT: "idempotency_conflict",
      CONFLICT: "invalid_state",
      PAYLOAD_TOO_LARGE: "payload_too_large",
    }[error.code as string] ?? error.code.toLowerCase();
  const detail = error.details?.[0];
  const content =
    detail && !error.message.includes(detail.path)
      ? `${error.message} (${detail.path}: ${detail.message})`
      : error.message;
  return new UcpError(error.status, code, content, error.headers);
}

/** A 200 that says the resource is not there (UCP's `error_response`). */
const notFound = (content: string) =>
  jsonResponse(200, {
    ucp: { version: UCP_VERSION, status: "error" },
    messages: [{ type: "error", code: "not_found", content, severity: "unrecoverable" }],
  });

interface Call {
  request: Request;
  requestId: string;
  client: ClientInfo;
  caller: Caller;
  host: string;
  origin: string;
}

class UcpShop {
  constructor(private readonly service: Service) {}

  /** Runs a checkout session operation as the platform; its `data`, or its ApiError. */
  async run(
    call: Call,
    operationId: string,
    input: Json,
    idempotencyKey?: string,
  ): Promise<SessionView & Json> {
    const op = this.service.operations.find((o) => o.operationId === operationId)!;
    const outcome = await this.service.executor.execute(op, { caller: call.caller }, input, {
      requestId: call.requestId,
      client: call.client,
      idempotencyKey,
    });
    return JSON.parse(outcome.body!).data;
  }

  /** The session as UCP's checkout. */
  checkout(call: Call, session: SessionView): Json {
    const tenant = this.service.ctx.tenants.acquire(call.caller.orgId);
    let store: ReturnType<typeof getStore>;
    try {
      store = getStore(tenant);
    } finally {
      this.service.ctx.tenants.release(tenant);
    }
    const orgId = call.caller.orgId;
    return checkoutOf(session, {
      host: call.host,
      locale: store.defaultLocale,
      // The storefront's order page, else the order on the API; both open with the order's link token.
      orderUrl: (id) =>
        orderPageLink(this.service.ctx, orgId, store.orderPageUrl, id) ??
        `${call.origin}/v1/orders/${id}?token=${orderLinkToken(this.service.ctx, orgId, id)}`,
    });
  }

  /** The request as a call: the shop (by Host or key, storefront scope), acting as the platform profile. */
  async callOf(request: Request, requestId: string, client: ClientInfo): Promise<Call> {
    const profile = platformProfile(request);
    const resolved = await this.service.resolveCaller(request, "v1");
    return {
      request,
      requestId,
      client,
      caller: { ...resolved, id: `ucp:${profile}` },
      host: new URL(`http://${hostOf(request)}`).hostname,
      origin: originOf(this.service, request),
    };
  }
}

/** The JSON body of a UCP write (an empty body is `{}`); a malformed one is a 400. */
async function jsonBody(request: Request, limit: number): Promise<Json> {
  const text = new TextDecoder().decode(await readRawBody(request, limit));
  if (text.trim() === "") return {};
  checkJsonDepth(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UcpError(400, "invalid_request", "The body must be JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new UcpError(400, "invalid_request", "The body must be a JSON object");
  }
  return body as Json;
}

/** UCP asks every write to carry an `Idempotency-Key`. */
function requiredKey(request: Request): string {
  const key = request.headers.get("idempotency-key");
  if (!key) throw new UcpError(400, "invalid_request", "Idempotency-Key is required on this operation");
  return key;
}

export function ucpRoutes(service: Service, payments: CheckoutPayments): RawRoute[] {
  const shop = new UcpShop(service);
  const limit = service.ctx.config.maxBodyBytes;
  const handle =
    (work: (call: Call, params: Record<string, string>) => Promise<Response>): RawRoute["handle"] =>
    async (request, params, requestId, client) => {
      try {
        return await work(await shop.callOf(request, requestId, client), params ?? {});
      } catch (error) {
        const refusal = error instanceof ApiError ? protocolError(error) : error;
        if (!(refusal instanceof UcpError)) throw refusal;
        return jsonResponse(
          refusal.status,
          { code: refusal.code, content: refusal.message },
          refusal.headers,
        );
      }
    };
  /** A read or write of one session: its checkout, or UCP's not-found answer. */
  const session = (work: (call: Call, id: string) => Promise<SessionView & Json>, status = 200) =>
    handle(async (call, params) => {
      try {
        return jsonResponse(status, shop.checkout(call, await work(call, params.id ?? "")));
      } catch (error) {
        if (error instanceof ApiError && error.code === "NOT_FOUND") return notFound(error.message);
        throw error;
      }
    });
  return [
    {
      method: "GET",
      path: "/.well-known/ucp",
      handle: (request) => profileResponse(service, payments, request),
    },
    {
      method: "POST",
      path: `${BASE}/checkout-sessions`,
      handle: session(
        async (call) =>
          shop.run(
            call,
            "openCheckoutSession",
            sessionInputOf(await jsonBody(call.request, limit)) as Json,
            requiredKey(call.request),
          ),
        201,
      ),
    },
    {
      method: "GET",
      path: `${BASE}/checkout-sessions/:id`,
      handle: session((call, id) => shop.run(call, "getCheckoutSession", { id })),
    },
    {
      method: "PUT",
      path: `${BASE}/checkout-sessions/:id`,
      handle: session(async (call, id) => {
        const input = sessionInputOf(await jsonBody(call.request, limit)) as Json;
        return shop.run(call, "updateCheckoutSession", { id, ...input }, requiredKey(call.request));
      }),
    },
    {
      method: "POST",
      path: `${BASE}/checkout-sessions/:id/complete`,
      handle: session(async (call, id) => completeCall(shop, call, id, await jsonBody(call.request, limit))),
    },
    {
      method: "POST",
      path: `${BASE}/checkout-sessions/:id/cancel`,
      handle: session((call, id) =>
        shop.run(call, "cancelCheckoutSession", { id }, requiredKey(call.request)),
      ),
    },
  ];
}

/** Refusals of place-order that a platform can fix: answered as the checkout with a message, not an error. */
const FIXABLE = new Set(["INSUFFICIENT_STOCK", "UNPROCESSABLE", "COUPON_INVALID"]);

/**
 * Complete: the payment instrument chosen (when it changes the session's), then place the order
 * under the request's key. A refusal the platform can fix is the checkout with that message.
 */
async function completeCall(shop: UcpShop, call: Call, id: string, body: Json): Promise<SessionView & Json> {
  const key = requiredKey(call.request);
  let session = await shop.run(call, "getCheckoutSession", { id });
  const { paymentMethodId } = sessionInputOf({ payment: body.payment });
  if (session.status !== "completed" && paymentMethodId && paymentMethodId !== session.paymentMethodId) {
    session = await shop.run(call, "updateCheckoutSession", { id, paymentMethodId }, `${key}:payment`);
  }
  // A method no UCP handler stands for is not placed: the checkout says so (wire.ts).
  if (unsupportedHandler(session)) return session;
  try {
    return await shop.run(call, "completeCheckoutSession", { id }, key);
  } catch (error) {
    if (!(error instanceof ApiError) || !FIXABLE.has(error.code)) throw error;
    const after = await shop.run(call, "getCheckoutSession", { id });
    return {
      ...after,
      problems: [...after.problems, { code: error.code, field: "session", message: error.message }],
    };
  }
}

/** `/.well-known/ucp` of a shop's host: the REST service, the capabilities and the payment handlers. */
async function profileResponse(
  service: Service,
  payments: CheckoutPayments,
  request: Request,
): Promise<Response> {
  const caller = await service.resolveCaller(request, "v1").catch(() => null);
  if (caller?.type !== "host") {
    return jsonResponse(404, { error: "Not a shop's host", code: "NOT_FOUND", status: 404 });
  }
  const tenant = service.ctx.tenants.acquire(caller.orgId);
  let paymentMethods: SessionView["paymentMethods"];
  try {
    const store = getStore(tenant);
    // What a cart of this shop with something to pay can be paid with (a cart's own may be fewer).
    paymentMethods = payments.methods(tenant, service.ctx, { store, currency: store.currency, total: 1 });
  } finally {
    service.ctx.tenants.release(tenant);
  }
  const profile = {
    ucp: {
      version: UCP_VERSION,
      services: {
        "dev.ucp.shopping": [
          {
            version: UCP_VERSION,
            transport: "rest",
            endpoint: `${originOf(service, request)}${BASE}`,
            schema: `https://ucp.dev/${UCP_VERSION}/services/shopping/rest.openapi.json`,
          },
        ],
      },
      capabilities: {
        [CHECKOUT]: [{ version: UCP_VERSION }],
        [FULFILLMENT]: [{ version: UCP_VERSION, extends: CHECKOUT }],
      },
      payment_handlers: paymentHandlers({ paymentMethods }, new URL(`http://${hostOf(request)}`).hostname),
    },
  };
  return jsonResponse(200, profile, { "cache-control": "public, max-age=300" });
}
