import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listCustomers } from "../../src/customers/customers.ts";
import { findOrCreateCustomer } from "../../src/orders/customers.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { type AdminClient, adminClient } from "../helpers/catalog.ts";
import { seedCustomer, seedOrder, withTenant } from "../helpers/seed-orders.ts";

let t: TestApp;
let shop: { id: string; key: string };
let admin: AdminClient;
let otherShop: { id: string; key: string };
const HOST = "customers.example";
const eur = (amount: number) => ({ amount, currency: "EUR" });

const ids: Record<string, string> = {};
const c3Orders: { id: string; number: number }[] = [];

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Customers shop", { host: HOST });
  admin = adminClient(t, shop.key);
  otherShop = await t.org("Other shop");

  ids.ana = seedCustomer(t, shop.id, {
    email: "ana@example.com",
    firstName: "Ana",
    lastName: "Silva",
    phone: "+351911111111",
    password: "correct horse battery",
    createdAt: "2024-01-01T09:00:00Z",
  });
  ids.bruno = seedCustomer(t, shop.id, {
    email: "bruno@example.com",
    firstName: "Bruno",
    lastName: "Costa",
    createdAt: "2024-01-02T09:00:00Z",
  });
  ids.carla = seedCustomer(t, shop.id, {
    email: "carla_x@example.com",
    firstName: "Carla",
    createdAt: "2024-01-03T09:00:00Z",
  });
  ids.eva = seedCustomer(t, shop.id, {
    email: "eva@shop.test",
    firstName: "Eva",
    lastName: "Santos",
    createdAt: "2024-01-04T09:00:00Z",
  });
  ids.other = seedCustomer(t, otherShop.id, { email: "ana@example.com", createdAt: "2024-01-01T09:00:00Z" });

  // Ana: 3 orders that count (3500 + 7500 kept, one pending), one cancelled.
  seedOrder(t, shop.id, {
    customerId: ids.ana,
    paymentStatus: "paid",
    items: [{ productId: "prod_a", quantity: 2, unitPrice: 1500 }],
    shipping: 500,
    placedAt: "2024-02-01T10:00:00Z",
  });
  seedOrder(t, shop.id, {
    customerId: ids.ana,
    status: "completed",
    paymentStatus: "partially_refunded",
    fulfillmentStatus: "fulfilled",
    items: [{ productId: "prod_b", quantity: 1, unitPrice: 10_000 }],
    refunded: 2500,
    placedAt: "2024-02-03T10:00:00Z",
  });
  seedOrder(t, shop.id, {
    customerId: ids.ana,
    paymentStatus: "pending",
    items: [{ productId: "prod_a", quantity: 1, unitPrice: 2000 }],
    placedAt: "2024-02-04T10:00:00Z",
  });
  seedOrder(t, shop.id, {
    customerId: ids.ana,
    status: "cancelled",
    paymentStatus: "expired",
    items: [{ productId: "prod_c", quantity: 1, unitPrice: 9999 }],
    placedAt: "2024-02-05T10:00:00Z",
  });

  // Bruno: refunded in full, a failed payment, and a cancelled order paid late (flagged for refund).
  seedOrder(t, shop.id, {
    customerId: ids.bruno,
    status: "completed",
    paymentStatus: "refunded",
    fulfillmentStatus: "fulfilled",
    items: [{ productId: "prod_a", quantity: 2, unitPrice: 2000 }],
    refunded: 4000,
    placedAt: "2024-03-01T10:00:00Z",
  });
  seedOrder(t, shop.id, {
    customerId: ids.bruno,
    paymentStatus: "failed",
    items: [{ productId: "prod_a", quantity: 1, unitPrice: 1000 }],
    placedAt: "2024-03-02T10:00:00Z",
  });
  seedOrder(t, shop.id, {
    customerId: ids.bruno,
    status: "cancelled",
    paymentStatus: "paid",
    items: [{ productId: "prod_a", quantity: 1, unitPrice: 500 }],
    placedAt: "2024-03-03T10:00:00Z",
  });

  // Carla: twelve paid orders of 1.00, one a day from April 1st.
  for (let day = 1; day <= 12; day++) {
    c3Orders.push(
      seedOrder(t, shop.id, {
        customerId: ids.carla,
        paymentStatus: "paid",
        items: [{ productId: "prod_d", quantity: 1, unitPrice: 100 }],
        placedAt: `2024-04-${String(day).padStart(2, "0")}T08:00:00Z`,
      }),
    );
  }
});
afterAll(() => t.cleanup());

