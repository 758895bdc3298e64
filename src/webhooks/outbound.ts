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

/** POSTs `body` to the vetted endpoint; resolves with the status once the answer ended or its cap was read. */
function post(
  endpoint: VettedEndpoint,
  headers: Record<string, string>,
  body: string,
  policy: EndpointPolicy,
  signal: AbortSignal,
): Promise<number> {
  const { url, host, addresses } = endpoint;
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(
      {
        host, // the name: SNI, certificate check and Host header all use it
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...headers,
          "content-length": Buffer.byteLength(body),
        },
        lookup: pinnedLookup(addresses),
        agent: false, // a fresh connection each time: never one opened to an address checked earlier
        signal,
        ...(policy.ca === undefined ? {} : { ca: policy.ca }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) {
            response.destroy();
            resolve(status);
          }
        });
        response.on("end", () => resolve(status));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
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
    status = await post(endpoint, headers, body, policy, signal);
    error = describeStatus(status);
  } catch (failure) {
    error = describeFailure(failure, signal);
  }
  return { status, durationMs: Math.round(performance.now() - started), error };
}
