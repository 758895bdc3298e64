/**
 * What both typed-client examples share: the client (openapi-fetch over the generated types), how
 * they read their settings, and how they stop at the first refused request.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api-types.ts";

export type Schemas = components["schemas"];
export type Api = Client<paths>;

/** Where the service is: `[BASE_URL]` argument, else `COMMERCE_URL`, else a local `bun run start`. */
export const baseUrl = (process.argv[2] ?? process.env.COMMERCE_URL ?? "http://localhost:3000").replace(
  /\/+$/,
  "",
);

/**
 * A client for every path of the API. `host` names the shop when the base URL is not the shop's own
 * domain (the demo store answers `demo.localhost`); `apiKey` is sent as `x-api-key`.
 */
export function connect(options: { host?: string; apiKey?: string } = {}): Api {
  const headers: Record<string, string> = {};
  if (options.host) headers.host = options.host;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  return createClient<paths>({ baseUrl, headers });
}

/** The answer of one typed call: its `data` on success, its error body otherwise. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; any error answer stops the example with the API's error body. */
export async function ok<T>(what: string, pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || data === undefined) {
    throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(error ?? null)}`);
  }
  return data;
}

export const log = (line = "") => console.log(line);
export const money = (m: Schemas["Money"]) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;
/** English text, else the first locale there is. */
export const text = (localized: Schemas["LocalizedText"] | null) =>
  localized ? (localized.en ?? Object.values(localized)[0] ?? "") : "";

/** Runs an example; any failure prints one line and exits non-zero. */
export function run(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
