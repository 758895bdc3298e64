import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ObservedAnswer } from "../../src/http/observe.ts";

// Whether an answer is one the OpenAPI document declares for its operation: its status is among the
// operation's responses, and its body fits that response's content (type and JSON Schema, checked by
// Ajv in strict mode). Used by the test preload (test/preload.ts) on every answer of a test run.

type Json = Record<string, any>;

/** Ajv for JSON Schema 2020-12 in strict mode (unknown keywords and formats are errors), with the standard formats. */
export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const DOCUMENT_ID = "openapi.json";
const COMPONENT_REF = '"#/components/schemas/';

/** `components/schemas` references, pointed at where `schemas` lives for Ajv (`prefix#/$defs/…`). */
const retarget = (schema: unknown, prefix: string): Json =>
  JSON.parse(JSON.stringify(schema).replaceAll(COMPONENT_REF, `"${prefix}#/$defs/`));

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch"]);

/** `application/json` and its `+json` kinds (`application/problem+json`). */
const isJsonMediaType = (mediaType: string) => /^application\/([a-z0-9.-]+\+)?json$/.test(mediaType);

interface Declared {
  method: string;
  path: string;
  responses: Record<string, Json>;
}

/** `/data/name must be object`, with the allowed values of an enum. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath || "/";
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return `${where} ${error.message}${allowed ? ` (${allowed.join(", ")})` : ""}`;
}

export class AnswerChecker {
  private readonly declared = new Map<string, Declared>();
  private readonly ajv = strictAjv();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!HTTP_METHODS.has(method)) continue;
        this.declared.set(op.operationId, { method: method.toUpperCase(), path, responses: op.responses });
      }
    }
    this.ajv.addSchema(retarget({ $id: DOCUMENT_ID, $defs: doc.components?.schemas ?? {} }, ""));
  }

  /** Whether the document has this operation (operations that tests serve beside the service's have not). */
  declares(operationId: string): boolean {
    return this.declared.has(operationId);
  }

  /** Why the answer is not one the document declares, or undefined when it is. */
  problem(answer: ObservedAnswer): string | undefined {
    const op = this.declared.get(answer.operationId);
    if (!op) return `operation ${answer.operationId} is not in the document`;
    // A HEAD is its GET's answer without the body.
    const method = answer.method === "HEAD" ? "GET" : answer.method;
    if (op.method !== method || op.path !== answer.path) {
      return `served as ${answer.method} ${answer.path}, documented as ${op.method} ${op.path}`;
    }
    const entry = op.responses[String(answer.status)];
    if (!entry) {
      return `status ${answer.status} is not declared (declared: ${Object.keys(op.responses).join(", ")})`;
    }
    const content: Record<string, Json> | undefined = this.resolve(entry).content;
    if (!content) return answer.body === "" ? undefined : "a body where the document declares none";
    if (answer.method === "HEAD") return undefined;
    const mediaType = (answer.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const media = content[mediaType];
    if (!media)
      return `content type "${answer.contentType}" is not declared (${Object.keys(content).join(", ")})`;
    // Bytes (a stored image) are declared by their media type alone, with no schema to fit.
    if (media.schema === undefined) return undefined;
    // A JSON body is checked as the value it spells; any other text (a CSV file) as the string it is.
    let body: unknown = answer.body;
    if (isJsonMediaType(mediaType)) {
      try {
        body = JSON.parse(answer.body);
      } catch {
        return "the body is not JSON";
      }
    }
    const validate = this.validator(`${answer.operationId} ${answer.status} ${mediaType}`, media.schema);
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 3).map(describeError);
    return `the body does not fit the declared schema: ${errors.join("; ")}`;
  }

  /** Why a webhook body (as delivered) does not fit the document's `webhooks` entry of its type, or undefined. */
  webhookProblem(body: string): string | undefined {
    const { type } = JSON.parse(body) as { type: string };
    const schema = this.doc.webhooks?.[type]?.post?.requestBody?.content?.["application/json"]?.schema;
    if (!schema) return `webhook ${type} is not in the document`;
    const validate = this.validator(`webhook ${type}`, schema);
    if (validate(JSON.parse(body))) return undefined;
    return `the ${type} body does not fit: ${(validate.errors ?? []).slice(0, 3).map(describeError).join("; ")}`;
  }

  /** A response, or the one under `components/responses` that it refers to. */
  private resolve(entry: Json): Json {
    if (!entry.$ref) return entry;
    return this.doc.components.responses[String(entry.$ref).replace("#/components/responses/", "")];
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(retarget(schema, DOCUMENT_ID));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/**
 * The failures among `answers` as one report (answers of operations the document lacks are not the
 * service's and are left out), or undefined when every answer is declared.
 */
export function conformanceReport(
  checker: AnswerChecker,
  answers: Iterable<ObservedAnswer>,
): string | undefined {
  const failures = new Map<string, { count: number; body: string }>();
  for (const answer of answers) {
    if (!checker.declares(answer.operationId)) continue;
    const problem = checker.problem(answer);
    if (!problem) continue;
    const key = `${answer.operationId} (${answer.method} ${answer.path}) ${answer.status}: ${problem}`;
    const seen = failures.get(key);
    if (seen) seen.count++;
    else failures.set(key, { count: 1, body: answer.body.slice(0, 300) });
  }
  if (failures.size === 0) return undefined;
  const lines = [...failures].map(
    ([key, { count, body }]) => `- ${key}${count > 1 ? ` (${count} answers)` : ""}\n    body: ${body}`,
  );
  return `The OpenAPI document does not declare these answers (${failures.size}):\n${lines.join("\n")}`;
}
