import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import {
  CHECKOUT_SECRET,
  EASYPAY,
  ENCRYPTION_KEY,
  makeWorld,
  type PaymentsWorld,
  STRIPE_ENV,
  stripeEvent,
  stripeHeader,
} from "./helpers.ts";

// What CHECKOUT_API_SECRET gates, through HTTP on both webhook routes: every notification (a POST,
// or Ifthenpay's GET callback), never the readiness GET.

const PROVIDERS = ["stripe", "ifthenpay", "easypay"] as const;
const IFTHENPAY_KEY = "environment-anti-phishing-1";
const env = {
  INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
  ...STRIPE_ENV,
  IFTHENPAY_ANTIPHISHING_KEY: IFTHENPAY_KEY,
  EASYPAY_ACCOUNT_ID: EASYPAY.accountId,
  EASYPAY_API_KEY: EASYPAY.apiKey,
};

/** The notifications of each provider, to the ingress and to the API route, with correct proofs. */
async function notifications(orgId: string, checkoutSecret: string) {
  const payload = JSON.stringify(stripeEvent("checkout.session.expired", { id: "cs_gate", metadata: {} }));
  const signature = await stripeHeader(
    payload,
    STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
    Math.floor(Date.now() / 1000),
  );
  const callback = `key=${IFTHENPAY_KEY}&orderId=000000000000&amount=1.00&requestId=gate`;
  const easypay = JSON.stringify({ id: "ep-gate", type: "capture", status: "success" });
  const requests: { name: string; path: string; init: RequestInit }[] = [];
  for (const via of ["ingress", "api"] as const) {
    const path = (provider: string, query = "") =>
      via === "ingress"
        ? `/api/webhooks/${provider}/${orgId}${query ? `?${query}` : ""}`
        : `/v1/webhooks/payments/${provider}?org=${orgId}${query ? `&${query}` : ""}`;
    const secret: Record<string, string> = via === "api" ? { "x-checkout-secret": checkoutSecret } : {};
    requests.push(
      {
        name: `POST ${via} stripe`,
        path: path("stripe"),
        init: { method: "POST", headers: { ...secret, "stripe-signature": signature }, body: payload },
      },
      { name: `GET ${via} ifthenpay callback`, path: path("ifthenpay", callback), init: { headers: secret } },
      {
        name: `POST ${via} ifthenpay callback`,
        path: path("ifthenpay"),
        init: {
          method: "POST",
          headers: { ...secret, "content-type": "application/x-www-form-urlencoded" },
          body: callback,
        },
      },
      {
        name: `POST ${via} easypay`,
        path: path("easypay"),
        init: { method: "POST", headers: { ...secret, "content-type": "application/json" }, body: easypay },
      },
    );
  }
  return requests;
}

/** The readiness GETs (no callback parameters) of every provider on both routes. */
const readiness = (orgId: string) =>
  PROVIDERS.flatMap((provider) => [
    `/api/webhooks/${provider}/${orgId}`,
    `/v1/webhooks/payments/${provider}?org=${orgId}`,
  ]);

describe("CHECKOUT_API_SECRET unset", () => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    t = makeTestApp({ env });
    orgId = (await t.org("Gate closed")).id;
  });
  afterAll(() => t.cleanup());

  test("CHECKOUT_API_SECRET unset disables every payment notification on both webhook routes (POST, and Ifthenpay's GET callback): 503 WEBHOOKS_DISABLED", async () => {
    for (const { name, path, init } of await notifications(orgId, CHECKOUT_SECRET)) {
      const res = await t.json(path, init);
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 503,
        code: "WEBHOOKS_DISABLED",
      });
    }
  });

  test("CHECKOUT_API_SECRET unset leaves the readiness GETs of both webhook routes answering 200", async () => {
    for (const path of readiness(orgId)) {
      const res = await t.json(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body.data.ready).toBe(true);
    }
  });
});

describe("CHECKOUT_API_SECRET set", () => {
  let w: PaymentsWorld;
  let orgId: string;
  beforeAll(async () => {
    w = makeWorld(env);
    orgId = (await w.t.org("Gate open")).id;
  });
  afterAll(() => w.close());

  test("CHECKOUT_API_SECRET set lets the same notifications through to their checks: applied or ignored with the right secret, 401 UNAUTHORIZED at the API route with a wrong one", async () => {
    for (const { name, path, init } of await notifications(orgId, CHECKOUT_SECRET)) {
      const res = await w.t.json(path, init);
      // Nothing these notifications name exists in the store: verified, then ignored.
      expect({ name, status: res.status, received: res.body.data?.received }).toEqual({
        name,
        status: 200,
        received: true,
      });
    }
    const wrong = (await notifications(orgId, "w".repeat(40))).filter((r) => r.name.includes(" api "));
    expect(wrong).toHaveLength(4);
    for (const { name, path, init } of wrong) {
      const res = await w.t.json(path, init);
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 401,
        code: "UNAUTHORIZED",
      });
    }
    for (const path of readiness(orgId)) expect((await w.t.json(path)).status).toBe(200);
  });
});
