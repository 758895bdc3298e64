import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAY_MS, divideRounded } from "../../src/orders/stats.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient, shirtProduct, simpleProduct } from "../helpers/catalog.ts";
import { type SeedOrder, seedCustomer, seedOrder } from "../helpers/seed-orders.ts";

let t: TestApp;
let shop: { id: string; key: string };
let admin: AdminClient;
const HOST = "stats.example";
const eur = (amount: number) => ({ amount, currency: "EUR" });
const RANGE = "from=2024-03-01T00:00:00Z&to=2024-03-08T00:00:00Z";
const p: Record<string, string> = {};
const MANUAL_TRANSFER = { id: "manual_bank_transfer", provider: "manual", type: "bank_transfer" };
const MANUAL_COD = { id: "manual_cash_on_delivery", provider: "manual", type: "cash_on_delivery" };

async function product(key: string, body: Record<string, unknown>) {
  const res = await admin.post("/v1/admin/products", body);
  if (res.status !== 201) throw new Error(`product ${key}: ${res.status} ${JSON.stringify(res.body)}`);
  p[key] = res.body.data.id;
}

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Stats shop", { host: HOST });
  admin = adminClient(t, shop.key);

  // Catalog: 5 active products; tracked variants at or below 5 of active products: 1 + 1 + 6 = 8.
  await product(
    "alpha",
    simpleProduct("Alpha", 1500, { variants: [{ price: 1500, inventory: { onHand: 3 } }] }),
  );
  await product(
    "beta",
    simpleProduct("Beta", 2000, { variants: [{ price: 2000, inventory: { onHand: 5 } }] }),
  );
  await product(
    "gamma",
    simpleProduct("Gamma", 3000, { variants: [{ price: 3000, inventory: { onHand: 6 } }] }),
  );
  await product("epsilon", simpleProduct("Epsilon", 5000)); // untracked
  await product("shirt", shirtProduct("T", { name: { en: "T shirt" } })); // 6 variants, 5 each
  await product(
    "draft",
    simpleProduct("Draft", 100, { status: "draft", variants: [{ price: 100, inventory: { onHand: 0 } }] }),
  );
  await product(
    "archived",
    simpleProduct("Archived", 100, {
      status: "archived",
      variants: [{ price: 100, inventory: { onHand: 1 } }],
    }),
  );

  // Customers: 5 in all, 2 created in [Mar 1, Mar 8).
  const buyer = seedCustomer(t, shop.id, { email: "buyer@example.com", createdAt: "2024-02-15T10:00:00Z" });
  seedCustomer(t, shop.id, { email: "first@example.com", createdAt: "2024-03-01T00:00:00Z" });
  seedCustomer(t, shop.id, { email: "mid@example.com", createdAt: "2024-03-05T12:00:00Z" });
  seedCustomer(t, shop.id, { email: "at-to@example.com", createdAt: "2024-03-08T00:00:00Z" });
  seedCustomer(t, shop.id, { email: "later@example.com", createdAt: "2024-03-10T00:00:00Z" });

  const order = (o: Omit<SeedOrder, "customerId">) => seedOrder(t, shop.id, { customerId: buyer, ...o });
  const line = (key: string, quantity: number, unitPrice: number, discount = 0) => ({
    productId: p[key]!,
    name: `${key} as sold`,
    quantity,
    unitPrice,
    discount,
  });
  // O1: paid, awaiting fulfilment. 3000 + 2000 + 500 shipping.
  order({
    paymentStatus: "paid",
    items: [line("alpha", 2, 1500), line("beta", 1, 2000)],
    shipping: 500,
    placedAt: "2024-03-01T10:00:00Z",
  });
  // O2: partially refunded, 10000 − 2500.
  order({
    status: "completed",
    paymentStatus: "partially_refunded",
    fulfillmentStatus: "fulfilled",
    items: [line("gamma", 1, 10_000)],
    refunded: 2500,
    placedAt: "2024-03-01T15:00:00Z",
  });
  // O11: payment failed (counts as an order, no revenue, not awaiting payment).
  order({ paymentStatus: "failed", items: [line("epsilon", 1, 800)], placedAt: "2024-03-02T10:00:00Z" });
  // O13: paid, with a line discount: 3000 − 497 = 2503.
  order({
    status: "completed",
    paymentStatus: "paid",
    fulfillmentStatus: "fulfilled",
    items: [line("alpha", 2, 1500, 497)],
    placedAt: "2024-03-02T12:00:00Z",
  });
  // O3, O4: awaiting payment.
  order({ paymentStatus: "pending", items: [line("alpha", 1, 1500)], placedAt: "2024-03-03T09:00:00Z" });
  order({
    paymentStatus: "processing",
    items: [line("beta", 1, 2000), { productId: "prod_tiny", name: "Tiny", quantity: 1, unitPrice: 100 }],
    placedAt: "2024-03-03T12:00:00Z",
  });
  // O5: cancelled (expired): in no figure, although its line is the largest.
  order({
    status: "cancelled",
    paymentStatus: "expired",
    items: [line("epsilon", 10, 5000)],
    placedAt: "2024-03-04T08:00:00Z",
  });
  // O6: refunded in full: a paid order worth 0.
  order({
    status: "completed",
    paymentStatus: "refunded",
    fulfillmentStatus: "fulfilled",
    items: [line("beta", 2, 2000)],
    refunded: 4000,
    placedAt: "2024-03-05T20:00:00Z",
  });
  // O7: manual payment, pending: awaiting payment and fulfilment.
  order({
    paymentStatus: "pending",
    paymentMethod: MANUAL_TRANSFER,
    items: [line("gamma", 1, 3000)],
    placedAt: "2024-03-06T11:00:00Z",
  });
  // O12: cash on delivery, shipped, not yet paid: awaiting payment only.
  order({
    paymentStatus: "pending",
    fulfillmentStatus: "fulfilled",
    paymentMethod: MANUAL_COD,
    items: [line("gamma", 1, 2500)],
    placedAt: "2024-03-06T13:00:00Z",
  });
  // O8: paid, the last millisecond of the range; its product no longer exists.
  order({
    status: "completed",
    paymentStatus: "paid",
    fulfillmentStatus: "fulfilled",
    items: [
      { productId: "prod_gone", name: { en: "Old thing", pt: "Coisa velha" }, quantity: 1, unitPrice: 7000 },
    ],
    placedAt: "2024-03-07T23:59:59.999Z",
  });
  // O9, O10: outside the range (at `to`, and just before `from`); O10 still awaits fulfilment.
  order({
    status: "completed",
    paymentStatus: "paid",
    fulfillmentStatus: "fulfilled",
    items: [line("alpha", 1, 99_999)],
    placedAt: "2024-03-08T00:00:00Z",
  });
  order({ paymentStatus: "paid", items: [line("alpha", 1, 1000)], placedAt: "2024-02-29T23:59:59.999Z" });
});
afterAll(() => t.cleanup());

