import type { Server } from "bun";
import { Elysia, NotFoundError } from "elysia";
import { parseQueryFromURL } from "elysia/parse-query";
import { type AppContext, closeContext, createContext } from "./app-context.ts";
import { CallerResolver } from "./auth/caller.ts";
import { configurePasswordHashing } from "./auth/crypto.ts";
import { getStore } from "./catalog/store-settings.ts";
import type { Config } from "./config.ts";
import { checkDeclaredLength, uploadBodyLimit } from "./core/body.ts";
import { ApiError } from "./core/errors.ts";
import type { EventType } from "./core/events.ts";
import { Executor } from "./core/executor.ts";
import type { BearerSurface, Module, Service } from "./core/module.ts";
import type { Caller, Operation } from "./core/operation.ts";
import { type JobHandler, Outbox } from "./core/outbox.ts";
import { assertRegistry } from "./core/registry.ts";
import { errorResponse, JSON_TYPE, jsonResponse } from "./core/respond.ts";
import { signedInCustomer } from "./customers/customer-session.ts";
import type { TenantDb } from "./db/tenant-pool.ts";
import { HttpAdapter, type RequestState } from "./http/adapter.ts";
import { NO_STORE, REVALIDATE, Representation } from "./http/caching.ts";
import { Cors, corsPolicyOf } from "./http/cors.ts";
import { docsAssets, type StaticAsset } from "./http/docs.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { type CorsPolicy, RouteTable } from "./http/route-table.ts";
import { noteArrival } from "./lib/late-answers.ts";
import { modules } from "./modules.ts";

