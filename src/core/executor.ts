import type { TSchema } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { organizationExists } from "../db/platform.ts";
import { durably, inGroupCommit } from "../db/sqlite.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import type { UploadedFile } from "./body.ts";
import { ApiError } from "./errors.ts";
import {
  findStored,
  type IdempotencyRecord,
  idempotencyHash,
  replaceStoredBody,
  store,
  validIdempotencyKey,
} from "./idempotency.ts";
import {
  type AfterCommit,
  type Caller,
  type CallerTrace,
  type ClientInfo,
  type CookieToSet,
  type DashboardUser,
  FileReply,
  isTenantWrite,
  type Operation,
  type OperationContext,
  Paged,
  Reply,
  type SignedInCustomer,
} from "./operation.ts";
import type { Outbox } from "./outbox.ts";
import { type CacheSlot, cacheSlot, type KeptBody, tenantWritten } from "./response-cache.ts";
import { compileInput, type InputValidator } from "./validation.ts";

/** Who an operation runs for: resolved by the transport according to the operation's `access`. */
export interface Principal {
  caller?: Caller;
  user?: DashboardUser;
}

export interface ExecuteOptions {
  requestId: string;
  client?: ClientInfo;
  /** The client's `Idempotency-Key` for a write, as sent (validated here). */
  idempotencyKey?: string;
  /**
   * The storefront customer session token the client sent as a credential (`x-customer-session`),
   * read only when an operation asks: one that names no live session of the tenant is a 401.
   */
  customerToken?: () => string | undefined;
  /**
   * The browser's `customer_session` cookie, read when no token was sent: a stale one counts as no
   * session, so that a browser whose session ended keeps shopping as a guest.
   */
  customerCookie?: () => string | undefined;
  /** `webhook` operations: the exact body bytes. */
  rawBody?: Uint8Array;
  /** `webhook` operations: the request's headers. */
  headers?: Headers;
  /** `upload` operations: the file sent. */
  file?: UploadedFile;
  /** Filled as the call proceeds, for the transport's log line (also when it fails). */
  trace?: CallerTrace;
}

/** What an operation answered: the status, the rendered `{data}` / `{data, meta}` text, effects. */
export interface Outcome {
  status: number;
  /** The envelope as JSON text; null for 204. */
  body: string | null;
  /** A stored answer to an earlier call with the same `Idempotency-Key`. */
  replayed: boolean;
  cookies: CookieToSet[];
  location?: string;
  /** A cacheable read's body as the response cache keeps it: the same object until the data changes. */
  kept?: KeptBody;
  /** A file answered as its bytes (`body` is null). */
  file?: FileReply;
}

/** An operation's input once validated: path, query and body apart, coerced and defaulted. */
export interface ValidatedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Where agent grants plug in: called for agent callers once the input is valid, with the merged
 * input as sent and its validated parts; throws to refuse. For agents it replaces the scope check.
 */
type GrantCheck = (
  operationId: string,
  caller: Caller,
  input: Record<string, unknown>,
  validated: ValidatedInput,
) => void;

interface ExecutorHooks {
  /** The customer signed in with a storefront session token of this tenant, or null. */
  resolveCustomer(tenant: TenantDb, token: string): SignedInCustomer | null;
  checkGrant?: GrantCheck;
  outbox: Outbox;
}

interface CompiledOperation {
  op: Operation;
  params?: InputValidator;
  query?: InputValidator;
  body?: InputValidator;
  paramNames: Set<string>;
  queryNames: Set<string>;
  tenantWrite: boolean;
  /** A `cacheable` read with no `prepare`: a kept body can answer before validation. */
  cachedFirst: boolean;
}

const propertyNames = (schema: TSchema | undefined): Set<string> =>
  new Set(Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}));

const missing = (what: string) => () => {
  throw new Error(`operation context has no ${what} for this kind of operation`);
};

