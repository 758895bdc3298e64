import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { type EndpointPolicy, EndpointRefused, type VettedEndpoint, vetEndpoint } from "./endpoint-url.ts";

/** The outcome of one attempt: a 2xx status is success; otherwise `error` says what went wrong. */
export interface DeliveryResult {
  /** The receiver's status, or null when there was no answer (refused address, network, timeout). */
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** At most this much of an answer is read (and thrown away): a receiver cannot make us buffer more. */
export const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_ERROR_LENGTH = 300;

/** Hands the connection the addresses that were checked, instead of resolving the name a second time. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  return (_host, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/** Rejects with the signal's reason once it aborts, whatever `work` still waits for. */
function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** An answer as read: its status and headers, and its body up to the cap (`truncated` when it went on). */
interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/** One request to a vetted endpoint; resolves once the answer ended or `maxBytes` of it were read. */
function exchange(
  endpoint: VettedEndpoint,
  request: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  policy: EndpointPolicy,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Exchange> {
  const { url, host, addresses } = endpoint;
  const { method, body } = request;
  return new Promise((resolve, reject) => {
    const outgoing = (url.protocol === "https:" ? https : http).request(
      {
        host, // the name: SNI, certificate check and Host header all use it
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method,
        headers:
          body === undefined
            ? request.headers
            : {
                "content-type": "application/json",
                ...request.headers,
                "content-length": Buffer.byteLength(body),
              },
        lookup: pinnedLookup(addresses),
        agent: false, // a fresh connection each time: never one opened to an address checked earlier
        signal,
        ...(policy.ca === undefined ? {} : { ca: policy.ca }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let read = 0;
        const done = (truncated: boolean) =>
          resolve({ status, headers: response.headers, body: Buffer.concat(chunks), truncated });
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          chunks.push(chunk);
          if (read >= maxBytes) {
            response.destroy();
            done(read > maxBytes);
          }
        });
        response.on("end", () => done(false));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function describeStatus(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect not followed (HTTP ${status})`;
  return `HTTP ${status}`;
}

function describeFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timeout";
  if (error instanceof EndpointRefused) return `url ${error.message}`;
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.slice(0, MAX_ERROR_LENGTH);
}

/**
 * One delivery attempt. The URL is checked again with the endpoint rules and the host resolved
 * afresh; if any address it resolves to is refused, nothing is connected (a name re-pointed at an
 * internal address after the endpoint was saved). Otherwise the connection goes to those checked
 * addresses while TLS verifies the certificate for the name. Redirects are never followed, the whole
 * attempt (resolution included) ends after `timeoutMs`, and no network failure throws.
 */
export async function deliverWebhook(input: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  policy: EndpointPolicy;
}): Promise<DeliveryResult> {
  const { url, headers, body, timeoutMs = 10_000, policy } = input;
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number | null = null;
  let error: string | null;
  try {
    const endpoint = await beforeAbort(vetEndpoint(url, policy), signal);
    ({ status } = await exchange(
      endpoint,
      { method: "POST", headers, body },
      policy,
      signal,
      MAX_ANSWER_BYTES,
    ));
    error = describeStatus(status);
  } catch (failure) {
    error = describeFailure(failure, signal);
  }
  return { status, durationMs: Math.round(performance.now() - started), error };
}

/** A document fetched under the endpoint rules: its status, headers and body (at most `maxBytes`). */
export interface FetchedDocument {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GETs a document under the same rules as a delivery (vetted URL, every address checked, no
 * redirects, one deadline for all of it). Throws EndpointRefused for a refused URL or address, and
 * an Error for a timeout, a network failure or a body longer than `maxBytes`.
 */
export async function fetchDocument(input: {
  url: string;
  accept: string;
  timeoutMs: number;
  maxBytes: number;
  policy: EndpointPolicy;
}): Promise<FetchedDocument> {
  const { url, accept, timeoutMs, maxBytes, policy } = input;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const endpoint = await beforeAbort(vetEndpoint(url, policy), signal);
    const answer = await exchange(
      endpoint,
      { method: "GET", headers: { accept } },
      policy,
      signal,
      maxBytes + 1,
    );
    if (answer.truncated || answer.body.length > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
    return { status: answer.status, headers: answer.headers, body: answer.body };
  } catch (failure) {
    if (signal.aborted) throw new Error("timeout");
    throw failure;
  }
}
