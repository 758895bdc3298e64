#!/usr/bin/env bun
/**
 * An example shopping agent for the Commerce API, using Agent Auth with its own Ed25519 keys.
 *
 *   bun examples/agent.ts [BASE_URL]          (default: $COMMERCE_URL, else http://localhost:3000)
 *
 * 1. Makes a host key pair and an agent key pair (jose, Ed25519).
 * 2. Reads the service's discovery document (`/.well-known/agent-configuration`).
 * 3. Registers a delegated agent asking for the shopping capabilities.
 * 4. Prints the user code and the approval URL for the merchant, and polls the agent's status
 *    (no faster than the interval the service asks for) until the merchant approved it.
 * 5. Browses the products, creates a cart, adds an item, sets the shipping address and method,
 *    picks a payment method and places the order: every `/v1` request carries a freshly signed
 *    agent JWT (a token is accepted once and lives 60 s).
 *
 * Settings (environment): COMMERCE_URL, AGENT_NAME, HOST_NAME, BUYER_EMAIL, SHIPPING_ADDRESS (JSON
 * address object). The keys live in memory only: a real agent keeps them (e.g. in its keychain) and
 * registers once; here every run is a new host and a new agent.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

// The parts of the answers this agent reads (docs/agents.md and the OpenAPI document have them all).
interface Discovery {
  version: string;
  provider_name: string;
  issuer: string;
  registration_endpoint: string;
  algorithms: string[];
  modes: string[];
  endpoints: { status: string };
}
interface Approval {
  user_code: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}
interface Grant {
  capability: string;
  status: string;
}
interface AgentStatus {
  agent_id: string;
  status: string;
  organization_id: string | null;
  agent_capability_grants: Grant[];
  approval?: { status: string };
}
interface Money {
  amount: number;
  currency: string;
}
type Localized = Record<string, string>;
interface Variant {
  id: string;
  title: string;
  price: Money;
  available: boolean;
}
interface Product {
  id: string;
  name: Localized;
  variants: Variant[];
  requiresShipping: boolean;
}
interface Cart {
  id: string;
  totals: { total: Money };
}
interface ShippingMethod {
  id: string;
  name: Localized;
  price: Money;
}
interface PaymentMethod {
  id: string;
  name: Localized;
  requires: string[];
}
interface Order {
  id: string;
  number: number;
  status: string;
  totals: { total: Money };
}
/** The `/v1` envelope. */
interface Data<T> {
  data: T;
  meta?: { total: number };
}

const BASE = (process.argv[2] ?? process.env.COMMERCE_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const AGENT_NAME = process.env.AGENT_NAME ?? "Example shopping agent";
const HOST_NAME = process.env.HOST_NAME ?? "examples/agent.ts";
const BUYER_EMAIL = process.env.BUYER_EMAIL ?? "buyer@example.com";
const SHIPPING_ADDRESS: { country: string } & Record<string, string> = process.env.SHIPPING_ADDRESS
  ? JSON.parse(process.env.SHIPPING_ADDRESS)
  : {
      firstName: "Ana",
      lastName: "Silva",
      line1: "Rua Augusta 10",
      city: "Lisboa",
      postalCode: "1100-053",
      country: "PT",
    };

/** What the agent asks for: reads and the cart steps up to placing the order. */
const CAPABILITIES = [
  "listProducts",
  "getProduct",
  "createCart",
  "getCart",
  "addCartItem",
  "setCartShippingAddress",
  "listCartShippingMethods",
  "setCartShippingMethod",
  "listCartPaymentMethods",
  "placeOrder",
];

const log = (line = "") => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const money = (m: Money) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;
const text = (localized: Localized | null | undefined) =>
  localized ? (localized.en ?? Object.values(localized)[0] ?? "") : "";

// ---------------------------------------------------------------- keys and tokens

interface KeyPair {
  privateKey: CryptoKey;
  jwk: JWK;
  thumbprint: string;
}

async function newKeyPair(): Promise<KeyPair> {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const { kty, crv, x } = await exportJWK(publicKey); // the public part only: never send `d`
  const jwk = { kty, crv, x };
  return { privateKey, jwk, thumbprint: await calculateJwkThumbprint(jwk) };
}

/** A compact JWS: EdDSA, a fresh `jti`, 60 s of life, one audience. */
function jwt(
  key: CryptoKey,
  typ: "host+jwt" | "agent+jwt",
  claims: Record<string, unknown>,
  audience: string,
): Promise<string> {
  return new SignJWT({ ...claims, jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: "EdDSA", typ })
    .setIssuedAt()
    .setExpirationTime("60s")
    .setAudience(audience)
    .sign(key);
}

// ---------------------------------------------------------------- HTTP

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  }
}

async function request<T>(
  what: string,
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const raw = await response.text();
  const body = raw ? JSON.parse(raw) : null;
  if (!response.ok) throw new HttpError(response.status, body, what);
  return body as T;
}

// ---------------------------------------------------------------- the agent

