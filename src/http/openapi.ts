import type { TSchema } from "@sinclair/typebox";
import { SESSION_COOKIE } from "../auth/caller.ts";
import type { Config } from "../config.ts";
import type { Upload } from "../core/body.ts";
import type { ErrorCode } from "../core/errors.ts";
import { ERROR_STATUS } from "../core/errors.ts";
import { EVENT_TYPES } from "../core/events.ts";
import { isTenantWrite, type Operation } from "../core/operation.ts";
import { ErrorBody, namedSchemas, PageMeta, PageQuery } from "../core/schemas.ts";
import { CUSTOMER_COOKIE, CUSTOMER_HEADER } from "../customers/customer-session.ts";
import { deliveredEvent, EVENT_CATALOG } from "../webhooks/event-catalog.ts";

type Json = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: "Malformed input",
  401: "No valid credential",
  403: "The caller lacks the required scope",
  404: "Not found, also for another tenant's ids",
  409: "Conflict with the current state",
  413: "Request body too large",
  422: "A business rule refuses the request",
  429: "Too many requests: wait for `Retry-After` seconds",
  500: "Internal error, never caused by the input: report it with the `x-request-id`",
  503: "Temporarily unavailable",
};

/** What each tag groups, in the words of the API reference (every tag of the service has one). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Service: "Whether the service is up, and who the service takes the caller to be.",
  "Dashboard auth":
    "Merchant accounts of the dashboard: sign-up, sign-in and the session cookie, organizations (one store " +
    "each) and the API keys that servers use.",
  Catalog:
    "What shoppers browse: active products, categories, the store's details and countries. These reads " +
    "carry an `ETag` and may be revalidated with `If-None-Match`.",
  "Admin: organization":
    "The organization behind the store: the domains its shop answers on, and its dashboard members.",
  "Admin: catalog": "Products of every status with their variants, and the category tree.",
  "Admin: media":
    "The shop's images, stored in its own database file: upload, list, delete. Their `url` may be a " +
    "product image's `url`.",
  Media:
    "The shop's images as their bytes, served on its hosts with a strong `ETag`, kept by caches for a year.",
  "Admin: store": "The store's settings and the stock of each variant.",
  Carts:
    "A shopper's cart from the first item to the placed order: items, coupon, addresses, shipping and " +
    "payment methods. Anyone holding a cart's id may use it.",
  "Admin: coupons": "Discount codes, their rules and how often they were used.",
  "Admin: shipping": "Shipping methods, the countries they serve and their prices.",
  Orders: "Orders as their shopper sees them, and paying for them again or confirming a payment.",
  "Admin: orders": "Every order of the store: read, fulfil, refund, cancel and mark paid.",
  "Admin: dashboard": "Sales figures over a date range.",
  Accounts:
    "Storefront customer accounts: sign-up, sign-in and the customer session (`x-customer-session` header " +
    "or `customer_session` cookie) that owns carts and orders.",
  "Admin: customers": "The store's customers with what they ordered and spent.",
  "Admin: agents":
    "The agents registered for the store through Agent Auth, by host, with their grants; revoking one. " +
    "The agent platforms that may check out through ACP on the shop's host, with their tokens and webhook " +
    "URLs. Never offered to agents.",
  "Admin: payment integrations":
    "The store's own payment provider credentials, and the webhook URL to give each provider.",
  "Admin: email": "The emails the service sends for the store, previewed with sample data in its languages.",
  "Admin: events and webhooks":
    "What happened in the store (events, kept 30 days), and the merchant's endpoints that receive them as " +
    "signed webhooks: their secrets, test pings and each delivery's attempts.",
  "Checkout sessions":
    "A checkout as an agent drives it: one cart plus the buyer and the shipping and payment choices, whose " +
    "status says whether completing it places the order now and, if not, what is missing. The agentic " +
    "commerce protocols translate these; a session belongs to the caller that opened it.",
  "Payment webhooks":
    "Where payment providers notify the service: the ingress whose URL merchants paste into the provider's " +
    "dashboard, and the API route it forwards to with the shared secret. Never offered to agents.",
};

/** Response headers, under `components/headers`. */
const HEADERS: Record<string, Json> = {
  RequestId: {
    description:
      "The request's id, also in the service's log line: the client's own `x-request-id` when it sent a valid " +
      "one (1–128 of `A-Z a-z 0-9 . _ : -`), else a new UUID. Quote it when reporting a problem.",
    schema: { type: "string", maxLength: 128 },
  },
  IdempotentReplayed: {
    description:
      "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key` " +
      "(nothing was done again); absent otherwise.",
    schema: { type: "string", enum: ["true"] },
  },
  RetryAfter: {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0 },
  },
  ETag: {
    description:
      "Strong validator of this body (each content coding has its own); send it in `If-None-Match` to " +
      "get a 304 while the data has not changed.",
    schema: { type: "string" },
  },
};
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const pageSchema = (name: "page" | "limit") => JSON.stringify(PageQuery[name]);

