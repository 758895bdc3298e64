import type { Config } from "../config.ts";
import type { BearerSurface } from "../core/module.ts";

/**
 * The URLs of Agent Auth, all from configuration (never from a request's Host or forwarded
 * headers): B = the service's origin, R = the origin of `/v1`, I = the issuer, L = the default
 * execution location.
 */
export interface Origins {
  base: string;
  api: string;
  issuer: string;
  location: string;
  /** The approval page (B + AGENT_DEVICE_AUTH_PAGE). */
  page: string;
  discovery: string;
}

export function originsOf(config: Config): Origins {
  const base = config.baseUrl;
  const issuer = `${base}/api/auth`;
  return {
    base,
    api: config.apiPublicUrl,
    issuer,
    location: `${issuer}/capability/execute`,
    page: `${base}${config.agentDeviceAuthPage}`,
    discovery: `${base}/.well-known/agent-configuration`,
  };
}

/** Where an agent JWT is presented, each with its one accepted audience. */
type AgentSurface = BearerSurface | "auth" | "execute";

export function audienceOf(origins: Origins, surface: AgentSurface): string {
  switch (surface) {
    case "auth":
      return origins.issuer;
    case "execute":
      return origins.location;
    case "v1":
      return origins.api;
    case "mcp":
      return origins.base;
  }
}
