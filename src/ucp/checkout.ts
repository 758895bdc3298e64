import { type AdapterCall, hostOf, originOf, type SessionRunner } from "../checkout/adapter.ts";
import { problemOf, type SessionView } from "../checkout/sessions.ts";
import { ApiError } from "../core/errors.ts";
import type { Service } from "../core/module.ts";
import type { Caller, ClientInfo } from "../core/operation.ts";
import { UcpCatalog } from "./catalog.ts";
import { type Json, UcpError } from "./errors.ts";
import { platformProfiles } from "./profiles.ts";
import { checkoutOf, orderOf, paymentCredentialOf, sessionInputOf, UCP_VERSION } from "./wire.ts";

// UCP's checkout operations, whichever binding (REST, MCP) carries them: each runs the checkout
// session operation it stands for (same validation, transaction, idempotency and tenant as on
// /v1) and its answer or refusal is translated. The caller is the shop's Host (or a storefront
// key, or an agent), acting as the platform its `UCP-Agent` names: sessions belong to that profile.

/** A platform profile URL (from `UCP-Agent`, or MCP's `meta["ucp-agent"].profile`), checked. */
export function checkedProfile(url: string | undefined): string {
  if (!url || url.length > 2000) {
    throw new UcpError(400, "invalid_profile_url", 'UCP-Agent must name the platform: profile="https://…"');
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("scheme");
  } catch {
    throw new UcpError(400, "invalid_profile_url", "UCP-Agent's profile is not an absolute URL");
  }
  return url;
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

/**
 * A call of the shop `request` reached, made by `resolved` for the platform `profile`, once that
 * profile was fetched and checked (profiles.ts).
 */
export async function callOf(
  service: Service,
  request: Request,
  resolved: Caller,
  profile: string,
  context: { requestId: string; client: ClientInfo },
): Promise<AdapterCall> {
  await platformProfiles(service.ctx).get(profile);
  return {
    ...context,
    caller: { ...resolved, id: `ucp:${profile}` },
    host: new URL(`http://${hostOf(request)}`).hostname,
    origin: originOf(service, request),
  };
}

/** What a UCP operation answers: a status and a body (a checkout, an `error_response` or `{code, content}`). */
export interface UcpAnswer {
  status: number;
  body: Json;
  headers?: Record<string, string>;
  /** Not a business outcome: a protocol error. */
  error?: boolean;
}

/** Refusals of place-order that a platform can fix: answered as the checkout with a message, not an error. */
const FIXABLE = new Set(["INSUFFICIENT_STOCK", "UNPROCESSABLE", "COUPON_INVALID"]);

/**
 * Complete: the payment instrument chosen (when it changes the session's), then place the order
 * under the request's key. A refusal the platform can fix is the checkout with that message.
 */
async function completeCall(
  shop: SessionRunner,
  call: AdapterCall,
  id: string,
  body: Json,
  key: string,
): Promise<SessionView & Json> {
  let session = await shop.run(call, "getCheckoutSession", { id });
  // A platform completes again after the buyer acted (an escalation): the checkout as it is now.
  if (session.status === "completed") return session;
  const { paymentMethodId } = sessionInputOf({ payment: body.payment });
  if (paymentMethodId && paymentMethodId !== session.paymentMethodId) {
    session = await shop.run(call, "updateCheckoutSession", { id, paymentMethodId }, `${key}:payment`);
  }
  const paymentCredential = paymentCredentialOf(body.payment);
  try {
    return await shop.run(
      call,
      "completeCheckoutSession",
      { id, ...(paymentCredential && { paymentCredential }) },
      key,
    );
  } catch (error) {
    if (!(error instanceof ApiError) || !FIXABLE.has(error.code)) throw error;
    const after = await shop.run(call, "getCheckoutSession", { id });
    return {
      ...after,
      problems: [...after.problems, problemOf(error)],
    };
  }
}

/**
 * UCP's operations on a shop, by their UCP (and MCP tool) names: the checkout's (and its order) and
 * the catalog's. `body`: what the MCP binding calls the request's argument (`checkout`, `catalog`).
 */
export const UCP_OPERATIONS = {
  create_checkout: { status: 201, needsKey: true, needsId: false, body: "checkout" },
  get_checkout: { status: 200, needsKey: false, needsId: true, body: null },
  update_checkout: { status: 200, needsKey: true, needsId: true, body: "checkout" },
  complete_checkout: { status: 200, needsKey: true, needsId: true, body: "checkout" },
  cancel_checkout: { status: 200, needsKey: true, needsId: true, body: null },
  get_order: { status: 200, needsKey: false, needsId: true, body: null },
  search_catalog: { status: 200, needsKey: false, needsId: false, body: "catalog" },
  lookup_catalog: { status: 200, needsKey: false, needsId: false, body: "catalog" },
  get_product: { status: 200, needsKey: false, needsId: false, body: "catalog" },
} as const;
export type UcpOperationName = keyof typeof UCP_OPERATIONS;

/** Runs one checkout operation's session work. */
function sessionWork(
  shop: SessionRunner,
  call: AdapterCall,
  name: UcpOperationName,
  id: string,
  body: Json,
  key: string,
) {
  switch (name) {
    case "create_checkout":
      return shop.run(call, "openCheckoutSession", sessionInputOf(body) as Json, key);
    case "update_checkout":
      return shop.run(call, "updateCheckoutSession", { id, ...(sessionInputOf(body) as Json) }, key);
    case "complete_checkout":
      return completeCall(shop, call, id, body, key);
    case "cancel_checkout":
      return shop.run(call, "cancelCheckoutSession", { id }, key);
    case "get_order":
      return shop.run(call, "getCheckoutSessionOfOrder", { orderId: id });
    default:
      return shop.run(call, "getCheckoutSession", { id });
  }
}

/** The answer's body: a catalog operation's own, or the session as UCP's checkout or order (null: not found). */
async function bodyOf(
  shop: SessionRunner,
  call: AdapterCall,
  name: UcpOperationName,
  input: { id?: string; body: Json; key?: string },
): Promise<Json | null> {
  const catalog = new UcpCatalog(shop);
  if (name === "search_catalog") return catalog.search(call, input.body);
  if (name === "lookup_catalog") return catalog.lookup(call, input.body);
  if (name === "get_product") return catalog.detail(call, input.body);
  const session = await sessionWork(shop, call, name, input.id ?? "", input.body, input.key ?? "");
  return (name === "get_order" ? orderOf : checkoutOf)(session, shop.shopOf(call));
}

/** A 200 that says the resource is not there (UCP's `error_response`). */
const notFound = (content: string): UcpAnswer => ({
  status: 200,
  body: {
    ucp: { version: UCP_VERSION, status: "error" },
    messages: [{ type: "error", code: "not_found", content, severity: "unrecoverable" }],
  },
});

/** One UCP operation, answered: the checkout, UCP's not-found outcome, or a protocol error. */
export async function answerOf(
  shop: SessionRunner,
  call: AdapterCall,
  name: UcpOperationName,
  input: { id?: string; body: Json; key?: string },
): Promise<UcpAnswer> {
  const spec = UCP_OPERATIONS[name];
  try {
    if (spec.needsKey && !input.key) {
      throw new UcpError(400, "invalid_request", "An idempotency key is required on this operation");
    }
    const body = await bodyOf(shop, call, name, input);
    return body ? { status: spec.status, body } : notFound(`No product or variant ${String(input.body.id)}`);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return notFound(error.message);
    return refusalAnswer(error);
  }
}

/** A refusal as UCP's protocol error; anything else (a fault of ours) is thrown on. */
export function refusalAnswer(error: unknown): UcpAnswer {
  const refusal = error instanceof ApiError ? protocolError(error) : error;
  if (!(refusal instanceof UcpError)) throw refusal;
  return {
    status: refusal.status,
    body: { code: refusal.code, content: refusal.message },
    headers: refusal.headers,
    error: true,
  };
}
