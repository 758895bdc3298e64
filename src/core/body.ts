import { open } from "node:fs/promises";
import { bodyArrived, bodyReadStart } from "../lib/late-answers.ts";
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

/**
 * Runs a read of `request`'s body (`bodyArrived`: when the body came in after the request, an
 * answer finished with it is not late), turning a failed read (not one of our own refusals) into
 * `unreadableBody`.
 */
async function reading<T>(request: Request, read: () => Promise<T>): Promise<T> {
  const started = bodyReadStart();
  let body: T;
  try {
    body = await read();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreadableBody();
  }
  bodyArrived(request, started);
  return body;
}

/** Where the routes with a body limit of their own (uploads) are known: the router's route table. */
interface RouteLimits {
  bodyLimitOf(request: Request): number | undefined;
}

/**
 * Rejects a declared body above the limit before anything reads it. `routes`: the own limit of the
 * route the request is for (uploads), asked only when the declared length is above `limit`.
 */
export function checkDeclaredLength(request: Request, limit: number, routes?: RouteLimits): void {
  const declared = request.headers.get("content-length");
  if (declared === null || !(Number(declared) > limit)) return;
  const own = routes?.bodyLimitOf(request);
  if (own === undefined || Number(declared) > own) throw tooLarge(own ?? limit);
}

/** Reads the body, counting bytes as they arrive so an undeclared (chunked) body cannot exceed the limit. */
export function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  checkDeclaredLength(request, limit);
  // A declared length was checked above and Bun reads no more than it: the fast path, asked before
  // `request.body`, whose first read turns the body into a stream (about 1.5 µs more per request).
  if (request.headers.has("content-length")) return reading(request, () => request.bytes());
  return reading(request, () => readChunks(request, limit));
}

async function readChunks(request: Request, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitedChunks(request, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The body's chunks as they arrive, counted so that no more than `limit` bytes pass (413). */
async function* limitedChunks(request: Request, limit: number): AsyncGenerator<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    yield value;
  }
}

/**
 * Writes the body to `file` (a new file) as it arrives, for a body too large to hold in memory; at
 * most `limit` bytes, declared or not (413). A body cut short is the client's 400, as when it is
 * read; a write that fails (a full disk) stays the server's error.
 */
export async function writeBodyTo(request: Request, file: string, limit: number): Promise<void> {
  checkDeclaredLength(request, limit);
  const out = await open(file, "wx");
  try {
    const chunks = limitedChunks(request, limit);
    for (;;) {
      const next = await reading(request, () => chunks.next());
      if (next.done) return;
      for (let at = 0; at < next.value.length; ) {
        at += (await out.write(next.value, at)).bytesWritten;
      }
    }
  } finally {
    await out.close();
  }
}

const utf8 = new TextDecoder();

/**
 * The body as UTF-8 text, at most `limit` bytes, declared or not (413). A leading byte-order mark
 * is dropped whatever the framing: `request.text()` drops it, and so does the decoder of a chunked body.
 */
export function readBodyText(request: Request, limit: number): Promise<string> {
  // The common case (a declared length) reads text directly, without a copy (or a stream).
  if (request.headers.has("content-length")) {
    checkDeclaredLength(request, limit);
    return reading(request, () => request.text());
  }
  return readRawBody(request, limit).then((bytes) => utf8.decode(bytes));
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
  const text = await readBodyText(request, limit);
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

/**
 * How an operation takes a file as its body (`Operation.upload`): the whole body with one of
 * `mediaTypes` (a range such as `image/*` allowed), or the one file of a `multipart/form-data` body
 * under `formField`. At most `maxBytes`: the route's own limit instead of MAX_BODY_BYTES (413 above).
 */
export interface Upload {
  mediaTypes: string[];
  formField: string;
  maxBytes: number;
  /** The request body's description in the OpenAPI document. */
  description: string;
}

/** The file of an `upload` operation (`call.file`), whether sent as the whole body or in a form. */
export interface UploadedFile {
  bytes: Uint8Array;
  /** The media type the client declared for it (the body's `Content-Type`, or the form part's); may be empty. */
  contentType: string;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/** What a form's boundaries and part headers may add to its file: read beyond the file's own limit. */
const FORM_OVERHEAD = 64 * 1024;

/** The most a request body may hold for an upload operation: its file, or a form carrying it. */
export const uploadBodyLimit = (upload: Upload) => upload.maxBytes + FORM_OVERHEAD;

const mediaTypeOf = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

/** Whether `mediaType` is in `range` (`image/png`, or `image/*`). */
const inRange = (mediaType: string, range: string) =>
  range.endsWith("/*") ? mediaType.startsWith(range.slice(0, -1)) : mediaType === range;

const badUpload = (message: string, path = "/body") =>
  new ApiError("VALIDATION_ERROR", message, [{ path, message }]);

/** The one file of a `multipart/form-data` body, under `field`; anything else in the form is refused. */
async function formFile(body: Uint8Array, contentType: string, field: string): Promise<File> {
  const form = await new Response(body, { headers: { "content-type": contentType } }).formData().catch(() => {
    throw badUpload("Request body is not a valid multipart/form-data body");
  });
  const file = form.get(field);
  if (!(file instanceof File) || [...form.keys()].length !== 1) {
    throw badUpload(`The form must hold exactly one field, "${field}", carrying a file`, `/body/${field}`);
  }
  return file;
}

/**
 * The file of an upload operation: the whole body when its `Content-Type` is one the operation
 * takes, or the one file of a `multipart/form-data` body. Either way at most `maxBytes` (413), and
 * never empty. What the bytes are is the operation's to check.
 */
export async function readUpload(request: Request, upload: Upload): Promise<UploadedFile> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = mediaTypeOf(contentType);
  let bytes: Uint8Array;
  let declared = mediaType;
  if (mediaType === "multipart/form-data") {
    const file = await formFile(
      await readRawBody(request, uploadBodyLimit(upload)),
      contentType,
      upload.formField,
    );
    if (file.size > upload.maxBytes) throw tooLarge(upload.maxBytes);
    bytes = new Uint8Array(await file.arrayBuffer());
    declared = mediaTypeOf(file.type);
  } else if (upload.mediaTypes.some((range) => inRange(mediaType, range))) {
    bytes = await readRawBody(request, upload.maxBytes);
  } else {
    throw badUpload(
      `Request body must be ${upload.mediaTypes.join(", ")} or multipart/form-data (got ${JSON.stringify(contentType)})`,
    );
  }
  if (bytes.length === 0) throw badUpload("The file is empty");
  return uploadedFile(bytes, declared);
}

/** A file as an upload operation gets it (also for files made in code, such as demo images). */
export const uploadedFile = (bytes: Uint8Array, contentType: string): UploadedFile => ({
  bytes,
  contentType,
  sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"),
});

/**
 * The body of an operation with a `textBody`, when its Content-Type is that media type: UTF-8 text,
 * a leading byte-order mark dropped. Undefined for any other Content-Type (the body is then JSON).
 * Bytes that are not UTF-8 are a 400 rather than text with replacement characters in it.
 */
export async function readTextBody(
  request: Request,
  limit: number,
  mediaType: string,
): Promise<string | undefined> {
  if (mediaTypeOf(request.headers.get("content-type") ?? "") !== mediaType) return undefined;
  const bytes = await readRawBody(request, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("VALIDATION_ERROR", "Request body is not UTF-8 text", [
      { path: "/body", message: "Not UTF-8: save the file with the UTF-8 encoding" },
    ]);
  }
}
