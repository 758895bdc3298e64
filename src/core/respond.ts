import type { Logger } from "../lib/log.ts";
import { ApiError } from "./errors.ts";
import type { StorageHealth } from "./storage.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(
  status: number,
  body: unknown,
  headers?: Headers | Record<string, string>,
): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set("content-type", JSON_TYPE);
  return response;
}

/** Where a thrown value is reported: the service's log and its storage state. */
interface ErrorSink {
  log: Logger;
  storage: StorageHealth;
}

/**
 * What any thrown value answers, for every transport: an `ApiError` as it is; a storage failure
 * (disk full, I/O error, busy past the timeout) as 503 `UNAVAILABLE` with `Retry-After`, noted in
 * the storage episode; anything else is our bug, logged with its stack, 500 `INTERNAL`.
 */
export function apiErrorOf(error: unknown, sink: ErrorSink, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  const unavailable = sink.storage.failure(error, { requestId });
  if (unavailable) return unavailable;
  sink.log.error("unhandled error", {
    requestId,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return new ApiError("INTERNAL", "Internal error");
}

/** Renders any thrown value as the error body (see {@link apiErrorOf}). */
export function errorResponse(error: unknown, sink: ErrorSink, requestId: string): Response {
  const known = apiErrorOf(error, sink, requestId);
  return jsonResponse(known.status, known.toBody(), known.headers);
}
