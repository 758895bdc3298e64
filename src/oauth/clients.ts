import type { Database } from "bun:sqlite";
import type { Row } from "../db/rows.ts";
import { newId } from "../lib/ids.ts";
import { EndpointRefused } from "../webhooks/endpoint-url.ts";
import { fetchDocument } from "../webhooks/outbound.ts";
import { invalidClient, invalidClientMetadata, invalidRedirectUri } from "./errors.ts";
import type { OAuthRuntime } from "./runtime.ts";
import type { oauthClients } from "./tables.ts";

// OAuth clients: all public (PKCE, no secret). Two ways to be one: register here (RFC 7591, a
// `oc_…` id) or name the URL of a client ID metadata document (fetched under the outbound rules of
// webhooks: https, never an internal address, 16 KiB, 5 s, no redirects; kept per its Cache-Control
// between 5 minutes and a day).

export type ClientRow = Row<typeof oauthClients>;

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;
const DOCUMENT_MAX_BYTES = 16 * 1024;
const DOCUMENT_TIMEOUT_MS = 5_000;
const MIN_KEEP_MS = 5 * 60_000;
const MAX_KEEP_MS = 24 * 3600_000;
const UNUSED_REGISTRATION_MS = 86_400_000;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** What a client is shown as and may redirect to. */
export interface Client {
  id: string;
  kind: ClientRow["kind"];
  name: string;
  redirectUris: string[];
  clientUri: string | null;
  logoUri: string | null;
}

const clientOf = (row: ClientRow): Client => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  clientUri: row.client_uri,
  logoUri: row.logo_uri,
});

