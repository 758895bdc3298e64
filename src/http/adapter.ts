import type { AppContext } from "../app-context.ts";
import { type CallerResolver, readCookie, SESSION_COOKIE } from "../auth/caller.ts";
import { readJsonBody, readRawBody, readTextBody, readUpload, type UploadedFile } from "../core/body.ts";
import { ApiError } from "../core/errors.ts";
import type { Executor, Outcome, Principal } from "../core/executor.ts";
import type { CallerTrace, Operation } from "../core/operation.ts";
import { errorResponse, JSON_TYPE } from "../core/respond.ts";
import { type KeptAnswer, type KeptBody, keptAnswer, rememberAnswer } from "../core/response-cache.ts";
import { customerSessionOf } from "../customers/customer-session.ts";
import { answerBody } from "../lib/late-answers.ts";
import { fileResponse, NO_STORE, REVALIDATE, Representation } from "./caching.ts";
import { COMPRESS_MIN_BYTES, compress, type Encoding, FRESH_PREFERENCE, negotiate } from "./compression.ts";
import { cookieHeader } from "./cookies.ts";
import { type CorsPolicy, corsPolicyOf } from "./cors.ts";
import { answerObserver, reportAnswer } from "./observe.ts";

/** Per-request facts gathered along the way, for the response headers and the request log line. */
export interface RequestState extends CallerTrace {
  id: string;
  /** Client address, worked out only when an operation asks (rate limits). */
  ip(): string | null;
  /** The matched route's path (unset when the router found none). */
  route?: string;
  /** The matched route's CORS policy, if it has one. */
  cors?: CorsPolicy;
}

/** The headers of an operation's answers, worked out once per operation. */
interface AnswerHeaders {
  body: Record<string, string>;
  empty: Record<string, string>;
  encoded: Record<Encoding, Record<string, string>>;
}

// What a body depends on besides the URL: the Origin (CORS headers), the accepted encodings, and
// for catalog reads the caller's credential, which picks the tenant (a shared cache must not hand
// a body rendered for one API key to a request with another, or with none).
const VARY_CATALOG = "Origin, Accept-Encoding, Authorization, X-Api-Key, Cookie";
const VARY_STOREFRONT = "Origin, Accept-Encoding";
const VARY_OTHER = "Accept-Encoding";

function answerHeaders(op: Operation, cors: CorsPolicy | undefined): AnswerHeaders {
  const cacheControl = op.cacheable ? REVALIDATE : NO_STORE;
  const vary = cors !== "shop" ? VARY_OTHER : op.cacheable ? VARY_CATALOG : VARY_STOREFRONT;
  // Text answers (a CSV file) are UTF-8, as JSON is.
  const contentType = op.textResponse ? `${op.textResponse}; charset=utf-8` : JSON_TYPE;
  const body = { "content-type": contentType, "cache-control": cacheControl, vary };
  const encoded = (encoding: Encoding) => ({ ...body, "content-encoding": encoding });
  return {
    body,
    empty: { "cache-control": cacheControl, vary },
    encoded: { br: encoded("br"), zstd: encoded("zstd"), gzip: encoded("gzip") },
  };
}

const encoder = new TextEncoder();

/**
 * REST on top of the executor: resolves who is calling from the headers, turns the path, query and
 * JSON body into one input, and renders the outcome (`{data}` / `{data, meta}`, cookies,
 * `Location`, `Idempotent-Replayed`) or the error body.
 */
export class HttpAdapter {
  private readonly policies = new Map<Operation, { cors?: CorsPolicy; headers: AnswerHeaders }>();
  /** What a kept catalog body is sent as (ETag, compressed forms), for as long as the cache keeps it. */
  private readonly representations = new WeakMap<KeptBody, Representation>();

  constructor(
    private readonly executor: Executor,
    private readonly resolver: CallerResolver,
    private readonly ctx: AppContext,
  ) {}

  async handle(
    op: Operation,
    request: Request,
    rawParams: Record<string, string>,
    rawQuery: Record<string, unknown>,
    state: RequestState,
  ): Promise<Response> {
    const policy = this.policyOf(op);
    try {
      const principal = await this.principal(op, request);
      if (principal.caller) state.orgId = principal.caller.orgId;
      const { params, query } = this.executor.inputNames(op);
      const input: Record<string, unknown> = {};
      for (const name of query) if (rawQuery[name] !== undefined) input[name] = rawQuery[name];
      for (const name of params) input[name] = rawParams[name];
      // A webhook verifies its delivery itself, from the exact body bytes and the headers.
      let delivery: { rawBody?: Uint8Array; headers?: Headers; file?: UploadedFile } | undefined;
      if (op.access === "webhook") {
        const rawBody = await readRawBody(request, this.ctx.config.maxBodyBytes);
        delivery = { rawBody, headers: request.headers };
        keepRepeated(request, query, input);
      } else if (op.upload) {
        delivery = { file: await readUpload(request, op.upload) };
      } else if (op.body) {
        const limit = this.ctx.config.maxBodyBytes;
        const text = op.textBody && (await readTextBody(request, limit, op.textBody.mediaType));
        const value =
          text === undefined ? (await readJsonBody(request, limit)).value : { [op.textBody!.field]: text };
        mergeBody(input, value, params, query);
      }
      const outcome = await this.executor.execute(op, principal, input, {
        requestId: state.id,
        client: { ip: state.ip, userAgent: request.headers.get("user-agent") },
        idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
        ...customerSessionOf(request),
        ...delivery,
        trace: state,
      });
      if (outcome.kept && principal.caller?.type === "host" && request.method === "GET") {
        this.remember(principal.caller.orgId, request, { operation: op, kept: outcome.kept });
      }
      const response = await this.render(outcome, request, policy.headers);
      return answerObserver
        ? reportAnswer(answerObserver, op, request, response, outcome.body ?? "")
        : response;
    } catch (error) {
      const response = errorResponse(error, this.ctx, state.id);
      return answerObserver ? reportAnswer(answerObserver, op, request, response) : response;
    }
  }

