import type { Logger } from "../lib/log.ts";
import { ApiError } from "./errors.ts";

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

/** Renders any thrown value as the error body; only our own bugs become a 500, and they are logged. */
export function errorResponse(error: unknown, log: Logger, requestId: string): Response {
  if (error instanceof ApiError) return jsonResponse(error.status, error.toBody(), error.headers);
  log.error("unhandled error", {
    requestId,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return jsonResponse(500, { error: "Internal error", code: "INTERNAL", status: 500 });
}