const stats = (query: string) => admin.get(`/v1/admin/dashboard/stats${query ? `?${query}` : ""}`);

describe("GET /v1/admin/dashboard/stats", () => {
  test("every figure over a week of orders, by hand", async () => {
    const res = await stats(RANGE);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      from: "2024-03-01T00:00:00.000Z",
      to: "2024-03-08T00:00:00.000Z",
      // O1 5500 + O2 7500 + O13 2503 + O6 0 + O8 7000
      revenue: eur(22_503),
      // O1 O2 O11 O13 O3 O4 O6 O7 O12 O8 (O5 cancelled; O9, O10 outside)
      ordersCount: 10,
      // 22503 / 5 paid orders = 4500.6
      averageOrderValue: eur(4501),
      customersCount: 5,
      newCustomersCount: 2,
      productsCount: 5,
      lowStockVariants: 8,
      // O3 pending, O4 processing, O7 and O12 manual pending
      ordersAwaitingPayment: 4,
      // O1 paid, O7 manual, O10 paid (before the range: a current state)
      ordersAwaitingFulfillment: 3,
      topProducts: [
        { productId: p.gamma, name: { en: "Gamma" }, quantity: 3, revenue: eur(15_500) },
        { productId: p.beta, name: { en: "Beta" }, quantity: 4, revenue: eur(8000) },
        { productId: p.alpha, name: { en: "Alpha" }, quantity: 5, revenue: eur(7003) },
        {
          productId: "prod_gone",
          name: { en: "Old thing", pt: "Coisa velha" },
          quantity: 1,
          revenue: eur(7000),
        },
        { productId: p.epsilon, name: { en: "Epsilon" }, quantity: 1, revenue: eur(800) },
      ],
      salesByDay: [
        { date: "2024-03-01", orders: 2, revenue: eur(13_000) },
        { date: "2024-03-02", orders: 2, revenue: eur(2503) },
        { date: "2024-03-03", orders: 2, revenue: eur(0) },
        { date: "2024-03-04", orders: 0, revenue: eur(0) },
        { date: "2024-03-05", orders: 1, revenue: eur(0) },
        { date: "2024-03-06", orders: 2, revenue: eur(0) },
        { date: "2024-03-07", orders: 1, revenue: eur(7000) },
      ],
    });
  });

  test("a range that cuts days: [Mar 1 12:00, Mar 3 12:00) touches three days", async () => {
    const res = await stats("from=2024-03-01T12:00:00Z&to=2024-03-03T12:00:00Z");
    expect(res.status).toBe(200);
    const data = res.body.data;
    // O2 7500, O11 0, O13 2503, O3 0 (O1 is before, O4 at `to`).
    expect(data.revenue).toEqual(eur(10_003));
    expect(data.ordersCount).toBe(4);
    expect(data.averageOrderValue).toEqual(eur(5002)); // 10003 / 2 = 5001.5, half away from zero
    expect(data.newCustomersCount).toBe(0);
    expect(data.salesByDay).toEqual([
      { date: "2024-03-01", orders: 1, revenue: eur(7500) },
      { date: "2024-03-02", orders: 2, revenue: eur(2503) },
      { date: "2024-03-03", orders: 1, revenue: eur(0) },
    ]);
    expect(data.topProducts.map((x: { productId: string }) => x.productId)).toEqual([
      p.gamma,
      p.alpha,
      p.epsilon,
    ]);
  });

  test("a range offset from UTC is read as the instant it names", async () => {
    const res = await stats("from=2024-03-07T01:00:00%2B01:00&to=2024-03-08T01:00:00%2B01:00");
    expect(res.status).toBe(200);
    expect(res.body.data.from).toBe("2024-03-07T00:00:00.000Z");
    expect(res.body.data.salesByDay).toEqual([{ date: "2024-03-07", orders: 1, revenue: eur(7000) }]);
  });

  test("a range without orders: zeros, 0 average, empty top products, every day listed", async () => {
    const res = await stats("from=2023-01-01T00:00:00Z&to=2023-01-04T00:00:00Z");
    expect(res.body.data).toMatchObject({
      revenue: eur(0),
      ordersCount: 0,
      averageOrderValue: eur(0),
      newCustomersCount: 0,
      customersCount: 5,
      topProducts: [],
      salesByDay: [
        { date: "2023-01-01", orders: 0, revenue: eur(0) },
        { date: "2023-01-02", orders: 0, revenue: eur(0) },
        { date: "2023-01-03", orders: 0, revenue: eur(0) },
      ],
    });
  });

  test("default range: the last 30 days up to now", async () => {
    const before = Date.now();
    const res = await stats("");
    expect(res.status).toBe(200);
    const { from, to, salesByDay, ordersCount, revenue } = res.body.data;
    const toMs = Date.parse(to);
    const fromMs = Date.parse(from);
    expect(toMs).toBeGreaterThanOrEqual(before);
    expect(toMs).toBeLessThanOrEqual(Date.now());
    expect(toMs - fromMs).toBe(30 * DAY_MS);
    const days = Math.floor((toMs - 1) / DAY_MS) - Math.floor(fromMs / DAY_MS) + 1;
    expect(salesByDay).toHaveLength(days);
    expect(salesByDay.at(-1).date).toBe(new Date(toMs - 1).toISOString().slice(0, 10));
    expect(ordersCount).toBe(0);
    expect(revenue).toEqual(eur(0));
  });

  test("only `to`: from is 30 days before it; only `from`: to is now", async () => {
    const onlyTo = await stats("to=2024-03-08T00:00:00Z");
    expect(onlyTo.body.data.from).toBe("2024-02-07T00:00:00.000Z");
    // Adds O10 (Feb 29, paid 1000) to the week's figures.
    expect(onlyTo.body.data.revenue).toEqual(eur(23_503));
    expect(onlyTo.body.data.ordersCount).toBe(11);
    expect(onlyTo.body.data.salesByDay).toHaveLength(30);
    const from = new Date(Date.now() - 2 * DAY_MS).toISOString();
    const onlyFrom = await stats(`from=${from}`);
    expect(onlyFrom.status).toBe(200);
    expect(onlyFrom.body.data.from).toBe(from);
  });

  test("a range of exactly 366 days is allowed", async () => {
    const res = await stats("from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z");
    expect(res.status).toBe(200);
    expect(res.body.data.salesByDay).toHaveLength(366);
    expect(res.body.data.salesByDay[0].date).toBe("2024-01-01");
    expect(res.body.data.salesByDay[365].date).toBe("2024-12-31");
    expect(res.body.data.revenue).toEqual(eur(22_503 + 1000 + 99_999));
    expect(res.body.data.newCustomersCount).toBe(5);
  });

  test("lowStockVariants counts the variants the storefront marks lowStock: 1 to the threshold units left, not sold out, not on backorder, not untracked", async () => {
    const other = await t.org("Low stock shop");
    const shopAdmin = adminClient(t, other.key);
    const variants: [string, Record<string, unknown>][] = [
      ["sold-out", { onHand: 0 }],
      ["backorder-empty", { onHand: 0, allowBackorder: true }],
      ["backorder-few", { onHand: 2, allowBackorder: true }],
      ["one-left", { onHand: 1 }],
      ["at-threshold", { onHand: 5 }],
      ["above-threshold", { onHand: 6 }],
      ["untracked", { tracked: false }],
    ];
    const created = await shopAdmin.post(
      "/v1/admin/products",
      simpleProduct("Mixed stock", 1000, {
        options: [{ name: "Kind", values: variants.map(([kind]) => kind) }],
        variants: variants.map(([kind, inventory]) => ({
          sku: kind,
          options: { Kind: kind },
          price: 1000,
          inventory,
        })),
      }),
    );
    expect(created.status).toBe(201);
    const storefront = await t.json(`/v1/products/${created.body.data.id}`, {
      headers: { "x-api-key": other.key },
    });
    const flagged = storefront.body.data.variants.filter((v: any) => v.lowStock).map((v: any) => v.sku);
    expect(flagged).toEqual(["one-left", "at-threshold"]);
    const res = await shopAdmin.get("/v1/admin/dashboard/stats");
    expect(res.body.data.lowStockVariants).toBe(flagged.length);
  });

  test("the low-stock count follows the store's threshold", async () => {
    expect((await admin.patch("/v1/admin/store", { lowStockThreshold: 3 })).status).toBe(200);
    expect((await stats(RANGE)).body.data.lowStockVariants).toBe(1); // Alpha (3)
    expect((await admin.patch("/v1/admin/store", { lowStockThreshold: 6 })).status).toBe(200);
    expect((await stats(RANGE)).body.data.lowStockVariants).toBe(9); // + Gamma (6)
    expect((await admin.patch("/v1/admin/store", { lowStockThreshold: 5 })).status).toBe(200);
  });
});

