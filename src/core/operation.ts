import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { Upload, UploadedFile } from "./body.ts";
import type { ErrorCode } from "./errors.ts";
import type { PageParams } from "./schemas.ts";
import type { Scope } from "./scope.ts";

export type { Scope } from "./scope.ts";

type CallerType = "agent" | "api-key" | "session" | "host";

/** Who is calling `/v1`, resolved once per request by the transport. */
export interface Caller {
  type: CallerType;
  orgId: string;
  scopes: Scope[];
  userId?: string;
  /** Stable identity within the tenant (`key:…`, `user:…`, `host:…`, `agent:…`): idempotency keys are scoped by it. */
  id: string;
  /** The agent's id, for `agent` callers: grants are looked up by it. */
  agentId?: string;
}

/** A signed-in dashboard user (session cookie), for `/api/auth/*` operations that need no tenant. */
export interface DashboardUser {
  userId: string;
  sessionId: string;
  activeOrganizationId: string | null;
}

/** The storefront customer signed in on a request (customer session of the tenant). */
export interface SignedInCustomer {
  id: string;
  email: string;
  sessionId: string;
}

/**
 * Who may call an operation:
 * - `public`: anyone (health, the OpenAPI document, sign-in);
 * - `user`: a signed-in dashboard user, no tenant needed;
 * - `caller`: any resolved `/v1` caller (`GET /v1/me`);
 * - `storefront` / `admin`: a resolved caller holding that scope (agents: and a grant);
 * - `webhook`: no caller; the operation verifies the delivery itself in `prepare` (request headers and
 *   raw body are handed over), and only then names its tenant (`tenantOf`).
 */
type Access = "public" | "user" | "caller" | Scope | "webhook";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type In<T extends TSchema | undefined> = T extends TSchema ? Static<T> : undefined;

/** Facts about the client that some operations need (rate limits, session labels). */
export interface ClientInfo {
  /** Client address (right-most `x-forwarded-for` entry when TRUST_PROXY=true). */
  ip(): string | null;
  userAgent: string | null;
  /** What the request's log line says of its caller: filled by whoever resolves the caller. */
  trace?: CallerTrace;
}

/** The shop and kind of caller a request resolved to, for its log line (filled as the call proceeds). */
export interface CallerTrace {
  orgId?: string;
  callerType?: string;
}

/** Work a handler registers inside its transaction, run once the transaction committed (see core/outbox.ts). */
export interface AfterCommit {
  /** Queued: an outbox row written in this transaction, drained by the process, retried until it succeeds. */
  enqueue(kind: string, payload: unknown): string;
  /** Awaited before the answer, with an outbox row kept for a retry when it fails. */
  await(kind: string, payload: unknown): string;
}

export interface OperationContext<
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  B extends TSchema | undefined,
  Prepared = undefined,
> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  ctx: AppContext;
  requestId: string;
  client: ClientInfo;
  /** The resolved caller; present for `caller`, `storefront` and `admin` operations. */
  caller: Caller;
  /**
   * The tenant database; present for `caller`, `storefront` and `admin` operations, and for `webhook`
   * operations once `prepare` verified the delivery (never during it).
   */
  tenant: TenantDb;
  /** The dashboard user; present for `user` operations. */
  user: DashboardUser;
  /** The signed-in dashboard user of a `public` operation that declares `dashboardSession`, or null. */
  sessionUser: DashboardUser | null;
  /** The storefront customer signed in on this call, or null; looked up on first use. */
  customer: SignedInCustomer | null;
  /** What `prepare` returned. */
  prepared: Prepared;
  /** The exact bytes of the request body; present for `webhook` operations. */
  rawBody: Uint8Array;
  /** The request's headers; present for `webhook` operations (a provider's proof travels there). */
  headers: Headers;
  /** The file sent; present for operations that declare an `upload`. */
  file: UploadedFile;
  /** Work after the commit; present for tenant writes. */
  afterCommit: AfterCommit;
}

/** A cookie the transport should set (an empty value with max age 0 clears it). */
export interface CookieToSet {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/** A result with effects for the transport: cookies to set, a `Location`, the operation's `alsoStatus` instead of its `status`. */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly effects: { cookies?: CookieToSet[]; location?: string; status?: 200 | 201 },
  ) {}
}

/**
 * A stored file answered as its bytes instead of the envelope (`GET /media/{id}`): its content type
 * and strong ETag; `shared` lets any cache keep it, else only the caller's own (see
 * docs/media.md). Such a file never changes under its URL, so it is kept for a year unasked.
 */
export class FileReply {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
    readonly etag: string,
    readonly shared: boolean,
  ) {}
}

/** A list result: the page of items plus `meta {page, limit, total}`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly page: PageParams,
    readonly total: number,
    /** `total` is a cap, not the count (searches with many matches): `meta.totalIsEstimate`. */
    readonly totalIsEstimate?: true,
  ) {}
}

