import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Server } from "bun";
import { PT_ADDRESS } from "../helpers/shop.ts";

// Platforms as a shop meets them: a local web server serving UCP platform profiles, which the shop
// fetches from the `UCP-Agent` header (the test apps allow http to loopback, as development does).

/**
 * A platform profile offering checkout at `version`; with `orderWebhookUrl`, the order capability too,
 * configured with the URL its order webhooks go to; with `signingKeys`, the public keys (JWKs) its
 * request signatures are made with.
 */
export const platformProfile = (
  version = "2026-04-08",
  options: { orderWebhookUrl?: string; signingKeys?: unknown[] } = {},
) => ({
  ...(options.signingKeys ? { signing_keys: options.signingKeys } : {}),
  ucp: {
    version,
    services: {},
    capabilities: {
      "dev.ucp.shopping.checkout": [{ version }],
      ...(options.orderWebhookUrl
        ? { "dev.ucp.shopping.order": [{ version, config: { webhook_url: options.orderWebhookUrl } }] }
        : {}),
    },
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

/**
 * `webhooks`: platforms (by name) whose profile takes order webhooks, and the URL each takes them at;
 * `signingKeys`: platforms (by name) whose profile publishes these `signing_keys`.
 */
export function platformServer(
  options: { webhooks?: Record<string, string>; signingKeys?: Record<string, unknown[]> } = {},
): PlatformServer {
  const hits: string[] = [];
  const answers: Record<string, unknown> = {};
  for (const [name, orderWebhookUrl] of Object.entries(options.webhooks ?? {})) {
    answers[`/${name}/.well-known/ucp`] = platformProfile(undefined, { orderWebhookUrl });
  }
  for (const [name, signingKeys] of Object.entries(options.signingKeys ?? {})) {
    answers[`/${name}/.well-known/ucp`] = platformProfile(undefined, { signingKeys });
  }
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

/** A create body of a checkout ready but for its payment: one unit of `variantId`, a buyer with a phone, shipping by `optionId`. */
export const readyCheckoutBody = (variantId: string, optionId: string) => ({
  line_items: [{ item: { id: variantId }, quantity: 1 }],
  buyer: {
    email: "ana@example.com",
    first_name: "Ana",
    last_name: "Silva",
    phone_number: "+351 912 345 678",
  },
  fulfillment: shippingTo(optionId),
});

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
const PROFILE_SCHEMA = join(
  import.meta.dir,
  "../fixtures/ucp/2026-04-08/source/discovery/profile_schema.json",
);

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
  const signingKey = ajv.compile(JSON.parse(readFileSync(PROFILE_SCHEMA, "utf8")).$defs.signing_key);
  const signingKeyErrors = (keys: unknown) =>
    keys === undefined
      ? []
      : Array.isArray(keys)
        ? keys.flatMap((key, i) =>
            signingKey(key)
              ? []
              : (signingKey.errors ?? []).map((e) => `/signing_keys/${i}${e.instancePath} ${e.message}`),
          )
        : ["/signing_keys must be array"];
  return {
    checkout: check("https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout"),
    // The profile document's own $refs climb out of its folder (`../schemas/…`), which resolves only
    // in the source tree's layout; its `ucp` member is the business schema, and each of its
    // `signing_keys` the profile's own `signing_key`.
    profile: (body: unknown) => [
      ...check("https://ucp.dev/schemas/ucp.json#/$defs/business_schema")((body as { ucp: unknown }).ucp),
      ...signingKeyErrors((body as { signing_keys?: unknown }).signing_keys),
    ],
    error: check("https://ucp.dev/schemas/shopping/types/error_response.json"),
    order: check("https://ucp.dev/schemas/shopping/order.json"),
    search: check("https://ucp.dev/schemas/shopping/catalog_search.json#/$defs/search_response"),
    lookup: check("https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/lookup_response"),
    product: check("https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/get_product_response"),
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
  // A catalog answer names its capability; a lookup's variants say which inputs they answer.
  const capabilities = Object.keys(body.ucp?.capabilities ?? {});
  if (capabilities.includes("dev.ucp.shopping.catalog.search")) return validators.search(body);
  if (capabilities.includes("dev.ucp.shopping.catalog.lookup"))
    return body.product ? validators.product(body) : validators.lookup(body);
  return body.checkout_id ? validators.order(body) : validators.checkout(body);
}
