import { Database } from "bun:sqlite";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { SESSION_COOKIE } from "../../src/auth/caller.ts";
import { createSession, findUserByEmail } from "../../src/auth/service.ts";
import type { Operation } from "../../src/core/operation.ts";
import { startCustomerSession } from "../../src/customers/accounts.ts";
import { ensureDemoTenant } from "../../src/demo.ts";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { PT_ADDRESS } from "../helpers/shop.ts";
import {
  EASYPAY,
  type FakeServer,
  fakeEasypay,
  fakeIfthenpay,
  fakeStripe,
  IFTHENPAY,
  STRIPE_ENV,
} from "../payments/helpers.ts";
import {
  type Credentials,
  caseArbitrary,
  type FuzzCase,
  type FuzzOperation,
  IdPool,
  type KnownValues,
  type OpenApiDocument,
  operationsOf,
} from "./openapi-arbitraries.ts";

// The fuzz target: an app on temp SQLite files with the seeded demo store, a dashboard user and a
// storefront customer, the operations of its served OpenAPI document, and the checks every
// answer must pass. Used by test/fuzz/openapi.test.ts and scripts/fuzz.ts.

/** A broken rule, with what it takes to replay it. */
export interface Problem {
  rule: string;
  case: FuzzCase;
  status: number;
  body: string;
}

export interface FuzzRun {
  cases: number;
  serverErrors: number;
  byStatus: Record<string, number>;
  problems: Problem[];
}

const CUSTOMER = { email: "fuzz.customer@example.com", password: "correct horse battery" };
const DASHBOARD_USER = "fuzz.owner@example.com";

/**
 * A hash of every row of every table of the platform file and each tenant file: what a 4xx must
 * leave alone. Read on connections of its own, so `PRAGMA data_version` tells when the service
 * committed anything, and the rows are hashed again only then.
 */
export class Fingerprint {
  private readonly connections = new Map<string, Database>();
  /** Per file: the `PRAGMA data_version` last seen and the hash of the rows at that version. */
  private readonly seen = new Map<string, { version: number; hash: string }>();

  constructor(private readonly dataDir: string) {}

  private files(): string[] {
    const tenants = join(this.dataDir, "tenants");
    const files = [join(this.dataDir, "platform.sqlite")];
    if (existsSync(tenants)) {
      for (const name of readdirSync(tenants).sort()) {
        if (name.endsWith(".sqlite")) files.push(join(tenants, name));
      }
    }
    return files;
  }

  private sqlite(file: string): Database {
    let sqlite = this.connections.get(file);
    if (!sqlite) {
      sqlite = new Database(file, { readonly: true });
      this.connections.set(file, sqlite);
    }
    return sqlite;
  }

  private rowsHash(sqlite: Database): string {
    const hasher = new Bun.CryptoHasher("sha256");
    const tables = sqlite
      .query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      hasher.update(`${name}\n`);
      for (const row of sqlite.query(`SELECT * FROM "${name}"`).all()) {
        hasher.update(
          JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v)),
        );
      }
    }
    return hasher.digest("hex");
  }

  /** The fingerprint now; a file's rows are read again only when `PRAGMA data_version` moved (a commit). */
  current(): string {
    return this.files()
      .map((file) => {
        const sqlite = this.sqlite(file);
        const { data_version: version } = sqlite.query("PRAGMA data_version").get() as {
          data_version: number;
        };
        let seen = this.seen.get(file);
        if (seen?.version !== version) {
          seen = { version, hash: this.rowsHash(sqlite) };
          this.seen.set(file, seen);
        }
        return `${file}:${seen.hash}`;
      })
      .join("|");
  }

  close(): void {
    for (const sqlite of this.connections.values()) sqlite.close();
    this.connections.clear();
  }
}

/** Any `…_…` id in an answer, so later cases can use ids created meanwhile. */
function harvestIds(value: unknown, ids: IdPool, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    if (
      typeof inner === "string" &&
      (key === "id" || key.endsWith("Id")) &&
      /^[a-z]+_[A-Za-z0-9]{6,}$/.test(inner)
    ) {
      ids.add(inner);
    } else harvestIds(inner, ids, depth + 1);
  }
}

export class FuzzTarget {
  readonly operations: FuzzOperation[];
  private readonly fingerprint: Fingerprint;

