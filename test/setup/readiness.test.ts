import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { runCli } from "../helpers/cli.ts";
import { IFTHENPAY } from "../payments/helpers.ts";

// Each CLI run is a fresh process: allow for a busy machine.
const CLI_TIMEOUT_MS = 30_000;

interface Blocker {
  code: string;
  message: string;
  fix: string;
}

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.cleanup());

async function readiness(key: string): Promise<{ ready: boolean; blockers: Blocker[]; warnings: Blocker[] }> {
  const { status, body } = await t.json("/v1/admin/readiness", { headers: { "x-api-key": key } });
  expect(status).toBe(200);
  return body.data;
}

const codes = async (key: string) => (await readiness(key)).blockers.map((b) => b.code);

/** Everything but `omit` set up: a product in stock, a PT shipping method, bank transfer. */
async function shopWithout(
  name: string,
  omit: "product" | "shipping" | "payment" | "nothing",
  host?: string,
) {
  const org = await t.org(name, { host: host ?? `${name.toLowerCase().replaceAll(" ", "-")}.example` });
  const admin = adminClient(t, org.key);
  if (omit !== "product") {
    const created = await admin.post("/v1/admin/products", {
      name: { en: "Mug" },
      variants: [{ price: 900, inventory: { onHand: 3 } }],
    });
    expect(created.status).toBe(201);
  }
  if (omit !== "shipping") {
    expect(
      (await admin.post("/v1/admin/shipping-methods", { name: { en: "PT" }, price: 300, countries: ["PT"] }))
        .status,
    ).toBe(201);
  }
  if (omit !== "payment") {
    expect((await admin.patch("/v1/admin/store", { manualPaymentMethods: ["bank_transfer"] })).status).toBe(
      200,
    );
  }
  return { org, admin };
}

