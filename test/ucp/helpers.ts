import type { Server } from "bun";
import { PT_ADDRESS } from "../helpers/shop.ts";

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

/** A shipping destination in Portugal, in UCP's postal address terms. */
export const PT_DESTINATION = {
  id: "d1",
  first_name: PT_ADDRESS.firstName,
  last_name: PT_ADDRESS.lastName,
  street_address: PT_ADDRESS.line1,
  address_locality: PT_ADDRESS.city,
  postal_code: PT_ADDRESS.postalCode,
  address_country: PT_ADDRESS.country,
};

/** UCP's fulfillment extension choosing shipping to `destination` with the option (a shipping method id). */
export const shippingTo = (optionId: string, destination = PT_DESTINATION) => ({
  methods: [
    {
      type: "shipping",
      destinations: [destination],
      selected_destination_id: destination.id,
      groups: [{ selected_option_id: optionId }],
    },
  ],
});