export interface Operation<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | undefined = TSchema | undefined,
  X = unknown,
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
  /** The body is a file, not JSON (`call.file`): see `Upload`. */
  upload?: Upload;
  /** The success answer is a `FileReply` of one of these media types instead of the JSON envelope. */
  fileResponse?: string[];
  /**
   * A body of this media type (`text/csv`) is read as UTF-8 text into the body field `field`, and
   * validated as that field; the JSON form `{"<field>": "…"}` is accepted as well (agents send it).
   */
  textBody?: { mediaType: string; field: string };
  /**
   * The success answer is the handler's text (`response` is its string schema) sent as it is with
   * this media type (`text/csv`, UTF-8) instead of the JSON envelope: a representation of current
   * data, so it is compressed and not stored, as JSON answers are. Never an agent operation.
   */
  textResponse?: string;
  /** Success status: 200 by default, 201 for creation, 202 for work accepted to run later, 204 for deletion. */
  status?: 200 | 201 | 202 | 204;
  /** The other success status the handler may answer with a `Reply` (201 for a PUT that created); documented too. */
  alsoStatus?: 200 | 201;
  /** The success body carries `meta {page, limit, total}`. */
  list?: boolean;
  /** The schema of a list's `meta` when it says more than `PageMeta` (`SearchPageMeta`). */
  listMeta?: TSchema;
  /** Error codes this operation can answer besides the ones every operation of its access can. */
  errors?: ErrorCode[];
  /**
   * The storefront customer session (`x-customer-session` header or `customer_session` cookie) the
   * handler reads through `call.customer`: `required` answers 401 without one, `optional` changes
   * what it does or shows. Documented as a security scheme.
   */
  customerSession?: "required" | "optional";
  /**
   * `public` operations whose answer depends on whether a dashboard user is signed in (accepting an
   * invitation): a session cookie, when sent, is resolved like a `user` operation's (a wrong one is a
   * 401) and is `call.sessionUser`.
   */
  dashboardSession?: "optional";
  /**
   * `webhook` operations: the `x-checkout-secret` header (`CHECKOUT_API_SECRET`) the operation checks,
   * documented as a security scheme: `required` on every call, `optional` when some calls (a
   * readiness check) need none.
   */
  checkoutSecret?: "required" | "optional";
  /** Example request body and `data` of the answer, shown in the OpenAPI document (checked against the schemas). */
  examples?: { body?: unknown; response?: unknown };
  /**
   * Async work done before the transaction (password hashing, reads that need an await); its
   * result is `call.prepared`. Tenant writes run in one BEGIN IMMEDIATE transaction with their
   * idempotency record, so their handler is synchronous.
   */
  prepare?: (call: OperationContext<P, Q, B>) => Promise<X>;
  /**
   * Idempotency scope of an anonymous storefront call (no customer session), e.g. the cart it
   * acts on; without it the client's own key is the whole scope (creates with nothing to scope by).
   */
  idempotencyScope?: (pathAndQuery: Record<string, unknown>) => string;
  /**
   * The answer carries a bearer secret (a session token or cookie, an order's access token): its
   * idempotency record is sealed with the instance key instead of kept readable (core/idempotency.ts).
   */
  answerHoldsSecret?: boolean;
  /**
   * `webhook` operations: the organization the call belongs to, from the validated path and query and
   * what `prepare` returned; asked only after `prepare`, where a webhook verifies its delivery. An
   * unknown organization is a 404; null: the call concerns none (answered with no tenant and no
   * transaction, such as a readiness check).
   */
  tenantOf?: (pathAndQuery: Record<string, unknown>, prepared: X) => string | null | undefined;
  /** After awaited work ran, the answer is rendered again from the committed data. */
  reload?: (call: OperationContext<P, Q, B>, data: R extends TSchema ? Static<R> : undefined) => unknown;
  /**
   * A storefront read whose body depends only on the tenant's data and the URL (catalog reads):
   * rendered bodies are reused until the tenant's data changes (src/core/response-cache.ts).
   */
  cacheable?: boolean;
  /**
   * Commit at synchronous=FULL: the write must survive power loss (orders, refunds, payments).
   * `"grouped"`: calls on the same tenant arriving together share that commit, each in its own
   * savepoint, and are answered once it is done, as every write but a `durable: true` one is
   * (`inGroupCommit`, src/db/sqlite.ts).
   */
  durable?: boolean | "grouped";
  /** Exposed to agents as a capability and MCP tool (default true for `/v1` operations). */
  agent?: boolean;
  /** Granted to a new agent without merchant approval: storefront reads only (see core/registry.ts). */
  autoGrant?: boolean;
  handler: (call: OperationContext<P, Q, B, X>) => Result<R> | Promise<Result<R>>;
}

/**
 * A write on a tenant's data (POST, PUT, PATCH, DELETE by a `storefront` or `admin` caller): run in one
 * transaction with its idempotency record, so it accepts `Idempotency-Key` (webhooks write too,
 * without one).
 */
export const isTenantWrite = (op: Pick<Operation, "method" | "access">): boolean =>
  op.method !== "GET" && (op.access === "storefront" || op.access === "admin");

type Result<R extends TSchema | undefined> = R extends TSchema
  ? Static<R> | Paged<Static<R>> | Reply<Static<R>>
  : undefined | Reply<undefined> | FileReply;

/** Declares an operation; the route, OpenAPI entry, MCP tool and capability all come from this one object. */
export function defineOperation<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema | undefined = undefined,
  X = undefined,
>(operation: Operation<P, Q, B, R, X>): Operation {
  return operation as unknown as Operation;
}
