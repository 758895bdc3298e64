import type { TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { ApiError, type ErrorDetail } from "./errors.ts";

const MAX_DETAILS = 20;

export type InputPart = "params" | "query" | "body";

/** A compiled validator for one part of an operation's input. */
export interface InputValidator {
  /** Returns the validated (and for params/query, string-coerced and defaulted) value, or throws a 400. */
  parse(value: unknown): unknown;
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Path and query values arrive as strings. Only exact spellings are converted ("5" → 5,
 * "true" → true), unlike TypeBox's Convert, which truncates "2.5" to 2 for an integer: a silent clamp.
 */
function coerceStrings(schema: TSchema, raw: unknown): unknown {
  const properties = (schema as { properties?: Record<string, { type?: string }> }).properties;
  if (!properties || raw === null || typeof raw !== "object") return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [name, value] of Object.entries(out)) {
    const type = properties[name]?.type;
    if (typeof value !== "string") continue;
    if ((type === "integer" || type === "number") && NUMBER.test(value)) out[name] = Number(value);
    else if (type === "boolean" && (value === "true" || value === "false")) out[name] = value === "true";
  }
  return out;
}

/** Whether a `default` is declared anywhere in the schema (most bodies have none: no need to walk the value). */
function declaresDefault(schema: unknown, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return false;
  seen.add(schema);
  if (!Array.isArray(schema) && Object.hasOwn(schema, "default")) return true;
  return Object.values(schema).some((child) => declaresDefault(child, seen));
}

export function compileInput(part: InputPart, schema: TSchema): InputValidator {
  const check: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  const coerce = part !== "body";
  const defaults = declaresDefault(schema);
  return {
    parse(value) {
      let input = coerce ? coerceStrings(schema, value) : value;
      if (defaults) input = Value.Default(schema, input);
      if (check.Check(input)) return input;
      throw validationError(part, check, input);
    },
  };
}

function validationError(part: InputPart, check: TypeCheck<TSchema>, value: unknown): ApiError {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of check.Errors(value)) {
    const path = `/${part}${error.path}`;
    if (seen.has(path)) continue; // a union reports each branch; the first message is enough
    seen.add(path);
    details.push({ path, message: error.message });
    if (details.length >= MAX_DETAILS) break;
  }
  const first = details[0];
  return new ApiError(
    "VALIDATION_ERROR",
    first ? `Invalid ${part}: ${first.path} ${first.message}` : `Invalid ${part}`,
    details,
  );
}
