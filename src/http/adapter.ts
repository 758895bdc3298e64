import type { AppContext } from "../app-context.ts";
import { type CallerResolver, readCookie } from "../auth/caller.ts";
import { ApiError } from "../core/errors.ts";
import type { Executor, Outcome, Principal } from "../core/executor.ts";
import type { Operation } from "../core/operation.ts";
import { CUSTOMER_COOKIE, CUSTOMER_HEADER } from "../customers/customer-session.ts";
import { readJsonBody, readRawBody } from "./body.ts";
import { cookieHeader } from "./cookies.ts";
import { errorResponse, JSON_HEADERS } from "./respond.ts";

/** Per-request facts gathered along the way, for the response headers and the request log line. */
export interface RequestState {
  id: string;
  /** Client address, worked out only when an operation asks (rate limits). */
  ip(): string | null;
  route?: string;
  orgId?: string;
  callerType?: string;
}

/**
 * REST on top of the executor: resolves who is calling from the headers, turns the path, query and
 * JSON body into one input, and renders the outcome (`{data}` / `{data, meta}`, cookies,
 * `Location`, `Idempotent-Replayed`) or the error body.
 */
export class HttpAdapter {
  constructor(
    private readonly executor: Executor,
    private readonly resolver: CallerResolver,
    private readonly app: AppContext,
  ) {}

  async handle(
    op: Operation,
    request: Request,
    rawParams: Record<string, string>,
    rawQuery: Record<string, unknown>,
    state: RequestState,
  ): Promise<Response> {
    state.route = op.path;
    try {
      const principal = await this.principal(op, request);
      const { params, query } = this.executor.inputNames(op);
      const input: Record<string, unknown> = {};
      for (const name of query) if (rawQuery[name] !== undefined) input[name] = rawQuery[name];
      for (const name of params) input[name] = rawParams[name];
      let rawBody: Uint8Array | undefined;
      if (op.access === "webhook") rawBody = await readRawBody(request, this.app.config.maxBodyBytes);
      else if (op.body) {
        const { value } = await readJsonBody(request, this.app.config.maxBodyBytes);
        mergeBody(input, value, params, query);
      }
      const outcome = await this.executor.execute(op, principal, input, {
        requestId: state.id,
        client: { ip: state.ip, userAgent: request.headers.get("user-agent") },
        idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
        customerToken: () => request.headers.get(CUSTOMER_HEADER) ?? readCookie(request, CUSTOMER_COOKIE),
        rawBody,
        trace: state,
      });
      return this.render(outcome, request);
    } catch (error) {
      return errorResponse(error, this.app.log, state.id);
    }
  }

  private async principal(op: Operation, request: Request): Promise<Principal> {
    switch (op.access) {
      case "public":
      case "webhook":
        return {};
      case "user":
        return { user: this.resolver.resolveDashboardUser(request) };
      default:
        return { caller: await this.resolver.resolve(request, "v1") };
    }
  }

  private render(outcome: Outcome, request: Request): Response {
    const { status, body } = outcome;
    if (body !== null && !outcome.replayed && outcome.cookies.length === 0 && !outcome.location) {
      return new Response(body, { status, headers: JSON_HEADERS });
    }
    const headers = new Headers(body === null ? undefined : JSON_HEADERS);
    if (outcome.replayed) headers.set("idempotent-replayed", "true");
    if (outcome.location) headers.set("location", outcome.location);
    const { config } = this.app;
    const https =
      config.baseUrl.startsWith("https:") ||
      (config.trustProxy && request.headers.get("x-forwarded-proto")?.toLowerCase() === "https");
    for (const cookie of outcome.cookies) headers.append("set-cookie", cookieHeader(cookie, https));
    return new Response(body, { status, headers });
  }
}

/** Adds the body's fields to the input; a field named like a path or query input is refused, as any unknown field. */
function mergeBody(
  input: Record<string, unknown>,
  body: unknown,
  params: Set<string>,
  query: Set<string>,
): void {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError("VALIDATION_ERROR", "Invalid body: /body Expected object", [
      { path: "/body", message: "Expected object" },
    ]);
  }
  for (const [name, value] of Object.entries(body)) {
    if (params.has(name) || query.has(name)) {
      throw new ApiError("VALIDATION_ERROR", `Invalid body: /body/${name} Unexpected property`, [
        { path: `/body/${name}`, message: "Unexpected property" },
      ]);
    }
    input[name] = value;
  }
}
