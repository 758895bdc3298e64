import { ProtocolError } from "../agents/errors.ts";
import { agentCaller, asApiError, standingOf } from "../agents/grants.ts";
import { normalizeHost, organizationOfHost } from "../auth/service.ts";
import { ApiError } from "../core/errors.ts";
import type { Module } from "../core/module.ts";
import type { Caller } from "../core/operation.ts";
import { oauthRoutes } from "./routes.ts";
import { type OAuthRuntime, oauthRuntimeOf } from "./runtime.ts";
import { accessTokenAgent, isOAuthToken } from "./tokens.ts";

/**
 * OAuth 2.1 for MCP clients (docs/mcp.md, "Signing in with OAuth"): the service is the
 * authorization server of its own `/mcp`. A merchant approves a client on the consent page; the
 * client's access tokens then act as an agent with the grants ticked there (the agents module's
 * caller, grant checks and revocation). Its tables are in the control plane.
 */
export const oauthModule: Module = {
  name: "oauth",
  tables: { file: "src/oauth/tables.ts", database: "platform" },
  // A client is the app's, shared with every shop it connected to.
  shopRows: [
    {
      table: "oauth_clients",
      where: "id IN (SELECT oauth_client_id FROM agent_hosts WHERE organization_id = ?1)",
      shared: true,
    },
    { table: "oauth_tokens", where: "agent_id IN (SELECT id FROM agents WHERE organization_id = ?1)" },
  ],
  operations: [],
  authenticateBearer(token, surface, service, request) {
    if (!isOAuthToken(token)) return undefined;
    try {
      return Promise.resolve(tokenCaller(oauthRuntimeOf(service), token, surface, request));
    } catch (error) {
      return Promise.reject(error);
    }
  },
  routes: (service) => oauthRoutes(oauthRuntimeOf(service)),
};

/**
 * The `/mcp` resource a request reached: a shop's own when its Host names a shop (a verified domain
 * or `{slug}.{PLATFORM_DOMAIN}`), else BASE_URL's (the one tokens are issued for), whichever name
 * of this machine the client used.
 */
function resourceOf(rt: OAuthRuntime, request: Request): string {
  const { ctx } = rt.agents;
  const host = normalizeHost(request.headers.get("host") ?? "");
  if (!host || host === rt.ownHost) return rt.urls.resource;
  const shop =
    ctx.platform.cache.hosts.get(host) ?? organizationOfHost(ctx.platform, ctx.config.platformDomain, host);
  return shop === undefined ? rt.urls.resource : `https://${host}/mcp`;
}

/**
 * An access token's caller: only on `/mcp` and only at the resource it was issued for (a token
 * shown to a shop's host, or to `/v1`, is a 401), as its agent while that agent is active.
 */
function tokenCaller(rt: OAuthRuntime, token: string, surface: string, request: Request): Caller {
  const invalid = (why: string) => new ApiError("UNAUTHORIZED", why);
  if (surface !== "mcp") throw invalid("OAuth access tokens are for /mcp only");
  const resource = resourceOf(rt, request);
  let agentId: string;
  try {
    agentId = accessTokenAgent(rt, token, resource);
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : "Invalid access token");
  }
  const found = standingOf(rt.agents, agentId);
  if (found?.agent.status !== "active" || found.host.status !== "active") {
    throw invalid("The app's access was revoked");
  }
  try {
    rt.agents.limits.agentCalls.hit(found.agent.id);
    return agentCaller(rt.agents, found);
  } catch (error) {
    throw error instanceof ProtocolError ? asApiError(error) : error;
  }
}
