import { ApiError } from "../core/errors.ts";

const tooLarge = (limit: number) =>
  new ApiError("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${limit} bytes`);

/** Rejects a declared body above the limit before anything reads it. */
export function checkDeclaredLength(request: Request, limit: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
}

/** Reads the body, counting bytes as they arrive so an undeclared (chunked) body cannot exceed the limit. */
export async function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  checkDeclaredLength(request, limit);
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
    return request.text();
  }
  return Buffer.from(await readRawBody(request, limit)).toString("utf8");
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
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new ApiError("VALIDATION_ERROR", "Request body is not valid JSON", [
      { path: "/body", message: "Malformed JSON" },
    ]);
  }
}
