import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
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

const SCHEMAS = join(import.meta.dir, "../fixtures/ucp/2026-04-08/source/schemas");

/** Every schema of the release, loaded under its `$id`, and validators for what the shop answers. */
export function schemaValidators() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : name.endsWith(".json") ? [path] : [];
    });
  for (const file of files(SCHEMAS)) {
    const schema = JSON.parse(readFileSync(file, "utf8"));
    if (schema.$id && !ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  }
  const check = (ref: string) => (body: unknown) => {
    const fn = ajv.getSchema(ref)!;
    return fn(body) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  return {
    checkout: check("https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout"),
    // The profile document's own $refs climb out of its folder (`../schemas/…`), which resolves only
    // in the source tree's layout; its `ucp` member is the business schema.
    profile: (body: unknown) =>
      check("https://ucp.dev/schemas/ucp.json#/$defs/business_schema")((body as { ucp: unknown }).ucp),
    error: check("https://ucp.dev/schemas/shopping/types/error_response.json"),
    order: check("https://ucp.dev/schemas/shopping/order.json"),
  };
}

let validators: ReturnType<typeof schemaValidators> | undefined;

/**
 * What is wrong with an answer of the shop by the release's schemas (none: valid): a checkout, an
 * order, UCP's `error_response`, or a protocol error's `{code, content}` (which has no schema).
 */
export function ucpAnswerErrors(status: number, body: Record<string, any> | null): string[] {
  validators ??= schemaValidators();
  if (body === null) return ["no body"];
  if (status >= 300) {
    const extra = Object.keys(body).filter((k) => k !== "code" && k !== "content");
    return typeof body.code === "string" && typeof body.content === "string" && extra.length === 0
      ? []
      : [`not {code, content}: ${JSON.stringify(body)}`];
  }
  if (body.ucp?.status === "error") return validators.error(body);
  return body.checkout_id ? validators.order(body) : validators.checkout(body);
}
