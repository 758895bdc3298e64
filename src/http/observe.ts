import type { Operation } from "../core/operation.ts";

// A way to see every answer the REST adapter gives to an operation, as rendered before compression.
// The test suite's preload (test/preload.ts) sets one to check each answer against the OpenAPI
// document; nothing in the service sets it, and unset it costs one check per request.

/** One operation's answer: the route as declared, the request's method (`HEAD` too) and what was sent. */
export interface ObservedAnswer {
  operationId: string;
  /** The request's method: the operation's, or `HEAD` for a `GET` operation. */
  method: string;
  /** The operation's declared path (`/v1/products/{id}`). */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as text before any content coding; empty when the response has none (204, 304). */
  body: string;
}

type AnswerObserver = (answer: ObservedAnswer) => void;

/** The observer in place, if any (read by the adapter on each answer). */
export let answerObserver: AnswerObserver | undefined;

/** Sets the one function shown every operation answer from now on; `undefined` removes it. */
export function observeAnswers(observer: AnswerObserver | undefined): void {
  answerObserver = observer;
}

/**
 * Shows `response` to the observer and hands it back. `body`: the uncompressed text of a rendered
 * outcome (the response may carry it compressed, or as a 304 carry none); without it the response
 * is an error body, never compressed, read from a clone.
 */
export async function reportAnswer(
  observer: AnswerObserver,
  op: Operation,
  request: Request,
  response: Response,
  body?: string,
): Promise<Response> {
  observer({
    operationId: op.operationId,
    method: request.method,
    path: op.path,
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: response.body === null ? "" : (body ?? (await response.clone().text())),
  });
  return response;
}