const expected = {
  ana: {
    email: "ana@example.com",
    firstName: "Ana",
    lastName: "Silva",
    phone: "+351911111111",
    hasAccount: true,
    ordersCount: 3,
    totalSpent: eur(11_000),
    lastOrderAt: "2024-02-04T10:00:00.000Z",
    createdAt: "2024-01-01T09:00:00.000Z",
  },
  bruno: {
    email: "bruno@example.com",
    firstName: "Bruno",
    lastName: "Costa",
    phone: null,
    hasAccount: false,
    ordersCount: 2,
    totalSpent: eur(500),
    lastOrderAt: "2024-03-02T10:00:00.000Z",
    createdAt: "2024-01-02T09:00:00.000Z",
  },
  carla: {
    email: "carla_x@example.com",
    firstName: "Carla",
    lastName: null,
    phone: null,
    hasAccount: false,
    ordersCount: 12,
    totalSpent: eur(1200),
    lastOrderAt: "2024-04-12T08:00:00.000Z",
    createdAt: "2024-01-03T09:00:00.000Z",
  },
  eva: {
    email: "eva@shop.test",
    firstName: "Eva",
    lastName: "Santos",
    phone: null,
    hasAccount: false,
    ordersCount: 0,
    totalSpent: eur(0),
    lastOrderAt: null,
    createdAt: "2024-01-04T09:00:00.000Z",
  },
};
const view = (name: keyof typeof expected) => ({ id: ids[name], ...expected[name] });

describe("GET /v1/admin/customers", () => {
  test("newest first, with their order figures", async () => {
    const res = await admin.get("/v1/admin/customers");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [view("eva"), view("carla"), view("bruno"), view("ana")],
      meta: { page: 1, limit: 20, total: 4 },
    });
  });

  test("pages", async () => {
    const second = await admin.get("/v1/admin/customers?limit=3&page=2");
    expect(second.body).toEqual({ data: [view("ana")], meta: { page: 2, limit: 3, total: 4 } });
    const beyond = await admin.get("/v1/admin/customers?limit=3&page=3");
    expect(beyond.body).toEqual({ data: [], meta: { page: 3, limit: 3, total: 4 } });
  });

  test("query matches part of the email, first, last or full name, case-insensitively", async () => {
    const emails = async (query: string) => {
      const res = await admin.get(`/v1/admin/customers?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(res.body.data.length);
      return res.body.data.map((c: { email: string }) => c.email);
    };
    expect(await emails("example.com")).toEqual([
      "carla_x@example.com",
      "bruno@example.com",
      "ana@example.com",
    ]);
    expect(await emails("BRUNO")).toEqual(["bruno@example.com"]);
    expect(await emails("sant")).toEqual(["eva@shop.test"]);
    expect(await emails("ana silva")).toEqual(["ana@example.com"]);
    expect(await emails("Carla")).toEqual(["carla_x@example.com"]);
    // LIKE wildcards in the term are plain characters.
    expect(await emails("_")).toEqual(["carla_x@example.com"]);
    expect(await emails("%")).toEqual([]);
    expect(await emails("nobody")).toEqual([]);
    // An empty or blank query is no filter.
    expect(await emails(" ")).toHaveLength(4);
  });

  test("page and limit out of range → 400", async () => {
    for (const q of ["limit=0", "limit=101", "page=0", "page=1.5", "limit=abc"]) {
      const res = await admin.get(`/v1/admin/customers?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
  });

  test("the page is one aggregate query plus the count, however many customers", () => {
    withTenant(t, shop.id, (tenant) => {
      const sqlite = tenant.sqlite as unknown as { query: (sql: string) => unknown };
      const original = sqlite.query;
      const seen: string[] = [];
      sqlite.query = function (this: unknown, sql: string) {
        seen.push(sql);
        return original.call(this, sql);
      };
      try {
        const { items, total } = listCustomers(tenant, {}, { page: 1, limit: 100 });
        expect(items).toHaveLength(4);
        expect(total).toBe(4);
      } finally {
        sqlite.query = original;
      }
      expect(seen).toHaveLength(2);
    });
  });
});

