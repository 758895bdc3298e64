import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";

// A write the dashboard session cookie authenticates is refused when a browser says it comes from
// another site; API keys, agents and storefront callers are not concerned.

const BASE_URL = "https://admin.shops.example";
const API_PUBLIC_URL = "https://api.shops.example";

let t: TestApp;
let cookie: string;
let apiKey: string;

beforeAll(async () => {
  t = makeTestApp({ env: { BASE_URL, API_PUBLIC_URL } });
  cookie = await signUp(t, "owner@shops.example");
  const org = await t.json("/api/auth/organization/create", jsonBody({ name: "Cross Site" }, { cookie }));
  expect(org.status).toBe(201);
  const key = await t.json(
    "/api/auth/api-key/create",
    jsonBody({ name: "server", scopes: ["admin", "storefront"] }, { cookie }),
  );
  apiKey = key.body.data.key;
});
afterAll(() => t.cleanup());

let n = 0;
const createCoupon = (headers: Record<string, string>) =>
  t.json("/v1/admin/coupons", jsonBody({ code: `CS${++n}`, type: "percentage", value: 5 }, headers));
const couponCount = async () =>
  (await t.json("/v1/admin/coupons", { headers: { "x-api-key": apiKey } })).body.meta.total as number;
const organizationCount = () =>
  (t.app.ctx.platform.sqlite.query("SELECT count(*) AS n FROM organizations").get() as { n: number }).n;

describe("writes authenticated by the dashboard session cookie refuse cross-site requests", () => {
  test("from the service's own origins (BASE_URL, API_PUBLIC_URL, the request's own), Sec-Fetch-Site same-origin, or with neither header: the write runs", async () => {
    const accepted: Record<string, string>[] = [
      { origin: BASE_URL },
      { origin: API_PUBLIC_URL, "sec-fetch-site": "same-site" },
      { origin: "http://localhost" },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of accepted) {
      const res = await createCoupon({ cookie, ...headers });
      expect({ headers, status: res.status }).toEqual({ headers, status: 201 });
    }
  });

  test("another Origin, Origin null, or Sec-Fetch-Site cross-site or same-site without Origin: 403 FORBIDDEN, nothing changes", async () => {
    const coupons = await couponCount();
    const organizations = organizationCount();
    const refused: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "https://evil.example", "sec-fetch-site": "same-origin" },
      { origin: "https://admin.shops.example.evil.example" },
      { origin: "http://admin.shops.example" },
      // A shop's storefront on a sibling host of the same site.
      { origin: "http://acme.localhost" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of refused) {
      for (const res of [
        await createCoupon({ cookie, ...headers }),
        await t.json("/api/auth/organization/create", jsonBody({ name: "Forged" }, { cookie, ...headers })),
        await t.json("/api/auth/sign-out", { method: "POST", headers: { cookie, ...headers } }),
      ]) {
        expect({ headers, status: res.status, code: res.body.code }).toEqual({
          headers,
          status: 403,
          code: "FORBIDDEN",
        });
        expect(res.body.error).toContain("Cross-site request refused");
      }
    }
    expect(await couponCount()).toBe(coupons);
    expect(organizationCount()).toBe(organizations);
    // The session was not signed out.
    expect((await t.json("/api/auth/session", { headers: { cookie } })).status).toBe(200);
  });

  test("reads with the cookie are not concerned, whatever the Origin", async () => {
    const headers = { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    expect((await t.json("/v1/admin/coupons", { headers })).status).toBe(200);
    expect((await t.json("/api/auth/session", { headers })).status).toBe(200);
  });

  test("a write authenticated by an API key passes from any Origin, also when a session cookie comes along", async () => {
    const before = await couponCount();
    const foreign = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    expect((await createCoupon({ "x-api-key": apiKey, ...foreign })).status).toBe(201);
    expect((await createCoupon({ "x-api-key": apiKey, cookie, ...foreign })).status).toBe(201);
    expect(await couponCount()).toBe(before + 2);
  });
});