async function main() {
  // 1. Keys: one for the host (this program), one for the agent.
  const host = await newKeyPair();
  const agentKey = await newKeyPair();

  // 2. Discovery: every URL comes from the service's configuration document.
  const config = await request<Discovery>("discovery", `${BASE}/.well-known/agent-configuration`);
  const issuer: string = config.issuer;
  log(`Service: ${config.provider_name} (Agent Auth ${config.version}), issuer ${issuer}`);
  if (!config.algorithms.includes("Ed25519") || !config.modes.includes("delegated")) {
    throw new Error("The service offers neither Ed25519 keys nor delegated agents");
  }
  // The audience of `/v1` tokens is the API's origin (API_PUBLIC_URL), named in the OpenAPI servers.
  const openapi = await request<{ servers?: { url: string }[] }>(
    "OpenAPI document",
    `${BASE}/v1/openapi.json`,
  ).catch(() => null);
  const api: string = (openapi?.servers?.[0]?.url ?? BASE).replace(/\/+$/, "");

  const hostToken = (claims: Record<string, unknown> = {}) =>
    jwt(host.privateKey, "host+jwt", { iss: host.thumbprint, ...claims }, issuer);

  // 3. Register: the host JWT carries both public keys (the host is new to the service).
  const registered = await request<AgentStatus & { approval?: Approval }>(
    "register",
    config.registration_endpoint,
    {
      token: await hostToken({ host_public_key: host.jwk, agent_public_key: agentKey.jwk }),
      body: {
        name: AGENT_NAME,
        host_name: HOST_NAME,
        mode: "delegated",
        capabilities: CAPABILITIES,
        reason: "Demonstrates a purchase: browse, cart, order",
        binding_message: `Order placed by ${AGENT_NAME}`,
      },
    },
  );
  const agentId: string = registered.agent_id;
  log(`Agent registered: ${agentId} (${registered.status})`);

  // 4. Approval by the merchant (device authorization).
  const approval = registered.approval;
  if (approval) {
    log("");
    log("Ask the merchant (an owner or admin of the store) to open:");
    log(`  ${approval.verification_uri_complete}`);
    log("and to approve only if the page shows the code:");
    log(`  ${approval.user_code}`);
    log("");
    log(`Waiting for approval (the request expires in ${approval.expires_in} s)…`);
    const deadline = Date.now() + approval.expires_in * 1000;
    const statusUrl = `${config.endpoints.status}?agent_id=${encodeURIComponent(agentId)}`;
    for (;;) {
      const status = await request<AgentStatus>("status", statusUrl, { token: await hostToken() });
      if (status.status === "active") {
        const active = status.agent_capability_grants.filter((g) => g.status === "active");
        const denied = status.agent_capability_grants.filter((g) => g.status === "denied");
        log(`Approved: ${active.length} capabilities active in ${status.organization_id}`);
        if (denied.length > 0) log(`Denied: ${denied.map((g) => g.capability).join(", ")}`);
        break;
      }
      if (status.status !== "pending" || status.approval?.status !== "pending") {
        throw new Error(`Not approved: agent ${status.status}, request ${status.approval?.status ?? "none"}`);
      }
      if (Date.now() > deadline) throw new Error("The approval request expired");
      log(`Still pending; next check in ${approval.interval} s`);
      await sleep(approval.interval * 1000);
    }
  }

  // 5. Shopping through /v1, one fresh agent JWT per request (aud = the API origin).
  const v1 = async <T>(
    what: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Data<T>> => {
    const token = await jwt(agentKey.privateKey, "agent+jwt", { iss: host.thumbprint, sub: agentId }, api);
    return request<Data<T>>(what, `${api}${path}`, { ...init, token });
  };

  const me = (await v1<{ type: string; orgId: string; userId?: string }>("me", "/v1/me")).data;
  log(`Acting as ${me.type} in ${me.orgId}${me.userId ? ` for ${me.userId}` : ""}`);

  const products = await v1<Product[]>("list products", "/v1/products?limit=20");
  log(`Products: ${products.meta?.total ?? products.data.length}`);
  const product = products.data.find((p) => p.variants.some((v) => v.available));
  const variant = product?.variants.find((v) => v.available);
  if (!product || !variant) throw new Error("No product can be bought now");
  log(`Picked: ${text(product.name)} / ${variant.title} at ${money(variant.price)}`);

  const cart = (await v1<Cart>("create cart", "/v1/carts", { method: "POST", body: { email: BUYER_EMAIL } }))
    .data;
  log(`Cart: ${cart.id}`);
  const added = await v1<Cart>("add item", `/v1/carts/${cart.id}/items`, {
    method: "POST",
    body: { variantId: variant.id, quantity: 1 },
  });
  log(`Added 1 × ${variant.title}; cart total ${money(added.data.totals.total)}`);

  if (product.requiresShipping) {
    await v1<Cart>("shipping address", `/v1/carts/${cart.id}/shipping-address`, {
      method: "POST",
      body: SHIPPING_ADDRESS,
    });
    const methods = (await v1<ShippingMethod[]>("shipping methods", `/v1/carts/${cart.id}/shipping-methods`))
      .data;
    const method = methods[0];
    if (!method) throw new Error(`No shipping method serves ${SHIPPING_ADDRESS.country}`);
    await v1<Cart>("shipping method", `/v1/carts/${cart.id}/shipping-method`, {
      method: "POST",
      body: { shippingMethodId: method.id },
    });
    log(`Shipping: ${text(method.name)} (${money(method.price)})`);
  }

  const payments = (await v1<PaymentMethod[]>("payment methods", `/v1/carts/${cart.id}/payment-methods`))
    .data;
  const payment = payments.find((m) => m.requires.length === 0);
  if (!payment) throw new Error("No payment method this agent can use without more input");
  log(`Payment: ${text(payment.name)} (${payment.id})`);

  // An idempotency key makes a retried order safe (a retry signs a new token, same key).
  const order = (
    await v1<Order>("place order", `/v1/carts/${cart.id}/place-order`, {
      method: "POST",
      body: { paymentMethodId: payment.id },
      headers: { "idempotency-key": `example-${cart.id}` },
    })
  ).data;
  log(
    `Order placed: ${order.id} (number ${order.number}), total ${money(order.totals.total)}, status ${order.status}`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
