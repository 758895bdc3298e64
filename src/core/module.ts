import type { AppContext, ShopRows } from "../app-context.ts";
import type { PlatformUpgrade } from "../db/platform.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { EventType } from "./events.ts";
import type { Executor, ValidatedInput } from "./executor.ts";
import type { Caller, ClientInfo, HttpMethod, Operation } from "./operation.ts";
import type { JobHandler } from "./outbox.ts";

/** What an event reaction may do in the recording transaction. */
export interface EventWork {
  ctx: AppContext;
  /** Queues work to run after the commit (an outbox row, see core/outbox.ts). */
  enqueue(kind: string, payload: unknown): string;
}

/** Where a bearer token is presented: each surface has its own accepted audience. */
export type BearerSurface = "v1" | "mcp";

/** What a module's own HTTP routes can use. */
export interface Service {
  ctx: AppContext;
  executor: Executor;
  operations: readonly Operation[];
  /** The `/v1` caller of a request (API key, session, Host or bearer token), or a thrown 401. */
  resolveCaller(request: Request, surface: BearerSurface): Promise<Caller>;
  /** The organization a request's Host names (its shop), whatever credential it carries. */
  shopOfHost(request: Request): string | undefined;
}

/**
 * An HTTP route that is not an operation (discovery documents, `/mcp`, pages). What `handle` throws
 * is answered as an operation's throw: an `ApiError` with its status and error body.
 */
export interface RawRoute {
  method: HttpMethod | "PUT";
  /** Elysia-style path, e.g. `/.well-known/agent-configuration`. */
  path: string;
  /** `any`: a public protocol endpoint browsers on any origin may call (CORS `*`, no credentials). */
  cors?: "any";
  /** Its own request body limit, in place of MAX_BODY_BYTES (a shop's file sent whole). */
  bodyLimit?: number;
  handle(
    request: Request,
    params: Record<string, string>,
    requestId: string,
    client: ClientInfo,
  ): Promise<Response> | Response;
}

/**
 * A domain as the service composes it (src/modules.ts): its operations, its tables, the work it
 * runs after commits, what it writes into a new organization's file, and its demo data.
 */
export interface Module {
  name: string;
  operations: Operation[];
  /**
   * Its Drizzle tables file (from the repository root) and the database it belongs to: the
   * Drizzle configs read these to generate the migrations of each database.
   */
  tables?: { file: string; database: "tenant" | "platform" };
  /** Outbox job handlers by kind (see core/outbox.ts). */
  jobs?: Record<string, JobHandler>;
  /**
   * Reacts to an event recorded in a shop (core/events.ts), inside the transaction that records it:
   * what it must do later it queues as outbox rows with `enqueue`, so the work commits with the event.
   */
  onEvent?: (tenant: TenantDb, event: { id: string; type: EventType }, work: EventWork) => void;
  /** Runs in the transaction that creates a new organization's file. */
  initializeTenant?: (tenant: TenantDb, org: { name: string }) => void;
  /**
   * The control-plane rows of its tables that belong to one shop (`?1` the shop's id), parents
   * first: what an export of the shop carries and an import brings back (src/nodes/). `shared`:
   * rows other shops may use too (an account, an OAuth client), kept when already there.
   */
  shopRows?: readonly ShopRows[];
  /**
   * Work to do before a control-plane migration applies, by the migration's tag: what a migration
   * drops carried elsewhere first (the agents module's used tokens, into their journal).
   */
  beforePlatformMigration?: Readonly<Record<string, PlatformUpgrade>>;
  /** Fills the demo store on its first start (in its own transaction, in module order). */
  seedDemo?: (tenant: TenantDb) => void;
  /**
   * Verifies `Authorization: Bearer` tokens of its own kind: undefined for a token it does not
   * issue (the next module is asked), else the caller or a thrown 401 ApiError.
   */
  authenticateBearer?: (
    token: string,
    surface: BearerSurface,
    service: Service,
    request: Request,
  ) => Promise<Caller> | undefined;
  /**
   * Authorizes agent callers per operation and input (one module at most: agents); for agents it
   * replaces the scope check (see core/executor.ts GrantCheck).
   */
  checkGrant?: (
    operationId: string,
    caller: Caller,
    input: Record<string, unknown>,
    validated: ValidatedInput,
    service: Service,
  ) => void;
  /**
   * Answers a request before any route does, or null to let it through (the nodes module: a
   * request for a shop that moved to another node is forwarded there). Runs on every request:
   * deciding must cost a lookup, not an await.
   */
  intercept?: (request: Request, service: Service) => Promise<Response> | null;
  /** Routes outside the operation registry, mounted beside the operations. */
  routes?: (service: Service) => RawRoute[];
  /**
   * Starts the module's background work (timers, sweeps) when the service starts (`App.start`,
   * after the outbox, in module order). An app that only runs operations never calls it.
   */
  start?: (service: Service) => void;
  /** Stops what `start` started (`App.close`, in reverse module order, before the databases close). */
  stop?: (service: Service) => void;
}
