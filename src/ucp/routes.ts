import { getStore } from "../catalog/store-settings.ts";
import { type AdapterCall, hostOf, jsonObjectOf, originOf, SessionRunner } from "../checkout/adapter.ts";
import type { SessionView } from "../checkout/sessions.ts";
import { readRawBody } from "../core/body.ts";
import type { RawRoute, Service } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { jsonResponse } from "../core/respond.ts";
import type { CheckoutPayments } from "../orders/checkout-payments.ts";
import { CATALOG_LOOKUP, CATALOG_SEARCH } from "./catalog.ts";
import {
  answerOf,
  callOf,
  checkedProfile,
  refusalAnswer,
  type UcpAnswer,
  type UcpOperationName,
} from "./checkout.ts";
import type { Json } from "./errors.ts";
import { platformProfiles } from "./profiles.ts";
import { shopSigningKeys } from "./signing.ts";
import { verifyRequestSignature } from "./verify.ts";
import { CHECKOUT, FULFILLMENT, ORDER, paymentHandlers, UCP_VERSION } from "./wire.ts";

// UCP's REST binding on each shop's host (docs/ucp.md): the business profile at /.well-known/ucp,
// and the checkout operations (checkout.ts) under /ucp/v1, with UCP's headers.

const BASE = "/ucp/v1";

/** The platform's profile URL from `UCP-Agent: profile="https://…"` (an RFC 8941 dictionary member). */
const platformProfile = (request: Request): string =>
  checkedProfile(
    /(?:^|,)\s*profile\s*=\s*"([^"]{1,2000})"/.exec(request.headers.get("ucp-agent") ?? "")?.[1],
  );

const answered = ({ status, body, headers }: UcpAnswer) => jsonResponse(status, body, headers);

export function ucpRoutes(service: Service, payments: CheckoutPayments): RawRoute[] {
  const shop = new SessionRunner(service);
  const limit = service.ctx.config.maxBodyBytes;
  /** A REST route of one UCP operation: the headers and body read, the operation answered. */
  const route = (method: "GET" | "POST" | "PUT", path: string, name: UcpOperationName): RawRoute => ({
    method,
    path: `${BASE}${path}`,
    async handle(request, params, requestId, client: ClientInfo) {
      let call: AdapterCall;
      let body: Json = {};
      try {
        const profile = platformProfile(request);
        call = await callOf(service, request, await service.resolveCaller(request, "v1"), profile, {
          requestId,
          client,
        });
        // Read once: the raw bytes for a signature's digest, then the JSON they hold.
        const raw = await readRawBody(request, limit);
        await verifyRequestSignature(
          { request, authority: hostOf(request), body: raw },
          await platformProfiles(service.ctx).get(profile),
        );
        if (method !== "GET") body = jsonObjectOf(raw);
      } catch (error) {
        return answered(refusalAnswer(error));
      }
      const key = request.headers.get("idempotency-key") ?? undefined;
      return answered(await answerOf(shop, call, name, { id: params?.id, body, key }));
    },
  });
  return [
    {
      method: "GET",
      path: "/.well-known/ucp",
      handle: (request) => profileResponse(service, payments, request),
    },
    route("POST", "/checkout-sessions", "create_checkout"),
    route("GET", "/checkout-sessions/:id", "get_checkout"),
    route("PUT", "/checkout-sessions/:id", "update_checkout"),
    route("POST", "/checkout-sessions/:id/complete", "complete_checkout"),
    route("POST", "/checkout-sessions/:id/cancel", "cancel_checkout"),
    route("GET", "/orders/:id", "get_order"),
    route("POST", "/catalog/search", "search_catalog"),
    route("POST", "/catalog/lookup", "lookup_catalog"),
    route("POST", "/catalog/product", "get_product"),
  ];
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
        [ORDER]: [{ version: UCP_VERSION }],
        [CATALOG_SEARCH]: [{ version: UCP_VERSION }],
        [CATALOG_LOOKUP]: [{ version: UCP_VERSION }],
      },
      payment_handlers: paymentHandlers({ paymentMethods }, new URL(`http://${hostOf(request)}`).hostname),
    },
    signing_keys: await shopSigningKeys(service.ctx, caller.orgId),
  };
  return jsonResponse(200, profile, { "cache-control": "public, max-age=300" });
}