export interface App {
  ctx: AppContext;
  operations: Operation[];
  /** Runs operations without HTTP (MCP, capability execute, tests). */
  executor: Executor;
  outbox: Outbox;
  /** The whole HTTP service: what `Bun.serve` calls and what tests send requests to. */
  fetch(request: Request, server?: Server<unknown>): Promise<Response>;
  /**
   * Starts the background work of a serving service: the outbox's drainer, then each module's
   * `start` hook in module order. An app never started runs operations and their awaited work
   * but no timer (the CLI, scripts, most tests).
   */
  start(): void;
  /**
   * Stops what `start` started, in reverse order, and closes the databases (a job still running is
   * retried after its lease).
   */
  close(): void;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function clientIp(request: Request, server: Server<unknown> | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? null;
}

/**
 * What runs in the background while the service serves, in start order: the outbox first (work
 * that modules queue needs its drainer), then each module's hooks. Stopped in reverse order; a
 * start that throws leaves what it already started stoppable.
 */
function backgroundWork(outbox: Outbox, all: readonly Module[], service: Service) {
  const parts = [
    { start: () => outbox.start(), stop: () => outbox.stop() },
    ...all.map((module) => ({ start: () => module.start?.(service), stop: () => module.stop?.(service) })),
  ];
  let started = 0;
  return {
    start() {
      for (; started < parts.length; started++) parts[started]!.start();
    },
    stop() {
      while (started > 0) parts[--started]!.stop();
    },
  };
}

/** Every module's outbox job handlers by kind; a kind declared twice is a startup error. */
function outboxJobs(all: readonly Module[]): Map<string, JobHandler> {
  const jobs = new Map<string, JobHandler>();
  for (const module of all) {
    for (const [kind, handler] of Object.entries(module.jobs ?? {})) {
      if (jobs.has(kind)) throw new Error(`outbox job kind "${kind}" is declared twice`);
      jobs.set(kind, handler);
    }
  }
  return jobs;
}

/** The modules that provide a hook; a module given beside the list (tests) replaces the listed ones' hook. */
function hookProviders(
  all: readonly Module[],
  extraModules: readonly Module[],
  hook: keyof Module,
): Module[] {
  const extra = extraModules.filter((module) => module[hook]);
  return extra.length > 0 ? extra : all.filter((module) => module[hook]);
}

/** The grant check, which one module at most provides (agents). */
function grantHook(all: readonly Module[], extraModules: readonly Module[]): Module["checkGrant"] {
  const providers = hookProviders(all, extraModules, "checkGrant");
  if (providers.length > 1) throw new Error("checkGrant is provided by more than one module");
  return providers[0]?.checkGrant;
}

/**
 * Bearer tokens: each module that verifies some is asked in module order (oauth's opaque tokens,
 * agents' JWTs) until one takes the token; one none takes is a 401. Undefined without any.
 */
function bearerHook(all: readonly Module[], extraModules: readonly Module[]) {
  const verifiers = hookProviders(all, extraModules, "authenticateBearer").map((m) => m.authenticateBearer!);
  if (verifiers.length === 0) return undefined;
  return (token: string, surface: BearerSurface, service: Service, request: Request): Promise<Caller> => {
    for (const verify of verifiers) {
      const caller = verify(token, surface, service, request);
      if (caller) return caller;
    }
    return Promise.reject(new ApiError("UNAUTHORIZED", "Invalid bearer token"));
  };
}

/**
 * A route's answer to a request, given its path parameters, its query (parsed as Elysia parses them)
 * and the request's state, whose route and CORS policy are set already.
 */
type RouteHandler = (
  request: Request,
  params: Record<string, string>,
  query: Record<string, string>,
  state: RequestState,
) => Response | Promise<Response>;

/** A mounted route as the router calls it. */
type Route = (
  request: Request,
  params: Record<string, string>,
  query: Record<string, string>,
) => Response | Promise<Response>;

/** How a route is named in the log and metrics (its path unless said), its CORS policy and own body limit. */
interface RouteOptions {
  label?: string;
  cors?: CorsPolicy;
  bodyLimit?: number;
}

/**
 * The Elysia router, the table of its paths and methods (for 405s and CORS) and each request's
 * state. What the router cannot route is answered here: an unknown path 404, a known path with
 * another method 405 with `Allow`.
 */
function createRouter(ctx: AppContext) {
  const states = new WeakMap<Request, RequestState>();
  const routes = new RouteTable();
  const elysia = new Elysia({ normalize: false }).onError(({ error, request }) => {
    const id = states.get(request)?.id ?? "";
    // Elysia names a thrown value by its own `code` property (an ApiError's `NOT_FOUND`, a file
    // system's `ENOSPC`), so only its own NotFoundError means that no route matched.
    if (error instanceof NotFoundError) {
      const { pathname } = new URL(request.url);
      const methods = routes.methodsOf(pathname);
      // A known path asked with a method it does not answer is a 405 naming the ones it does.
      if (methods.length > 0 && !methods.includes(request.method)) {
        return jsonResponse(
          405,
          {
            error: `${request.method} is not allowed on ${pathname}; use ${methods.join(", ")}`,
            code: "METHOD_NOT_ALLOWED",
            status: 405,
          },
          { allow: methods.join(", ") },
        );
      }
      return jsonResponse(404, {
        error: `No route ${request.method} ${pathname}`,
        code: "NOT_FOUND",
        status: 404,
      });
    }
    // Anything else is a route's own throw, answered as every transport answers it: an ApiError with
    // its status and envelope, a storage failure 503, a bug 500 (logged with its stack).
    return errorResponse(error, ctx, id);
  });
  // Routes of a fixed path, by path and method: a request for exactly one of them is answered without
  // Elysia's route lookup and context (0.5–1.2 µs of a 10–17 µs read, in process). Any other (a
  // parameter, a trailing slash, `HEAD` of a `GET`) takes Elysia's way, to the same handler.
  const fixedPaths = new Map<string, Map<string, Route>>();
  /** Routes `method` `path` (Elysia's syntax) to `handle`; the request's state is given its route and CORS policy first. */
  const mount = (method: string, path: string, handle: RouteHandler, options: RouteOptions = {}) => {
    const { label = path, cors, bodyLimit } = options;
    routes.add(method, path, cors, bodyLimit);
    const routed: Route = (request, params, query) => {
      const state = states.get(request)!;
      state.route = label;
      state.cors = cors;
      return handle(request, params, query, state);
    };
    elysia.route(
      method,
      path,
      ({ request, params, query }) =>
        routed(request, params as Record<string, string>, query as Record<string, string>),
      { parse: "none" },
    );
    if (/[:*]/.test(path)) return;
    const methods = fixedPaths.get(path) ?? new Map<string, Route>();
    fixedPaths.set(path, methods.set(method, routed));
  };
  /** The routed answer to `request` (Elysia's 404 or 405 when no route takes it). */
  const answer = (request: Request): Promise<Response> | Response => {
    const { url, method } = request;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?", pathStart);
    const fixed = fixedPaths
      .get(url.slice(pathStart, queryStart === -1 ? undefined : queryStart))
      ?.get(method);
    if (!fixed) return elysia.handle(request);
    return fixed(
      request,
      {},
      queryStart === -1 ? Object.create(null) : parseQueryFromURL(url, queryStart + 1),
    );
  };
  return { routes, states, mount, answer };
}

type Router = ReturnType<typeof createRouter>;

/**
 * Public documents (the OpenAPI document, the API reference viewer), readable from any origin; each
 * sent with its ETag and compressed forms, worked out once (src/http/caching.ts).
 */
function mountPublicDocuments({ mount }: Router, declared: Operation[], config: Config) {
  const openApi: StaticAsset = {
    path: "/v1/openapi.json",
    contentType: JSON_TYPE,
    // As UTF-8 bytes: its text has characters beyond Latin-1, so as a string it would be held at two
    // bytes a character (about 700 KB) for the life of the process.
    body: Buffer.from(JSON.stringify(buildOpenApiDocument(declared, config))),
  };
  for (const asset of [openApi, ...docsAssets(openApi.path)]) {
    const representation = new Representation(asset.body, {
      "cache-control": REVALIDATE,
      vary: "Accept-Encoding",
      ...asset.headers,
      "content-type": asset.contentType,
    });
    mount("GET", asset.path, (request) => representation.respond(request), { cors: "any" });
  }
}

/** Every operation at its path, run through the REST adapter (which reads the body itself). */
function mountOperations({ mount }: Router, declared: Operation[], adapter: HttpAdapter) {
  for (const op of declared) {
    mount(
      op.method,
      op.path.replace(/\{(\w+)\}/g, ":$1"),
      (request, params, query, state) => adapter.handle(op, request, params, query, state),
      { label: op.path, cors: corsPolicyOf(op), bodyLimit: op.upload && uploadBodyLimit(op.upload) },
    );
  }
}

/** The modules' own routes (discovery documents, `/mcp`, the approval page); payment webhooks are operations. */
function mountModuleRoutes({ mount }: Router, all: readonly Module[], service: Service) {
  for (const module of all) {
    for (const route of module.routes?.(service) ?? []) {
      mount(
        route.method,
        route.path,
        (request, params, _query, state) =>
          route.handle(request, params, state.id, {
            ip: state.ip,
            userAgent: request.headers.get("user-agent"),
            trace: state,
          }),
        route,
      );
    }
  }
}

/** A shop's allowed origins (its settings), for the CORS policy of storefront operations. */
const shopOrigins = (ctx: AppContext) => (orgId: string) => {
  const tenant = ctx.tenants.acquire(orgId);
  try {
    return getStore(tenant).allowedOrigins;
  } finally {
    ctx.tenants.release(tenant);
  }
};

/**
 * `app.fetch`: assigns the request id, refuses a declared body above the limit, answers CORS
 * preflights, routes, then adds the CORS headers, `Cache-Control: no-store` unless the answer says
 * otherwise and the Agent Auth challenge on a 401, and writes one log line.
 */
function requestHandler(
  ctx: AppContext,
  router: Router,
  adapter: HttpAdapter,
  cors: Cors,
  challenge: string | undefined,
  intercept: (request: Request) => Promise<Response> | null,
): App["fetch"] {
  const { config, log } = ctx;
  const { states, answer } = router;
  return async (request, server) => {
    const started = performance.now();
    noteArrival(request);
    const incoming = request.headers.get("x-request-id");
    const state: RequestState = {
      id: incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
      ip: () => clientIp(request, server, config.trustProxy),
    };
    states.set(request, state);
    const origin = request.headers.get("origin");
    let response: Response;
    try {
      checkDeclaredLength(request, config.maxBodyBytes, router.routes);
      response =
        (origin !== null && cors.preflight(request, origin)) ||
        (await (intercept(request) ?? adapter.answerKept(request, state) ?? answer(request)));
    } catch (error) {
      response = errorResponse(error, ctx, state.id);
    }
    if (origin !== null) cors.decorate(response, request, origin, state);
    response.headers.set("x-request-id", state.id);
    // Only what says otherwise may be kept by a cache (catalog reads, public documents).
    if (!response.headers.has("cache-control")) response.headers.set("cache-control", NO_STORE);
    // Beside a route's own challenge (/mcp's OAuth Bearer one, which its clients read first).
    if (
      response.status === 401 &&
      challenge &&
      !response.headers.get("www-authenticate")?.includes("AgentAuth")
    ) {
      response.headers.append("www-authenticate", challenge);
    }
    const elapsedMs = performance.now() - started;
    ctx.metrics.request(request.method, state.route ?? null, response.status, elapsedMs / 1000);
    log.request({
      method: request.method,
      route: state.route ?? null,
      status: response.status,
      durationMs: Math.round(elapsedMs * 100) / 100,
      org: state.orgId ?? null,
      caller: state.callerType ?? null,
      requestId: state.id,
    });
    return response;
  };
}

/** The modules' `intercept`s as one, asked in module order (none: nothing is asked). */
function interceptor(all: readonly Module[], service: Service) {
  const hooks = all.flatMap((module) => (module.intercept ? [module.intercept] : []));
  return (request: Request): Promise<Response> | null => {
    for (const hook of hooks) {
      const answer = hook(request, service);
      if (answer) return answer;
    }
    return null;
  };
}

/** Builds the service from the module list; `extraModules` lets tests add operations and jobs beside the real ones. */
export function createApp(config: Config, extraModules: Module[] = []): App {
  const all = [...modules, ...extraModules];
  const ctx = createContext(config, all);
  configurePasswordHashing(config.authLimits); // one cap per process: the CPU is shared
  const declared = all.flatMap((module) => module.operations);
  assertRegistry(declared);

  const outbox = new Outbox(ctx, outboxJobs(all), config.outboxLeaseMs);
  ctx.tenants.reactions.list = all.flatMap(({ onEvent }) =>
    onEvent
      ? [
          (tenant: TenantDb, event: { id: string; type: string }) =>
            // Only recordEvent runs reactions, and it records only EVENT_TYPES.
            onEvent(tenant, event as { id: string; type: EventType }, {
              ctx,
              enqueue: (kind, payload) => outbox.insert(tenant, kind, payload, false),
            }),
        ]
      : [],
  );
  // The hooks get the service (built below, before any request) to reach this app's databases.
  const grant = grantHook(all, extraModules);
  const bearer = bearerHook(all, extraModules);
  const executor = new Executor(ctx, declared, {
    outbox,
    resolveCustomer: signedInCustomer,
    checkGrant:
      grant &&
      ((operationId, caller, input, validated) => grant(operationId, caller, input, validated, service)),
  });
  const resolver = new CallerResolver(
    ctx,
    bearer && ((token, surface, request) => bearer(token, surface, service, request)),
  );
  // Agent Auth: every 401 names the discovery document, once a module verifies bearer tokens.
  const challenge = bearer && `AgentAuth discovery="${config.baseUrl}/.well-known/agent-configuration"`;
  const adapter = new HttpAdapter(executor, resolver, ctx);
  const service: Service = {
    ctx,
    executor,
    operations: declared,
    resolveCaller: async (request, surface) => resolver.resolve(request, surface),
    shopOfHost: (request) => resolver.tenantOfHost(request),
  };

  const router = createRouter(ctx);
  const cors = new Cors(router.routes, (request) => resolver.tenantOfHost(request), shopOrigins(ctx));

  mountPublicDocuments(router, declared, config);
  mountOperations(router, declared, adapter);
  mountModuleRoutes(router, all, service);
  const lifecycle = backgroundWork(outbox, all, service);

  return {
    ctx,
    operations: declared,
    executor,
    outbox,
    fetch: requestHandler(ctx, router, adapter, cors, challenge, interceptor(all, service)),
    start: lifecycle.start,
    close() {
      lifecycle.stop();
      closeContext(ctx);
    },
  };
}
