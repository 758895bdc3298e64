import { ApiError } from "./errors.ts";

/**
 * A 413 closes the connection: the rest of a body we refuse is never read, and a client still
 * sending it must not be able to keep the connection (and the next request on it) waiting.
 */
const tooLarge = (limit: number) =>
  new ApiError("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${limit} bytes`, undefined, {
    connection: "close",
  });

/**
 * The body could not be read to its end: malformed chunked encoding, or the client closed the
 * connection mid-body (Bun rejects the read). The client's fault, so a 400, never a 500; the
 * response rarely reaches anyone, but the request log line says what happened.
 */
const unreadableBody = () =>
  new ApiError(
    "VALIDATION_ERROR",
    "Request body could not be read: malformed chunked encoding or the connection closed before the body was complete",
    [{ path: "/body", message: "Incomplete body" }],
    { connection: "close" },
  );

/** Runs a body read, turning a failed read (not one of our own refusals) into `unreadableBody`. */
async function reading<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreadableBody();
  }
}

/** Rejects a declared body above the limit before anything reads it. */
export function checkDeclaredLength(request: Request, limit: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
}

/** Reads the body, counting bytes as they arrive so an undeclared (chunked) body cannot exceed the limit. */
export async function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  checkDeclaredLength(request, limit);
  return reading(() => readRawUnchecked(request, limit));
}

async function readRawUnchecked(request: Request, limit: number): Promise<Uint8Array> {
  // A declared length was checked above and Bun reads no more than it: the fast path, asked before
  // `request.body`, whose first read turns the body into a stream (about 1.5 µs more per request).
  if (request.headers.has("content-length")) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readLimited(request: Request, limit: number): Promise<string> {
  // The common case (a declared length) reads text directly, without a copy (or a stream).
  if (request.headers.has("content-length")) {
    checkDeclaredLength(request, limit);
    return reading(() => request.text());
  }
  return Buffer.from(await readRawBody(request, limit)).toString("utf8");
}

/**
 * How deep arrays and objects may nest in a JSON body. Walks of client input (text rules,
 * idempotency hash) recurse, so a body of tens of thousands of levels would exhaust the stack;
 * real bodies nest a handful of levels (docs/api-conventions.md, "Request bodies").
 */
export const MAX_JSON_DEPTH = 64;

/** The 400 for input nested deeper than `MAX_JSON_DEPTH`. */
export const nestedTooDeep = () =>
  new ApiError(
    "VALIDATION_ERROR",
    `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
    [{ path: "/body", message: `Nested deeper than ${MAX_JSON_DEPTH} levels` }],
  );

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether the text holds more than `limit` `[` and `{` in all: if not, it cannot nest deeper (native search, no loop per character). */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const opener of ["[", "{"]) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/**
 * Whether JSON text opens arrays and objects more than `limit` levels deep, in one pass before it is
 * parsed: brackets counted outside strings, each string skipped to its closing quote (one not
 * escaped by an odd run of backslashes). Text that is not JSON may be misjudged; it fails to parse anyway.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (!opensMoreThan(text, limit)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** Refuses JSON text nested deeper than `MAX_JSON_DEPTH`; every parse of a client's JSON runs this first. */
export function checkJsonDepth(text: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw nestedTooDeep();
}

/** The JSON body of a request and its text (for idempotency hashing); an empty body reads as `{}`. */
export async function readJsonBody(
  request: Request,
  limit: number,
): Promise<{ text: string; value: unknown }> {
  const text = await readLimited(request, limit);
  if (text.trim() === "") return { text, value: {} };
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError("VALIDATION_ERROR", "Request body must be JSON (Content-Type: application/json)", [
      { path: "/body", message: `Unsupported Content-Type ${JSON.stringify(type)}` },
    ]);
  }
  checkJsonDepth(text);
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new ApiError("VALIDATION_ERROR", "Request body is not valid JSON", [
      { path: "/body", message: "Malformed JSON" },
    ]);
  }
}