/** A redirect URI a client may register: absolute https, or http to a loopback host (native apps); no fragment. */
export function checkRedirectUri(value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_URI_LENGTH) {
    throw invalidRedirectUri(`redirect_uris must be URLs of at most ${MAX_URI_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRedirectUri(`Not an absolute URL: ${value.slice(0, 100)}`);
  }
  if (url.hash !== "" || value.includes("#")) throw invalidRedirectUri("A redirect URI has no fragment");
  if (url.username !== "" || url.password !== "")
    throw invalidRedirectUri("A redirect URI has no credentials");
  const loopback = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !loopback) {
    throw invalidRedirectUri(
      "A redirect URI uses https, or http to a loopback address (127.0.0.1, [::1], localhost)",
    );
  }
  return value;
}

function optionalText(metadata: Record<string, unknown>, name: string, max: number): string | null {
  const value = metadata[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length > max) {
    throw invalidClientMetadata(`${name} must be a string of at most ${max} characters`);
  }
  return value;
}

/** The fields of client metadata this service keeps, checked (RFC 7591 §2; public clients only). */
function readMetadata(metadata: Record<string, unknown>) {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw invalidRedirectUri(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  const redirectUris = uris.map(checkRedirectUri);
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw invalidClientMetadata('Only public clients are supported: token_endpoint_auth_method "none"');
  }
  for (const [name, allowed] of [
    ["grant_types", ["authorization_code", "refresh_token"]],
    ["response_types", ["code"]],
  ] as const) {
    const value = metadata[name];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((v) => (allowed as readonly string[]).includes(v))) {
      throw invalidClientMetadata(`${name} may only contain ${allowed.join(", ")}`);
    }
  }
  const type = metadata.application_type;
  if (type !== undefined && type !== "web" && type !== "native") {
    throw invalidClientMetadata('application_type is "web" or "native"');
  }
  const name = optionalText(metadata, "client_name", MAX_NAME_LENGTH)?.trim();
  // A web page and a logo of the client (RFC 7591 §2): anything else (a `javascript:` URL) is refused.
  const webUrl = (field: string) => {
    const value = optionalText(metadata, field, MAX_URI_LENGTH);
    if (value !== null && !/^https?:$/.test(URL.parse(value)?.protocol ?? "")) {
      throw invalidClientMetadata(`${field} must be an http or https URL`);
    }
    return value;
  };
  return {
    redirectUris,
    name: name || null,
    clientUri: webUrl("client_uri"),
    logoUri: webUrl("logo_uri"),
    applicationType: (type ?? "web") as "web" | "native",
  };
}

/** `POST /oauth/register` (RFC 7591): a public client; its answer echoes what was kept. */
export function registerClient(rt: OAuthRuntime, metadata: Record<string, unknown>, from: string | null) {
  const read = readMetadata(metadata);
  const now = rt.agents.now();
  // Registrations nobody connected within a day are dropped, a few per new one, so that a client
  // that registers on every start (as some do) or a flood fills nothing. (A consent makes the
  // client's host before any code exists, so a client with tokens always has one.)
  rt.sqlite
    .query(
      `DELETE FROM oauth_clients WHERE id IN
         (SELECT c.id FROM oauth_clients c
           WHERE c.kind = 'registered' AND c.created_at < ?1
             AND NOT EXISTS (SELECT 1 FROM agent_hosts h WHERE h.oauth_client_id = c.id)
           ORDER BY c.created_at LIMIT 2)`,
    )
    .run(now - UNUSED_REGISTRATION_MS);
  const id = newId("oc");
  const name = read.name ?? `Client ${id.slice(-6)}`;
  rt.sqlite
    .query(
      `INSERT INTO oauth_clients (id, kind, name, redirect_uris, client_uri, logo_uri, registered_from, refresh_after,
         created_at, updated_at)
       VALUES (?1, 'registered', ?2, ?3, ?4, ?5, ?6, NULL, ?7, ?7)`,
    )
    .run(id, name, JSON.stringify(read.redirectUris), read.clientUri, read.logoUri, from, now);
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: name,
    redirect_uris: read.redirectUris,
    ...(read.clientUri ? { client_uri: read.clientUri } : {}),
    ...(read.logoUri ? { logo_uri: read.logoUri } : {}),
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: read.applicationType,
  };
}

/** Whether a client id is the URL of a metadata document: https (or http to localhost where allowed) with a path. */
function isDocumentUrl(rt: OAuthRuntime, clientId: string): boolean {
  if (!/^https?:\/\//.test(clientId)) return false;
  try {
    const url = new URL(clientId);
    const secure =
      url.protocol === "https:" || (rt.policy.allowHttpLocalhost && LOOPBACK_HOSTS.has(url.hostname));
    return secure && url.pathname !== "/" && url.hash === "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** How long a fetched document is kept: its Cache-Control max-age, between 5 minutes and a day. */
function keepFor(cacheControl: string | undefined): number {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl ?? "")?.[1];
  const ms = maxAge === undefined ? MIN_KEEP_MS : Number(maxAge) * 1000;
  return Math.min(MAX_KEEP_MS, Math.max(MIN_KEEP_MS, ms));
}

/** Fetches and checks a client ID metadata document, and keeps it. */
async function fetchMetadataDocument(rt: OAuthRuntime, url: string): Promise<Client> {
  let body: Buffer;
  let cacheControl: string | undefined;
  try {
    const answer = await fetchDocument({
      url,
      accept: "application/json",
      timeoutMs: DOCUMENT_TIMEOUT_MS,
      maxBytes: DOCUMENT_MAX_BYTES,
      policy: rt.policy,
    });
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
    body = answer.body;
    cacheControl = answer.headers["cache-control"];
  } catch (error) {
    const why = error instanceof EndpointRefused ? `url ${error.message}` : (error as Error).message;
    throw invalidClient(`The client metadata document could not be fetched: ${why}`);
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.toString("utf8"));
  } catch {
    throw invalidClient("The client metadata document is not JSON");
  }
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw invalidClient("The client metadata document is not a JSON object");
  }
  const document = metadata as Record<string, unknown>;
  if (document.client_id !== url) throw invalidClient("The document's client_id is not its own URL");
  let read: ReturnType<typeof readMetadata>;
  try {
    read = readMetadata(document);
  } catch (error) {
    throw invalidClient(`The client metadata document: ${(error as Error).message}`);
  }
  if (!read.name) throw invalidClient("The client metadata document names no client_name");
  const now = rt.agents.now();
  rt.sqlite
    .query(
      `INSERT INTO oauth_clients (id, kind, name, redirect_uris, client_uri, logo_uri, registered_from, refresh_after,
         created_at, updated_at)
       VALUES (?1, 'metadata_document', ?2, ?3, ?4, ?5, NULL, ?6, ?7, ?7)
       ON CONFLICT (id) DO UPDATE SET name = ?2, redirect_uris = ?3, client_uri = ?4, logo_uri = ?5,
         refresh_after = ?6, updated_at = ?7`,
    )
    .run(
      url,
      read.name,
      JSON.stringify(read.redirectUris),
      read.clientUri,
      read.logoUri,
      now + keepFor(cacheControl),
      now,
    );
  return clientById(rt.sqlite, url)!;
}

export function clientById(sqlite: Database, id: string): Client | null {
  const row = sqlite.query("SELECT * FROM oauth_clients WHERE id = ?").get(id) as ClientRow | null;
  return row && clientOf(row);
}

/** The client a request names: registered here, or its metadata document (kept, or fetched now). */
export async function resolveClient(rt: OAuthRuntime, clientId: string): Promise<Client> {
  if (clientId.length > MAX_URI_LENGTH) throw invalidClient("Unknown client_id");
  const row = rt.sqlite.query("SELECT * FROM oauth_clients WHERE id = ?").get(clientId) as ClientRow | null;
  if (row && (row.kind === "registered" || (row.refresh_after ?? 0) > rt.agents.now())) return clientOf(row);
  if (!isDocumentUrl(rt, clientId)) throw invalidClient("Unknown client_id");
  return fetchMetadataDocument(rt, clientId);
}