describe("GET /v1/admin/customers/{id}", () => {
  test("the customer with its last ten orders, newest first", async () => {
    const res = await admin.get(`/v1/admin/customers/${ids.carla}`);
    expect(res.status).toBe(200);
    const { recentOrders, ...customer } = res.body.data;
    expect(customer).toEqual(view("carla"));
    expect(recentOrders).toHaveLength(10);
    expect(recentOrders[0]).toEqual({
      id: c3Orders[11]!.id,
      number: c3Orders[11]!.number,
      status: "open",
      paymentStatus: "paid",
      total: eur(100),
      placedAt: "2024-04-12T08:00:00.000Z",
    });
    expect(recentOrders.map((o: { id: string }) => o.id)).toEqual(
      c3Orders
        .slice(2)
        .reverse()
        .map((o) => o.id),
    );
  });

  test("recent orders include cancelled ones, with their state", async () => {
    const res = await admin.get(`/v1/admin/customers/${ids.ana}`);
    const { recentOrders, ...customer } = res.body.data;
    expect(customer).toEqual(view("ana"));
    expect(
      recentOrders.map((o: any) => [o.status, o.paymentStatus, o.total.amount, o.placedAt.slice(0, 10)]),
    ).toEqual([
      ["cancelled", "expired", 9999, "2024-02-05"],
      ["open", "pending", 2000, "2024-02-04"],
      ["completed", "partially_refunded", 10_000, "2024-02-03"],
      ["open", "paid", 3500, "2024-02-01"],
    ]);
  });

  test("a customer without orders", async () => {
    const res = await admin.get(`/v1/admin/customers/${ids.eva}`);
    expect(res.body.data).toEqual({ ...view("eva"), recentOrders: [] });
  });

  test("another store's customer, or an unknown id → 404; a malformed id → 400", async () => {
    const other = await admin.get(`/v1/admin/customers/${ids.other}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: "Customer not found", code: "NOT_FOUND", status: 404 });
    expect((await admin.get("/v1/admin/customers/cus_doesNotExist")).status).toBe(404);
    expect((await admin.get("/v1/admin/customers/ord_abc")).status).toBe(400);
    // The other store sees its own.
    const mine = await adminClient(t, otherShop.key).get(`/v1/admin/customers/${ids.other}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ email: "ana@example.com", ordersCount: 0, hasAccount: false });
  });
});

describe("who may read customers", () => {
  test("the store's Host (storefront scope) → 403 naming the admin scope", async () => {
    for (const path of ["/v1/admin/customers", `/v1/admin/customers/${ids.ana}`]) {
      const res = await t.json(path, { headers: { host: HOST } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
      expect(res.body.error).toContain('"admin"');
    }
  });

  test("a storefront API key → 403; no credential → 401", async () => {
    const storefront = await t.org("Storefront only", { scopes: ["storefront"] });
    expect((await adminClient(t, storefront.key).get("/v1/admin/customers")).status).toBe(403);
    expect((await t.json("/v1/admin/customers")).status).toBe(401);
  });
});

describe("findOrCreateCustomer", () => {
  test("one customer per email, case-insensitively; a guest's details follow the latest checkout", () => {
    withTenant(t, otherShop.id, (tenant) => {
      const first = findOrCreateCustomer(tenant, "  New.Buyer@Example.com ", { firstName: "New" });
      expect(first).toEqual({ id: expect.stringMatching(/^cus_/), email: "new.buyer@example.com" });
      const again = findOrCreateCustomer(tenant, "NEW.BUYER@example.com", {
        lastName: "Buyer",
        phone: "+351",
      });
      expect(again).toEqual(first);
      const noNames = findOrCreateCustomer(tenant, "new.buyer@example.com");
      expect(noNames).toEqual(first);
      const row = tenant.sqlite
        .query("SELECT first_name, last_name, phone, password_hash FROM customers WHERE id = ?")
        .get(first.id);
      expect(row).toEqual({ first_name: "New", last_name: "Buyer", phone: "+351", password_hash: null });
    });
  });

  test("an account's profile is never changed by a checkout with its email", () => {
    withTenant(t, shop.id, (tenant) => {
      const found = findOrCreateCustomer(tenant, "ANA@example.com", { firstName: "Mallory", phone: "+1" });
      expect(found).toEqual({ id: ids.ana!, email: "ana@example.com" });
      const row = tenant.sqlite.query("SELECT first_name, phone FROM customers WHERE id = ?").get(ids.ana!);
      expect(row).toEqual({ first_name: "Ana", phone: "+351911111111" });
    });
  });
});
