import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { idempotencyHash } from "../../src/core/idempotency.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { withTenant } from "../helpers/seed-orders.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";
import { ENCRYPTION_KEY, OLD_ENCRYPTION_KEY, readyCart } from "../payments/helpers.ts";

// An answer holding a bearer secret (an order's access token, a customer session token and its
// cookie) is kept for Idempotency-Key replays sealed with the instance key: every byte of the
// tenant's file and its WAL is read, and the secret is in none of its forms.

let t: TestApp;
let shop: Shop;
let other: Shop;

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Sealed", "sealed.example");
  other = await makeShop(t, "Elsewhere", "elsewhere.example");
});
afterAll(() => t.cleanup());

/** The tenant's database file and its WAL, byte for byte. */
function tenantBytes(app: TestApp, orgId: string): Buffer {
  const file = join(app.dataDir, "tenants", `${orgId}.sqlite`);
  const parts = [readFileSync(file)];
  if (existsSync(`${file}-wal`)) parts.push(readFileSync(`${file}-wal`));
  return Buffer.concat(parts);
}

/** The forms of a secret that would give it away: as is, base64, base64url, hex. */
const encodings = (secret: string) => {
  const bytes = Buffer.from(secret);
  return [secret, bytes.toString("base64"), bytes.toString("base64url"), bytes.toString("hex")];
};

function expectNotAtRest(app: TestApp, orgId: string, secret: string, storedAlongside: string) {
  const bytes = tenantBytes(app, orgId);
  // The scan sees what the same write did store readably, so it is reading the right bytes.
  expect(bytes.includes(storedAlongside)).toBe(true);
  expect(encodings(secret).filter((form) => bytes.includes(form))).toEqual([]);
}

const withKey = (key: string) => ({ "idempotency-key": key });
const signUpBody = (email: string) => ({ email, password: "a long password 9" });