  /**
   * A repeated anonymous storefront read answered before routing: the same URL on the same shop's
   * Host was routed to a catalog read whose body the shop still keeps (its data unchanged since),
   * so routing, input parsing and validation would give that very body again. Anything else (a
   * credential, a Host now naming another shop, changed data) is left to the whole way (undefined).
   */
  answerKept(request: Request, state: RequestState): Response | Promise<Response> | undefined {
    if (request.method !== "GET") return undefined;
    const orgId = this.resolver.anonymousHostTenant(request);
    if (orgId === undefined) return undefined;
    let answer: KeptAnswer | undefined;
    const tenant = this.ctx.tenants.acquire(orgId);
    try {
      answer = keptAnswer(tenant, requestKey(request));
    } finally {
      this.ctx.tenants.release(tenant);
    }
    if (!answer) return undefined;
    const op = answer.operation;
    const policy = this.policyOf(op);
    Object.assign(state, { route: op.path, cors: policy.cors, orgId, callerType: "host" });
    const response = this.representationOf(answer.kept, policy.headers).respond(request, op.status ?? 200);
    const observer = answerObserver;
    if (!observer) return response;
    return Promise.resolve(response).then((sent) =>
      reportAnswer(observer, op, request, sent, answer.kept.text),
    );
  }

  private remember(orgId: string, request: Request, answer: KeptAnswer): void {
    const tenant = this.ctx.tenants.acquire(orgId);
    try {
      rememberAnswer(tenant, requestKey(request), answer);
    } finally {
      this.ctx.tenants.release(tenant);
    }
  }

  private async principal(op: Operation, request: Request): Promise<Principal> {
    switch (op.access) {
      case "public":
        // An operation that reads a dashboard session when there is one (accepting an invitation).
        return op.dashboardSession && readCookie(request, SESSION_COOKIE) !== undefined
          ? { user: this.resolver.resolveDashboardUser(request) }
          : {};
      case "webhook":
        return {};
      case "user":
        return { user: this.resolver.resolveDashboardUser(request) };
      default:
        return { caller: await this.resolver.resolve(request, "v1") };
    }
  }

  private policyOf(op: Operation): { cors?: CorsPolicy; headers: AnswerHeaders } {
    let policy = this.policies.get(op);
    if (!policy) {
      const cors = corsPolicyOf(op);
      policy = { cors, headers: answerHeaders(op, cors) };
      this.policies.set(op, policy);
    }
    return policy;
  }

  private representationOf(kept: KeptBody, answer: AnswerHeaders): Representation {
    let representation = this.representations.get(kept);
    if (!representation) {
      representation = new Representation(kept.text, answer.body);
      this.representations.set(kept, representation);
    }
    return representation;
  }

  private render(outcome: Outcome, request: Request, answer: AnswerHeaders): Response | Promise<Response> {
    const { status, body, kept } = outcome;
    if (outcome.file) return fileResponse(outcome.file, request);
    // A kept catalog body: ETag, 304 and compressed forms come from its representation.
    if (kept) return this.representationOf(kept, answer).respond(request, status);
    let payload: string | Uint8Array | null = body;
    let base = body === null ? answer.empty : answer.body;
    // Measured in UTF-16 units, known without encoding: short bodies skip the negotiation.
    if (body !== null && body.length >= COMPRESS_MIN_BYTES) {
      const encoding = negotiate(request.headers.get("accept-encoding"), FRESH_PREFERENCE);
      if (encoding) {
        payload = compress(encoding, encoder.encode(body));
        base = answer.encoded[encoding];
      }
    }
    const sent = payload === null ? null : answerBody(request, payload);
    if (!outcome.replayed && outcome.cookies.length === 0 && !outcome.location) {
      return new Response(sent, { status, headers: base });
    }
    const headers = new Headers(base);
    if (outcome.replayed) headers.set("idempotent-replayed", "true");
    if (outcome.location) headers.set("location", outcome.location);
    const { config } = this.ctx;
    const https =
      config.baseUrl.startsWith("https:") ||
      (config.trustProxy && request.headers.get("x-forwarded-proto")?.toLowerCase() === "https");
    for (const cookie of outcome.cookies) headers.append("set-cookie", cookieHeader(cookie, https));
    return new Response(sent, { status, headers });
  }
}

/** What a kept answer is found by: the Host and the URL as sent (another spelling of the query is another key). */
const requestKey = (request: Request) => `${request.headers.get("host")} ${request.url}`;

/**
 * A webhook's query names its tenant and may carry a provider's proof: a declared name sent more
 * than once keeps all its values (which its string type refuses) instead of the router's last one.
 */
function keepRepeated(request: Request, names: Set<string>, input: Record<string, unknown>): void {
  if (names.size === 0) return;
  const search = new URL(request.url).searchParams;
  for (const name of names) {
    const values = search.getAll(name);
    if (values.length > 1) input[name] = values;
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