describe("refused ranges and callers", () => {
  const bad: [string, string][] = [
    ["from after to", "from=2024-03-08T00:00:00Z&to=2024-03-01T00:00:00Z"],
    ["from equal to to", "from=2024-03-01T00:00:00Z&to=2024-03-01T00:00:00Z"],
    ["more than 366 days", "from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00.001Z"],
    ["a date without a time", "from=2024-03-01&to=2024-03-08T00:00:00Z"],
    ["words", "from=yesterday"],
    ["an impossible date", "to=2024-13-45T00:00:00Z"],
  ];
  for (const [what, query] of bad) {
    test(`${what} → 400`, async () => {
      const res = await stats(query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toStartWith("/query/");
    });
  }

  test("the store's Host (storefront scope) → 403", async () => {
    const res = await t.json(`/v1/admin/dashboard/stats?${RANGE}`, { headers: { host: HOST } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
  });

  test("another store sees only its own figures", async () => {
    const other = adminClient(t, (await t.org("Empty shop")).key);
    const res = await other.get(`/v1/admin/dashboard/stats?${RANGE}`);
    expect(res.body.data).toMatchObject({
      revenue: eur(0),
      ordersCount: 0,
      customersCount: 0,
      productsCount: 0,
      lowStockVariants: 0,
      ordersAwaitingPayment: 0,
      ordersAwaitingFulfillment: 0,
      topProducts: [],
    });
  });
});

test("divideRounded rounds half away from zero", () => {
  expect(divideRounded(10, 4)).toBe(3); // 2.5
  expect(divideRounded(9, 4)).toBe(2); // 2.25
  expect(divideRounded(11, 4)).toBe(3); // 2.75
  expect(divideRounded(-10, 4)).toBe(-3);
  expect(divideRounded(-9, 4)).toBe(-2);
  expect(divideRounded(0, 7)).toBe(0);
  expect(divideRounded(22_503, 5)).toBe(4501);
});