  private constructor(
    readonly t: TestApp,
    readonly doc: OpenApiDocument,
    readonly known: KnownValues,
    readonly creds: Credentials,
    private readonly demoOrgId: string,
    private readonly providers: FakeServer[],
  ) {
    this.operations = operationsOf(doc);
    this.fingerprint = new Fingerprint(t.dataDir);
  }

  /** `operations`: extra operations served beside the modules' (the harness's own tests use them). */
  static async create(options: { operations?: Operation[] } = {}): Promise<FuzzTarget> {
    // With CHECKOUT_API_SECRET unset, every payment notification is a 503 WEBHOOKS_DISABLED by design.
    // Provider calls (saving credentials checks them, place-order opens payments) go to local fakes,
    // never to a provider's real API.
    const [stripe, ifthenpay, easypay] = [fakeStripe(), fakeIfthenpay(), fakeEasypay()];
    const providers = [stripe, ifthenpay, easypay];
    const env = {
      DEMO_TENANT: "true",
      CHECKOUT_API_SECRET: "f".repeat(40),
      STRIPE_API_BASE: stripe.url,
      IFTHENPAY_BASE_URL: ifthenpay.url,
      EASYPAY_BASE_URL: easypay.url,
      // The platform's own accounts, so a notification for `_` is verified rather than refused as
      // not configured (a 503 the contract asks for, which the fuzz would count as a server error).
      ...STRIPE_ENV,
      IFTHENPAY_ANTIPHISHING_KEY: IFTHENPAY.antiPhishingKey,
      IFTHENPAY_MB_KEY: IFTHENPAY.mbKey,
      IFTHENPAY_MBWAY_KEY: IFTHENPAY.mbWayKey,
      EASYPAY_ACCOUNT_ID: EASYPAY.accountId,
      EASYPAY_API_KEY: EASYPAY.apiKey,
    };
    const t = makeTestApp({ env, operations: options.operations });
    const demo = await ensureDemoTenant(t.app.ctx);
    if (!demo) throw new Error("demo store not created");
    const doc = (await t.json("/v1/openapi.json")).body as OpenApiDocument;
    const creds: Credentials = {
      host: demo.host,
      adminKey: demo.apiKey,
      userCookie: "",
      customerSession: "",
    };
    const known: KnownValues = {
      ids: new IdPool(),
      hints: {
        country: ["PT", "ES", "FR"],
        currency: ["EUR", "USD"],
        locale: ["en", "pt"],
        defaultLocale: ["en", "pt"],
        email: [CUSTOMER.email],
        password: [CUSTOMER.password],
        provider: ["stripe", "easypay", "ifthenpay"],
        paymentMethodId: ["manual_bank_transfer", "manual_cash_on_delivery"],
        postalCode: [PT_ADDRESS.postalCode],
        city: [PT_ADDRESS.city],
      },
    };
    const target = new FuzzTarget(t, doc, known, creds, demo.org.id, providers);
    creds.userCookie = await signUp(t, DASHBOARD_USER);
    // The user owns an organization from the start, so its API-key operations have one to act on.
    await t.json(
      "/api/auth/organization/create",
      jsonBody({ name: "Fuzz Owner" }, { cookie: creds.userCookie }),
    );
    const customer = await t.json("/v1/account/sign-up", jsonBody(CUSTOMER, { host: demo.host }));
    if (customer.status !== 201) throw new Error(`customer sign-up: ${customer.status}`);
    creds.customerSession = customer.body.data.token;
    target.customerId = customer.body.data.customer.id;
    await target.seedIds();
    known.ids.seal();
    return target;
  }

  private customerId = "";

  /**
   * After a successful sign-out, the next cases need a session again. Started directly, not by
   * signing in: the fuzzed sign-ins have used up this client's sign-in allowance by then.
   */
  private async renewSessions(operationId: string): Promise<void> {
    if (operationId === "signOutCustomer") {
      this.creds.customerSession = await this.t.app.ctx.tenants.with(this.demoOrgId, (tenant) =>
        startCustomerSession(tenant, this.customerId),
      );
    }
    if (operationId === "signOut") {
      const user = findUserByEmail(this.t.app.ctx.platform, DASHBOARD_USER);
      if (!user) throw new Error("the fuzz user is gone");
      this.creds.userCookie = `${SESSION_COOKIE}=${createSession(this.t.app.ctx.platform, user.id, null).token}`;
    }
  }

