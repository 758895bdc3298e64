import fc from "fast-check";

// Request generators read from the served OpenAPI document: for every operation, valid inputs built
// from the JSON Schemas of its parameters and body, and inputs broken in one known way (wrong type,
// missing field, over a bound, unknown field or id, odd header). Shared by the CI fuzz test and
// `bun run fuzz`.

/** JSON Schema is an open shape read from the document. */
export type Schema = Record<string, any>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, Schema>>;
  /** `schemas`, `parameters`… by name, what `$ref`s point at. */
  components?: Record<string, Record<string, Schema>>;
}

export interface FuzzOperation {
  operationId: string;
  method: string;
  path: string;
  /** Its `security`: each entry a set of schemes sent together; `[]` is a shop's Host alone; none at all is public. */
  security: string[][];
  pathParams: { name: string; schema: Schema }[];
  queryParams: { name: string; schema: Schema; required: boolean }[];
  headerParams: { name: string; schema: Schema }[];
  body?: Schema;
}

/** What a case sends; `mustFail` when its input is broken in a way the schema itself refuses. */
export interface FuzzCase {
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What was done to the input, for the report: "valid" or the mutation. */
  mutation: string;
  mustFail: boolean;
}

/** Real ids by prefix (`prod`, `var`, `cart`…): those seeded before the run, then those answers returned. */
export class IdPool {
  private readonly ids = new Map<string, string[]>();
  private readonly seeded = new Set<string>();
  private sealed = false;

  constructor(private readonly source?: IdPool) {}

  add(id: unknown): void {
    if (typeof id !== "string" || this.source) return;
    const prefix = id.slice(0, id.indexOf("_"));
    if (!prefix) return;
    const list = this.ids.get(prefix) ?? [];
    if (list.includes(id)) return;
    list.push(id);
    this.ids.set(prefix, list);
    if (!this.sealed) this.seeded.add(id);
  }

  /** Ids added from now on are the run's own. */
  seal(): void {
    this.sealed = true;
  }

  pick(prefix: string, index: number): string | undefined {
    if (this.source) {
      const own = (this.source.ids.get(prefix) ?? []).filter((id) => !this.source!.seeded.has(id));
      return own.length ? own[index % own.length] : undefined;
    }
    const list = this.ids.get(prefix);
    return list?.length ? list[index % list.length] : undefined;
  }

  /** A view with only the ids created during the run (what a DELETE may remove). */
  createdOnly(): IdPool {
    return new IdPool(this);
  }
}

/** What the generators need besides the schemas: the id pool and words the demo store knows. */
export interface KnownValues {
  ids: IdPool;
  /** Values that reach past the first business check, by property name (country, locale…). */
  hints: Record<string, string[]>;
}

/** Follows `#/components/…` references (schemas, parameters) to what they name. */
export function resolveRef(doc: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 10; depth++) {
    const [kind, name] = String(current.$ref).replace("#/components/", "").split("/");
    const target = doc.components?.[kind!]?.[name!];
    if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** Every operation of the document, with its `$ref`s resolved. */
export function operationsOf(doc: OpenApiDocument): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !op.operationId) continue;
      const parameters: Schema[] = (op.parameters ?? []).map((p: Schema) => resolveRef(doc, p));
      const of = (where: string) =>
        parameters
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, schema: resolveRef(doc, p.schema), required: p.required === true }));
      const body = op.requestBody?.content?.["application/json"]?.schema;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        security: ((op.security ?? []) as Schema[]).map((set) => Object.keys(set)),
        pathParams: of("path"),
        queryParams: of("query"),
        headerParams: of("header"),
        body: body ? resolveRef(doc, body) : undefined,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Valid values

const printableCodePoint = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 2, arbitrary: fc.integer({ min: 0xa0, max: 0x2fff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x1f300, max: 0x1f64f }) },
);

