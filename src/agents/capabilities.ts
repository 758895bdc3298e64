import type { TSchema } from "@sinclair/typebox";
import type { ValidatedInput } from "../core/executor.ts";
import type { Operation, Scope } from "../core/operation.ts";
import { isAgentOperation } from "../core/registry.ts";
import { ProtocolError, type Violation } from "./errors.ts";

// Capabilities are the registry's operations: one per agent operation, named by its operationId.

type CapabilityClass = "read" | "write" | "admin-read" | "admin-write";

export const CLASS_LABELS: Record<CapabilityClass, string> = {
  read: "Read-only",
  write: "Mutating",
  "admin-read": "Admin · read",
  "admin-write": "Admin · mutating",
};

type InputPart = keyof ValidatedInput;

export interface Capability {
  name: string;
  op: Operation;
  /** Summary, then the operation's description. */
  description: string;
  summary: string;
  class: CapabilityClass;
  scope: Scope;
  autoGrant: boolean;
  /** One JSON Schema object merging path params, query and top-level body properties. */
  input: Record<string, unknown>;
  /** The success `data` schema (an array for lists), or null for 204 answers. */
  output: Record<string, unknown> | null;
  /** Each top-level input field and the part of the call it belongs to. */
  fields: Map<string, InputPart>;
}

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys do not survive JSON). */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

function propertiesOf(schema: TSchema | undefined): [Record<string, TSchema>, string[]] {
  const object = schema as { properties?: Record<string, TSchema>; required?: string[] } | undefined;
  return [object?.properties ?? {}, object?.required ?? []];
}

function capabilityOf(op: Operation): Capability {
  const scope: Scope = op.access === "admin" ? "admin" : "storefront";
  const read = op.method === "GET";
  const klass: CapabilityClass =
    scope === "admin" ? (read ? "admin-read" : "admin-write") : read ? "read" : "write";
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const fields = new Map<string, InputPart>();
  for (const part of ["params", "query", "body"] as const) {
    const [props, req] = propertiesOf(op[part]);
    for (const [name, schema] of Object.entries(props)) {
      properties[name] = plain(schema);
      fields.set(name, part);
    }
    required.push(...req);
  }
  const input: Record<string, unknown> = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) input.required = required;
  let output: Record<string, unknown> | null = null;
  if (op.response && op.status !== 204) {
    output = op.list ? { type: "array", items: plain(op.response) } : plain(op.response);
  }
  return {
    name: op.operationId,
    op,
    summary: op.summary,
    description: op.description ? `${op.summary}. ${op.description}` : op.summary,
    class: klass,
    scope,
    autoGrant: op.autoGrant === true,
    input,
    output,
    fields,
  };
}

/** The capabilities of a registry, by name (sorted). */
export function capabilityCatalog(operations: readonly Operation[]): Map<string, Capability> {
  const list = operations.filter(isAgentOperation).map(capabilityOf);
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new Map(list.map((c) => [c.name, c]));
}

// ---------------------------------------------------------------- constraints

type Scalar = string | number | boolean;
type ConstraintValue = Scalar | { max?: number; min?: number; in?: Scalar[]; not_in?: Scalar[] };
export type Constraints = Record<string, ConstraintValue>;

const OPERATORS = new Set(["max", "min", "in", "not_in"]);
const isScalar = (v: unknown): v is Scalar =>
  typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/**
 * Checks the constraints an agent asks for on one capability: keyed by a top-level input field; a
 * scalar (equality) or an object of `max` / `min` (numbers) and `in` / `not_in` (arrays of scalars).
 * Unknown operator → 400 `unknown_constraint_operator`; unknown field or wrong type → 400
 * `invalid_capabilities`.
 */