function compile(op: Operation): CompiledOperation {
  // Webhooks write whatever their method (some providers notify with GET).
  const tenantWrite = op.access === "webhook" || isTenantWrite(op);
  return {
    op,
    params: op.params && compileInput("params", op.params),
    query: op.query && compileInput("query", op.query),
    body: op.body && compileInput("body", op.body),
    paramNames: propertyNames(op.params),
    queryNames: propertyNames(op.query),
    tenantWrite,
    cachedFirst: op.cacheable === true && !op.prepare && !tenantWrite,
  };
}

function envelope(result: unknown): string {
  if (result instanceof Paged) {
    return JSON.stringify({
      data: result.items,
      meta: {
        page: result.page.page,
        limit: result.page.limit,
        total: result.total,
        ...(result.totalIsEstimate && { totalIsEstimate: true }),
      },
    });
  }
  return JSON.stringify({ data: result });
}

/** What one call holds while it runs: its tenant (leased on first use) and the work registered for after the commit. */
interface CallState {
  /** Undefined for a webhook until its `prepare` verified the delivery and `tenantOf` named it. */
  orgId: string | undefined;
  tenant: TenantDb | undefined;
  after: { queued: number; awaited: string[] };
}

/**
 * The storefront customer the client signed in as: a session token (a credential the client chose
 * to send) that names no live session is a 401; a stale cookie is no session, so the browser shops
 * on as a guest.
 */
function signedInCustomer(
  hooks: ExecutorHooks,
  tenant: TenantDb,
  options: ExecuteOptions,
): SignedInCustomer | null {
  const token = options.customerToken?.();
  if (token !== undefined) {
    const customer = hooks.resolveCustomer(tenant, token);
    if (!customer) throw new ApiError("UNAUTHORIZED", "Customer session expired or signed out");
    return customer;
  }
  const cookie = options.customerCookie?.();
  return cookie ? hooks.resolveCustomer(tenant, cookie) : null;
}

/**
 * The handler's view of one call: each part of it resolved on first use, from `state`. A class, so
 * that a call makes one object: as an object literal its getters and `afterCommit` made a dozen
 * closures per call.
 */
class CallContext implements OperationContext<never, never, never, unknown> {
  readonly params: never;
  readonly query: never;
  readonly body: never;
  readonly requestId: string;
  readonly client: ClientInfo;
  readonly sessionUser: DashboardUser | null;
  prepared: unknown = undefined;
  private signedIn: SignedInCustomer | null | undefined;
  private after: AfterCommit | undefined;

  constructor(
    readonly ctx: AppContext,
    private readonly hooks: ExecutorHooks,
    parts: ValidatedInput,
    private readonly principal: Principal,
    private readonly options: ExecuteOptions,
    private readonly state: CallState,
  ) {
    this.params = parts.params as never;
    this.query = parts.query as never;
    this.body = parts.body as never;
    this.requestId = options.requestId;
    this.client = options.client ?? { ip: () => null, userAgent: null };
    this.sessionUser = principal.user ?? null;
  }

  get caller(): Caller {
    return this.principal.caller ?? missing("caller")();
  }

  // Taken from the pool on first use (released by `run`), so operations that never touch it pay nothing.
  get tenant(): TenantDb {
    const { state } = this;
    if (!state.orgId) return missing("tenant")();
    state.tenant ??= this.ctx.tenants.acquire(state.orgId);
    return state.tenant;
  }

  get user(): DashboardUser {
    return this.principal.user ?? missing("user")();
  }

  get customer(): SignedInCustomer | null {
    if (this.signedIn === undefined) this.signedIn = signedInCustomer(this.hooks, this.tenant, this.options);
    return this.signedIn;
  }

  get rawBody(): Uint8Array {
    return this.options.rawBody ?? missing("raw body")();
  }

  get headers(): Headers {
    return this.options.headers ?? missing("headers")();
  }

  get file(): UploadedFile {
    return this.options.file ?? missing("file")();
  }

