import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/auth/crypto.ts";
import { isAgentOperation } from "../../src/core/registry.ts";
import { customerOperations } from "../../src/customers/routes.ts";
import { ACCOUNT_ORDER_SQL } from "../../src/orders/list.ts";
import { cookieFrom, makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { seedCustomer, seedOrder, withTenant } from "../helpers/seed-orders.ts";

let t: TestApp;
let shopA: { id: string; key: string };
let shopB: { id: string; key: string };
const HOST_A = "shop-a.example";
const HOST_B = "shop-b.example";
const PASSWORD = "correct horse battery";
const COOKIE_PATTERN =
  /^customer_session=([A-Za-z0-9]{43}); Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/;

beforeAll(async () => {
  t = makeTestApp();
  shopA = await t.org("Shop A", { host: HOST_A });
  shopB = await t.org("Shop B", { host: HOST_B });
});
afterAll(() => t.cleanup());

const post = (host: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.json(path, {
    method: "POST",
    headers: { host, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const signUp = (host: string, body: Record<string, unknown>) => post(host, "/v1/account/sign-up", body);
const signIn = (host: string, email: string, password: string) =>
  post(host, "/v1/account/sign-in", { email, password });
const account = (host: string, headers: Record<string, string>) =>
  t.json("/v1/account", { headers: { host, ...headers } });
const signOut = (host: string, headers: Record<string, string>) =>
  t.json("/v1/account/sign-out", { method: "POST", headers: { host, ...headers } });

const customerRows = (orgId: string, email: string) =>
  withTenant(t, orgId, (tenant) =>
    tenant.sqlite
      .query("SELECT id, email, first_name, last_name, phone, password_hash FROM customers WHERE email = ?")
      .all(email.toLowerCase()),
  ) as {
    id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    phone: string | null;
    password_hash: string | null;
  }[];
const sessionCount = (orgId: string, customerId: string) =>
  withTenant(
    t,
    orgId,
    (tenant) =>
      (
        tenant.sqlite
          .query("SELECT count(*) AS n FROM customer_sessions WHERE customer_id = ?")
          .get(customerId) as { n: number }
      ).n,
  );

describe("sign-up, the session and sign-out", () => {
  let token: string;
  let customerId: string;

  test("sign-up → 201 {customer, token} and the httpOnly customer_session cookie", async () => {
    const res = await signUp(HOST_A, {
      email: "Ana.Silva@Example.com",
      password: PASSWORD,
      firstName: "Ana",
      lastName: "Silva",
    });
    expect(res.status).toBe(201);
    const { customer } = res.body.data;
    token = res.body.data.token;
    customerId = customer.id;
    expect(customer).toEqual({
      id: expect.stringMatching(/^cus_/),
      email: "ana.silva@example.com",
      firstName: "Ana",
      lastName: "Silva",
      hasAccount: true,
    });
    const cookie = res.response.headers.get("set-cookie")!;
    expect(cookie).toMatch(COOKIE_PATTERN);
    expect(COOKIE_PATTERN.exec(cookie)![1]).toBe(token);
    // Stored: an argon2id hash, and the session token only as its SHA-256.
    const [row] = customerRows(shopA.id, "ana.silva@example.com");
    expect(row!.password_hash).toStartWith("$argon2id$");
    const session = withTenant(t, shopA.id, (tenant) =>
      tenant.sqlite.query("SELECT token_hash, expires_at, created_at FROM customer_sessions").get(),
    ) as { token_hash: string; expires_at: number; created_at: number };
    expect(session.token_hash).toBe(sha256Hex(token));
    expect(session.expires_at - session.created_at).toBe(30 * 24 * 60 * 60 * 1000);
  });

  test("GET /v1/account answers the session's customer, by cookie or by x-customer-session header", async () => {
    const expected = {
      customer: {
        id: customerId,
        email: "ana.silva@example.com",
        firstName: "Ana",
        lastName: "Silva",
        hasAccount: true,
      },
    };
    const byCookie = await account(HOST_A, { cookie: `customer_session=${token}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.data).toEqual(expected);
    const byHeader = await account(HOST_A, { "x-customer-session": token });
    expect(byHeader.body.data).toEqual(expected);
    // A storefront server with an API key sends the header too.
    const byKey = await t.json("/v1/account", {
      headers: { "x-api-key": shopA.key, "x-customer-session": token },
    });
    expect(byKey.body.data).toEqual(expected);
  });

  test("without a session, with a made-up or expired token → 401", async () => {
    expect((await account(HOST_A, {})).status).toBe(401);
    expect((await account(HOST_A, { "x-customer-session": "nope" })).status).toBe(401);
    expect((await account(HOST_A, { cookie: "customer_session=forged" })).body.code).toBe("UNAUTHORIZED");
    const signedIn = await signIn(HOST_A, "ana.silva@example.com", PASSWORD);
    const stale = signedIn.body.data.token as string;
    withTenant(t, shopA.id, (tenant) =>
      tenant.sqlite
        .query("UPDATE customer_sessions SET expires_at = ? WHERE token_hash = ?")
        .run(Date.now() - 1, sha256Hex(stale)),
    );
    expect((await account(HOST_A, { "x-customer-session": stale })).status).toBe(401);
  });

  test("sign-in → 200 with a new session; the email is case-insensitive", async () => {
    const res = await signIn(HOST_A, "ANA.SILVA@example.COM", PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data.customer.id).toBe(customerId);
    expect(res.body.data.token).not.toBe(token);
    expect(cookieFrom(res.response)).toBe(`customer_session=${res.body.data.token}`);
    expect(res.response.headers.get("set-cookie")).toMatch(COOKIE_PATTERN);
    const me = await account(HOST_A, { cookie: cookieFrom(res.response) });
    expect(me.body.data.customer.id).toBe(customerId);
  });

  test("sign-out ends that session only and clears the cookie; then 401", async () => {
    const other = (await signIn(HOST_A, "ana.silva@example.com", PASSWORD)).body.data.token as string;
    const before = sessionCount(shopA.id, customerId);
    const res = await signOut(HOST_A, { cookie: `customer_session=${token}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true });
    expect(res.response.headers.get("set-cookie")).toBe(
      "customer_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
    );
    expect(sessionCount(shopA.id, customerId)).toBe(before - 1);
    expect((await account(HOST_A, { cookie: `customer_session=${token}` })).status).toBe(401);
    expect((await signOut(HOST_A, { cookie: `customer_session=${token}` })).status).toBe(401);
    // The other session still works, and signs out by header.
    expect((await account(HOST_A, { "x-customer-session": other })).status).toBe(200);
    expect((await signOut(HOST_A, { "x-customer-session": other })).status).toBe(200);
    expect((await account(HOST_A, { "x-customer-session": other })).status).toBe(401);
  });

  test("sign-out without a session → 401", async () => {
    const res = await signOut(HOST_A, {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
  });
});

describe("conflicts and failures", () => {
  beforeAll(async () => {
    expect((await signUp(HOST_A, { email: "bruno@example.com", password: PASSWORD })).status).toBe(201);
  });

  test("an email that already has an account → 409 CONFLICT, whatever its case; nothing changes", async () => {
    const res = await signUp(HOST_A, {
      email: "BRUNO@example.com",
      password: "another password",
      firstName: "X",
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: "An account with this email already exists",
      code: "CONFLICT",
      status: 409,
    });
    expect(res.response.headers.get("set-cookie")).toBeNull();
    const rows = customerRows(shopA.id, "bruno@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.first_name).toBeNull();
    expect((await signIn(HOST_A, "bruno@example.com", PASSWORD)).status).toBe(200);
    expect((await signIn(HOST_A, "bruno@example.com", "another password")).status).toBe(401);
  });

  test("unknown email, wrong password and a guest's email (no account) give the same 401", async () => {
    seedCustomer(t, shopA.id, { email: "guest-only@example.com", firstName: "Gil" });
    const wrong = await signIn(HOST_A, "bruno@example.com", "wrong password");
    const unknown = await signIn(HOST_A, "nobody@example.com", "wrong password");
    const guest = await signIn(HOST_A, "guest-only@example.com", "wrong password");
    for (const res of [wrong, unknown, guest]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Wrong email or password", code: "UNAUTHORIZED", status: 401 });
      expect(res.response.headers.get("set-cookie")).toBeNull();
    }
  });

  test("10 failures per email in the window, then 429 with Retry-After, even with the right password", async () => {
    expect((await signUp(HOST_A, { email: "target@example.com", password: PASSWORD })).status).toBe(201);
    for (let i = 0; i < 10; i++) {
      expect((await signIn(HOST_A, "target@example.com", `guess ${i} guess`)).status).toBe(401);
    }
    const limited = await signIn(HOST_A, "Target@Example.com", PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    const retryAfter = Number(limited.response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another email, and the same email in another store, are counted apart.
    expect((await signIn(HOST_A, "bruno@example.com", PASSWORD)).status).toBe(200);
    expect((await signUp(HOST_B, { email: "target@example.com", password: PASSWORD })).status).toBe(201);
    expect((await signIn(HOST_B, "target@example.com", PASSWORD)).status).toBe(200);
  });

  test("unknown emails are limited too (the limit never tells whether the email exists)", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await signIn(HOST_A, "ghost@example.com", "whatever pass")).status).toBe(401);
    }
    expect((await signIn(HOST_A, "ghost@example.com", "whatever pass")).status).toBe(429);
  });

  test("a success clears the failure count", async () => {
    expect((await signUp(HOST_A, { email: "forgetful@example.com", password: PASSWORD })).status).toBe(201);
    for (let i = 0; i < 9; i++)
      expect((await signIn(HOST_A, "forgetful@example.com", "nope nope")).status).toBe(401);
    expect((await signIn(HOST_A, "forgetful@example.com", PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++)
      expect((await signIn(HOST_A, "forgetful@example.com", "nope nope")).status).toBe(401);
    expect((await signIn(HOST_A, "forgetful@example.com", "nope nope")).status).toBe(429);
  });
});

describe("accounts are per store", () => {
  let tokenA: string;

  beforeAll(async () => {
    const res = await signUp(HOST_A, { email: "carla@example.com", password: PASSWORD });
    tokenA = res.body.data.token;
  });

  test("an account of store A does not sign in through store B's host", async () => {
    const res = await signIn(HOST_B, "carla@example.com", PASSWORD);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Wrong email or password");
    expect(customerRows(shopB.id, "carla@example.com")).toHaveLength(0);
  });

  test("store A's session presented to store B is no session: 401", async () => {
    expect((await account(HOST_A, { cookie: `customer_session=${tokenA}` })).status).toBe(200);
    expect((await account(HOST_B, { cookie: `customer_session=${tokenA}` })).status).toBe(401);
    expect((await account(HOST_B, { "x-customer-session": tokenA })).status).toBe(401);
    expect((await signOut(HOST_B, { "x-customer-session": tokenA })).status).toBe(401);
    // Still valid in its own store.
    expect((await account(HOST_A, { "x-customer-session": tokenA })).status).toBe(200);
  });

  test("the same email may hold a separate account in store B", async () => {
    const res = await signUp(HOST_B, { email: "carla@example.com", password: "a different one" });
    expect(res.status).toBe(201);
    expect((await signIn(HOST_B, "carla@example.com", "a different one")).status).toBe(200);
    expect((await signIn(HOST_A, "carla@example.com", "a different one")).status).toBe(401);
  });
});

describe("guest customers and sign-up", () => {
  test("signing up with a guest's email gives that customer the account, without the guest's details", async () => {
    const guestId = seedCustomer(t, shopA.id, {
      email: "dora@example.com",
      firstName: "Dora",
      lastName: "Guest",
      phone: "+351912345678",
      createdAt: "2024-01-05T10:00:00Z",
    });
    seedOrder(t, shopA.id, {
      customerId: guestId,
      paymentStatus: "paid",
      items: [{ productId: "prod_guest", quantity: 1, unitPrice: 4200 }],
      placedAt: "2024-01-05T10:00:00Z",
    });
    const res = await signUp(HOST_A, { email: "Dora@example.com", password: PASSWORD, firstName: "D." });
    expect(res.status).toBe(201);
    // The same answer as for a brand-new email: nothing tells that the email had ordered before.
    expect(res.body.data.customer).toEqual({
      id: guestId,
      email: "dora@example.com",
      firstName: "D.",
      lastName: null,
      hasAccount: true,
    });
    const me = await account(HOST_A, { "x-customer-session": res.body.data.token });
    expect(me.body.data.customer).toEqual(res.body.data.customer);
    expect(Object.keys(me.body.data.customer).sort()).toEqual([
      "email",
      "firstName",
      "hasAccount",
      "id",
      "lastName",
    ]);
    // One customer per email; the merchant still sees the guest's order on it.
    const rows = customerRows(shopA.id, "dora@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.phone).toBeNull();
    const admin = await adminClient(t, shopA.key).get(`/v1/admin/customers/${guestId}`);
    expect(admin.body.data).toMatchObject({ hasAccount: true, ordersCount: 1, totalSpent: { amount: 4200 } });
    // And a second sign-up is now a conflict.
    expect((await signUp(HOST_A, { email: "dora@example.com", password: PASSWORD })).status).toBe(409);
  });

  test("an account's orders are those placed from its own session's carts, not those bearing its email", async () => {
    const res = await signUp(HOST_A, { email: "eli@example.com", password: PASSWORD });
    const customerId = res.body.data.customer.id as string;
    const guestBefore = seedOrder(t, shopA.id, {
      customerId,
      items: [{ productId: "prod_x", quantity: 1, unitPrice: 100 }],
      placedAt: Date.now() - 60_000,
    });
    const signedIn = seedOrder(t, shopA.id, {
      customerId,
      signedIn: true,
      items: [{ productId: "prod_x", quantity: 1, unitPrice: 200 }],
      placedAt: Date.now(),
    });
    const guestAfter = seedOrder(t, shopA.id, {
      customerId,
      items: [{ productId: "prod_x", quantity: 1, unitPrice: 300 }],
      placedAt: Date.now() + 1,
    });
    const visible = withTenant(t, shopA.id, (tenant) =>
      tenant.sqlite
        .query(
          `SELECT o.id FROM orders o WHERE o.customer_id = ? AND ${ACCOUNT_ORDER_SQL} ORDER BY o.placed_at`,
        )
        .all(customerId),
    );
    expect(visible).toEqual([{ id: signedIn.id }]);
    expect([guestBefore.id, guestAfter.id]).not.toContain(signedIn.id);
  });
});

describe("bad input is refused and stores nothing", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["an email without @", { email: "bad.example.com", password: PASSWORD }, "/body/email"],
    ["a short password", { email: "short@example.com", password: "1234567" }, "/body/password"],
    ["a password above 256", { email: "long@example.com", password: "x".repeat(257) }, "/body/password"],
    ["an unknown field", { email: "extra@example.com", password: PASSWORD, admin: true }, "/body/admin"],
    ["a missing password", { email: "nopass@example.com" }, "/body/password"],
    [
      "an empty first name",
      { email: "empty@example.com", password: PASSWORD, firstName: "" },
      "/body/firstName",
    ],
  ];
  for (const [what, body, path] of cases) {
    test(`sign-up with ${what} → 400 naming ${path}`, async () => {
      const res = await signUp(HOST_A, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(customerRows(shopA.id, String(body.email))).toHaveLength(0);
    });
  }

  test("malformed JSON and a non-object body → 400", async () => {
    const res = await t.json("/v1/account/sign-up", {
      method: "POST",
      headers: { host: HOST_A, "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect((await post(HOST_A, "/v1/account/sign-up", ["x"])).status).toBe(400);
  });

  test("a 2 MB body → 413, nothing stored", async () => {
    const res = await signUp(HOST_A, {
      email: "huge@example.com",
      password: PASSWORD,
      firstName: "x".repeat(2_000_000),
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(customerRows(shopA.id, "huge@example.com")).toHaveLength(0);
  });

  test("sign-in with a malformed email or an unknown field → 400", async () => {
    expect((await signIn(HOST_A, "not-an-email", PASSWORD)).status).toBe(400);
    const extra = await post(HOST_A, "/v1/account/sign-in", {
      email: "a@example.com",
      password: PASSWORD,
      x: 1,
    });
    expect(extra.status).toBe(400);
  });

  test("an unknown host → 401 before anything else", async () => {
    const res = await signUp("unknown.example", { email: "who@example.com", password: PASSWORD });
    expect(res.status).toBe(401);
  });
});

test("the account credential exchanges are not agent capabilities", () => {
  const accountOps = customerOperations.filter((op) => op.path.startsWith("/v1/account"));
  expect(accountOps.map((op) => op.operationId).sort()).toEqual([
    "confirmCustomerPasswordReset",
    "getAccount",
    "requestCustomerPasswordReset",
    "signInCustomer",
    "signOutCustomer",
    "signUpCustomer",
  ]);
  for (const op of accountOps) {
    expect(op.agent).toBe(false);
    expect(isAgentOperation(op)).toBe(false);
    expect(op.access).toBe("storefront");
    expect(op.tag).toBe("Accounts");
  }
});

describe("on https", () => {
  let https: TestApp;
  afterAll(() => https?.cleanup());

  test("the cookie is Secure when BASE_URL is https", async () => {
    https = makeTestApp({ env: { BASE_URL: "https://api.example.com" } });
    await https.org("Secure shop", { host: "secure.example" });
    const res = await https.json("/v1/account/sign-up", {
      method: "POST",
      headers: { host: "secure.example", "content-type": "application/json" },
      body: JSON.stringify({ email: "s@example.com", password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(res.response.headers.get("set-cookie")).toEndWith("; Max-Age=2592000; Secure");
  });
});
