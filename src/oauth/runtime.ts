import type { Database } from "bun:sqlite";
import { type AgentRuntime, runtimeOf } from "../agents/runtime.ts";
import type { AppContext } from "../app-context.ts";
import type { Service } from "../core/module.ts";
import { RateLimiter } from "../core/rate-limit.ts";
import type { EndpointPolicy } from "../webhooks/endpoint-url.ts";

const MINUTE = 60_000;

/**
 * The addresses of the authorization server and of the one protected resource it serves, all from
 * BASE_URL (never from a request's Host): the issuer is BASE_URL itself, the resource `BASE_URL/mcp`.
 */
export interface OAuthUrls {
  issuer: string;
  resource: string;
  /** The Protected Resource Metadata of `/mcp` (RFC 9728, the path-suffixed form). */
  resourceMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

export function oauthUrls(baseUrl: string): OAuthUrls {
  return {
    issuer: baseUrl,
    resource: `${baseUrl}/mcp`,
    resourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource/mcp`,
    authorize: `${baseUrl}/oauth/authorize`,
    token: `${baseUrl}/oauth/token`,
    register: `${baseUrl}/oauth/register`,
    revoke: `${baseUrl}/oauth/revoke`,
  };
}

/** The challenge of a 401 at `/mcp` (RFC 9728 §5.1): where its metadata is, and the scope to ask for. */
export const mcpChallenge = (baseUrl: string): string =>
  `Bearer resource_metadata="${oauthUrls(baseUrl).resourceMetadata}", scope="${SCOPE}"`;

/** The one scope: what a token may do is the grants ticked on the consent page, not the scope. */
export const SCOPE = "mcp";

/** What the oauth module keeps per running app: the agents runtime it builds on, its URLs and limits. */
export interface OAuthRuntime {
  agents: AgentRuntime;
  sqlite: Database;
  urls: OAuthUrls;
  /** BASE_URL's host name (normalized): requests to it are for `urls.resource` without a look-up. */
  ownHost: string;
  /** Where client metadata documents may be fetched from (the webhooks' outbound rules). */
  policy: EndpointPolicy;
  limits: { register: RateLimiter; token: RateLimiter; authorize: RateLimiter };
}

const runtimes = new WeakMap<AppContext, OAuthRuntime>();

export function oauthRuntimeOf(service: Service): OAuthRuntime {
  let runtime = runtimes.get(service.ctx);
  if (!runtime) {
    const agents = runtimeOf(service);
    runtime = {
      agents,
      sqlite: agents.sqlite,
      urls: oauthUrls(service.ctx.config.baseUrl),
      ownHost: new URL(service.ctx.config.baseUrl).hostname.toLowerCase(),
      policy: { allowHttpLocalhost: service.ctx.config.webhooks.allowHttpLocalhost },
      limits: {
        // Registrations per address: each is a row, and a public client costs nothing to make.
        register: new RateLimiter(10, MINUTE),
        token: new RateLimiter(60, MINUTE),
        authorize: new RateLimiter(30, MINUTE),
      },
    };
    runtimes.set(service.ctx, runtime);
  }
  return runtime;
}

/** The oauth runtime of a running app, if made (tests adjust its policy and limits). */
export const oauthRuntime = (ctx: AppContext): OAuthRuntime | undefined => runtimes.get(ctx);
