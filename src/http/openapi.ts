import type { TSchema } from "@sinclair/typebox";
import { SESSION_COOKIE } from "../auth/caller.ts";
import type { Config } from "../config.ts";
import type { ErrorCode } from "../core/errors.ts";
import { ERROR_STATUS } from "../core/errors.ts";
import type { Operation } from "../core/operation.ts";
import { ErrorBody, namedSchemas, PageMeta } from "../core/schemas.ts";

type Json = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: "Malformed input (`VALIDATION_ERROR`)",
  401: "No valid credential (`UNAUTHORIZED`)",
  403: "The caller lacks the required scope (`FORBIDDEN`)",
  404: "Not found, also for another tenant's ids (`NOT_FOUND`)",
  405: "Method not allowed",
  409: "Conflict with the current state",
  413: "Request body too large (`PAYLOAD_TOO_LARGE`)",
  422: "A business rule refuses the request",
  429: "Too many requests (`RATE_LIMITED`, see `Retry-After`)",
  500: "Internal error (`INTERNAL`)",
  503: "Temporarily unavailable",
};

/** Errors every operation of a kind can answer, whatever it declares itself. */
function implicitErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = ["INTERNAL"];
  if (op.params || op.query || op.body) codes.push("VALIDATION_ERROR");
  if (op.body) codes.push("PAYLOAD_TOO_LARGE");
  if (op.access !== "public") codes.push("UNAUTHORIZED");
  if (op.access === "caller" || op.access === "storefront" || op.access === "admin") codes.push("FORBIDDEN");
  if (op.params) codes.push("NOT_FOUND");
  return codes;
}

const CALLER_SECURITY = [{ apiKey: [] }, { agentToken: [] }, { sessionCookie: [] }];

function security(op: Operation): Json[] {
  switch (op.access) {
    case "public":
      return [];
    case "user":
      return [{ sessionCookie: [] }];
    case "admin":
      return CALLER_SECURITY;
    default:
      // `{}`: a storefront may also call with no credential but its shop's Host header.
      return [...CALLER_SECURITY, {}];
  }
}

/** Builds the OpenAPI 3.1 document of every declared operation. */
export function buildOpenApiDocument(operations: Operation[], config: Config): Json {
  const components: Record<string, unknown> = {};

  // Plain JSON Schema (TypeBox's symbols dropped), with published schemas replaced by `$ref`s.
  const toJson = (node: unknown, defining?: unknown): unknown => {
    if (Array.isArray(node)) return node.map((n) => toJson(n));
    if (node === null || typeof node !== "object") return node;
    const name = namedSchemas.get(node as TSchema);
    if (name && node !== defining) {
      if (!(name in components)) {
        components[name] = {}; // placeholder first: a schema may refer to itself
        components[name] = toJson(node, node);
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = toJson(value);
    return out;
  };

  const envelope = (op: Operation): unknown => {
    if (!op.response) return undefined;
    const data = toJson(op.list ? { type: "array", items: op.response } : op.response);
    const properties: Json = { data };
    if (op.list) properties.meta = toJson(PageMeta);
    return { type: "object", required: op.list ? ["data", "meta"] : ["data"], properties };
  };

  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const parameters: Json[] = [];
    for (const [where, schema] of [
      ["path", op.params],
      ["query", op.query],
    ] as const) {
      if (!schema) continue;
      const required = new Set((schema as { required?: string[] }).required ?? []);
      for (const [name, prop] of Object.entries(
        (schema as unknown as { properties: Record<string, TSchema> }).properties,
      )) {
        const description = (prop as { description?: string }).description;
        parameters.push({
          name,
          in: where,
          required: where === "path" || required.has(name),
          ...(description ? { description } : {}),
          schema: toJson(prop),
        });
      }
    }

    const status = op.status ?? 200;
    const responses: Json = {
      [status]:
        status === 204
          ? { description: "Done" }
          : { description: "Success", content: { "application/json": { schema: envelope(op) } } },
    };
    const errorStatuses = new Set(
      [...implicitErrors(op), ...(op.errors ?? [])].map((code) => ERROR_STATUS[code]),
    );
    for (const code of [...errorStatuses].sort()) {
      responses[code] = {
        description: ERROR_TEXT[code] ?? "Error",
        content: { "application/json": { schema: toJson(ErrorBody) } },
      };
    }

    const entry: Json = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      security: security(op),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: { "application/json": { schema: toJson(op.body) } } } }
        : {}),
      responses,
      ...(op.access === "storefront" || op.access === "admin" ? { "x-required-scope": op.access } : {}),
    };
    paths[op.path] ??= {};
    (paths[op.path] as Json)[op.method.toLowerCase()] = entry;
  }

  return {
    openapi: "3.1.1",
    info: {
      title: "Commerce API",
      version: "1.0.0",
      description:
        "Multi-tenant commerce API. Each request is bound to one organization by, in order: an agent " +
        "bearer token, an `x-api-key`, the dashboard session cookie, or (storefront reads and carts only) " +
        "the `Host` header of the shop.",
    },
    servers: [{ url: config.apiPublicUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
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
      },
    },
  };
}