  get afterCommit(): AfterCommit {
    this.after ??= {
      enqueue: (kind, payload) => {
        this.state.after.queued++;
        return this.hooks.outbox.insert(this.tenant, kind, payload, false);
      },
      await: (kind, payload) => {
        const id = this.hooks.outbox.insert(this.tenant, kind, payload, true);
        this.state.after.awaited.push(id);
        return id;
      },
    };
    return this.after;
  }
}

/**
 * Runs declared operations for any transport (REST, MCP, capability execute, webhooks): access and
 * grant check, validation of the merged input (path + query + body names never collide), the tenant
 * lease, the transaction with its idempotency record, work after the commit, cache invalidation.
 * Answers an `Outcome` or throws an `ApiError`.
 */
export class Executor {
  private readonly compiled = new Map<Operation, CompiledOperation>();

  constructor(
    private readonly ctx: AppContext,
    operations: Operation[],
    private readonly hooks: ExecutorHooks,
  ) {
    for (const op of operations) this.compiled.set(op, compile(op));
  }

  /** The names of an operation's path and query inputs (the rest of a merged input is its body). */
  inputNames(op: Operation): { params: Set<string>; query: Set<string> } {
    const compiled = this.compiledOf(op);
    return { params: compiled.paramNames, query: compiled.queryNames };
  }

  async execute(
    op: Operation,
    principal: Principal,
    input: Record<string, unknown>,
    options: ExecuteOptions,
  ): Promise<Outcome> {
    const compiled = this.compiledOf(op);
    const { caller } = principal;
    this.checkAccess(op, principal);
    if (caller && options.trace) {
      options.trace.orgId = caller.orgId;
      options.trace.callerType = caller.type;
    }

    let tenant: TenantDb | undefined;
    // A kept body answers right after the access check, before validation: it was rendered for this
    // very input, which passed validation then and would again (validation depends on nothing else).
    // Agents take the whole way, so that their grant check sees every call.
    let slot: CacheSlot | undefined;
    if (compiled.cachedFirst && caller && caller.type !== "agent") {
      tenant = this.ctx.tenants.acquire(caller.orgId);
      slot = cacheSlot(tenant, cacheKey(op, input));
      if (slot.kept) {
        this.ctx.tenants.release(tenant);
        return keptOutcome(op.status ?? 200, slot.kept);
      }
    }
    try {
      return await this.run(compiled, principal, input, options, tenant, slot);
    } catch (error) {
      // Failing storage is a 503 for every transport, also those that render only ApiErrors.
      throw this.ctx.storage.failure(error, { requestId: options.requestId }) ?? error;
    } finally {
      if (tenant) this.ctx.tenants.release(tenant);
    }
  }

  /** Everything after the access check and a missed cache lookup; `leased`, if given, is released by `execute`. */
  private async run(
    compiled: CompiledOperation,
    principal: Principal,
    input: Record<string, unknown>,
    options: ExecuteOptions,
    leased: TenantDb | undefined,
    slot: CacheSlot | undefined,
  ): Promise<Outcome> {
    const { op } = compiled;
    const { caller } = principal;
    const parts = this.split(compiled, input);
    if (caller?.type === "agent") this.hooks.checkGrant?.(op.operationId, caller, input, parts);
    const state: CallState = {
      orgId: op.access === "webhook" ? undefined : caller?.orgId,
      tenant: leased,
      after: { queued: 0, awaited: [] },
    };
    const call = new CallContext(this.ctx, this.hooks, parts, principal, options, state);
    try {
      // A session header is a credential the client chose to send: checked also where the handler
      // would not need it (a guest's order read with its access token).
      if (op.customerSession && options.customerToken?.() !== undefined) void call.customer;
      if (op.prepare) call.prepared = await op.prepare(call as never);
      if (op.access === "webhook") state.orgId = this.webhookTenant(op, parts, call.prepared, options);
      if (compiled.tenantWrite && state.orgId)
        return await this.write(compiled, call, input, options, state.after);
      return await this.read(compiled, call, input, slot);
    } finally {
      if (state.tenant && state.tenant !== leased) this.ctx.tenants.release(state.tenant);
    }
  }