/** Text of printable characters; the length counts code points, as the service does. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .array(printableCodePoint, { minLength, maxLength })
    .map((points) => String.fromCodePoint(...points));
}

/** `^prefix_…` id patterns: an id of that kind, real or unknown. */
function idPrefixOf(schema: Schema): string | undefined {
  const match = typeof schema.pattern === "string" ? /^\^([a-z]+)_\[/.exec(schema.pattern) : null;
  return match?.[1];
}

function unknownId(prefix: string): fc.Arbitrary<string> {
  return fc.stringMatching(/^[A-Za-z0-9]{24}$/).map((rest) => `${prefix}_${rest}`);
}

function idValue(prefix: string, known: KnownValues): fc.Arbitrary<string> {
  // The pool is read when a value is drawn, so ids created earlier in the run are used too.
  const real = fc.nat().chain((index) => {
    const id = known.ids.pick(prefix, index);
    return id === undefined ? unknownId(prefix) : fc.constant(id);
  });
  return fc.oneof({ weight: 4, arbitrary: real }, { weight: 1, arbitrary: unknownId(prefix) });
}

function stringValue(schema: Schema, known: KnownValues, name?: string): fc.Arbitrary<string> {
  const min: number = schema.minLength ?? 0;
  const max: number = Math.min(schema.maxLength ?? 60, 60);
  const prefix = idPrefixOf(schema);
  if (prefix) return idValue(prefix, known);
  const hinted = name ? known.hints[name] : undefined;
  let generic: fc.Arbitrary<string>;
  if (schema.format === "email") {
    generic = fc
      .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom("example.com", "loja.pt"))
      .map(([local, domain]) => `${local}@${domain}`);
  } else if (schema.format === "date-time") {
    generic = fc
      .date({
        min: new Date("2020-01-01T00:00:00Z"),
        max: new Date("2030-01-01T00:00:00Z"),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  } else if (typeof schema.pattern === "string") {
    const limit = schema.maxLength ?? Number.POSITIVE_INFINITY;
    generic = fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => [...s].length >= min && [...s].length <= limit);
  } else {
    generic = text(min, Math.max(min, max));
  }
  if (!hinted?.length) return generic;
  return fc.oneof(fc.constantFrom(...hinted), generic);
}

function numberValue(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min: number = schema.minimum ?? -1_000_000;
  const max: number = schema.maximum ?? 1_000_000;
  // Edges first: bounds are where arithmetic overflows.
  const edges = fc.constantFrom(min, max, Math.min(max, Math.max(min, 1)));
  const inside = integer
    ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 1, arbitrary: edges }, { weight: 3, arbitrary: inside });
}

/** A value the schema accepts (the service may still refuse it for a business rule). */
export function validValue(
  schema: Schema,
  known: KnownValues,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf)) {
    return fc.oneof(...schema.anyOf.map((s: Schema) => validValue(s, known, name, depth)));
  }
  switch (schema.type) {
    case "string":
      return stringValue(schema, known, name);
    case "integer":
      return numberValue(schema, true);
    case "number":
      return numberValue(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const item = validValue(schema.items ?? {}, known, name, depth + 1);
      const constraints = {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, depth > 0 ? 2 : 4)),
      };
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(item, constraints);
    }
    case "object":
      return objectValue(schema, known, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

function objectValue(
  schema: Schema,
  known: KnownValues,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = validValue(sub, known, key, depth + 1);
  const fixed = fc.record(model, { requiredKeys: required.filter((k) => k in model) });
  const patterns = Object.entries<Schema>(schema.patternProperties ?? {});
  if (patterns.length === 0) return fixed;
  // Localized text and the like: keys from the pattern (locales the store knows, mostly).
  const [keyPattern, valueSchema] = patterns[0]!;
  const keyArb = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(known.hints.locale ?? ["en"])) },
    { weight: 1, arbitrary: stringValue({ type: "string", pattern: keyPattern, maxLength: 20 }, known) },
  );
  const dict = fc.dictionary(keyArb, validValue(valueSchema, known, undefined, depth + 1), {
    minKeys: schema.minProperties ?? 0,
    maxKeys: Math.max(schema.minProperties ?? 0, Math.min(schema.maxProperties ?? 3, 3)),
  });
  return fc.tuple(fixed, dict).map(([a, b]) => ({ ...b, ...a }));
}

// ---------------------------------------------------------------------------------------------
// Broken values: each knows whether the schema alone refuses it

