import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import { ApiError } from "../core/errors.ts";
import { classifyAddress, normalizeAddress } from "./addresses.ts";

/** Where webhooks may be sent: the same rules when an endpoint is saved and before every delivery. */
export interface EndpointPolicy {
  /**
   * Development only: `http:` to `localhost`, `127.0.0.1` or `[::1]`, and loopback addresses at all.
   * Production sends only over https, and never to this machine.
   */
  allowHttpLocalhost: boolean;
  /** Every address a name stands for (default: the system resolver, all A and AAAA records). */
  resolve?: (host: string) => Promise<string[]>;
  /** Extra trusted CA certificates (PEM) for the TLS check. Tests only: their self-signed receiver. */
  ca?: string;
}

/** A URL or an address the rules refuse; the message completes "url …". */
export class EndpointRefused extends Error {
  override name = "EndpointRefused";
}

/** An endpoint the rules allow: its URL, its host and every address the host stands for now. */
export interface VettedEndpoint {
  url: URL;
  /** The host as the TLS check and the `Host` header see it: a name, or an IP without brackets. */
  host: string;
  addresses: string[];
}

const HTTP_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const systemResolve = async (host: string) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The URL when its form may be an endpoint (scheme, credentials), else EndpointRefused. */
function parseEndpointUrl(raw: string, policy: EndpointPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointRefused("must be an absolute https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new EndpointRefused("must be an absolute https URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw new EndpointRefused("must not contain a user name or password");
  }
  if (url.protocol === "http:" && !(policy.allowHttpLocalhost && HTTP_HOSTS.has(url.hostname))) {
    throw new EndpointRefused(
      policy.allowHttpLocalhost
        ? "must use https (http only to localhost, 127.0.0.1 or [::1])"
        : "must use https",
    );
  }
  return url;
}

async function resolveHost(host: string, policy: EndpointPolicy): Promise<string[]> {
  // NXDOMAIN and resolver failures alike: there is nowhere to send to.
  const addresses = await (policy.resolve ?? systemResolve)(host).catch((): string[] => []);
  if (addresses.length === 0) throw new EndpointRefused(`host ${host} does not resolve to any address`);
  return addresses;
}

/**
 * Checks `raw` against the rules and returns where to connect: the literal address, or every
 * address its name resolves to now. One address the rules refuse refuses the whole endpoint, so a
 * name that answers a public and an internal address cannot be used to reach the internal one.
 */
export async function vetEndpoint(raw: string, policy: EndpointPolicy): Promise<VettedEndpoint> {
  const url = parseEndpointUrl(raw, policy);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const found = isIP(host) === 0 ? await resolveHost(host, policy) : [host];
  const addresses: string[] = [];
  for (const entry of found) {
    const kind = classifyAddress(entry);
    if (kind === null) throw new EndpointRefused(`host resolved to a non-address (${entry})`);
    const address = normalizeAddress(entry)!;
    if (kind === "internal" || (kind === "loopback" && !policy.allowHttpLocalhost)) {
      throw new EndpointRefused(`points to an internal address (${address})`);
    }
    addresses.push(address);
  }
  return { url, host, addresses };
}

/** When an endpoint is created or its URL changed: a 422 on `/body/url` naming the rule broken. */
export async function checkEndpointUrl(
  raw: string,
  policy: EndpointPolicy,
  path = "/body/url",
): Promise<void> {
  try {
    await vetEndpoint(raw, policy);
  } catch (error) {
    if (!(error instanceof EndpointRefused)) throw error;
    throw new ApiError("UNPROCESSABLE", `${path.split("/").pop()} ${error.message}`, [
      { path, message: error.message },
    ]);
  }
}