/** Request parameters, under `components/parameters`. */
const PARAMETERS: Record<string, Json> = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes the write safe to retry: the same key with the same input within 24 hours answers the stored " +
      "response again (with `idempotent-replayed: true`) without doing anything; the same key with another " +
      "input is a 409 `IDEMPOTENCY_CONFLICT`. Send a new random key (a UUID) per intended write.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  },
  Page: {
    name: "page",
    in: "query",
    required: false,
    description: "Page number, from 1. Out of range is a 400, never clamped.",
    schema: JSON.parse(pageSchema("page")),
  },
  Limit: {
    name: "limit",
    in: "query",
    required: false,
    description: "Items per page, 1 to 100. Out of range is a 400, never clamped.",
    schema: JSON.parse(pageSchema("limit")),
  },
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "An `ETag` of an earlier answer: a 304 with no body while it is still current.",
    schema: { type: "string" },
  },
};
const parameter = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** Errors every operation of a kind can answer, whatever it declares itself. */
function implicitErrors(op: Operation): ErrorCode[] {
  // Any operation may meet failing storage (a full disk, an I/O error): 503 with Retry-After.
  const codes: ErrorCode[] = ["INTERNAL", "UNAVAILABLE"];
  if (op.params || op.query || op.body || op.upload) codes.push("VALIDATION_ERROR");
  // A webhook reads its body as bytes whatever it declares, and names a tenant that may not exist.
  const webhook = op.access === "webhook";
  if (op.body || op.upload || webhook) codes.push("PAYLOAD_TOO_LARGE");
  if (op.access !== "public") codes.push("UNAUTHORIZED");
  // These resolve a `/v1` caller, which may be an agent token: its calls are limited per agent (429).
  if (op.access === "caller" || op.access === "storefront" || op.access === "admin")
    codes.push("FORBIDDEN", "RATE_LIMITED");
  // A dashboard write with the session cookie from another site (src/auth/caller.ts).
  if (op.access === "user" && op.method !== "GET") codes.push("FORBIDDEN");
  if (op.params || webhook) codes.push("NOT_FOUND");
  // An invalid `Idempotency-Key` is a 400 even on a write that takes no input.
  if (isTenantWrite(op)) codes.push("VALIDATION_ERROR", "IDEMPOTENCY_CONFLICT");
  return codes;
}

/** `INSUFFICIENT_STOCK` → `InsufficientStock`. */
const pascal = (code: string) =>
  code
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

