import type { AppContext } from "../app-context.ts";
import type { CallerResolver } from "../auth/caller.ts";
import { durably } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { readJsonBody } from "./body.ts";
import { ApiError } from "./errors.ts";
import { findStored, idempotencyKey, requestHash, store } from "./idempotency.ts";
import {
  type Caller,
  type DashboardUser,
  type Operation,
  type OperationContext,
  Paged,
} from "./operation.ts";
import { errorResponse, JSON_HEADERS } from "./respond.ts";
import { cacheSlot, tenantWritten } from "./response-cache.ts";
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

/** Tenant writes: one transaction with the idempotency record (see `Operation.transactional`). */
const isTenantWrite = (op: Operation) =>
  op.method !== "GET" && (op.access === "storefront" || op.access === "admin") && op.transactional !== false;

function envelope(result: unknown): string {
  if (result instanceof Paged) {
    return JSON.stringify({
      data: result.items,
      meta: { page: result.page.page, limit: result.page.limit, total: result.total },
    });
  }
  return JSON.stringify({ data: result });
}

/**
 * The request lifecycle of DESIGN.md §5: resolve the caller, check the scope, take the tenant
 * database, validate the input, run the handler, wrap the result in the envelope. Tenant writes
 * run in one BEGIN IMMEDIATE transaction together with their idempotency record.
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

    const params = compiled.params ? compiled.params.parse(rawParams) : undefined;
    const query = compiled.query ? compiled.query.parse(rawQuery) : undefined;
    let bodyText = "";
    let body: unknown;
    if (compiled.body) {
      const read = await readJsonBody(request, app.config.maxBodyBytes);
      bodyText = read.text;
      body = compiled.body.parse(read.value);
    }

    let responseHeaders: Headers | undefined;
    const ctx: OperationContext<never, never, never> = {
      params: params as never,
      query: query as never,
      body: body as never,
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

    const status = op.status ?? 200;
    let text: string | null;
    if (isTenantWrite(op) && caller) {
      const key = idempotencyKey(request);
      const db = ctx.tenant;
      const hash = key === undefined ? "" : requestHash(request, bodyText);
      const write = () => {
        const stored = key === undefined ? undefined : findStored(db, caller.id, key, hash);
        if (stored) return { replayed: stored };
        const result = op.handler(ctx);
        if (result instanceof Promise)
          throw new Error(`${op.operationId}: a transactional handler must not await`);
        const out = status === 204 ? null : envelope(result);
        if (key !== undefined) store(db, caller.id, key, hash, { status, body: out });
        return { text: out };
      };
      const outcome = op.durable ? durably(db.sqlite, write) : db.sqlite.transaction(write).immediate();
      tenantWritten(db);
      if ("replayed" in outcome && outcome.replayed) {
        const headers = new Headers(JSON_HEADERS);
        headers.set("idempotent-replayed", "true");
        return new Response(outcome.replayed.body, { status: outcome.replayed.status, headers });
      }
      text = (outcome as { text: string | null }).text;
    } else {
      let slot: ReturnType<typeof cacheSlot> | undefined;
      if (op.cacheable && caller) {
        const url = new URL(request.url);
        slot = cacheSlot(ctx.tenant, url.pathname + url.search);
        if (slot.body !== undefined) return new Response(slot.body, { status, headers: JSON_HEADERS });
      }
      const result = await op.handler(ctx);
      text = status === 204 ? null : envelope(result);
      if (slot && text !== null) slot.keep(text);
    }
    if (text === null) return new Response(null, { status, headers: responseHeaders });
    if (!responseHeaders) return new Response(text, { status, headers: JSON_HEADERS });
    responseHeaders.set("content-type", JSON_HEADERS["content-type"]);
    return new Response(text, { status, headers: responseHeaders });
  } catch (error) {
    return errorResponse(error, app.log, state.id);
  } finally {
    if (tenant) app.tenants.release(tenant);
  }
}
