import type { Server } from "bun";

// Platforms as a shop meets them: a local web server serving UCP platform profiles, which the shop
// fetches from the `UCP-Agent` header (the test apps allow http to loopback, as development does).

/** A platform profile offering checkout at `version`. */
export const platformProfile = (version = "2026-04-08") => ({
  ucp: {
    version,
    services: {},
    capabilities: { "dev.ucp.shopping.checkout": [{ version }] },
    payment_handlers: {},
  },
});

export interface PlatformServer {
  /** The profile URL of a platform named `name` (each serves its own profile). */
  profile(name?: string): string;
  /** The `UCP-Agent` header naming that platform. */
  agent(name?: string): string;
  /** Paths asked for so far. */
  hits: string[];
  /** What a path answers instead of a valid profile (a string as is). */
  answers: Record<string, unknown>;
  stop(): Promise<void>;
}

export function platformServer(): PlatformServer {
  const hits: string[] = [];
  const answers: Record<string, unknown> = {};
  const server: Server<unknown> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      hits.push(pathname);
      const answer = pathname in answers ? answers[pathname] : platformProfile();
      return typeof answer === "string"
        ? new Response(answer, { headers: { "content-type": "application/json" } })
        : Response.json(answer);
    },
  });
  const profile = (name = "platform") => `http://127.0.0.1:${server.port}/${name}/.well-known/ucp`;
  return {
    profile,
    agent: (name) => `profile="${profile(name)}"`,
    hits,
    answers,
    stop: () => server.stop(true),
  };
}
