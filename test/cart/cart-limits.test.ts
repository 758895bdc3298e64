import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_CART_AMOUNT, MAX_CART_LINES } from "../../src/cart/service.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeShop, PT_ADDRESS, type Shop } from "../helpers/shop.ts";

// Issue 11, item 9a: a cart holds a bounded number of lines and its amounts stay below a
// documented maximum, so no cart can price outside the safe integer range (a 500 before).

const TOP_PRICE = 10_000_000_000; // the largest variant price the API accepts

let t: TestApp;
let shop: Shop;
let pricey: string[]; // 100 variants at TOP_PRICE
let cheap: string[]; // 100 variants at 1

/** One product with 100 untracked variants at `price`, through the admin API. */
async function hundredVariants(name: string, price: number): Promise<string[]> {
  const values = Array.from({ length: 100 }, (_, i) => `v${i}`);
  const res = await shop.admin.post("/v1/admin/products", {
    name: { en: name },
    options: [{ name: "N", values }],
    variants: values.map((v) => ({ price, options: { N: v }, inventory: { tracked: false } })),
  });
  if (res.status !== 201) throw new Error(`seed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.variants.map((v: any) => v.id);
}

beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Limits Shop", "limits.example");
  pricey = await hundredVariants("Gold bar", TOP_PRICE);
  cheap = await hundredVariants("Pebble", 1);
});
afterAll(() => t.cleanup());

const createCart = (items: { variantId: string; quantity: number }[]) =>
  shop.storefront("/v1/carts", { body: { items } });
const getCart = async (id: string) => (await shop.storefront(`/v1/carts/${id}`)).body.data;

describe("cart limits", () => {
  test("at most 100 lines: the 101st different item → 422 UNPROCESSABLE, the cart unchanged", async () => {
    expect(MAX_CART_LINES).toBe(100);
    const full = await createCart(pricey.map((variantId) => ({ variantId, quantity: 1 })));
    expect(full.status).toBe(201);
    expect(full.body.data.items).toHaveLength(100);
    expect(full.body.data.totals.subtotal.amount).toBe(100 * TOP_PRICE);
    const before = await getCart(full.body.data.id);

    const extra = await shop.storefront(`/v1/carts/${before.id}/items`, {
      body: { variantId: cheap[0], quantity: 1 },
    });
    expect(extra.status).toBe(422);
    expect(extra.body).toMatchObject({ code: "UNPROCESSABLE", status: 422 });
    expect(extra.body.error).toContain("at most 100 different items");
    expect(extra.body.details).toEqual([{ path: "/body", message: expect.stringContaining("100 lines") }]);
    expect(await getCart(before.id)).toEqual(before);

    // More of a line already there is not a new line.
    const merged = await shop.storefront(`/v1/carts/${before.id}/items`, {
      body: { variantId: pricey[0], quantity: 1 },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.data.items).toHaveLength(100);
    expect(merged.body.data.items[0].quantity).toBe(2);

    // A line removed makes room again.
    await shop.storefront(`/v1/carts/${before.id}/items/${before.items[99].id}`, { method: "DELETE" });
    const room = await shop.storefront(`/v1/carts/${before.id}/items`, {
      body: { variantId: cheap[0], quantity: 1 },
    });
    expect(room.status).toBe(200);
    expect(room.body.data.items).toHaveLength(100);

    // A new cart is bounded by its schema the same way.
    const tooMany = await createCart([...pricey, cheap[1]!].map((variantId) => ({ variantId, quantity: 1 })));
    expect(tooMany.status).toBe(400);
  });

  test("the fuzzer's cart (line after line of 999 at the top price) stops at a 422, never a 500", async () => {
    const cart = (await createCart([])).body.data;
    let last = { status: 0, body: {} as any };
    for (const variantId of [...pricey, ...cheap]) {
      last = await shop.storefront(`/v1/carts/${cart.id}/items`, { body: { variantId, quantity: 999 } });
      if (last.status !== 200) break;
    }
    expect(last.status).toBe(422);
    expect(last.body.code).toBe("UNPROCESSABLE");
    const after = await getCart(cart.id);
    expect(after.items).toHaveLength(1); // 999 × 10^10 fits; a second such line does not
    expect(after.totals.subtotal.amount).toBe(999 * TOP_PRICE);
  });

  test(`subtotal and total above ${MAX_CART_AMOUNT} minor units → 422 on the write, nothing changed`, async () => {
    expect(MAX_CART_AMOUNT).toBe(10 ** 13);
    const created = await createCart([{ variantId: pricey[0]!, quantity: 999 }]);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;

    // 999 + 2 units at 10^10 passes 10^13.
    const over = await shop.storefront(`/v1/carts/${id}/items`, {
      body: { variantId: pricey[1], quantity: 2 },
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toContain("subtotal would exceed");
    expect(over.body.details).toEqual([
      { path: "/body/quantity", message: expect.stringContaining("10010000000000") },
    ]);
    const before = await getCart(id);
    expect(before.items).toHaveLength(1);

    // Exactly 10^13 is allowed.
    const exact = await shop.storefront(`/v1/carts/${id}/items`, {
      body: { variantId: pricey[1], quantity: 1 },
    });
    expect(exact.status).toBe(200);
    expect(exact.body.data.totals.subtotal.amount).toBe(MAX_CART_AMOUNT);
    const atLimit = await getCart(id);

    // Raising a quantity past it is refused the same way.
    const raise = await shop.storefront(`/v1/carts/${id}/items/${atLimit.items[1].id}`, {
      method: "PATCH",
      body: { quantity: 2 },
    });
    expect(raise.status).toBe(422);
    expect(raise.body.code).toBe("UNPROCESSABLE");
    expect(raise.body.details[0].path).toBe("/body/quantity");
    expect(await getCart(id)).toEqual(atLimit);

    // A new cart whose items together pass it is not created.
    const both = await createCart([
      { variantId: pricey[2]!, quantity: 999 },
      { variantId: pricey[3]!, quantity: 999 },
    ]);
    expect(both.status).toBe(422);
    expect(both.body.details).toEqual([{ path: "/body/items", message: expect.any(String) }]);
  });

  test("a cart pushed past the limit by a price rise still reads and can shrink, but not grow", async () => {
    const made = await Promise.all(
      ["Silver bar", "Platinum bar"].map((name) =>
        shop.admin.post("/v1/admin/products", {
          name: { en: name },
          variants: [{ price: TOP_PRICE / 2, inventory: { tracked: false } }],
        }),
      ),
    );
    const [a, b] = made.map((r) => r.body.data);
    const created = await createCart([
      { variantId: a.variants[0].id, quantity: 999 },
      { variantId: b.variants[0].id, quantity: 999 },
    ]);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    for (const p of [a, b]) {
      const res = await shop.admin.patch(`/v1/admin/products/${p.id}`, {
        variants: [{ id: p.variants[0].id, price: TOP_PRICE }],
      });
      expect(res.status).toBe(200);
    }
    const read = await shop.storefront(`/v1/carts/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.totals.subtotal.amount).toBe(2 * 999 * TOP_PRICE);
    const [first, second] = read.body.data.items;

    const down = await shop.storefront(`/v1/carts/${id}/items/${first.id}`, {
      method: "PATCH",
      body: { quantity: 500 },
    });
    expect(down.status).toBe(200);
    expect(down.body.data.totals.subtotal.amount).toBe(1499 * TOP_PRICE);
    const up = await shop.storefront(`/v1/carts/${id}/items/${first.id}`, {
      method: "PATCH",
      body: { quantity: 501 },
    });
    expect(up.status).toBe(422);
    const removed = await shop.storefront(`/v1/carts/${id}/items/${second.id}`, { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(removed.body.data.totals.subtotal.amount).toBe(500 * TOP_PRICE);
  });

  test("prices before tax: the total (with tax and shipping) is bounded too", async () => {
    await shop.admin.patch("/v1/admin/store", { pricesIncludeTax: false });
    try {
      // 9 × 10^12 subtotal + 23 % tax = 1.107 × 10^13 total.
      const created = await createCart([{ variantId: pricey[0]!, quantity: 900 }]);
      expect(created.status).toBe(422);
      expect(created.body.error).toContain("total would exceed");

      // Below it, taxed at the store country's rate until an address is set; then past it again.
      const ok = await createCart([{ variantId: pricey[0]!, quantity: 800 }]);
      expect(ok.status).toBe(201);
      expect(ok.body.data.totals.total.amount).toBe(800 * TOP_PRICE * 1.23);
      const id = ok.body.data.id as string;
      const address = await shop.storefront(`/v1/carts/${id}/shipping-address`, { body: PT_ADDRESS });
      expect(address.status).toBe(200);
      const more = await shop.storefront(`/v1/carts/${id}/items/${ok.body.data.items[0].id}`, {
        method: "PATCH",
        body: { quantity: 850 },
      });
      expect(more.status).toBe(422);
      expect((await getCart(id)).items[0].quantity).toBe(800);
    } finally {
      await shop.admin.patch("/v1/admin/store", { pricesIncludeTax: true });
    }
  });
});