interface Broken {
  value: unknown;
  label: string;
  mustFail: boolean;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function allowedTypes(schema: Schema): Set<string> | undefined {
  if (Array.isArray(schema.anyOf)) {
    const all = new Set<string>();
    for (const s of schema.anyOf) {
      const inner = allowedTypes(s);
      if (!inner) return undefined;
      for (const t of inner) all.add(t);
    }
    return all;
  }
  if (typeof schema.type !== "string") return undefined;
  const types = new Set([schema.type]);
  if (schema.type === "number") types.add("integer");
  return types;
}

const WRONG_TYPED: unknown[] = [1.5, 42, "not-the-type", true, null, [], {}, [1, "two"]];

/** A value of a JSON type the schema does not allow. */
function wrongType(schema: Schema): fc.Arbitrary<Broken> | undefined {
  const allowed = allowedTypes(schema);
  if (!allowed) return undefined;
  const candidates = WRONG_TYPED.filter((v) => !allowed.has(jsonTypeOf(v)));
  if (candidates.length === 0) return undefined;
  return fc.constantFrom(...candidates).map((value) => ({ value, label: "wrong type", mustFail: true }));
}

/** Beyond a declared bound: a string or array over its maximum, a number past its limits. */
function outOfBounds(schema: Schema): fc.Arbitrary<Broken> | undefined {
  if (schema.type === "string" && typeof schema.maxLength === "number") {
    return fc
      .constantFrom(schema.maxLength + 1, 10_000, 300_000)
      .map((n) => ({ value: "x".repeat(n), label: `string of ${n}`, mustFail: true }));
  }
  if (schema.type === "string" && typeof schema.minLength === "number" && schema.minLength > 0) {
    return fc.constant({ value: "", label: "empty string", mustFail: true });
  }
  if ((schema.type === "integer" || schema.type === "number") && typeof schema.maximum === "number") {
    const over = [schema.maximum + 1, 2 ** 53, 1e308];
    if (typeof schema.minimum === "number") over.push(schema.minimum - 1, -1e308);
    return fc.constantFrom(...over).map((value) => ({ value, label: `number ${value}`, mustFail: true }));
  }
  if (schema.type === "array" && typeof schema.maxItems === "number" && schema.maxItems <= 1000) {
    return fc.constant({
      value: Array.from({ length: schema.maxItems + 1 }, () => null),
      label: `array of ${schema.maxItems + 1}`,
      mustFail: true,
    });
  }
  return undefined;
}

/** Broken in one place: the body as a whole, or one field of it. */
function brokenBody(schema: Schema, known: KnownValues): fc.Arbitrary<Broken> {
  const valid = objectValue(schema, known, 0);
  const options: fc.Arbitrary<Broken>[] = [
    fc
      .constantFrom<unknown>([], "text", 7, null, [{}])
      .map((value) => ({ value, label: "body not an object", mustFail: true })),
  ];
  const required: string[] = schema.required ?? [];
  if (required.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([body, key]) => {
        const { [key]: _dropped, ...rest } = body;
        return { value: rest, label: `missing ${key}`, mustFail: true };
      }),
    );
  }
  if (schema.additionalProperties === false) {
    options.push(
      fc
        .tuple(valid, fc.constantFrom("zzUnknown", "__proto__", "constructor", "id"))
        .filter(([, key]) => !(key in (schema.properties ?? {})))
        .map(([body, key]) => ({
          // A computed key makes even `__proto__` an own, serialized property.
          value: { [key]: 1, ...body },
          label: `unknown field ${key}`,
          mustFail: true,
        })),
    );
  }
  for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
    for (const broken of [wrongType(sub), outOfBounds(sub)]) {
      if (!broken) continue;
      options.push(
        fc.tuple(valid, broken).map(([body, b]) => ({
          value: { ...body, [key]: b.value },
          label: `${key}: ${b.label}`,
          mustFail: b.mustFail,
        })),
      );
    }
  }
  return fc.oneof(...options);
}

/** `valid` as JSON text with `field` set to the JSON text `value` (which may be too deep to build as a value). */
function withField(valid: unknown, field: string, value: string): string {
  const rest: Record<string, unknown> =
    valid !== null && typeof valid === "object" && !Array.isArray(valid) ? { ...valid } : {};
  delete rest[field];
  const tail = JSON.stringify(rest).slice(1); // the other fields and the closing brace
  return `{${JSON.stringify(field)}:${value}${tail === "}" ? "" : ","}${tail}`;
}

/**
 * Arrays or objects nested past the service's limit of 64 levels (docs/api-conventions.md,
 * "Limits"): the whole body, or one field of a valid body. Written as text, never built as values.
 */