describe("GET /v1/admin/readiness", () => {
  test("a new organization without a host lists all four blockers, each with a fix naming the endpoint or command", async () => {
    const org = await t.org("Empty shop");
    const result = await readiness(org.key);
    expect(result.ready).toBe(false);
    expect(result.blockers.map((b) => b.code)).toEqual([
      "NO_PRODUCT",
      "NO_SHIPPING_METHOD",
      "NO_PAYMENT_METHOD",
      "NO_DOMAIN",
    ]);
    const fixes = Object.fromEntries(result.blockers.map((b) => [b.code, b.fix]));
    expect(fixes.NO_PRODUCT).toContain("POST /v1/admin/products");
    expect(fixes.NO_SHIPPING_METHOD).toContain('POST /v1/admin/shipping-methods with "countries": ["PT"]');
    expect(fixes.NO_PAYMENT_METHOD).toContain("PATCH /v1/admin/store");
    expect(fixes.NO_PAYMENT_METHOD).toContain("PUT /v1/admin/integrations/{provider}");
    expect(fixes.NO_DOMAIN).toContain(`commerce domain add --org ${org.id}`);
    for (const blocker of result.blockers) expect(blocker.message.length).toBeGreaterThan(10);
  });

  test("a shop with a sellable product, a shipping method for its country, a payment method and a domain is ready", async () => {
    const { org } = await shopWithout("Ready shop", "nothing");
    expect(await readiness(org.key)).toEqual({
      ready: true,
      blockers: [],
      warnings: [
        {
          code: "EMAIL_NOT_CONFIGURED",
          message: expect.stringContaining("No email is sent"),
          fix: expect.stringContaining("SMTP_URL"),
        },
      ],
    });
  });

  test("with SMTP_URL set there is no warning: email is configured", async () => {
    const mailing = makeTestApp({
      env: { SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "shop@example.com" },
    });
    try {
      const org = await mailing.org("Mailing shop");
      const { body } = await mailing.json("/v1/admin/readiness", { headers: { "x-api-key": org.key } });
      expect(body.data.warnings).toEqual([]);
    } finally {
      mailing.cleanup();
    }
  });

  test("a product counts only when active with a variant in stock, untracked or open to backorder", async () => {
    const { org, admin } = await shopWithout("Product rules", "product");
    expect(await codes(org.key)).toEqual(["NO_PRODUCT"]);

    const draft = await admin.post("/v1/admin/products", {
      name: { en: "Draft" },
      status: "draft",
      variants: [{ price: 500 }],
    });
    expect(draft.status).toBe(201);
    const soldOut = await admin.post("/v1/admin/products", {
      name: { en: "Sold out" },
      variants: [{ price: 500, inventory: { onHand: 0 } }],
    });
    expect(soldOut.status).toBe(201);
    expect(await codes(org.key)).toEqual(["NO_PRODUCT"]);

    const variantId = soldOut.body.data.variants[0].id;
    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, { allowBackorder: true })).status).toBe(
      200,
    );
    expect(await codes(org.key)).toEqual([]);

    expect((await admin.patch(`/v1/admin/inventory/${variantId}`, { allowBackorder: false })).status).toBe(
      200,
    );
    expect(await codes(org.key)).toEqual(["NO_PRODUCT"]);
    expect((await admin.patch(`/v1/admin/products/${draft.body.data.id}`, { status: "active" })).status).toBe(
      200,
    );
    expect(await codes(org.key)).toEqual([]); // its variant is untracked: always available
  });

  test("shipping counts only for an active method serving the store's country; a digital-only shop needs none", async () => {
    const { org, admin } = await shopWithout("Shipping rules", "shipping");
    expect(await codes(org.key)).toEqual(["NO_SHIPPING_METHOD"]);

    expect(
      (
        await admin.post("/v1/admin/shipping-methods", {
          name: { en: "Spain" },
          price: 500,
          countries: ["ES"],
        })
      ).status,
    ).toBe(201);
    const world = await admin.post("/v1/admin/shipping-methods", {
      name: { en: "World" },
      price: 1500,
      countries: [],
      active: false,
    });
    expect(world.status).toBe(201);
    expect(await codes(org.key)).toEqual(["NO_SHIPPING_METHOD"]);

    // The store moves to Spain: the Spanish method now serves its country.
    expect((await admin.patch("/v1/admin/store", { country: "ES" })).status).toBe(200);
    expect(await codes(org.key)).toEqual([]);
    expect((await admin.patch("/v1/admin/store", { country: "FR" })).status).toBe(200);
    const blockers = (await readiness(org.key)).blockers;
    expect(blockers.map((b) => b.code)).toEqual(["NO_SHIPPING_METHOD"]);
    expect(blockers[0]!.message).toContain("(FR)");

    expect(
      (await admin.patch(`/v1/admin/shipping-methods/${world.body.data.id}`, { active: true })).status,
    ).toBe(200);
    expect(await codes(org.key)).toEqual([]);

    const digital = await shopWithout("Digital shop", "shipping");
    const products = await digital.admin.get("/v1/admin/products");
    const productId = products.body.data[0].id;
    expect(
      (await digital.admin.patch(`/v1/admin/products/${productId}`, { requiresShipping: false })).status,
    ).toBe(200);
    expect(await codes(digital.org.key)).toEqual([]);
  });

  test("a payment method is a manual method of the store or a provider integration", async () => {
    const manual = await shopWithout("Manual pay", "payment");
    expect(await codes(manual.org.key)).toEqual(["NO_PAYMENT_METHOD"]);
    expect(
      (await manual.admin.patch("/v1/admin/store", { manualPaymentMethods: ["cash_on_delivery"] })).status,
    ).toBe(200);
    expect(await codes(manual.org.key)).toEqual([]);

    const provider = await shopWithout("Provider pay", "payment");
    const put = await t.json("/v1/admin/integrations/ifthenpay", {
      method: "PUT",
      headers: { "x-api-key": provider.org.key, "content-type": "application/json" },
      body: JSON.stringify({ fields: IFTHENPAY }),
    });
    expect(put.status).toBe(201);
    expect(await codes(provider.org.key)).toEqual([]);
  });

  test(
    "the domain blocker clears with a domain of the shop's own",
    async () => {
      const org = await t.org("Domain later");
      expect(await codes(org.key)).toContain("NO_DOMAIN");
      const added = await runCli(["domain", "add", "--org", org.id, "--host", "later.example"], {
        DATA_DIR: t.dataDir,
      });
      expect(added.code).toBe(0);
      expect(await codes(org.key)).not.toContain("NO_DOMAIN");
    },
    CLI_TIMEOUT_MS,
  );

  test("with a public PLATFORM_DOMAIN the platform subdomain is the shop's address: no domain blocker", async () => {
    const shops = makeTestApp({ env: { PLATFORM_DOMAIN: "shops.example.com" } });
    try {
      const org = await shops.org("Subdomain shop");
      const { body } = await shops.json("/v1/admin/readiness", { headers: { "x-api-key": org.key } });
      expect(body.data.blockers.map((b: Blocker) => b.code)).toEqual([
        "NO_PRODUCT",
        "NO_SHIPPING_METHOD",
        "NO_PAYMENT_METHOD",
      ]);
    } finally {
      shops.cleanup();
    }
  });

  test("is an admin operation: a storefront key is refused with 403 and the error envelope", async () => {
    const org = await t.org("Storefront only", { scopes: ["storefront"] });
    const { status, body } = await t.json("/v1/admin/readiness", { headers: { "x-api-key": org.key } });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "FORBIDDEN", status: 403 });
  });
});

describe("commerce readiness", () => {
  const cli = (...args: string[]) => runCli(args, { DATA_DIR: t.dataDir });

  test(
    "exits 1 listing each blocker with its fix, and prints the endpoint's body with --json",
    async () => {
      const { org } = await shopWithout("Cli blocked", "payment");
      const run = await cli("readiness", org.slug);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("Cli blocked (cli-blocked) cannot sell yet:");
      expect(run.stdout).toContain("NO_PAYMENT_METHOD");
      expect(run.stdout).toContain('fix: PATCH /v1/admin/store with "manualPaymentMethods"');

      const json = await cli("readiness", org.id, "--json");
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual(await readiness(org.key));
    },
    CLI_TIMEOUT_MS,
  );

  test(
    "exits 0 when ready, by slug or id",
    async () => {
      const { org } = await shopWithout("Cli ready", "nothing");
      for (const ref of [org.slug, org.id]) {
        const run = await cli("readiness", ref);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(run.stdout.trim().split("\n").slice(0, 3)).toEqual([
          "Cli ready (cli-ready) is ready to sell",
          "Worth doing:",
          expect.stringMatching(/^ {2}EMAIL_NOT_CONFIGURED {2}No email is sent/),
        ]);
      }
    },
    CLI_TIMEOUT_MS,
  );

  test(
    "an unknown organization exits 1; a missing one prints the usage and exits 2",
    async () => {
      const unknown = await cli("readiness", "no-such-shop");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("organization no-such-shop not found");
      const missing = await cli("readiness");
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("readiness ORG");
    },
    CLI_TIMEOUT_MS,
  );
});