export function parseConstraints(capability: Capability, raw: unknown): Constraints | null {
  if (raw === undefined || raw === null) return null;
  const invalid = (message: string) =>
    new ProtocolError(400, "invalid_capabilities", `${capability.name}: ${message}`, {
      invalid_capabilities: [capability.name],
    });
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalid("constraints must be an object");
  const out: Constraints = {};
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > 20) throw invalid("at most 20 constrained fields");
  for (const [field, value] of entries) {
    if (!capability.fields.has(field)) throw invalid(`"${field}" is not an input field of this capability`);
    if (isScalar(value)) {
      out[field] = value;
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw invalid(`the constraint on "${field}" must be a scalar or an operator object`);
    }
    const ops = Object.entries(value as Record<string, unknown>);
    if (ops.length === 0) throw invalid(`the constraint on "${field}" names no operator`);
    const parsed: Exclude<ConstraintValue, Scalar> = {};
    for (const [op, operand] of ops) {
      if (!OPERATORS.has(op)) {
        throw new ProtocolError(
          400,
          "unknown_constraint_operator",
          `${capability.name}: unknown constraint operator "${op}" (use max, min, in, not_in)`,
        );
      }
      if (op === "max" || op === "min") {
        if (typeof operand !== "number" || !Number.isFinite(operand)) {
          throw invalid(`"${op}" on "${field}" must be a number`);
        }
        parsed[op] = operand;
      } else {
        if (!Array.isArray(operand) || operand.length > 100 || !operand.every(isScalar)) {
          throw invalid(`"${op}" on "${field}" must be an array of at most 100 scalars`);
        }
        parsed[op as "in" | "not_in"] = operand;
      }
    }
    out[field] = parsed;
  }
  return entries.length === 0 ? null : out;
}

const show = (v: Scalar) => JSON.stringify(v);

/** Each condition of a constraint as text (`max 5000`, `in ["a","b"]`, `eq "x"`). */
function conditions(value: ConstraintValue): { key: string; text: string; holds(v: unknown): boolean }[] {
  if (isScalar(value)) return [{ key: "eq", text: `eq ${show(value)}`, holds: (v) => v === value }];
  const numberOf = (v: unknown): number | undefined => {
    if (typeof v === "number") return v;
    // A Money object compares by its amount.
    if (v !== null && typeof v === "object" && typeof (v as { amount?: unknown }).amount === "number") {
      return (v as { amount: number }).amount;
    }
    return undefined;
  };
  const out: { key: string; text: string; holds(v: unknown): boolean }[] = [];
  if (value.max !== undefined) {
    const max = value.max;
    out.push({ key: "max", text: `max ${max}`, holds: (v) => (numberOf(v) ?? Number.NaN) <= max });
  }
  if (value.min !== undefined) {
    const min = value.min;
    out.push({ key: "min", text: `min ${min}`, holds: (v) => (numberOf(v) ?? Number.NaN) >= min });
  }
  if (value.in !== undefined) {
    const list = value.in;
    out.push({
      key: "in",
      text: `in [${list.map(show).join(", ")}]`,
      holds: (v) => isScalar(v) && list.includes(v),
    });
  }
  if (value.not_in !== undefined) {
    const list = value.not_in;
    out.push({
      key: "not_in",
      text: `not_in [${list.map(show).join(", ")}]`,
      holds: (v) => isScalar(v) && !list.includes(v),
    });
  }
  return out;
}

/**
 * The violated conditions of a grant's constraints on a validated call. A constrained field that is
 * absent, null or mistyped violates (fail closed: a refund without `amount` refunds everything).
 */
export function violationsOf(
  capability: Capability,
  constraints: Constraints,
  input: ValidatedInput,
): Violation[] {
  const violations: Violation[] = [];
  for (const [field, value] of Object.entries(constraints)) {
    const part = capability.fields.get(field) ?? "body";
    const actual = (input[part] as Record<string, unknown> | undefined)?.[field];
    for (const condition of conditions(value)) {
      if (!condition.holds(actual)) {
        violations.push({
          field,
          constraint: condition.text,
          actual: actual ?? null,
          path: `/${part}/${field}`,
        });
      }
    }
  }
  return violations;
}

/** Constraints in words for people (`amount ≤ 5000`). */
export function constraintsInWords(constraints: Constraints | null): string[] {
  if (!constraints) return [];
  const words: string[] = [];
  for (const [field, value] of Object.entries(constraints)) {
    if (isScalar(value)) {
      words.push(`${field} = ${show(value)}`);
      continue;
    }
    if (value.max !== undefined) words.push(`${field} ≤ ${value.max}`);
    if (value.min !== undefined) words.push(`${field} ≥ ${value.min}`);
    if (value.in !== undefined) words.push(`${field} one of ${value.in.map(show).join(", ")}`);
    if (value.not_in !== undefined) words.push(`${field} none of ${value.not_in.map(show).join(", ")}`);
  }
  return words;
}
