// Bun 1.4.5 writes an answer finished within its request's own turn of the event loop corked, in a
// few send() calls; an answer finished in a later turn (after a signature check on the thread pool,
// a group commit) whose body is larger than about 16 KiB leaves in one send() per piece of each
// header line and then the body, about 32 calls, which costs eight times the CPU of the corked one.
// The same late answer with its body given as a stream of chunks is sent corked again: five to
// eight times as many answers per second on a plain Bun.serve (docs/architecture.md, "Late answers").
// Such an answer is framed with `Transfer-Encoding: chunked` instead of `Content-Length`.

/** Bodies at least this large, finished late, are sent as a stream. */
const LARGE_BYTES = 12 * 1024;
/** Each chunk of such a stream. */
const CHUNK_BYTES = 8 * 1024;

let turn = 0;
let ending = false;
const endTurn = () => {
  turn += 1;
  ending = false;
};
const arrivals = new WeakMap<Request, number>();
const encoder = new TextEncoder();

/** Notes the turn a request arrived in (the first request of a turn schedules the turn's end). */
export function noteArrival(request: Request): void {
  if (!ending) {
    ending = true;
    setImmediate(endTurn);
  }
  arrivals.set(request, turn);
}

/**
 * Where a read of a request's body starts: give it to `bodyArrived` once the read completes. A body
 * not all in when asked for completes in a later turn, in the socket's own callback, which Bun corks
 * as it corks the request's: from then on the request counts as arrived in that turn, so an answer
 * finished with its body is not taken for a late one. (A mark and a call, not a wrapper around the
 * read: each async layer around a body read costs about a microsecond per request.)
 */
export const bodyReadStart = (): number => turn;

/** After a read of `request`'s body begun at `started` (`bodyReadStart`) completed. */
export function bodyArrived(request: Request, started: number): void {
  if (turn !== started && arrivals.has(request)) noteArrival(request);
}

/** Whether `bytes` of answer to `request` would be written uncorked (large, finished after its turn). */
export function answeredLate(request: Request, bytes: number): boolean {
  if (bytes < LARGE_BYTES || request.method === "HEAD") return false;
  const arrived = arrivals.get(request);
  return arrived !== undefined && arrived !== turn;
}

/** `parts`, one after the other, as a stream of chunks of them, not copied (its framing becomes chunked). */
export function chunked(...parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const bytes of parts) {
        for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
          controller.enqueue(bytes.subarray(at, at + CHUNK_BYTES));
        }
      }
      controller.close();
    },
  });
}

/** The body to answer `request` with: as given, or as chunks when it is large and finished late. */
export function answerBody(
  request: Request,
  body: string | Uint8Array,
): string | Uint8Array | ReadableStream<Uint8Array> {
  // A string's UTF-8 takes at least one byte and at most three per UTF-16 unit.
  if (!answeredLate(request, typeof body === "string" ? body.length * 3 : body.length)) return body;
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  return bytes.length >= LARGE_BYTES ? chunked(bytes) : bytes;
}