  /** Real ids from the list endpoints, and a placed order, so cases reach past "not found". */
  private async seedIds(): Promise<void> {
    const admin = { "x-api-key": this.creds.adminKey };
    for (const path of [
      "/v1/admin/products?limit=20",
      "/v1/admin/categories",
      "/v1/admin/coupons",
      "/v1/admin/shipping-methods",
    ]) {
      harvestIds((await this.t.json(path, { headers: admin })).body, this.known.ids);
    }
    const products = (await this.t.json("/v1/admin/products?limit=5", { headers: admin })).body.data as {
      id: string;
    }[];
    for (const product of products) {
      harvestIds(
        (await this.t.json(`/v1/admin/products/${product.id}`, { headers: admin })).body,
        this.known.ids,
      );
    }
    const storefront = (path: string, body: unknown) =>
      this.t.json(
        path,
        jsonBody(body, { host: this.creds.host, "x-customer-session": this.creds.customerSession }),
      );
    // Carts in each state: an empty one's worth of items only, several ready to place, one placed.
    for (let i = 0; i < 5; i++) {
      const variantId = this.known.ids.pick("var", i * 3);
      const cart = await storefront("/v1/carts", {
        email: CUSTOMER.email,
        items: [{ variantId, quantity: 1 }],
      });
      harvestIds(cart.body, this.known.ids);
      const cartId = cart.body?.data?.id;
      if (!cartId || i === 0) continue;
      await storefront(`/v1/carts/${cartId}/shipping-address`, PT_ADDRESS);
      const methods = await this.t.json(`/v1/carts/${cartId}/shipping-methods`, {
        headers: { host: this.creds.host },
      });
      const shippingMethodId = methods.body?.data?.[0]?.id;
      if (shippingMethodId) await storefront(`/v1/carts/${cartId}/shipping-method`, { shippingMethodId });
      if (i > 1) continue;
      const order = await storefront(`/v1/carts/${cartId}/place-order`, {
        paymentMethodId: "manual_bank_transfer",
      });
      harvestIds(order.body, this.known.ids);
    }
    harvestIds((await this.t.json("/v1/admin/customers", { headers: admin })).body, this.known.ids);
  }

  /** Sends one case through `app.fetch` and checks the rules every answer must keep. */
  async run(c: FuzzCase): Promise<{ status: number; problems: Problem[] }> {
    const before = this.fingerprint.current();
    const response = await this.t.request(c.url, { method: c.method, headers: c.headers, body: c.body });
    const text = await response.text();
    const status = response.status;
    const problems: Problem[] = [];
    const problem = (rule: string) => problems.push({ rule, case: c, status, body: text.slice(0, 500) });
    if (status >= 500) problem("no 5xx");
    if (status >= 400 && status < 500) {
      let body: { error?: unknown; code?: unknown; status?: unknown } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (typeof body?.error !== "string" || typeof body.code !== "string" || body.status !== status) {
        problem("a 4xx carries {error, code, status} with the HTTP status");
      }
      if (this.fingerprint.current() !== before) problem("a 4xx changes nothing");
    }
    if (c.mustFail && status < 400) problem("input the schema refuses is a 4xx");
    if (status < 300 && text) {
      try {
        harvestIds(JSON.parse(text), this.known.ids);
      } catch {
        // not JSON: nothing to learn
      }
    }
    if (status < 300) await this.renewSessions(c.operationId);
    return { status, problems };
  }

  /** `runs` generated cases per operation, from one seed; problems are collected, not thrown. */
  async fuzz(options: { seed: number; runs: number; onProblem?: (p: Problem) => void }): Promise<FuzzRun> {
    const result: FuzzRun = { cases: 0, serverErrors: 0, byStatus: {}, problems: [] };
    for (const op of this.operations) {
      await fc.assert(
        fc.asyncProperty(caseArbitrary(op, this.known, this.creds), async (c) => {
          const { status, problems } = await this.run(c);
          result.cases++;
          if (status >= 500) result.serverErrors++;
          const bucket = `${Math.floor(status / 100)}xx`;
          result.byStatus[bucket] = (result.byStatus[bucket] ?? 0) + 1;
          for (const p of problems) {
            result.problems.push(p);
            options.onProblem?.(p);
          }
        }),
        // One seed per operation, from the run's seed and its id: adding an operation changes no other's cases.
        { seed: (options.seed ^ Number(Bun.hash.crc32(op.operationId))) | 0, numRuns: options.runs },
      );
    }
    return result;
  }

  close(): void {
    this.fingerprint.close();
    this.t.cleanup();
    for (const provider of this.providers) provider.stop();
  }
}
