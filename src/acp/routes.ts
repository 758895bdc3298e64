import { type AdapterCall, hostOf, jsonObjectBody, originOf } from "../checkout/adapter.ts";
import type { RawRoute, Service } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { jsonResponse } from "../core/respond.ts";
import { type AcpAnswer, AcpError, type AcpOperationName, AcpShop, refusalAnswer } from "./checkout.ts";
import { platformOfToken } from "./platforms.ts";
import { ACP_VERSION } from "./wire.ts";

// ACP's REST binding on each shop's host (docs/acp.md): the checkout session endpoints under /acp,
// with ACP's headers (`Authorization`, `API-Version`, `Idempotency-Key`, `Request-Id`), and the
// documents naming the shop's payment handlers.

export const ACP_BASE = "/acp";
const SUPPORTED_VERSIONS = [ACP_VERSION];

/** `API-Version` must name a version the shop speaks: else a 400 listing them. */
function checkVersion(request: Request): void {
  const version = request.headers.get("api-version");
  if (version === SUPPORTED_VERSIONS[0]) return;
  const [code, message] =
    version === null
      ? ["missing_api_version", "API-Version is required"]
      : ["unsupported_api_version", `API-Version ${version.slice(0, 40)} is not supported`];
  throw new AcpError(400, code, `${message}: send one of ${SUPPORTED_VERSIONS.join(", ")}`, {
    body: { supported_versions: SUPPORTED_VERSIONS },
  });
}

/** The call of the platform whose bearer token the request carries, in the shop its Host names. */
function platformCall(
  service: Service,
  request: Request,
  context: { requestId: string; client: ClientInfo },
): AdapterCall {
  const orgId = service.shopOfHost(request);
  if (!orgId) throw new AcpError(404, "not_found", "This host is no shop's");
  const token = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const unauthorized = (message: string) =>
    new AcpError(401, "unauthorized", message, { headers: { "www-authenticate": 'Bearer realm="acp"' } });
  if (!token) throw unauthorized("Authorization: Bearer <the token the shop gave the platform> is required");
  const tenant = service.ctx.tenants.acquire(orgId);
  let platformId: string | undefined;
  try {
    platformId = platformOfToken(tenant, token)?.id;
  } finally {
    service.ctx.tenants.release(tenant);
  }
  if (!platformId) throw unauthorized("The token is not one of this shop's ACP platforms");
  return {
    ...context,
    caller: { type: "host", orgId, scopes: ["storefront"], id: `acp:${platformId}` },
    host: new URL(`http://${hostOf(request)}`).hostname,
    origin: originOf(service, request),
  };
}

/** An answer with ACP's response headers: the request's id and, on writes, its key echoed. */
function answered(answer: AcpAnswer, request: Request): Response {
  const headers: Record<string, string> = { ...answer.headers };
  const requestId = request.headers.get("request-id");
  if (requestId) headers["request-id"] = requestId.slice(0, 255);
  const key = request.headers.get("idempotency-key");
  if (key && request.method === "POST") headers["idempotency-key"] = key.slice(0, 255);
  return jsonResponse(answer.status, answer.body, headers);
}

export function acpRoutes(service: Service): RawRoute[] {
  const shop = new AcpShop(service);
  const limit = service.ctx.config.maxBodyBytes;
  const route = (method: "GET" | "POST", path: string, name: AcpOperationName): RawRoute => ({
    method,
    path: `${ACP_BASE}${path}`,
    async handle(request, params, requestId, client) {
      const key = request.headers.get("idempotency-key") ?? undefined;
      let answer: AcpAnswer;
      try {
        checkVersion(request);
        const call = platformCall(service, request, { requestId, client });
        if (method === "POST" && !key) {
          throw new AcpError(400, "idempotency_key_required", "Idempotency-Key is required on every POST");
        }
        const body = method === "POST" ? await jsonObjectBody(request, limit) : {};
        const id = params?.id ?? "";
        answer = await shop.answer(call, name, { id, path: new URL(request.url).pathname, body, key });
      } catch (error) {
        answer = refusalAnswer(error, name);
      }
      return answered(answer, request);
    },
  });
  return [
    {
      method: "GET",
      path: `${ACP_BASE}/handlers/:file`,
      cors: "any",
      handle: (_r, params) => handlerDocument(params),
    },
    route("POST", "/checkout_sessions", "create"),
    route("GET", "/checkout_sessions/:id", "get"),
    route("POST", "/checkout_sessions/:id", "update"),
    route("POST", "/checkout_sessions/:id/complete", "complete"),
    route("POST", "/checkout_sessions/:id/cancel", "cancel"),
  ];
}

/** How completing with each kind of handler goes (what a platform needs to know to offer it). */
const FLOWS: Record<string, string> = {
  reference:
    "Multibanco: completing places the order awaiting payment; the session's info message gives the entity, " +
    "reference and amount the buyer pays at an ATM or in their bank's app before the time it names.",
  push:
    "MB WAY: needs the buyer's phone (buyer.phone_number or fulfillment_details.phone_number); completing places " +
    "the order and sends a payment request to the MB WAY app of that phone, which the buyer approves.",
  offline:
    "Bank transfer or cash on delivery: completing places the order awaiting payment; the session's info " +
    "message gives the shop's instructions.",
  redirect:
    "Card on the payment provider's page: completing places the order and answers requires_escalation with " +
    "continue_url, the page where the buyer pays; the session reads completed once paid.",
};

/** The flow of a payment method by its id (`<provider>_<type>`, or `manual_<kind>`), or null. */
function flowOf(methodId: string): string | null {
  if (methodId.startsWith("manual_")) return "offline";
  const type = /_(card|mbway|multibanco)$/.exec(methodId)?.[1];
  return type ? { card: "redirect", mbway: "push", multibanco: "reference" }[type]! : null;
}

/**
 * `/acp/handlers/<method>.json`: what a shop's payment handler is, as a JSON Schema of its (empty)
 * config and instrument. No credential is sent with these: `payment_data.instrument` may be
 * `{type: "offline", credential: {type: "none", token: "none"}}`, and is not read.
 */
function handlerDocument(params: Record<string, string> | undefined): Response {
  const match = /^([a-z0-9_]{1,64})\.json$/.exec(params?.file ?? "");
  const flow = match && flowOf(match[1]!);
  if (!match || !flow) {
    return jsonResponse(404, {
      type: "invalid_request",
      code: "not_found",
      message: "No such payment handler",
    });
  }
  return jsonResponse(
    200,
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: match[1],
      description: FLOWS[flow],
      type: "object",
    },
    { "cache-control": "public, max-age=3600" },
  );
}
