import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { contentDigest, type SignatureParams, signatureBase } from "../../src/ucp/signing.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { type PlatformServer, platformServer, readyCheckoutBody, ucpAnswerErrors } from "./helpers.ts";

// Platforms that sign their requests (RFC 9421 as UCP profiles it): each publishes its public keys
// in its profile's `signing_keys` and signs with its private key, as a platform does, over what UCP
// requires. The shop verifies each signed request and refuses, changing nothing, what fails.

const HOST = "signed-shop.example";

let t: TestApp;
let platforms: PlatformServer;
let shop: Shop;

/** A platform's key pair, and its public half as a profile publishes it. */
async function keyPair(kid: string, namedCurve: "P-256" | "P-384" | "P-521") {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return { privateKey: pair.privateKey, jwk: { kid, kty, crv, x, y, use: "sig" } };
}

let es256: Awaited<ReturnType<typeof keyPair>>;
let es384: Awaited<ReturnType<typeof keyPair>>;
let p521: Awaited<ReturnType<typeof keyPair>>;

beforeAll(async () => {
  es256 = await keyPair("platform-2026", "P-256");
  es384 = await keyPair("platform-384", "P-384");
  p521 = await keyPair("platform-521", "P-521");
  platforms = platformServer({
    signingKeys: {
      signer: [{ ...es256.jwk, alg: "ES256" }, es384.jwk],
      // The kid it signs with names a key of a curve UCP does not sign with, or an alg other than its curve's.
      "odd-curve": [p521.jwk],
      "odd-alg": [{ ...es256.jwk, alg: "ES384" }],
      "no-kid": [{ kty: "EC", crv: "P-256" }],
    },
  });
  t = makeTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" } });
  shop = await makeShop(t, "Signed Shop", HOST);
  await shop.admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] });
});
afterAll(async () => {
  t.cleanup();
  await platforms.stop();
});

/** The shop's checkout sessions, counted in its database. */
const sessionCount = () =>
  t.app.ctx.tenants.with(
    shop.org.id,
    (tenant) => (tenant.sqlite.query("SELECT COUNT(*) AS n FROM checkout_sessions").get() as { n: number }).n,
  );

interface Signing {
  platform?: string;
  key?: Awaited<ReturnType<typeof keyPair>>;
  hash?: "SHA-256" | "SHA-384";
  kid?: string;
  /** The components signed, from those UCP requires of the request. */
  components?: (required: string[]) => string[];
  /** Seconds since the epoch; null for none. */
  created?: number | null;
  /** The host the platform signs for (`@authority`). */
  authority?: string;
}

let keys = 0;
/**
 * A request as a signing platform sends it: its headers, `Content-Digest` over the body's bytes,
 * and `Signature-Input`/`Signature` (label sig1) made with the platform's private key over UCP's
 * required components. Not sent: the caller may change it first.
 */
async function signedRequest(method: string, path: string, body?: unknown, signing: Signing = {}) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {
    "ucp-agent": platforms.agent(signing.platform ?? "signer"),
    ...(method === "GET" ? {} : { "idempotency-key": `signed-${++keys}` }),
    ...(text === undefined
      ? {}
      : { "content-type": "application/json", "content-digest": contentDigest(text) }),
  };
  const required = [
    "@method",
    "@authority",
    "@path",
    ...(path.includes("?") ? ["@query"] : []),
    ...Object.keys(headers),
  ];
  const components = signing.components?.(required) ?? required;
  const created = signing.created === undefined ? Math.floor(Date.now() / 1000) : signing.created;
  const params: SignatureParams = {
    ...(created === null ? {} : { created }),
    keyid: signing.kid ?? (signing.key ?? es256).jwk.kid,
  };
  const url = `http://${signing.authority ?? HOST}${path}`;
  const { base, signatureParams } = signatureBase({ method, url, headers }, components, params);
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: signing.hash ?? "SHA-256" },
    (signing.key ?? es256).privateKey,
    new TextEncoder().encode(base),
  );
  const sent: Record<string, string> = {
    ...headers,
    host: HOST,
    "signature-input": `sig1=${signatureParams}`,
    signature: `sig1=:${Buffer.from(signature).toString("base64")}:`,
  };
  return { method, path, body: text, headers: sent };
}

type Sendable = Awaited<ReturnType<typeof signedRequest>>;

async function send({ method, path, body, headers }: Sendable) {
  const response = await t.request(path, { method, headers, body });
  const answer = (await response.json()) as Record<string, any>;
  expect(ucpAnswerErrors(response.status, answer)).toEqual([]);
  return { status: response.status, body: answer };
}

const variant = () => shop.shirt.variants[0].id as string;
const createBody = () => ({ line_items: [{ item: { id: variant() }, quantity: 1 }] });

/** Sends a create, expecting it refused with `status` and `code` and no session made. */
async function refusedCreate(request: Sendable, status: number, code: string) {
  const before = await sessionCount();
  const refused = await send(request);
  expect({ status: refused.status, code: refused.body.code }).toEqual({ status, code });
  expect(await sessionCount()).toBe(before);
}

