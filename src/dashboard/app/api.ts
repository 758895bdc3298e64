import createClient from "openapi-fetch";
import type { components, paths } from "../../../examples/api-types.ts";

// Every call the dashboard makes goes through this client, typed by the types generated from the
// OpenAPI document: an operation changed in a way the dashboard does not follow fails the
// type-check. Same origin: the session cookie goes with each call, and the browser sends Origin.

export type Schemas = components["schemas"];
export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An answer of the API that is not a success, with the error body the API sends. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }

  /** The message the API gave for one field (`/body/email`), if it named that field. */
  fieldMessage(field: string): string | undefined {
    return this.details.find((detail) => detail.path === `/body/${field}`)?.message;
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer (a list's `data` and `meta`), or the API's error thrown as an `ApiFailure`. */
export async function unwrapBody<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined) return data;
  const body = (error ?? {}) as { error?: string; code?: string; details?: ErrorDetail[] };
  throw new ApiFailure(
    response.status,
    body.code ?? "UNKNOWN",
    body.error ?? `The service answered ${response.status}`,
    body.details,
  );
}

/** The `data` of a successful answer, or the API's error thrown as an `ApiFailure`. */
export const unwrap = async <T>(call: Promise<Answer<{ data: T }>>): Promise<T> =>
  (await unwrapBody(call)).data;

/** Success of an answer without a body (`204` of a delete), or the API's error thrown as an `ApiFailure`. */
export async function unwrapEmpty(call: Promise<Answer<unknown>>): Promise<void> {
  const answer = await call;
  if (!answer.response.ok) await unwrapBody(call);
}

/** A thrown value as a sentence for the person using the page. */
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : "Something went wrong; try again.";