describe("no bearer secret is readable at rest in the tenant file", () => {
  test("place-order with an Idempotency-Key keeps its access token sealed; a replay answers the same token", async () => {
    const cartId = await readyCart(shop);
    const place = () =>
      shop.storefront(`/v1/carts/${cartId}/place-order`, { body: {}, headers: withKey("order-sealed-1") });
    const first = await place();
    expect(first.status).toBe(201);
    const { id, accessToken } = first.body.data;
    expectNotAtRest(t, shop.org.id, accessToken, id);

    const replay = await place();
    expect(replay.status).toBe(201);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect((await shop.storefront(`/v1/orders/${id}?token=${accessToken}`)).status).toBe(200);
  });

  test("customer sign-up with an Idempotency-Key keeps its session token and cookie sealed; a replay sets the same cookie", async () => {
    const signUp = () =>
      shop.storefront("/v1/account/sign-up", {
        body: signUpBody("sealed.up@example.com"),
        headers: withKey("signup-sealed-1"),
      });
    const first = await signUp();
    expect(first.status).toBe(201);
    const token = first.body.data.token as string;
    expect(first.response.headers.get("set-cookie")).toContain(`customer_session=${token}`);
    expectNotAtRest(t, shop.org.id, token, first.body.data.customer.id);

    const replay = await signUp();
    expect(replay.status).toBe(201);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.token).toBe(token);
    expect(replay.response.headers.get("set-cookie")).toBe(first.response.headers.get("set-cookie"));
    expect((await shop.storefront("/v1/account", { headers: { "x-customer-session": token } })).status).toBe(
      200,
    );
  });

  test("customer sign-in with an Idempotency-Key keeps its session token and the password's hash sealed; only the same password replays it", async () => {
    const credentials = signUpBody("sealed.in@example.com");
    const signedUp = await shop.storefront("/v1/account/sign-up", { body: credentials });
    const signIn = (body: typeof credentials) =>
      shop.storefront("/v1/account/sign-in", { body, headers: withKey("signin-sealed-1") });
    const first = await signIn(credentials);
    expect(first.status).toBe(200);
    const token = first.body.data.token as string;
    expectNotAtRest(t, shop.org.id, token, signedUp.body.data.customer.id);
    // The request hash would be a fast test of password guesses: it is sealed with the answer.
    expectNotAtRest(t, shop.org.id, idempotencyHash("signInCustomer", credentials), "signin-sealed-1");

    const replay = await signIn(credentials);
    expect(replay.status).toBe(200);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.token).toBe(token);
    expect(replay.response.headers.get("set-cookie")).toBe(first.response.headers.get("set-cookie"));

    // The password is checked before the stored answer is looked up.
    const wrong = await signIn({ ...credentials, password: "another password 9" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.data).toBeUndefined();
  });

  test("a sealed record copied into another shop's file does not open there: 409, and the sign-up is not run", async () => {
    const body = signUpBody("copied@example.com");
    const first = await shop.storefront("/v1/account/sign-up", { body, headers: withKey("signup-copied") });
    expect(first.status).toBe(201);
    const row = withTenant(t, shop.org.id, (tenant) =>
      tenant.sqlite.query("SELECT * FROM idempotency_records WHERE key = ?").get("signup-copied"),
    ) as { caller: string; key: string; request_hash: string; status: number; body: string; effects: null };
    withTenant(t, other.org.id, (tenant) =>
      tenant.sqlite
        .query(
          "INSERT INTO idempotency_records (caller, key, request_hash, status, body, effects, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(row.caller, row.key, row.request_hash, row.status, row.body, row.effects, Date.now()),
    );

    const replayed = await other.storefront("/v1/account/sign-up", {
      body,
      headers: withKey("signup-copied"),
    });
    expect(replayed.status).toBe(409);
    expect(replayed.body.code).toBe("IDEMPOTENCY_CONFLICT");
    const customers = withTenant(t, other.org.id, (tenant) =>
      tenant.sqlite.query("SELECT count(*) AS n FROM customers WHERE email = ?").get("copied@example.com"),
    );
    expect(customers).toEqual({ n: 0 });
  });

  test("other writes keep their stored answer as it is (only secret-holding answers are sealed)", async () => {
    const created = await shop.storefront("/v1/carts", { body: {}, headers: withKey("cart-plain-1") });
    expect(created.status).toBe(201);
    const row = withTenant(t, shop.org.id, (tenant) =>
      tenant.sqlite
        .query("SELECT request_hash, body FROM idempotency_records WHERE key = ?")
        .get("cart-plain-1"),
    ) as { request_hash: string; body: string };
    expect(row.request_hash).toBe(idempotencyHash("createCart", {}));
    expect(JSON.parse(row.body)).toEqual(created.body);
  });
});

describe("sealed answers and the instance key", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "commerce-sealed-"));
  const HOST = "rotation.example";
  const body = signUpBody("rotation@example.com");
  const open = (env: Record<string, string>) => makeTestApp({ dataDir, env });
  const signUp = (app: TestApp) =>
    app.json("/v1/account/sign-up", {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json", ...withKey("signup-rotation") },
      body: JSON.stringify(body),
    });
  const counts = (app: TestApp, orgId: string) =>
    withTenant(app, orgId, (tenant) =>
      tenant.sqlite
        .query(
          "SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM customer_sessions) AS sessions",
        )
        .get(),
    );
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("a replay opens a record sealed under a previous key while it is listed; once the key is gone it is a 409 and the write is not run again", async () => {
    const before = open({ INTEGRATION_ENCRYPTION_KEY: OLD_ENCRYPTION_KEY });
    const org = await before.org("Rotation", { host: HOST });
    const first = await signUp(before);
    expect(first.status).toBe(201);
    const after = counts(before, org.id);
    before.close();

    const rotated = open({
      INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY,
      INTEGRATION_ENCRYPTION_PREVIOUS_KEYS: OLD_ENCRYPTION_KEY,
    });
    const replay = await signUp(rotated);
    expect(replay.status).toBe(201);
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.token).toBe(first.body.data.token);
    rotated.close();

    const lost = open({ INTEGRATION_ENCRYPTION_KEY: ENCRYPTION_KEY });
    const refused = await signUp(lost);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(refused.body.error).toContain("not run again");
    expect(counts(lost, org.id)).toEqual(after);
    lost.close();
  });
});
