import { sha256Hex } from "../auth/crypto.ts";
import { type AdapterCall, obj, paymentDeclined, SessionRunner } from "../checkout/adapter.ts";
import { problemOf, type SessionView } from "../checkout/sessions.ts";
import { ApiError } from "../core/errors.ts";
import type { Service } from "../core/module.ts";
import { ACP_CODES, checkoutSessionOf, PROBLEM_AT, paymentCredentialOf, sessionInputOf } from "./wire.ts";

// ACP's checkout operations: each runs the checkout session operation it stands for (same
// validation, transaction, idempotency and tenant as on /v1) as the platform, and its answer or
// refusal is translated into ACP's shapes and codes.

type Json = Record<string, unknown>;

/** ACP's `Error`: a status with `{type, code, message, param?}`. */
export class AcpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { param?: string; headers?: Record<string, string>; body?: Json } = {},
  ) {
    super(message);
  }
}

export const ACP_OPERATIONS = {
  create: { status: 201 },
  get: { status: 200 },
  update: { status: 200 },
  complete: { status: 200 },
  cancel: { status: 200 },
} as const;
export type AcpOperationName = keyof typeof ACP_OPERATIONS;

/** What an ACP operation answers. */
export interface AcpAnswer {
  status: number;
  body: Json;
  headers: Record<string, string>;
}

/** Service refusals in ACP's terms (the status kept, except where ACP names its own). */
function acpErrorOf(error: ApiError, name: AcpOperationName): AcpError {
  const headers = error.headers ?? {};
  switch (error.code) {
    case "IDEMPOTENCY_CONFLICT":
      return new AcpError(422, "idempotency_conflict", error.message);
    case "NOT_FOUND":
      return new AcpError(404, "not_found", error.message);
    // Cancel of a completed or canceled session: ACP's 405.
    case "CONFLICT":
      return new AcpError(name === "cancel" ? 405 : 409, "invalid_state", error.message);
    case "VALIDATION_ERROR": {
      const detail = error.details?.[0];
      const message = detail ? `${error.message} (${detail.path}: ${detail.message})` : error.message;
      return new AcpError(400, "invalid", message, { headers });
    }
  }
  if (error.status < 500 && (error.code in ACP_CODES || error.code === "UNPROCESSABLE")) {
    // What place-order refused at completion: the part of the session to fix, as ACP's message has it.
    const problem = problemOf(error);
    return new AcpError(
      error.status,
      ACP_CODES[error.code] ?? PROBLEM_AT[problem.field].code,
      error.message,
      {
        param: PROBLEM_AT[problem.field].param,
      },
    );
  }
  return new AcpError(error.status, error.code.toLowerCase(), error.message, { headers });
}

/** A refusal as ACP's `Error` answer; a fault of ours is thrown on. */
export function refusalAnswer(error: unknown, name: AcpOperationName): AcpAnswer {
  const refusal = error instanceof ApiError ? acpErrorOf(error, name) : error;
  if (!(refusal instanceof AcpError)) throw refusal;
  const type =
    refusal.status === 503
      ? "service_unavailable"
      : refusal.status >= 500
        ? "processing_error"
        : "invalid_request";
  return {
    status: refusal.status,
    body: {
      type,
      code: refusal.code,
      message: refusal.message,
      ...(refusal.extra.param ? { param: refusal.extra.param } : {}),
      ...refusal.extra.body,
    },
    headers: refusal.extra.headers ?? {},
  };
}

/**
 * The request's key as the executor keeps it: ACP scopes a key to the platform and the endpoint's
 * path (the platform is the caller's scope; the path is hashed in), and allows 255 characters.
 */
const scopedKey = (path: string, key: string) => sha256Hex(`${path}\n${key}`);

/** Requests whose key is being answered now, by platform and scoped key: a second one is told to wait. */
const inFlight = new Set<string>();

export class AcpShop {
  private readonly runner: SessionRunner;
  constructor(service: Service) {
    this.runner = new SessionRunner(service);
  }

  /** One ACP operation on a platform's behalf (`key` is required on every POST: checked by the route). */
  async answer(
    call: AdapterCall,
    name: AcpOperationName,
    input: { id: string; path: string; body: Json; key?: string },
  ): Promise<AcpAnswer> {
    const key = input.key === undefined ? undefined : scopedKey(input.path, input.key);
    const flight = key && `${call.caller.orgId}\n${call.caller.id}\n${key}`;
    if (flight && inFlight.has(flight)) {
      return refusalAnswer(
        new AcpError(409, "idempotency_in_flight", "A request with this Idempotency-Key is being processed", {
          headers: { "retry-after": "1" },
        }),
        name,
      );
    }
    if (flight) inFlight.add(flight);
    try {
      const { data, replayed } = await this.work(call, name, input.id, input.body, key);
      const headers: Record<string, string> = replayed ? { "idempotent-replayed": "true" } : {};
      return {
        status: ACP_OPERATIONS[name].status,
        body: checkoutSessionOf(data, this.runner.shopOf(call), call.origin),
        headers,
      };
    } catch (error) {
      return refusalAnswer(error, name);
    } finally {
      if (flight) inFlight.delete(flight);
    }
  }

  private work(
    call: AdapterCall,
    name: AcpOperationName,
    id: string,
    body: Json,
    key: string | undefined,
  ): Promise<{ data: SessionView & Json; replayed: boolean }> {
    const run = this.runner;
    switch (name) {
      case "create":
        return run.execute(call, "openCheckoutSession", sessionInputOf(body) as Json, key);
      case "get":
        return run.execute(call, "getCheckoutSession", { id });
      case "update":
        return run.execute(call, "updateCheckoutSession", { id, ...(sessionInputOf(body) as Json) }, key);
      case "complete":
        return this.complete(call, id, body, key!);
      case "cancel":
        return run.execute(call, "cancelCheckoutSession", { id }, key);
    }
  }

  /**
   * Complete: what the body changes (the buyer, the payment handler, the billing address) applied
   * first, then the order placed under the request's key. A replay of the key answers the first
   * completion without applying anything again.
   */
  private async complete(call: AdapterCall, id: string, body: Json, key: string) {
    const changes = sessionInputOf({
      buyer: body.buyer,
      payment_data: obj(body.payment_data),
    }) as Json;
    if (Object.keys(changes).length > 0) {
      await this.runner.execute(call, "updateCheckoutSession", { id, ...changes }, `${key}:changes`);
    }
    const paymentCredential = paymentCredentialOf(body);
    const completed = await this.runner.execute(
      call,
      "completeCheckoutSession",
      { id, ...(paymentCredential && { paymentCredential }) },
      key,
    );
    // A declined card cancelled the order it was to pay: ACP's refusal, the session over.
    if (paymentDeclined(completed.data)) {
      throw new AcpError(
        402,
        "payment_declined",
        "The card was declined: the order was cancelled, nothing charged",
        {
          param: "$.payment_data",
        },
      );
    }
    return completed;
  }
}