describe("UCP request signatures", () => {
  test("signed create, get, update, complete and a catalog search are accepted (ES256 by a key of the profile)", async () => {
    const created = await send(
      await signedRequest(
        "POST",
        "/ucp/v1/checkout-sessions",
        readyCheckoutBody(variant(), shop.ptShipping.id),
      ),
    );
    expect(created.status).toBe(201);
    const id = created.body.id;
    const read = await send(await signedRequest("GET", `/ucp/v1/checkout-sessions/${id}`));
    expect(read.status).toBe(200);
    const updated = await send(
      await signedRequest("PUT", `/ucp/v1/checkout-sessions/${id}`, {
        ...readyCheckoutBody(variant(), shop.ptShipping.id),
        line_items: [{ item: { id: variant() }, quantity: 2 }],
      }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.line_items[0].quantity).toBe(2);
    const completed = await send(
      await signedRequest("POST", `/ucp/v1/checkout-sessions/${id}/complete`, {
        payment: {
          instruments: [{ id: "i1", handler_id: "manual_bank_transfer", type: "offline", selected: true }],
        },
      }),
    );
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe("completed");
    const found = await send(await signedRequest("POST", "/ucp/v1/catalog/search", { query: "shirt" }));
    expect(found.status).toBe(200);
    expect(found.body.products.length).toBeGreaterThan(0);
  });

  test("an ES384 signature by the profile's P-384 key is accepted; no `created` is needed", async () => {
    const before = await sessionCount();
    const created = await send(
      await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
        key: es384,
        hash: "SHA-384",
        created: null,
      }),
    );
    expect(created.status).toBe(201);
    expect(await sessionCount()).toBe(before + 1);
  });

  test("a request without a signature is accepted as before", async () => {
    const before = await sessionCount();
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody());
    const { signature: _, "signature-input": __, ...headers } = request.headers;
    const created = await send({ ...request, headers });
    expect(created.status).toBe(201);
    expect(await sessionCount()).toBe(before + 1);
  });

  test("a body changed after signing, its digest left, is a 400 digest_mismatch and creates nothing", async () => {
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody());
    const body = request.body!.replace('"quantity":1', '"quantity":9');
    await refusedCreate({ ...request, body }, 400, "digest_mismatch");
  });

  test("a body changed with its digest recomputed is a 401 signature_invalid and creates nothing", async () => {
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody());
    const body = request.body!.replace('"quantity":1', '"quantity":9');
    const headers = { ...request.headers, "content-digest": contentDigest(body) };
    await refusedCreate({ ...request, body, headers }, 401, "signature_invalid");
  });

  test("a signature for another host, or with another header value, is a 401 signature_invalid", async () => {
    const elsewhere = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
      authority: "other-shop.example",
    });
    await refusedCreate(elsewhere, 401, "signature_invalid");
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody());
    const headers = { ...request.headers, "idempotency-key": "another-key" };
    await refusedCreate({ ...request, headers }, 401, "signature_invalid");
  });

  test("a keyid the platform's profile does not publish is a 401 key_not_found", async () => {
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), { kid: "stolen" });
    await refusedCreate(request, 401, "key_not_found");
  });

  test("a key not on P-256/P-384, or whose alg is not its curve's, is a 400 algorithm_unsupported", async () => {
    const odd = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
      platform: "odd-curve",
      key: p521,
      hash: "SHA-384",
    });
    await refusedCreate(odd, 400, "algorithm_unsupported");
    const mislabelled = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
      platform: "odd-alg",
    });
    await refusedCreate(mislabelled, 400, "algorithm_unsupported");
  });

  test("a signature not covering each component UCP requires is a 401 signature_invalid", async () => {
    for (const left of [
      "@authority",
      "@path",
      "ucp-agent",
      "idempotency-key",
      "content-digest",
      "content-type",
    ]) {
      const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
        components: (required) => required.filter((c) => c !== left),
      });
      await refusedCreate(request, 401, "signature_invalid");
    }
    const search = await signedRequest(
      "POST",
      "/ucp/v1/catalog/search?page=1",
      { query: "shirt" },
      {
        components: (required) => required.filter((c) => c !== "@query"),
      },
    );
    const refused = await send(search);
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 401,
      code: "signature_invalid",
    });
  });

  test("a profile whose signing_keys are not JWKs with a kid is a 422 profile_malformed and creates nothing", async () => {
    const signed = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), {
      platform: "no-kid",
    });
    await refusedCreate(signed, 422, "profile_malformed");
  });

  test("a `created` more than 5 minutes old or ahead is a 401 signature_invalid; within them it is accepted", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const created of [now - 301 - 5, now + 301 + 5]) {
      const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), { created });
      await refusedCreate(request, 401, "signature_invalid");
    }
    const recent = await send(
      await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody(), { created: now - 240 }),
    );
    expect(recent.status).toBe(201);
  });

  test("a Signature-Input without its Signature is a 401 signature_missing; a malformed one is signature_invalid", async () => {
    const request = await signedRequest("POST", "/ucp/v1/checkout-sessions", createBody());
    const { signature: _, ...unsigned } = request.headers;
    await refusedCreate({ ...request, headers: unsigned }, 401, "signature_missing");
    const relabelled = {
      ...request.headers,
      signature: request.headers.signature!.replace("sig1=", "sig2="),
    };
    await refusedCreate({ ...request, headers: relabelled }, 401, "signature_missing");
    const malformed = { ...request.headers, "signature-input": "sig1=(@method" };
    await refusedCreate({ ...request, headers: malformed }, 401, "signature_invalid");
  });
});