/** The error response of one status with the codes an operation can answer there, e.g. `ConflictOrInsufficientStock`. */
function errorResponse(status: number, codes: ErrorCode[]): [name: string, response: Json] {
  const name = codes.map(pascal).join("Or");
  const headers: Json = { "x-request-id": header("RequestId") };
  if (status === 429 || status === 503) headers["retry-after"] = header("RetryAfter");
  const response = {
    description: `${ERROR_TEXT[status] ?? "Error"} (${codes.map((code) => `\`${code}\``).join(", ")}).`,
    headers,
    content: {
      "application/json": {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Error" },
            { type: "object", required: ["code"], properties: { code: { type: "string", enum: codes } } },
          ],
        },
      },
    },
  };
  return [name, response];
}

/** A webhook's body is read as bytes and verified before it is parsed: any media type its sender uses. */
const WEBHOOK_BODY: Json = {
  required: false,
  description:
    "The notification exactly as its sender sent it (JSON or a form), verified byte for byte before it is read.",
  content: { "*/*": { schema: {} } },
};

const CALLER_SECURITY = [{ apiKey: [] }, { agentToken: [] }, { sessionCookie: [] }];
const CUSTOMER_SECURITY = [{ customerSession: [] }, { customerSessionCookie: [] }];

/** Alternative credential sets (OpenAPI: any one entry; all schemes of an entry together). */
function security(op: Operation): Json[] {
  let callers: Json[];
  switch (op.access) {
    case "public":
      return op.dashboardSession ? [{}, { sessionCookie: [] }] : [];
    case "user":
      return [{ sessionCookie: [] }];
    case "webhook":
      // A provider's own proof (a signature over the body) is described by the operation, not a scheme.
      if (op.checkoutSecret === "required") return [{ checkoutSecret: [] }];
      return op.checkoutSecret === "optional" ? [{}, { checkoutSecret: [] }] : [];
    case "admin":
      callers = CALLER_SECURITY;
      break;
    default:
      // `{}`: a storefront may also call with no credential but its shop's Host header.
      callers = [...CALLER_SECURITY, {}];
  }
  if (!op.customerSession) return callers;
  const withCustomer = callers.flatMap((caller) =>
    CUSTOMER_SECURITY.map((session) => ({ ...caller, ...session })),
  );
  return op.customerSession === "required" ? withCustomer : [...callers, ...withCustomer];
}

/** Turns a TypeBox schema into plain JSON Schema for the document. */
type ToJson = (node: unknown) => unknown;

/**
 * The document's `components/schemas`, filled as schemas are converted: TypeBox's symbols are
 * dropped and a schema registered with `named()` is published once and referred to by `$ref`.
 */
function schemaPublisher(): { schemas: Record<string, unknown>; toJson: ToJson } {
  const schemas: Record<string, unknown> = {};
  const toJson = (node: unknown, defining?: unknown): unknown => {
    if (Array.isArray(node)) return node.map((n) => toJson(n));
    if (node === null || typeof node !== "object") return node;
    const name = namedSchemas.get(node as TSchema);
    if (name && node !== defining) {
      if (!(name in schemas)) {
        schemas[name] = {}; // placeholder first: a schema may refer to itself
        schemas[name] = toJson(node, node);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = toJson(value);
    return out;
  };
  return { schemas, toJson: (node) => toJson(node) };
}

/** The path or query parameters of one input schema; the standard `page` and `limit` by reference. */
function inputParameters(where: "path" | "query", schema: TSchema, toJson: ToJson): Json[] {
  const required = new Set((schema as { required?: string[] }).required ?? []);
  const properties = (schema as unknown as { properties: Record<string, TSchema> }).properties;
  return Object.entries(properties).map(([name, prop]) => {
    if (
      where === "query" &&
      (name === "page" || name === "limit") &&
      JSON.stringify(prop) === pageSchema(name)
    )
      return parameter(name === "page" ? "Page" : "Limit");
    const description = (prop as { description?: string }).description;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: toJson(prop),
    };
  });
}

function operationParameters(op: Operation, toJson: ToJson): Json[] {
  const parameters: Json[] = [];
  if (op.params) parameters.push(...inputParameters("path", op.params, toJson));
  if (op.query) parameters.push(...inputParameters("query", op.query, toJson));
  if (isTenantWrite(op)) parameters.push(parameter("IdempotencyKey"));
  if (op.cacheable || op.fileResponse) parameters.push(parameter("IfNoneMatch"));
  return parameters;
}

/** The success body: `{data}`, or `{data, meta}` for lists; none when the operation declares no response. */
function successEnvelope(op: Operation, toJson: ToJson): unknown {
  if (!op.response) return undefined;
  const data = toJson(op.list ? { type: "array", items: op.response } : op.response);
  const properties: Json = { data };
  if (op.list) properties.meta = toJson(op.listMeta ?? PageMeta);
  return { type: "object", required: op.list ? ["data", "meta"] : ["data"], properties };
}

function successExample(op: Operation): Json | undefined {
  const data = op.examples?.response;
  if (data === undefined) return undefined;
  if (!op.list) return { example: { data } };
  const total = (data as unknown[]).length;
  return { example: { data, meta: { page: 1, limit: 20, total } } };
}

/** A file's bytes in one of its media types (OpenAPI 3.1 declares raw bytes by a media type with no schema). */
const fileContent = (mediaTypes: string[]): Json => Object.fromEntries(mediaTypes.map((type) => [type, {}]));

/** The success body: the JSON envelope, or a file's bytes. */
function successContent(op: Operation, toJson: ToJson): Json {
  if (op.fileResponse) return fileContent(op.fileResponse);
  if (op.textResponse) {
    const example = op.examples?.response === undefined ? {} : { example: op.examples.response };
    return { [op.textResponse]: { schema: toJson(op.response), ...example } };
  }
  return { "application/json": { schema: successEnvelope(op, toJson), ...successExample(op) } };
}

/** The success responses (the declared status, `alsoStatus`, a cacheable read's or a file's 304). */
function successResponses(op: Operation, toJson: ToJson): Json {
  const status = op.status ?? 200;
  const revalidated = op.cacheable || op.fileResponse !== undefined;
  const headers: Json = { "x-request-id": header("RequestId") };
  if (isTenantWrite(op)) headers["idempotent-replayed"] = header("IdempotentReplayed");
  if (revalidated) headers.etag = header("ETag");
  const success =
    status === 204
      ? { description: "Done", headers }
      : { description: "Success", headers, content: successContent(op, toJson) };
  const responses: Json = { [status]: success };
  if (op.alsoStatus) responses[op.alsoStatus] = success;
  if (revalidated) {
    responses[304] = {
      description: "Not modified: the `ETag` sent in `If-None-Match` is still current.",
      headers: { "x-request-id": header("RequestId"), etag: header("ETag") },
    };
  }
  return responses;
}

/**
 * Adds the operation's error responses, one per status, as references to shared ones under
 * `components/responses` (added there on first use).
 */
function addErrorResponses(op: Operation, responses: Json, shared: Record<string, Json>): void {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of [...implicitErrors(op), ...(op.errors ?? [])]) {
    const codes = byStatus.get(ERROR_STATUS[code]) ?? new Set();
    byStatus.set(ERROR_STATUS[code], codes.add(code));
  }
  for (const status of [...byStatus.keys()].sort()) {
    const [name, response] = errorResponse(status, [...byStatus.get(status)!].sort());
    shared[name] ??= response;
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
}

/** An upload's file: the whole body in one of its media types, or the one file of a form. */
function uploadBody({ mediaTypes, formField, description }: Upload): Json {
  const form = {
    schema: {
      type: "object",
      required: [formField],
      properties: { [formField]: { type: "string", contentMediaType: "application/octet-stream" } },
    },
    encoding: { [formField]: { contentType: mediaTypes.join(", ") } },
  };
  return {
    required: true,
    description,
    content: { ...fileContent(mediaTypes), "multipart/form-data": form },
  };
}

function requestBody(op: Operation, toJson: ToJson): Json | undefined {
  if (op.access === "webhook") return op.method === "GET" ? undefined : WEBHOOK_BODY;
  if (op.upload) return uploadBody(op.upload);
  if (!op.body) return undefined;
  const example = op.examples?.body === undefined ? {} : { example: op.examples.body };
  // No body reads as `{}`, so a body whose fields are all optional may be left out.
  const required = ((op.body as { required?: string[] }).required?.length ?? 0) > 0;
  const content: Json = { "application/json": { schema: toJson(op.body), ...example } };
  if (op.textBody) {
    // The text alone is the body field it is read into (a CSV file: `{csv: "…"}` in JSON).
    const { properties } = op.body as unknown as { properties: Record<string, TSchema> };
    const text = { schema: toJson(properties[op.textBody.field]) };
    return { required, content: { [op.textBody.mediaType]: text, ...content } };
  }
  return { required, content };
}

/** One operation under its path and method. */
function operationEntry(op: Operation, toJson: ToJson, sharedResponses: Record<string, Json>): Json {
  // Converted in this order (parameters, answer, body), which is the order of `components/schemas`.
  const parameters = operationParameters(op, toJson);
  const responses = successResponses(op, toJson);
  addErrorResponses(op, responses, sharedResponses);
  const body = requestBody(op, toJson);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: security(op),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...(op.access === "storefront" || op.access === "admin" ? { "x-required-scope": op.access } : {}),
  };
}

const INFO: Json = {
  title: "Commerce API",
  version: "1.0.0",
  description:
    "Multi-tenant commerce API. Each request is bound to one organization by, in order: an agent " +
    "bearer token, an `x-api-key`, the dashboard session cookie, or (storefront reads and carts only) " +
    "the `Host` header of the shop.",
};

const SECURITY_SCHEMES: Record<string, Json> = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "Organization API key (`ck_…`)",
  },
  agentToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Agent Auth agent JWT",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "Dashboard session",
  },
  customerSession: {
    type: "apiKey",
    in: "header",
    name: CUSTOMER_HEADER,
    description:
      "Storefront customer session token (from `POST /v1/account/sign-in` or `sign-up`), sent with the " +
      "caller's own credential or a shop's Host. Browser storefronts on another origin send it here.",
  },
  checkoutSecret: {
    type: "apiKey",
    in: "header",
    name: "x-checkout-secret",
    description:
      "The shared secret (`CHECKOUT_API_SECRET`) the webhook ingress forwards provider notifications with.",
  },
  customerSessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: CUSTOMER_COOKIE,
    description:
      "The same customer session as a cookie, set by sign-in on the API's own origin; the header wins " +
      "when both are sent.",
  },
};

/** Builds the OpenAPI 3.1 document of every declared operation. */
/** A header every webhook delivery carries (Standard Webhooks). */
const webhookHeader = (name: string, description: string): Json => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
});

const WEBHOOK_HEADERS = [
  webhookHeader("webhook-id", "The message id: the same on every retry of one delivery"),
  webhookHeader("webhook-timestamp", "When this attempt was signed, in seconds since 1970"),
  webhookHeader(
    "webhook-signature",
    "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret " +
      "(two, space-separated, while a rotated secret is still valid)",
  ),
];

/**
 * OpenAPI 3.1 `webhooks`: what the service POSTs to a merchant's endpoint, one entry per event type,
 * the body typed by the object the event carries (src/webhooks/event-catalog.ts).
 */
function webhooksSection(toJson: ToJson): Json {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
          summary: EVENT_CATALOG[type].summary,
          description:
            "Sent to each enabled endpoint whose `events` hold this type or `*`, signed as Standard Webhooks " +
            "says, retried for about 3.5 days until a 2xx (docs/webhooks.md).",
          tags: ["Admin: events and webhooks"],
          // The receiver authenticates the service by the signature headers, not by a scheme of this API.
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { "application/json": { schema: toJson(deliveredEvent(type)) } },
          },
          responses: {
            "200": { description: "Received: any 2xx ends the delivery" },
            "410": { description: "Gone: the service disables the endpoint and sends it nothing more" },
          },
        },
      },
    ]),
  );
}

export function buildOpenApiDocument(operations: Operation[], config: Config): Json {
  const { schemas, toJson } = schemaPublisher();
  const responses: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    (paths[op.path] as Json)[op.method.toLowerCase()] = operationEntry(op, toJson, responses);
  }
  // Published even when no operation happens to refer to it, so clients can name the error body.
  toJson(ErrorBody);
  const tagNames = [...new Set(operations.map((op) => op.tag))];
  return {
    openapi: "3.1.1",
    info: INFO,
    servers: [{ url: config.apiPublicUrl, description: "This deployment (`API_PUBLIC_URL`)" }],
    tags: tagNames.map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
    paths,
    webhooks: webhooksSection(toJson),
    components: {
      schemas,
      responses,
      parameters: PARAMETERS,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
