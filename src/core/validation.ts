import type { TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/errors";
import { ApiError, type ErrorDetail } from "./errors.ts";
import { keyFault, textMessage, withTextRules } from "./text-rules.ts";

const MAX_DETAILS = 20;

type InputPart = "params" | "query" | "body";

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

interface DefaultingSchema {
  default?: unknown;
  properties?: Record<string, DefaultingSchema>;
  allOf?: DefaultingSchema[];
}

/**
 * Fills declared defaults where a value is absent, and only there. (TypeBox's `Value.Default` also
 * replaces a value of the wrong type with the default, which would accept `"scopes": {}` as if the
 * field were left out instead of refusing it.)
 */
function fillDefaults(schema: DefaultingSchema, value: unknown): unknown {
  if (value === undefined) {
    // An object or array default is copied, so that no caller can change the schema's; a scalar is used as it is.
    const fallback = schema.default;
    return typeof fallback === "object" && fallback !== null ? structuredClone(fallback) : fallback;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  let out = value as Record<string, unknown>;
  for (const part of [schema, ...(schema.allOf ?? [])]) {
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      const filled = fillDefaults(property, out[name]);
      if (filled === out[name]) continue;
      if (out === value) out = { ...out };
      out[name] = filled;
    }
  }
  return out;
}

/** Every string of the input follows the text rules (src/core/text-rules.ts), object keys included. */
export function compileInput(part: InputPart, schema: TSchema): InputValidator {
  // Compiled on first use: a process serves few of the operations it declares, and the compiled
  // checks of all of them held several MB from its start (docs/operations.md, "Memory").
  let compiled: TypeCheck<TSchema> | undefined;
  const coerce = part !== "body";
  const defaults = declaresDefault(schema);
  return {
    parse(value) {
      let input = coerce ? coerceStrings(schema, value) : value;
      if (defaults) input = fillDefaults(schema, input);
      const badKey = keyFault(input);
      if (badKey) {
        const path = `/${part}${badKey.path}`;
        throw new ApiError("VALIDATION_ERROR", `Invalid ${part}: ${path} ${badKey.message}`, [
          { path, message: badKey.message },
        ]);
      }
      compiled ??= TypeCompiler.Compile(withTextRules(schema));
      if (compiled.Check(input)) return input;
      throw validationError(part, compiled, input);
    },
  };
}

/**
 * A broken text rule in this error or, for a union (a nullable string, an optional map…), a rule
 * a string broke in one of its branches (a value that is no string at all stays the union's error).
 */
function textError(error: ValueError, branch = false): { path: string; message: string } | undefined {
  const message =
    branch && typeof error.value !== "string" ? undefined : textMessage(error.schema, error.value);
  if (message) return { path: error.path, message };
  for (const errors of error.errors) {
    for (const inner of errors) {
      const found = textError(inner, true);
      if (found) return found;
    }
  }
  return undefined;
}

function validationError(part: InputPart, check: TypeCheck<TSchema>, value: unknown): ApiError {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of check.Errors(value)) {
    // A string's own rule, at its own path, says more than a bare "Expected union value".
    const found = textError(error) ?? error;
    const path = `/${part}${found.path}`;
    if (seen.has(path)) continue; // a union reports each branch; the first message is enough
    seen.add(path);
    details.push({ path, message: found.message });
    if (details.length >= MAX_DETAILS) break;
  }
  const first = details[0];
  return new ApiError(
    "VALIDATION_ERROR",
    first ? `Invalid ${part}: ${first.path} ${first.message}` : `Invalid ${part}`,
    details,
  );
}