function deeplyNested(schema: Schema): fc.Arbitrary<{ label: string; text: (valid: unknown) => string }> {
  const fields = Object.keys(schema.properties ?? {});
  return fc
    .tuple(
      fc.constantFrom(65, 1_000, 30_000),
      fc.constantFrom("arrays", "objects"),
      fc.constantFrom(undefined, ...fields),
    )
    .map(([levels, kind, field]) => {
      const deep =
        kind === "arrays"
          ? `${"[".repeat(levels)}${"]".repeat(levels)}`
          : `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
      return {
        label: `${field ?? "body"}: ${levels} levels of ${kind}`,
        text: (valid) => (field === undefined ? deep : withField(valid, field, deep)),
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Whole requests

/** What the fuzzer can send for each security scheme (agent tokens it has none of). */
export interface Credentials {
  /** A shop's Host, for calls that name their tenant that way. */
  host: string;
  adminKey: string;
  /** `session_token=…` of a dashboard user. */
  userCookie: string;
  customerSession: string;
}

/** Where the service finds real ids a parameter without an id pattern accepts (`/v1/products/{id}`: id or slug). */
const RESOURCE_ID_PREFIX: Record<string, string> = {
  products: "prod",
  categories: "cat",
  coupons: "cpn",
  "shipping-methods": "shp",
  carts: "cart",
  orders: "ord",
  customers: "cus",
  items: "item",
};

interface Parts {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

function pathValue(
  op: FuzzOperation,
  name: string,
  schema: Schema,
  known: KnownValues,
): fc.Arbitrary<string> {
  const generic = validValue(schema, known, name).map(String);
  const segments = op.path.split("/");
  const prefix = idPrefixOf(schema)
    ? undefined
    : RESOURCE_ID_PREFIX[segments[segments.indexOf(`{${name}}`) - 1] ?? ""];
  return prefix
    ? fc.oneof({ weight: 3, arbitrary: idValue(prefix, known) }, { weight: 1, arbitrary: generic })
    : generic;
}

/** A header value: visible ASCII (what a header can carry), an entity tag where no pattern says otherwise. */
function headerValue(schema: Schema, known: KnownValues): fc.Arbitrary<string> {
  if (typeof schema.pattern === "string") return validValue(schema, known).map(String);
  return fc.oneof(fc.stringMatching(/^"[A-Za-z0-9_-]{1,40}"$/), fc.constant("*"));
}

function validParts(op: FuzzOperation, known: KnownValues): fc.Arbitrary<Parts> {
  // A DELETE gets seeded ids only rarely, so the demo store keeps the records the other operations need.
  const knownForOp = op.method === "DELETE" ? { ...known, ids: known.ids.createdOnly() } : known;
  const path: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.pathParams) path[p.name] = pathValue(op, p.name, p.schema, knownForOp);
  const query: Record<string, fc.Arbitrary<string>> = {};
  for (const q of op.queryParams) query[q.name] = validValue(q.schema, knownForOp, q.name).map(String);
  const headers: Record<string, fc.Arbitrary<string>> = {};
  for (const h of op.headerParams) headers[h.name.toLowerCase()] = headerValue(h.schema, knownForOp);
  return fc.record({
    path: fc.record(path),
    query: fc.record(query, { requiredKeys: op.queryParams.filter((q) => q.required).map((q) => q.name) }),
    headers: fc.record(headers, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>,
    body: op.body ? validValue(op.body, knownForOp) : fc.constant(undefined),
  });
}

/** Headers read when a case is drawn: a sign-out during the run replaces the session they carry. */
const live = (headers: () => Record<string, string>) => fc.constant(undefined).map(headers);

const isPublic = (op: FuzzOperation) => op.security.length === 0;
/** Resolves a caller from its credentials (webhooks do not: they take a shared secret, or nothing). */
const CALLER_SCHEMES = new Set(["apiKey", "agentToken", "sessionCookie"]);
const resolvesCaller = (op: FuzzOperation) =>
  op.security.some((set) => set.some((scheme) => CALLER_SCHEMES.has(scheme)));
const acceptsHostAlone = (op: FuzzOperation) => op.security.some((set) => set.length === 0);
const needsCustomerSession = (op: FuzzOperation) =>
  !isPublic(op) &&
  op.security.every((set) => set.includes("customerSession") || set.includes("customerSessionCookie"));
const isTenantWrite = (op: FuzzOperation) =>
  op.method !== "GET" && op.path.startsWith("/v1/") && !isPublic(op);

/** The headers of one security requirement (a set of schemes sent together). */
function requirementHeaders(op: FuzzOperation, set: string[], creds: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const scheme of set) {
    if (scheme === "apiKey") headers["x-api-key"] = creds.adminKey;
    else if (scheme === "sessionCookie") cookies.push(creds.userCookie);
    else if (scheme === "customerSession") headers["x-customer-session"] = creds.customerSession;
    else if (scheme === "customerSessionCookie") cookies.push(`customer_session=${creds.customerSession}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  // Without a key or a dashboard session, a /v1 call names its shop by Host.
  if (op.path.startsWith("/v1/") && !set.includes("apiKey") && !set.includes("sessionCookie"))
    headers.host = creds.host;
  return headers;
}

/** A credential the operation's `security` accepts, one requirement at a time. */
function baseHeaders(op: FuzzOperation, creds: Credentials): fc.Arbitrary<Record<string, string>> {
  const sets = op.security.filter((set) => !set.includes("agentToken"));
  if (sets.length === 0) return fc.constant({});
  return fc.constantFrom(...sets).chain((set) => live(() => requirementHeaders(op, set, creds)));
}

interface OddHeaders {
  headers: Record<string, string>;
  /** Whether the case's valid credential is sent too. */
  withCredential: boolean;
  label: string;
  mustFail: boolean;
}

/** Odd headers: which of them must be refused depends on the operation. */
function oddHeaders(op: FuzzOperation, creds: Credentials): fc.Arbitrary<OddHeaders> {
  const host: Record<string, string> = op.path.startsWith("/v1/") ? { host: creds.host } : {};
  const options: fc.Arbitrary<OddHeaders>[] = [
    fc
      .constantFrom("Basic dXNlcjpwYXNz", "Bearer", "Bearer not.a.jwt", "Token x", "")
      .map((authorization) => ({
        headers: { authorization, ...host },
        withCredential: false,
        label: `authorization ${JSON.stringify(authorization)}`,
        // A present but unusable Authorization is a wrong credential, never a fall-back to the Host.
        mustFail: resolvesCaller(op),
      })),
    fc.constantFrom("ck_unknown", "x".repeat(5000)).map((key) => ({
      headers: { "x-api-key": key, ...host },
      withCredential: false,
      label: `x-api-key of ${key.length}`,
      mustFail: resolvesCaller(op),
    })),
    fc.constantFrom("cs_unknown", "garbage", "", "x".repeat(4096)).map((token) => ({
      headers: { "x-customer-session": token, ...host },
      withCredential: false,
      label: `x-customer-session of ${token.length}`,
      mustFail: needsCustomerSession(op),
    })),
  ];
  if (!isPublic(op) && !acceptsHostAlone(op)) {
    options.push(
      fc.constant({ headers: host, withCredential: false, label: "no credential", mustFail: true }),
    );
  }
  if (isTenantWrite(op)) {
    options.push(
      fc.constantFrom("x".repeat(256), "tab\there", "café", "").map((key) => ({
        headers: { "idempotency-key": key },
        withCredential: true,
        label: `idempotency-key ${JSON.stringify(key.slice(0, 12))}`,
        mustFail: true,
      })),
    );
  }
  return fc.oneof(...options);
}

/** Whether the schema refuses this query text (query values arrive as text and are read as their type). */
function queryTextRefused(schema: Schema, text: string): boolean {
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.every((branch: Schema) => queryTextRefused(branch, text));
  if ("const" in schema) return String(schema.const) !== text;
  switch (schema.type) {
    case "integer":
    case "number": {
      const value = Number(text);
      const shape = schema.type === "integer" ? /^-?[0-9]+$/ : /^-?[0-9]+(\.[0-9]+)?$/;
      return (
        !shape.test(text) || value < (schema.minimum ?? -Infinity) || value > (schema.maximum ?? Infinity)
      );
    }
    case "boolean":
      return text !== "true" && text !== "false";
    case "string": {
      const length = [...text].length;
      if (length < (schema.minLength ?? 0) || length > (schema.maxLength ?? Infinity)) return true;
      return typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(text);
    }
    default:
      return false;
  }
}

function buildUrl(op: FuzzOperation, parts: Parts): string {
  let path = op.path;
  for (const [name, value] of Object.entries(parts.path))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  const search = new URLSearchParams(parts.query).toString();
  return search ? `${path}?${search}` : path;
}

function toCase(
  op: FuzzOperation,
  parts: Parts,
  headers: Record<string, string>,
  mutation: string,
  mustFail: boolean,
  rawBody?: string,
  contentType = "application/json",
): FuzzCase {
  const body = rawBody ?? (op.body && parts.body !== undefined ? JSON.stringify(parts.body) : undefined);
  const all = { ...parts.headers, ...headers };
  return {
    operationId: op.operationId,
    method: op.method,
    url: buildUrl(op, parts),
    headers: body === undefined ? all : { "content-type": contentType, ...all },
    body,
    mutation,
    mustFail,
  };
}

/** Valid cases and cases broken in one way, for one operation. */
export function caseArbitrary(
  op: FuzzOperation,
  known: KnownValues,
  creds: Credentials,
): fc.Arbitrary<FuzzCase> {
  const parts = validParts(op, known);
  const headers = baseHeaders(op, creds);
  const valid = fc.tuple(parts, headers).map(([p, h]) => toCase(op, p, h, "valid", false));
  const broken: fc.Arbitrary<FuzzCase>[] = [
    fc
      .tuple(parts, headers, oddHeaders(op, creds))
      .map(([p, h, odd]) =>
        toCase(op, p, odd.withCredential ? { ...h, ...odd.headers } : odd.headers, odd.label, odd.mustFail),
      ),
  ];
  if (op.body) {
    const body = op.body;
    broken.push(
      fc
        .tuple(parts, headers, brokenBody(body, known))
        .map(([p, h, b]) => toCase(op, { ...p, body: b.value }, h, b.label, b.mustFail)),
      fc
        .tuple(parts, headers, fc.constantFrom("{", '{"a":', "[1,", "\u0000", "null"))
        .map(([p, h, raw]) => toCase(op, p, h, `malformed JSON ${JSON.stringify(raw)}`, true, raw)),
      fc
        .tuple(parts, headers, deeplyNested(body))
        .map(([p, h, deep]) => toCase(op, p, h, deep.label, true, deep.text(p.body))),
      fc
        .tuple(
          parts,
          headers,
          fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"),
        )
        .map(([p, h, type]) => toCase(op, p, h, `content-type ${type}`, false, undefined, type)),
    );
  }
  for (const param of op.pathParams) {
    const prefix = idPrefixOf(param.schema);
    const bad = fc.constantFrom("x", "%00", "a".repeat(300), prefix ? `${prefix}_` : "-");
    broken.push(
      fc
        .tuple(parts, headers, bad)
        .map(([p, h, value]) =>
          toCase(
            op,
            { ...p, path: { ...p.path, [param.name]: value } },
            h,
            `path ${param.name} malformed`,
            true,
          ),
        ),
    );
    if (prefix) {
      broken.push(
        fc
          .tuple(parts, headers, unknownId(prefix))
          .map(([p, h, value]) =>
            toCase(
              op,
              { ...p, path: { ...p.path, [param.name]: value } },
              h,
              `path ${param.name} unknown`,
              true,
            ),
          ),
      );
    }
  }
  for (const param of op.queryParams) {
    const bad = [wrongType(param.schema), outOfBounds(param.schema)].filter(
      Boolean,
    ) as fc.Arbitrary<Broken>[];
    for (const b of bad) {
      broken.push(
        fc.tuple(parts, headers, b).map(([p, h, broke]) => {
          // A query is text: `42` for a string parameter is no longer broken once written out.
          const value = typeof broke.value === "string" ? broke.value : JSON.stringify(broke.value);
          const label = `query ${param.name}: ${broke.label}`;
          return toCase(
            op,
            { ...p, query: { ...p.query, [param.name]: value } },
            h,
            label,
            queryTextRefused(param.schema, value),
          );
        }),
      );
    }
  }
  return fc.oneof(
    { weight: broken.length, arbitrary: valid },
    ...broken.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}