  private compiledOf(op: Operation): CompiledOperation {
    const compiled = this.compiled.get(op);
    if (!compiled) throw new Error(`operation ${op.operationId} is not registered`);
    return compiled;
  }

  private checkAccess(op: Operation, { caller, user }: Principal): void {
    switch (op.access) {
      case "public":
      case "webhook":
        return;
      case "user":
        if (!user) throw new ApiError("UNAUTHORIZED", "Sign in first");
        return;
      case "caller":
        if (!caller) throw new ApiError("UNAUTHORIZED", "Authentication required");
        return;
      default:
        if (!caller) throw new ApiError("UNAUTHORIZED", "Authentication required");
        // An agent's grant for this very operation (checked after validation) replaces the scope.
        if (caller.type === "agent" && this.hooks.checkGrant) return;
        if (!caller.scopes.includes(op.access)) {
          throw new ApiError(
            "FORBIDDEN",
            `Insufficient scope: this operation requires the "${op.access}" scope`,
          );
        }
    }
  }

  /** Splits a merged input by the declared names and validates each part (details keep the part in their path). */
  private split(compiled: CompiledOperation, input: Record<string, unknown>) {
    const params: Record<string, unknown> = {};
    const query: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    let hasBody = false;
    for (const [name, value] of Object.entries(input)) {
      if (compiled.paramNames.has(name)) params[name] = value;
      else if (compiled.queryNames.has(name)) query[name] = value;
      else {
        body[name] = value;
        hasBody = true;
      }
    }
    if (hasBody && !compiled.body) {
      const name = Object.keys(body)[0]!;
      throw new ApiError("VALIDATION_ERROR", `Unknown input field "${name}"`, [
        { path: `/${name}`, message: "Unexpected property" },
      ]);
    }
    return {
      params: compiled.params?.parse(params),
      query: compiled.query?.parse(query),
      body: compiled.body?.parse(body),
    };
  }

  /**
   * A webhook has no tenant until its `prepare` verified the delivery: then `tenantOf` names it
   * (undefined here when it concerns none).
   */
  private webhookTenant(
    op: Operation,
    parts: { params: unknown; query: unknown },
    prepared: unknown,
    options: ExecuteOptions,
  ): string | undefined {
    const pathAndQuery = { ...(parts.params as object), ...(parts.query as object) };
    const orgId = op.tenantOf?.(pathAndQuery as never, prepared as never);
    if (orgId === null) return undefined;
    if (orgId === undefined || !organizationExists(this.ctx.platform, orgId))
      throw new ApiError("NOT_FOUND", "Organization not found");
    if (options.trace) options.trace.orgId = orgId;
    return orgId;
  }

  private async read(
    { op }: CompiledOperation,
    call: OperationContext<never, never, never, unknown>,
    input: Record<string, unknown>,
    looked: CacheSlot | undefined,
  ): Promise<Outcome> {
    const status = op.status ?? 200;
    let slot = looked;
    if (!slot && op.cacheable && call.caller) {
      slot = cacheSlot(call.tenant, cacheKey(op, input));
      if (slot.kept) return keptOutcome(status, slot.kept);
    }
    const result = await op.handler(call as never);
    const outcome = render(status, result, op.textResponse !== undefined);
    if (slot && outcome.body !== null) outcome.kept = slot.keep(outcome.body);
    return outcome;
  }

