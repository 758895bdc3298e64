import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { TestApp } from "../helpers/app.ts";
import { PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// ACP as a platform meets a shop: its published documents (test/fixtures/acp, the release the
// service speaks) as validators, and requests sent the way a platform sends them.

const SPEC = join(import.meta.dir, "../fixtures/acp/2026-04-17");
export const API_VERSION = "2026-04-17";

type Validate = (body: unknown) => string[];

/** Validators for what a shop answers and sends, from the OpenAPI documents (and the JSON Schema bundle). */
export function acpValidators() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const base = "https://acp.test/spec/2026-04-17/openapi/";
  const checkout = Bun.YAML.parse(readFileSync(join(SPEC, "openapi/openapi.agentic_checkout.yaml"), "utf8"));
  const webhook = Bun.YAML.parse(
    readFileSync(join(SPEC, "openapi/openapi.agentic_checkout_webhook.yaml"), "utf8"),
  );
  ajv.addSchema(checkout as object, `${base}openapi.agentic_checkout.yaml`);
  ajv.addSchema(webhook as object, `${base}openapi.agentic_checkout_webhook.yaml`);
  const bundle = JSON.parse(readFileSync(join(SPEC, "json-schema/schema.agentic_checkout.json"), "utf8"));
  ajv.addSchema(bundle);
  const check =
    (ref: string): Validate =>
    (body) => {
      const fn = ajv.getSchema(ref)!;
      return fn(body) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
  const component = (doc: string, name: string) => check(`${base}${doc}#/components/schemas/${name}`);
  return {
    session: component("openapi.agentic_checkout.yaml", "CheckoutSession"),
    /**
     * The bundle's: the OpenAPI document's `CheckoutSessionWithOrder` adds `order` beside a base that
     * allows no other property, so no session with an order passes it; the bundle's base lists `order`.
     */
    completed: check(`${bundle.$id}#/$defs/CheckoutSessionWithOrder`),
    error: component("openapi.agentic_checkout.yaml", "Error"),
    /** The bundle's `Error`, which also lists `supported_versions` (the OpenAPI one does not). */
    versionError: check(`${bundle.$id}#/$defs/Error`),
    webhook: component("openapi.agentic_checkout_webhook.yaml", "WebhookEvent"),
    createRequest: component("openapi.agentic_checkout.yaml", "CheckoutSessionCreateRequest"),
    updateRequest: component("openapi.agentic_checkout.yaml", "CheckoutSessionUpdateRequest"),
    completeRequest: component("openapi.agentic_checkout.yaml", "CheckoutSessionCompleteRequest"),
  };
}
export type AcpValidators = ReturnType<typeof acpValidators>;

/** A platform the shop lets in (through the admin API): its token and webhook secret. */
export async function addPlatform(shop: Shop, name = "Assistant", webhookUrl?: string) {
  const created = await shop.admin.post("/v1/admin/acp-platforms", { name, webhookUrl });
  if (created.status !== 201) throw new Error(`platform: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data as { id: string; token: string; signingSecret: string };
}

let keys = 0;
let validators: AcpValidators | undefined;

/** Whether an answer of the shop is what the published documents say it may be (errors listed, none: valid). */
export function answerErrors(status: number, body: Record<string, unknown> | null): string[] {
  validators ??= acpValidators();
  if (body === null) return ["no body"];
  if (status >= 400)
    return "supported_versions" in body ? validators.versionError(body) : validators.error(body);
  return body.order ? validators.completed(body) : validators.session(body);
}

/** An ACP client of one shop's host with one platform's token; every answer is checked against the documents. */
export function acpClient(t: TestApp, host: string, token: string) {
  return async (
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ) => {
    const sent: Record<string, string> = {
      host,
      authorization: `Bearer ${token}`,
      "api-version": API_VERSION,
      "request-id": crypto.randomUUID(),
      ...(method === "POST"
        ? { "idempotency-key": `acp-${++keys}-${crypto.randomUUID()}`, "content-type": "application/json" }
        : {}),
    };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete sent[name];
      else sent[name] = value;
    }
    const response = await t.request(path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = text ? JSON.parse(text) : null;
    const invalid = answerErrors(response.status, answer);
    if (invalid.length > 0) {
      throw new Error(
        `${method} ${path} answered ${response.status} outside ACP's documents: ${invalid.join("; ")}`,
      );
    }
    return { status: response.status, body: answer, headers: response.headers, sent };
  };
}
export type AcpClient = ReturnType<typeof acpClient>;

/** ACP's fulfillment details for PT_ADDRESS. */
export const PT_DETAILS = {
  name: `${PT_ADDRESS.firstName} ${PT_ADDRESS.lastName}`,
  phone_number: "+351 912 345 678",
  email: "ana@example.com",
  address: {
    name: `${PT_ADDRESS.firstName} ${PT_ADDRESS.lastName}`,
    line_one: PT_ADDRESS.line1,
    city: PT_ADDRESS.city,
    state: "",
    country: PT_ADDRESS.country,
    postal_code: PT_ADDRESS.postalCode,
  },
};

/** A create body: the items, the buyer, and where it ships (Portugal). */
export const readyBody = (items: { id: string; quantity?: number }[]) => ({
  line_items: items,
  currency: "eur",
  capabilities: {},
  buyer: { email: "ana@example.com", first_name: "Ana", last_name: "Silva", phone_number: "+351912345678" },
  fulfillment_details: PT_DETAILS,
});

/** Selecting the shop's PT shipping for every item. */
export const shippingChoice = (shop: Shop, itemIds: string[]) => ({
  selected_fulfillment_options: [{ type: "shipping", option_id: shop.ptShipping.id, item_ids: itemIds }],
});

/** Paying with one of the shop's handlers (no credential: the business handlers take none). */
export const paymentWith = (handler: string) => ({
  payment_data: {
    handler_id: handler,
    instrument: { type: "offline", credential: { type: "none", token: "none" } },
  },
});
