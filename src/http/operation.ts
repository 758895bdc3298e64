import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { ErrorCode } from "./errors.ts";
import type { PageParams } from "./schemas.ts";

export type Scope = "storefront" | "admin";
export type CallerType = "agent" | "api-key" | "session" | "host";

/** Who is calling `/v1`, resolved once per request (seed §5). */
export interface Caller {
  type: CallerType;
  orgId: string;
  scopes: Scope[];
  userId?: string;
  /** Stable identity within the tenant (`key:…`, `user:…`, `host:…`): idempotency keys are per caller. */
  id: string;
}

/** A signed-in dashboard user (session cookie), for `/api/auth/*` operations that need no tenant. */
export interface DashboardUser {
  userId: string;
  sessionId: string;
  activeOrganizationId: string | null;
}

/**
 * Who may call an operation:
 * - `public`: anyone (health, the OpenAPI document, sign-in);
 * - `user`: a signed-in dashboard user, no tenant needed;
 * - `caller`: any resolved `/v1` caller (`GET /v1/me`);
 * - `storefront` / `admin`: a resolved caller holding that scope (or, later, an agent grant).
 */
export type Access = "public" | "user" | "caller" | Scope;

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

type In<T extends TSchema | undefined> = T extends TSchema ? Static<T> : undefined;

export interface OperationContext<
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  B extends TSchema | undefined,
> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  app: AppContext;
  request: Request;
  requestId: string;
  /** Client address (right-most `x-forwarded-for` entry when TRUST_PROXY=true). */
  ip: string | null;
  /** Headers added to the success response (cookies, Location). */
  responseHeaders: Headers;
  /** The resolved caller; present for `caller`, `storefront` and `admin` operations. */
  caller: Caller;
  /** The caller's tenant database; present for `caller`, `storefront` and `admin` operations. */
  tenant: TenantDb;
  /** The dashboard user; present for `user` operations. */
  user: DashboardUser;
}

/** A list result: the page of items plus `meta {page, limit, total}`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly page: PageParams,
    readonly total: number,
  ) {}
}

export interface Operation<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | undefined = TSchema | undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/products/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` in the success body (the item schema for lists); absent for 204. */
  response?: R;
  /** Success status: 200 by default, 201 for creation, 204 for deletion. */
  status?: 200 | 201 | 204;
  /** The success body carries `meta {page, limit, total}`. */
  list?: boolean;
  /** Error codes this operation can answer besides the ones every operation of its access can. */
  errors?: ErrorCode[];
  /**
   * Tenant writes run in one BEGIN IMMEDIATE transaction with their idempotency record, so their
   * handler must be synchronous. `false` for the few that must await (password hashing) and
   * manage their own transactions.
   */
  transactional?: boolean;
  /**
   * A storefront read whose body depends only on the tenant's data and the URL (catalog reads):
   * rendered bodies are reused until the tenant's data changes (src/http/response-cache.ts).
   */
  cacheable?: boolean;
  /** Commit at synchronous=FULL: the write must survive power loss (orders, refunds, payments). */
  durable?: boolean;
  /** Exposed to agents as a capability and MCP tool (default true for `/v1` operations). */
  agent?: boolean;
  /** Granted to a new agent without merchant approval (storefront reads only, AGENTS.md §5.1). */
  autoGrant?: boolean;
  handler: (
    ctx: OperationContext<P, Q, B>,
  ) =>
    | (R extends TSchema ? Static<R> | Paged<Static<R>> : undefined)
    | Promise<R extends TSchema ? Static<R> | Paged<Static<R>> : undefined>;
}

/** Declares an operation; the route, OpenAPI entry, MCP tool and capability all come from this one object. */
export function defineOperation<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema | undefined = undefined,
>(operation: Operation<P, Q, B, R>): Operation {
  return operation as unknown as Operation;
}
