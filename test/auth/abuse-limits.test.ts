import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { passwordHashing } from "../../src/auth/crypto.ts";
import { createUser, findUserByEmail } from "../../src/auth/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { withTenant } from "../helpers/seed-orders.ts";

// Sign-up and sign-in cost an argon2id hash each: one client address may spend only so many, and
// the whole process runs only so many at once. The client address is the X-Forwarded-For entry
// (TRUST_PROXY=true), so each test can speak from several addresses.

const PASSWORD = "correct horse battery";
const SHOP_HOST = "shop.example";
// Every request hashes a password; on a loaded machine one takes up to seconds.
const SLOW = 60_000;

function limitedApp(env: Record<string, string>): TestApp {
  return makeTestApp({ env: { TRUST_PROXY: "true", ...env } });
}

const post = (t: TestApp, path: string, ip: string, body: unknown, host = "localhost") =>
  t.json(path, {
    method: "POST",
    headers: { host, "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
const dashboardSignUp = (t: TestApp, ip: string, email: string) =>
  post(t, "/api/auth/sign-up/email", ip, { email, password: PASSWORD });
const dashboardSignIn = (t: TestApp, ip: string, email: string, password: string) =>
  post(t, "/api/auth/sign-in/email", ip, { email, password });
const shopSignUp = (t: TestApp, ip: string, email: string) =>
  post(t, "/v1/account/sign-up", ip, { email, password: PASSWORD }, SHOP_HOST);
const shopSignIn = (t: TestApp, ip: string, email: string, password: string) =>
  post(t, "/v1/account/sign-in", ip, { email, password }, SHOP_HOST);

function expectRateLimited(answer: { status: number; body: any; response: Response }, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body.code).toBe("RATE_LIMITED");
  expect(answer.body.status).toBe(429);
  expect(typeof answer.body.error).toBe("string");
  const retryAfter = Number(answer.response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

/**
 * Counts the argon2id work the process really does, by wrapping Bun's own functions: how many calls,
 * and the most in progress at once.
 */
function watchNativeHashing() {
  const { hash, verify } = Bun.password;
  const seen = { calls: 0, running: 0, most: 0 };
  const watched =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      seen.calls++;
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      try {
        return await fn(...args);
      } finally {
        seen.running--;
      }
    };
  Bun.password.hash = watched(hash.bind(Bun.password)) as typeof hash;
  Bun.password.verify = watched(verify.bind(Bun.password)) as typeof verify;
  return {
    seen,
    restore() {
      Bun.password.hash = hash;
      Bun.password.verify = verify;
    },
  };
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

describe("sign-up per client address (SIGNUP_RATE_LIMIT_PER_HOUR)", () => {
  let t: TestApp;
  let shopId: string;
  beforeAll(async () => {
    t = limitedApp({ SIGNUP_RATE_LIMIT_PER_HOUR: "2" });
    shopId = (await t.org("Shop", { host: SHOP_HOST })).id;
  }, SLOW);
  afterAll(() => t.cleanup());

  test(
    "past the limit an address gets 429 with Retry-After, on the dashboard and in stores alike, and nothing is created",
    async () => {
      expect((await dashboardSignUp(t, "203.0.113.1", "first@example.com")).status).toBe(201);
      expect((await dashboardSignUp(t, "203.0.113.1", "second@example.com")).status).toBe(201);

      const dashboard = await dashboardSignUp(t, "203.0.113.1", "third@example.com");
      expectRateLimited(dashboard, 3600);
      expect(findUserByEmail(t.app.ctx.platform, "third@example.com")).toBeUndefined();

      const store = await shopSignUp(t, "203.0.113.1", "shopper@example.com");
      expectRateLimited(store, 3600);
      const rows = withTenant(t, shopId, (tenant) =>
        tenant.sqlite.query("SELECT id FROM customers WHERE email = ?").all("shopper@example.com"),
      );
      expect(rows).toEqual([]);
    },
    SLOW,
  );

  test(
    "another address still signs up",
    async () => {
      expect((await dashboardSignUp(t, "203.0.113.2", "third@example.com")).status).toBe(201);
      expect((await shopSignUp(t, "203.0.113.2", "shopper@example.com")).status).toBe(201);
    },
    SLOW,
  );
});

describe("sign-in per client address across all emails (SIGNIN_RATE_LIMIT_PER_HOUR)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = limitedApp({ SIGNIN_RATE_LIMIT_PER_HOUR: "3" });
    await t.org("Shop", { host: SHOP_HOST });
    await createUser(t.app.ctx.platform, { email: "owner@example.com", password: PASSWORD });
    expect((await shopSignUp(t, "198.51.100.50", "shopper@example.com")).status).toBe(201);
  }, SLOW);
  afterAll(() => t.cleanup());

  test(
    "spraying one password over many emails from one address is stopped, without spending a hash",
    async () => {
      const sprayer = "198.51.100.7";
      for (const email of ["a@example.com", "b@example.com", "owner@example.com"]) {
        expect((await dashboardSignIn(t, sprayer, email, "Summer2026!")).status).toBe(401);
      }
      const watch = watchNativeHashing();
      try {
        // Even the right password of a real account: the address has used its attempts.
        expectRateLimited(await dashboardSignIn(t, sprayer, "owner@example.com", PASSWORD), 3600);
        expectRateLimited(await dashboardSignIn(t, sprayer, "d@example.com", "Summer2026!"), 3600);
        // Storefront sign-ins draw on the same allowance of the address.
        expectRateLimited(await shopSignIn(t, sprayer, "shopper@example.com", PASSWORD), 3600);
        expect(watch.seen.calls).toBe(0);
      } finally {
        watch.restore();
      }
    },
    SLOW,
  );

  test(
    "another address still signs in, on the dashboard and in the store",
    async () => {
      expect((await dashboardSignIn(t, "198.51.100.8", "owner@example.com", PASSWORD)).status).toBe(200);
      expect((await shopSignIn(t, "198.51.100.8", "shopper@example.com", PASSWORD)).status).toBe(200);
    },
    SLOW,
  );
});

describe("concurrent password hashes (PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE)", () => {
  test(
    "beyond the cap a sign-in waits its turn; beyond the queue it is a 503 UNAVAILABLE with Retry-After",
    async () => {
      const t = limitedApp({ PASSWORD_HASH_CONCURRENCY: "2", PASSWORD_HASH_QUEUE: "3" });
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holders: Promise<void>[] = [];
      let watch: ReturnType<typeof watchNativeHashing> | undefined;
      try {
        await createUser(t.app.ctx.platform, { email: "owner@example.com", password: PASSWORD });
        // Two long tasks take both slots, so the sign-ins below find the cap reached.
        holders = [passwordHashing.run(() => gate), passwordHashing.run(() => gate)];
        expect(passwordHashing.stats()).toEqual({ active: 2, waiting: 0 });
        watch = watchNativeHashing();

        const answered: { status: number; body: any; response: Response }[] = [];
        const attempts = Array.from({ length: 5 }, (_, i) =>
          dashboardSignIn(t, `192.0.2.${i + 1}`, "owner@example.com", "wrong password").then((answer) => {
            answered.push(answer);
            return answer;
          }),
        );
        await until(
          () => passwordHashing.stats().waiting === 3 && answered.length === 2,
          "3 waiting, 2 refused",
        );
        expect(watch.seen.calls).toBe(0);
        for (const refused of answered) {
          expect(refused.status).toBe(503);
          expect(refused.body).toEqual({
            error: "Too many password checks at once; retry shortly",
            code: "UNAVAILABLE",
            status: 503,
          });
          expect(refused.response.headers.get("retry-after")).toBe("1");
        }

        release();
        const all = await Promise.all(attempts);
        expect(all.map((answer) => answer.status).sort()).toEqual([401, 401, 401, 503, 503]);
        expect(watch.seen.calls).toBe(3);
        expect(watch.seen.most).toBeLessThanOrEqual(2);
        expect(passwordHashing.stats()).toEqual({ active: 0, waiting: 0 });
      } finally {
        release();
        await Promise.all(holders);
        watch?.restore();
        t.cleanup();
      }
    },
    SLOW,
  );

  test(
    "a burst of dashboard and storefront sign-ins runs one hash at a time with a cap of 1, and all are answered",
    async () => {
      const t = limitedApp({ PASSWORD_HASH_CONCURRENCY: "1", PASSWORD_HASH_QUEUE: "20" });
      let watch: ReturnType<typeof watchNativeHashing> | undefined;
      try {
        await t.org("Shop", { host: SHOP_HOST });
        await createUser(t.app.ctx.platform, { email: "owner@example.com", password: PASSWORD });
        expect((await shopSignUp(t, "192.0.2.200", "shopper@example.com")).status).toBe(201);
        watch = watchNativeHashing();
        const answers = await Promise.all([
          ...Array.from({ length: 4 }, (_, i) =>
            dashboardSignIn(
              t,
              `192.0.2.${10 + i}`,
              "owner@example.com",
              i === 0 ? PASSWORD : "wrong password",
            ),
          ),
          ...Array.from({ length: 2 }, (_, i) =>
            shopSignIn(t, `192.0.2.${20 + i}`, "shopper@example.com", i === 0 ? PASSWORD : "wrong password"),
          ),
        ]);
        expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 401, 200, 401]);
        expect(watch.seen.calls).toBe(6);
        expect(watch.seen.most).toBe(1);
      } finally {
        watch?.restore();
        t.cleanup();
      }
    },
    SLOW,
  );
});
