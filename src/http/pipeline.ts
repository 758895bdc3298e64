import type { AppContext } from "../app-context.ts";
import type { CallerResolver } from "../auth/caller.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { readJsonBody } from "./body.ts";
import { ApiError } from "./errors.ts";
import {
  type Caller,
  type DashboardUser,
  type Operation,
  type OperationContext,
  Paged,
} from "./operation.ts";
import { errorResponse, jsonResponse } from "./respond.ts";
import { compileInput, type InputValidator } from "./validation.ts";

/** Per-request facts gathered along the way, for the response headers and the request log line. */
export interface RequestState {
  id: string;
  /** Client address, worked out only when an operation asks (rate limits). */
  ip(): string | null;
  route?: string;
  orgId?: string;
  callerType?: string;
}

export interface CompiledOperation {
  op: Operation;
  params?: InputValidator;
  query?: InputValidator;
  body?: InputValidator;
}

export function compileOperation(op: Operation): CompiledOperation {
  return {
    op,
    params: op.params && compileInput("params", op.params),
    query: op.query && compileInput("query", op.query),
    body: op.body && compileInput("body", op.body),
  };
}

const missing = (what: string) => () => {
  throw new Error(`operation context has no ${what} for this kind of operation`);
};

/**
 * The request lifecycle of DESIGN.md §5: resolve the caller, check the scope, take the tenant
 * database, validate the input, run the handler, wrap the result in the envelope.
 */
export async function runOperation(
  app: AppContext,
  resolver: CallerResolver,
  compiled: CompiledOperation,
  request: Request,
  rawParams: Record<string, string>,
  rawQuery: Record<string, unknown>,
  state: RequestState,
): Promise<Response> {
  const { op } = compiled;
  state.route = op.path;
  let tenant: TenantDb | undefined;
  try {
    let caller: Caller | undefined;
    let user: DashboardUser | undefined;
    if (op.access === "user") {
      user = resolver.resolveDashboardUser(request);
    } else if (op.access !== "public") {
      caller = resolver.resolve(request);
      state.orgId = caller.orgId;
      state.callerType = caller.type;
      if (op.access !== "caller" && !caller.scopes.includes(op.access)) {
        throw new ApiError(
          "FORBIDDEN",
          `Insufficient scope: this operation requires the "${op.access}" scope`,
        );
      }
    }

    let responseHeaders: Headers | undefined;
    const ctx: OperationContext<never, never, never> = {
      params: (compiled.params ? compiled.params.parse(rawParams) : undefined) as never,
      query: (compiled.query ? compiled.query.parse(rawQuery) : undefined) as never,
      body: (compiled.body
        ? compiled.body.parse(await readJsonBody(request, app.config.maxBodyBytes))
        : undefined) as never,
      app,
      request,
      requestId: state.id,
      get ip() {
        return state.ip();
      },
      get responseHeaders() {
        responseHeaders ??= new Headers();
        return responseHeaders;
      },
      get caller() {
        return caller ?? missing("caller")();
      },
      // Taken from the pool on first use (released below), so operations that never touch it pay nothing.
      get tenant() {
        if (!caller) return missing("tenant")();
        tenant ??= app.tenants.acquire(caller.orgId);
        return tenant;
      },
      get user() {
        return user ?? missing("user")();
      },
    };

    const result = await op.handler(ctx);
    const status = op.status ?? 200;
    if (status === 204) return new Response(null, { status, headers: responseHeaders });
    const body =
      result instanceof Paged
        ? {
            data: result.items,
            meta: { page: result.page.page, limit: result.page.limit, total: result.total },
          }
        : { data: result };
    return jsonResponse(status, body, responseHeaders);
  } catch (error) {
    return errorResponse(error, app.log, state.id);
  } finally {
    if (tenant) app.tenants.release(tenant);
  }
}
