import { FormatRegistry, Kind, type TSchema, TypeRegistry } from "@sinclair/typebox";
import { MAX_JSON_DEPTH } from "./body.ts";

// The rules every string of every operation's input follows (docs/api-conventions.md, "Text"),
// applied once by the validator instead of in each declaration:
// - no control characters (C0, DEL, C1), except tab, line feed and carriage return in strings
//   declared multi-line (descriptions, notes); object keys never hold one;
// - no lone surrogates: such a string is not Unicode, and a JSON body holding one is unreadable to
//   strict parsers (`jq`);
// - `minLength`/`maxLength` count characters (code points), as JSON Schema defines them, not the
//   UTF-16 units TypeBox counts (where an emoji counts 2).

/**
 * Marks a string schema where line breaks and tabs make sense. A symbol key, as TypeBox's own
 * `Kind`: it survives TypeBox's composition and the copies below but not JSON, so no published
 * schema (the OpenAPI document, MCP tool inputs, agent capabilities) carries a keyword that strict
 * JSON Schema validators refuse. Which fields are multi-line is written in docs/api-conventions.md.
 */
export const MULTILINE: unique symbol = Symbol("multiline");

/** The TypeBox kind the validator gives every string schema of an input (see `withTextRules`). */
const TEXT_KIND = "Text";

// Cc is exactly C0 (U+0000–U+001F), DEL and C1 (U+007F–U+009F); under the `u` flag, Cs matches
// only surrogates that are not part of a pair.
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\p{Cs}]/u;
const MULTILINE_FORBIDDEN = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

const hex = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `value` breaks the character rules, or undefined. */
export function characterFault(value: string, multiline: boolean): string | undefined {
  const found = (multiline ? MULTILINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).exec(value)?.[0];
  if (found === undefined) return undefined;
  const code = found.charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff
    ? `must not contain a lone surrogate (${hex(found)})`
    : `must not contain the control character ${hex(found)}`;
}

/** The number of code points; a lone surrogate counts as one. */
export function codePointLength(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

interface StringSchema {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  [MULTILINE]?: boolean;
}

const patterns = new Map<string, RegExp>();
/** Compiled as TypeBox compiles `pattern` (no flags), once per pattern. */
function patternOf(source: string): RegExp {
  let regex = patterns.get(source);
  if (!regex) {
    regex = new RegExp(source);
    patterns.set(source, regex);
  }
  return regex;
}

/** Why `value` does not fit the string schema, or undefined: every check TypeBox makes on a string, plus the text rules. */
function stringFault(schema: StringSchema, value: unknown): string | undefined {
  if (typeof value !== "string") return "Expected string";
  const characters = characterFault(value, schema[MULTILINE] === true);
  if (characters) return characters;
  const { minLength, maxLength } = schema;
  // Code points never outnumber UTF-16 units: count only when the unit count cannot decide.
  const length =
    (maxLength !== undefined && value.length > maxLength) || (minLength !== undefined && minLength > 0)
      ? codePointLength(value)
      : value.length;
  if (maxLength !== undefined && length > maxLength) return `Expected at most ${maxLength} characters`;
  if (minLength !== undefined && length < minLength) return `Expected at least ${minLength} characters`;
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) {
    return `Expected string to match '${schema.pattern}'`;
  }
  if (schema.format !== undefined && !FormatRegistry.Get(schema.format)?.(value)) {
    return `Expected string to match '${schema.format}' format`;
  }
  return undefined;
}

TypeRegistry.Set<StringSchema>(TEXT_KIND, (schema, value) => stringFault(schema, value) === undefined);

/** The message for a failed check of a string made a `Text` by `withTextRules`, or undefined for other schemas. */
export function textMessage(schema: TSchema, value: unknown): string | undefined {
  return schema[Kind] === TEXT_KIND ? stringFault(schema as StringSchema, value) : undefined;
}

/**
 * A copy of an input schema whose string schemas are checked by the text rules (the original stays
 * as declared: the OpenAPI document and defaults use it).
 */
export function withTextRules<T extends TSchema>(schema: T): T {
  const copies = new Map<object, unknown>();
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== "object") return node;
    const done = copies.get(node);
    if (done) return done;
    const out: Record<string | symbol, unknown> = { ...node }; // keeps TypeBox's symbol keys
    copies.set(node, out);
    for (const key of Object.keys(out)) out[key] = copy(out[key]);
    if (out[Kind] === "String") out[Kind] = TEXT_KIND;
    return out;
  };
  return copy(schema) as T;
}

/**
 * The first object key in `value` that breaks the character rules, or the first value nested deeper
 * than `MAX_JSON_DEPTH`, with where it is. Bodies that deep are refused as they are parsed; the
 * bound keeps this recursion off the end of the stack for input that came any other way.
 */
export function keyFault(
  value: unknown,
  path = "",
  depth = 1,
): { path: string; message: string } | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (depth > MAX_JSON_DEPTH) return { path, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = keyFault(value[i], `${path}/${i}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const fault = characterFault(key, false);
    if (fault) return { path, message: `a key ${fault}` };
    const found = keyFault(child, `${path}/${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