  /** One BEGIN IMMEDIATE transaction: the replay check, the handler, the idempotency record, outbox rows. */
  private async write(
    { op }: CompiledOperation,
    call: OperationContext<never, never, never, unknown>,
    input: Record<string, unknown>,
    options: ExecuteOptions,
    after: CallState["after"],
  ): Promise<Outcome> {
    const status = op.status ?? 200;
    const key = op.access === "webhook" ? undefined : validIdempotencyKey(options.idempotencyKey);
    const tenant = call.tenant;
    const record: IdempotencyRecord | undefined =
      key === undefined
        ? undefined
        : {
            scope: idempotencyScope(op, call),
            key,
            hash: idempotencyHash(op.operationId, input, options.file?.sha256),
            sealed: op.answerHoldsSecret === true,
          };

    const transaction = () => {
      // Checked in the transaction: a call queued before the shop froze is refused as well.
      if (this.ctx.tenants.isFrozen(tenant.orgId)) throw moving();
      const stored = record && findStored(this.ctx, tenant, record);
      if (stored) return { outcome: { ...stored, replayed: true }, data: undefined };
      const result = op.handler(call as never);
      if (result instanceof Promise)
        throw new Error(`${op.operationId}: a write handler must not await (use prepare)`);
      const outcome = render(status, result, op.textResponse !== undefined);
      if (record) store(this.ctx, tenant, record, outcome);
      return { outcome, data: result instanceof Reply ? result.data : result };
    };
    let { outcome, data } =
      op.durable === true
        ? durably(tenant.sqlite, transaction)
        : await inGroupCommit(tenant.sqlite, transaction, op.durable === "grouped" ? "FULL" : "connection");
    tenantWritten(tenant);
    if (outcome.replayed) return outcome;
    this.ctx.storage.wrote();

    if (after.queued > 0) this.hooks.outbox.kick(tenant.orgId);
    if (after.awaited.length > 0) {
      for (const id of after.awaited) await this.hooks.outbox.runClaimed(tenant, id);
      if (op.reload) {
        const reloaded = op.reload(call as never, data as never);
        outcome = { ...outcome, body: status === 204 ? null : envelope(reloaded) };
        if (record && outcome.body !== null) replaceStoredBody(this.ctx, tenant, record, outcome);
        tenantWritten(tenant);
      }
    }
    return outcome;
  }
}

/** `text`: the operation answers its handler's text as it is (`textResponse`), not the envelope. */
function render(status: number, result: unknown, text = false): Outcome {
  if (result instanceof FileReply) return { status, body: null, replayed: false, cookies: [], file: result };
  const reply = result instanceof Reply ? result : undefined;
  const data = reply ? reply.data : result;
  return {
    status: reply?.effects.status ?? status,
    body: status === 204 ? null : text ? String(data) : envelope(data),
    replayed: false,
    cookies: reply?.effects.cookies ?? [],
    location: reply?.effects.location,
  };
}

const keptOutcome = (status: number, kept: KeptBody): Outcome => ({
  status,
  body: kept.text,
  replayed: false,
  cookies: [],
  kept,
});

/** Cacheable reads depend only on the tenant's data and the input. */
function cacheKey(op: Operation, input: Record<string, unknown>): string {
  for (const _ in input) return `${op.operationId} ${JSON.stringify(input)}`;
  return op.operationId;
}

/**
 * A write to a shop being handed to another node (`shop move`), or on a node whose lease in the
 * directory lapsed: refused for the moment it takes.
 */
const moving = () =>
  new ApiError(
    "UNAVAILABLE",
    "This shop cannot be written on this node right now (it is moving to another node, or the node is renewing its lease): try again in a moment",
    undefined,
    { "retry-after": "2" },
  );

/**
 * Idempotency keys are scoped so that callers never share a key space: an API key, a dashboard
 * user, an agent or a commerce platform (a protocol adapter's `ucp:…`/`acp:…` caller, whatever
 * credential carried it) by its own identity; an anonymous storefront shopper by its customer
 * session, else by what the operation acts on (the cart), else only by the key itself (creates
 * that have nothing yet to scope by, such as a new cart or a sign-up).
 */
function idempotencyScope(op: Operation, call: OperationContext<never, never, never, unknown>): string {
  const caller = call.caller;
  if (caller.type !== "host" || !caller.id.startsWith("host:")) return caller.id;
  if (call.customer) return `customer:${call.customer.id}`;
  if (op.idempotencyScope)
    return op.idempotencyScope({ ...(call.params as object), ...(call.query as object) });
  return "anonymous";
}
