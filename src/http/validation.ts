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

export function compileInput(part: InputPart, schema: TSchema): InputValidator {
  const check: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  // Path and query values arrive as strings: convert them to the declared types first.
  const coerce = part !== "body";
  return {
    parse(value) {
      let input = value;
      if (coerce) input = Value.Convert(schema, input);
      input = Value.Default(schema, input);
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
