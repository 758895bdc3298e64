// Calls to payment providers' APIs: JSON or form bodies, a timeout, and errors sorted into the
// provider refusing the request (4xx: the same call would be refused again) and the provider being
// unavailable (network error, timeout, 5xx, 429: worth retrying). Nothing secret is put in messages.

/** Where and how to reach one provider's API: its base URL, the headers every call sends, the timeout. */
export interface ProviderEndpoint {
  base: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** True when the provider refused the request itself (4xx other than 429). */
    readonly refused: boolean,
    readonly status: number | null,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export async function providerFetch(
  endpoint: ProviderEndpoint,
  method: "GET" | "POST",
  path: string,
  body?: { json?: unknown; form?: string },
): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json", ...endpoint.headers };
  let payload: string | undefined;
  if (body?.json !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body?.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = body.form;
  }
  const where = `${method} ${new URL(path, endpoint.base).pathname}`;
  let response: Response;
  try {
    response = await fetch(new URL(path, endpoint.base), {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ProviderError(`${where}: ${timedOut ? "timed out" : "unreachable"}`, false, null);
  }
  const text = await response.text().catch(() => "");
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const refused = response.status >= 400 && response.status < 500 && response.status !== 429;
    throw new ProviderError(`${where}: HTTP ${response.status}`, refused, response.status, parsed);
  }
  if (parsed === null || typeof parsed !== "object") {
    throw new ProviderError(`${where}: the answer is not a JSON object`, false, response.status);
  }
  return parsed;
}
