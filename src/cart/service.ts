import { getStore, money, type Store } from "../catalog/store-settings.ts";
import type { Localized, ProductImage, products, variants } from "../catalog/tables.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { SignedInCustomer } from "../core/operation.ts";
import type { Row } from "../db/rows.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { iso } from "../lib/time.ts";
import { checkPostalCode, isCountryCode } from "./countries.ts";
import { type CouponRow, couponProblem, findCouponByCode } from "./coupons.ts";
import { lineTaxRate, type PricedCart, priceCart, shippingTaxRate } from "./pricing.ts";
import {
  findShippingMethod,
  listActiveShippingMethods,
  type ShippingMethodRow,
  servesCountry,
  shippingCountries,
} from "./shipping-methods.ts";
import type { Address, cartItems, carts } from "./tables.ts";

// Carts (docs/orders.md): every read prices the cart afresh from live prices, stock, coupon and
// shipping method, and says what changed in `messages`. A GET writes nothing; the next write of the
// cart persists what changed (`loadPricedCart`).

const MAX_QUANTITY = 999;
/** Distinct lines (variants) one cart may hold (docs/orders.md, "Carts"). */
export const MAX_CART_LINES = 100;
/**
 * Largest subtotal or total a cart may reach, in minor units (10^13: 100 000 000 000.00 in a
 * two-decimal currency). With at most 100 lines of 999 units at the largest variant price
 * (10^10), no amount the pricing computes can leave the safe integer range either.
 */
export const MAX_CART_AMOUNT = 10_000_000_000_000;

/** `SELECT *` of carts. */
type CartRow = Row<typeof carts>;

/** A cart line joined with its live variant and product (null when the variant is gone). */
interface CartLine {
  id: string;
  productId: string;
  variantId: string;
  quantity: number;
  seenPrice: number;
  variant: {
    sku: string | null;
    title: string;
    price: number;
    tracked: boolean;
    onHand: number;
    allowBackorder: boolean;
  } | null;
  product: {
    status: string;
    name: Localized;
    images: ProductImage[];
    taxRate: number | null;
    requiresShipping: boolean;
  } | null;
}

interface CartMessage {
  code: string;
  message: string;
  itemId?: string;
}

interface PricedCartState {
  cart: CartRow;
  store: Store;
  lines: CartLine[];
  messages: CartMessage[];
  coupon: CouponRow | null;
  /** Why the applied coupon was dropped on this read, if it was. */
  couponDropped: string | null;
  shippingMethod: ShippingMethodRow | null;
  shippingAddress: Address | null;
  billingAddress: Address | null;
  /** What this read found out of date, for a write to persist. */
  corrections: CartCorrections;
  priced: PricedCart;
}

function findCart(tenant: TenantDb, cartId: string): CartRow {
  const cart = tenant.sqlite.query("SELECT * FROM carts WHERE id = ?").get(cartId) as CartRow | null;
  if (!cart) throw notFound("Cart");
  return cart;
}

/** The cart, refusing a completed one: a placed cart never changes again. */
function activeCart(tenant: TenantDb, cartId: string): CartRow {
  const cart = findCart(tenant, cartId);
  if (cart.status !== "active") throw new ApiError("CONFLICT", "The cart is completed: its order was placed");
  return cart;
}

function touch(tenant: TenantDb, cartId: string) {
  tenant.sqlite.query("UPDATE carts SET updated_at = ? WHERE id = ?").run(Date.now(), cartId);
}

/** The variant and product columns of a line (`v.id` as `v_id`); every one is null when the variant is gone. */
type LiveColumns = { v_id: Row<typeof variants>["id"] } & Pick<
  Row<typeof variants>,
  "sku" | "title" | "price" | "tracked" | "on_hand" | "allow_backorder"
> &
  Pick<Row<typeof products>, "status" | "name" | "images" | "tax_rate" | "requires_shipping">;

type LineRow = Pick<Row<typeof cartItems>, "id" | "product_id" | "variant_id" | "quantity" | "unit_price"> &
  (LiveColumns | { [K in keyof LiveColumns]: null });

function loadLines(tenant: TenantDb, cartId: string): CartLine[] {
  // `+?`, not `?`: a bare parameter in a join is re-prepared on every run (see src/db/sqlite.ts).
  const rows = tenant.sqlite
    .query(
      `SELECT i.id, i.product_id, i.variant_id, i.quantity, i.unit_price,
              v.id AS v_id, v.sku, v.title, v.price, v.tracked, v.on_hand, v.allow_backorder,
              p.status, p.name, p.images, p.tax_rate, p.requires_shipping
         FROM cart_items i
         LEFT JOIN variants v ON v.id = i.variant_id
         LEFT JOIN products p ON p.id = v.product_id
        WHERE i.cart_id = +?
        ORDER BY i.created_at, i.rowid`,
    )
    .all(cartId) as LineRow[];
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    variantId: r.variant_id,
    quantity: r.quantity,
    seenPrice: r.unit_price,
    variant:
      r.v_id === null
        ? null
        : {
            sku: r.sku,
            title: r.title,
            price: r.price,
            tracked: r.tracked === 1,
            onHand: r.on_hand,
            allowBackorder: r.allow_backorder === 1,
          },
    product:
      r.v_id === null
        ? null
        : {
            status: r.status,
            name: JSON.parse(r.name) as Localized,
            images: JSON.parse(r.images) as ProductImage[],
            taxRate: r.tax_rate,
            requiresShipping: r.requires_shipping === 1,
          },
  }));
}

/** How many units of a variant can be bought now (Infinity when untracked or on backorder). */
const buyable = (variant: NonNullable<CartLine["variant"]>) =>
  !variant.tracked || variant.allowBackorder ? Number.POSITIVE_INFINITY : variant.onHand;

/**
 * What a read of an active cart found out of date. A read only reports it (`messages`); the next
 * write of the cart, or place-order, persists it in its own transaction (`loadPricedCart`).
 */
interface CartCorrections {
  /** Lines whose variant was deleted. */
  removedLines: string[];
  /** Lines whose variant's price changed since they were added or last corrected. */
  repricedLines: { id: string; price: number }[];
  dropCoupon: boolean;
  clearShippingMethod: boolean;
}

/** A cart read being built up: what is live is filled in step by step, then priced. */
type UnpricedCart = Omit<PricedCartState, "priced">;

/** The lines still sold, with the messages and corrections they call for (none on a completed cart). */
function liveLines(tenant: TenantDb, found: UnpricedCart) {
  const { cart, store, messages, corrections } = found;
  const editable = cart.status === "active";
  for (const line of loadLines(tenant, cart.id)) {
    if (!line.variant || !line.product) {
      if (!editable) continue;
      corrections.removedLines.push(line.id);
      messages.push({
        code: "ITEM_REMOVED",
        message: "A product in the cart is no longer sold",
        itemId: line.id,
      });
      continue;
    }
    found.lines.push(line);
    if (!editable) continue;
    const name = line.product.name[store.defaultLocale] ?? Object.values(line.product.name)[0];
    if (line.product.status !== "active") {
      messages.push({ code: "ITEM_UNAVAILABLE", message: `${name} is no longer available`, itemId: line.id });
    }
    if (line.variant.price !== line.seenPrice) {
      corrections.repricedLines.push({ id: line.id, price: line.variant.price });
      messages.push({ code: "PRICE_CHANGED", message: `The price of ${name} changed`, itemId: line.id });
    }
    if (line.quantity > buyable(line.variant)) {
      messages.push({
        code: "INSUFFICIENT_STOCK",
        message: `Only ${line.variant.onHand} of ${name} available`,
        itemId: line.id,
      });
    }
  }
}

/** The applied coupon if it still applies to `subtotal`; else it is to be dropped, with a message. */
function liveCoupon(tenant: TenantDb, found: UnpricedCart, subtotal: number) {
  const { cart } = found;
  if (!cart.coupon_code) return;
  const coupon = findCouponByCode(tenant, cart.coupon_code);
  const problem = couponProblem(coupon, subtotal, Date.now());
  if (problem === null) found.coupon = coupon;
  else if (cart.status === "active") {
    found.couponDropped = problem;
    found.corrections.dropCoupon = true;
    found.messages.push({
      code: "COUPON_REMOVED",
      message: `Coupon ${cart.coupon_code} was removed: ${problem}`,
    });
  }
}

/** The chosen shipping method if it is active and serves `country`; else it is to be cleared, with a message. */
function liveShippingMethod(tenant: TenantDb, found: UnpricedCart) {
  const { cart } = found;
  if (!cart.shipping_method_id) return;
  const country = found.shippingAddress?.country ?? null;
  const method = findShippingMethod(tenant, cart.shipping_method_id);
  if (method?.active && servesCountry(method, country)) found.shippingMethod = method;
  else if (cart.status === "active") {
    found.corrections.clearShippingMethod = true;
    found.messages.push({
      code: "SHIPPING_METHOD_CLEARED",
      message: "The shipping method no longer serves the address; choose another",
    });
  }
}

/** Prices the live lines with the live coupon and shipping method at the store's tax rates. */
function priceLiveCart(found: UnpricedCart): PricedCart {
  const { store, coupon, shippingMethod } = found;
  const country = found.shippingAddress?.country ?? null;
  return priceCart({
    lines: found.lines.map((l) => ({
      id: l.id,
      unitPrice: l.variant!.price,
      quantity: l.quantity,
      taxRate: lineTaxRate(l.product!.taxRate, store.taxRates, country, store.country),
    })),
    coupon: coupon
      ? coupon.type === "free_shipping"
        ? { type: "free_shipping" }
        : { type: coupon.type, value: coupon.value }
      : null,
    shipping: shippingMethod
      ? {
          price: shippingMethod.price,
          freeOver: shippingMethod.freeOver,
          taxRate: shippingTaxRate(store.taxRates, country, store.country),
        }
      : null,
    pricesIncludeTax: store.pricesIncludeTax,
  });
}

/**
 * Reads and prices a cart as it stands now, writing nothing (what every GET shows): lines whose
 * variant was deleted are left out, current prices are used, a coupon that no longer applies and a
 * shipping method that no longer serves the address are left out, each with a message, and each
 * noted in `corrections` for the next write to persist.
 */
export function readPricedCart(tenant: TenantDb, cartId: string): PricedCartState {
  const cart = findCart(tenant, cartId);
  const shippingAddress = parseJsonOrNull<Address>(cart.shipping_address);
  const found: UnpricedCart = {
    cart,
    store: getStore(tenant),
    lines: [],
    messages: [],
    coupon: null,
    couponDropped: null,
    shippingMethod: null,
    shippingAddress,
    billingAddress: parseJsonOrNull<Address>(cart.billing_address),
    corrections: { removedLines: [], repricedLines: [], dropCoupon: false, clearShippingMethod: false },
  };
  liveLines(tenant, found);
  const subtotal = found.lines.reduce((sum, l) => sum + l.variant!.price * l.quantity, 0);
  liveCoupon(tenant, found, subtotal);
  liveShippingMethod(tenant, found);
  return { ...found, priced: priceLiveCart(found) };
}

/** Writes what a read found out of date; runs inside the calling write's transaction. */
function persistCorrections(tenant: TenantDb, cartId: string, corrections: CartCorrections) {
  for (const id of corrections.removedLines) {
    tenant.sqlite.query("DELETE FROM cart_items WHERE id = ?").run(id);
  }
  for (const { id, price } of corrections.repricedLines) {
    tenant.sqlite.query("UPDATE cart_items SET unit_price = ? WHERE id = ?").run(price, id);
  }
  if (corrections.dropCoupon) {
    tenant.sqlite.query("UPDATE carts SET coupon_code = NULL WHERE id = ?").run(cartId);
  }
  if (corrections.clearShippingMethod) {
    tenant.sqlite.query("UPDATE carts SET shipping_method_id = NULL WHERE id = ?").run(cartId);
  }
}

/**
 * Reads and prices a cart for a write (a cart write, place-order), inside its transaction: what
 * {@link readPricedCart} finds out of date is persisted, so its messages are reported by this
 * write's answer and by no later read.
 */
export function loadPricedCart(tenant: TenantDb, cartId: string): PricedCartState {
  const state = readPricedCart(tenant, cartId);
  persistCorrections(tenant, cartId, state.corrections);
  return state;
}

function cartView(state: PricedCartState) {
  const { cart, priced } = state;
  const m = (amount: number) => money(amount, cart.currency);
  const pricedLines = new Map(priced.lines.map((l) => [l.id, l]));
  return {
    id: cart.id,
    status: cart.status,
    currency: cart.currency,
    email: cart.email,
    customerId: cart.customer_id,
    items: state.lines.map((line) => {
      const p = pricedLines.get(line.id)!;
      return {
        id: line.id,
        productId: line.productId,
        variantId: line.variantId,
        productName: line.product!.name,
        variantTitle: line.variant!.title,
        sku: line.variant!.sku,
        image: line.product!.images[0] ?? null,
        unitPrice: m(line.variant!.price),
        quantity: line.quantity,
        subtotal: m(p.subtotal),
        discount: m(p.discount),
        total: m(p.total),
      };
    }),
    itemCount: state.lines.reduce((sum, l) => sum + l.quantity, 0),
    coupon: state.coupon
      ? { code: state.coupon.code, type: state.coupon.type, value: state.coupon.value }
      : null,
    shippingAddress: state.shippingAddress,
    billingAddress: state.billingAddress,
    shippingMethod: state.shippingMethod
      ? { id: state.shippingMethod.id, name: state.shippingMethod.name, price: m(priced.totals.shipping) }
      : null,
    totals: {
      subtotal: m(priced.totals.subtotal),
      discount: m(priced.totals.discount),
      shipping: m(priced.totals.shipping),
      tax: m(priced.totals.tax),
      total: m(priced.totals.total),
    },
    pricesIncludeTax: state.store.pricesIncludeTax,
    messages: state.messages,
    createdAt: iso(cart.created_at),
    updatedAt: iso(cart.updated_at),
  };
}

/** The cart as a GET shows it: current, and nothing written. */
export const getCart = (tenant: TenantDb, cartId: string) => cartView(readPricedCart(tenant, cartId));

/** The answer of a cart write, which persists the corrections its read finds (see `loadPricedCart`). */
const writtenCart = (tenant: TenantDb, cartId: string) => cartView(loadPricedCart(tenant, cartId));

// ---------------------------------------------------------------- items

type VariantForSale = Pick<
  Row<typeof variants>,
  "id" | "product_id" | "price" | "tracked" | "on_hand" | "allow_backorder" | "sku"
>;

/** The variant a shopper asks for: by variantId, or by productId of a single-variant product. Active products only. */
function variantForSale(tenant: TenantDb, input: { variantId?: string; productId?: string }, path: string) {
  if ((input.variantId === undefined) === (input.productId === undefined)) {
    throw new ApiError("VALIDATION_ERROR", "Send variantId, or productId for a product with one variant", [
      { path, message: "exactly one of variantId and productId" },
    ]);
  }
  const rows = tenant.sqlite // `+?`: see loadLines
    .query(
      `SELECT v.id, v.product_id, v.price, v.tracked, v.on_hand, v.allow_backorder, v.sku
         FROM variants v JOIN products p ON p.id = v.product_id
        WHERE p.status = 'active' AND ${input.variantId !== undefined ? "v.id = +?" : "v.product_id = +?"}`,
    )
    .all(input.variantId ?? input.productId!) as VariantForSale[];
  if (rows.length === 0) throw notFound(input.variantId !== undefined ? "Variant" : "Product");
  if (rows.length > 1) {
    throw new ApiError("VALIDATION_ERROR", "This product has several variants: send variantId", [
      { path: `${path}/productId`, message: "choose a variant" },
    ]);
  }
  return rows[0]!;
}

function checkStock(variant: VariantForSale, quantity: number) {
  if (variant.tracked === 0 || variant.allow_backorder === 1 || quantity <= variant.on_hand) return;
  throw new ApiError(
    "INSUFFICIENT_STOCK",
    `Not enough stock of ${variant.sku ?? variant.id}: ${variant.on_hand} available`,
    [{ path: "/body/quantity", message: `available: ${variant.on_hand}` }],
  );
}

/**
 * The cart after a write, refused when it would price above {@link MAX_CART_AMOUNT}. Runs after
 * the write, inside the operation's transaction, so the refusal rolls the write back. Prices
 * the cart once, so the write's answer still carries the cart's `messages`.
 */
function checkedCart(tenant: TenantDb, cartId: string, path: string) {
  // The subtotal first, in BigInt: it bounds every amount priceCart computes from it.
  const rows = tenant.sqlite
    .query(
      "SELECT v.price, i.quantity FROM cart_items i JOIN variants v ON v.id = i.variant_id WHERE i.cart_id = ?",
    )
    .all(cartId) as { price: number; quantity: number }[];
  const max = BigInt(MAX_CART_AMOUNT);
  const subtotal = rows.reduce((sum, r) => sum + BigInt(r.price) * BigInt(r.quantity), 0n);
  const state = subtotal > max ? null : loadPricedCart(tenant, cartId);
  const total = state ? BigInt(state.priced.totals.total) : subtotal;
  if (state === null || total > max) {
    const which = state === null ? "subtotal" : "total";
    throw new ApiError(
      "UNPROCESSABLE",
      `The cart ${which} would exceed the largest amount a cart may hold (${MAX_CART_AMOUNT} minor units)`,
      [{ path, message: `the cart ${which} would be ${total}` }],
    );
  }
  return cartView(state);
}

function addLine(
  tenant: TenantDb,
  cartId: string,
  input: { variantId?: string; productId?: string; quantity: number },
  path: string,
) {
  const variant = variantForSale(tenant, input, path);
  const existing = tenant.sqlite
    .query("SELECT id, quantity FROM cart_items WHERE cart_id = ? AND variant_id = ?")
    .get(cartId, variant.id) as Pick<Row<typeof cartItems>, "id" | "quantity"> | null;
  const quantity = (existing?.quantity ?? 0) + input.quantity;
  if (quantity > MAX_QUANTITY) {
    throw new ApiError("VALIDATION_ERROR", `At most ${MAX_QUANTITY} of one item per cart`, [
      { path: `${path}/quantity`, message: `the cart would hold ${quantity}` },
    ]);
  }
  checkStock(variant, quantity);
  if (existing) {
    tenant.sqlite
      .query("UPDATE cart_items SET quantity = ?, unit_price = ? WHERE id = ?")
      .run(quantity, variant.price, existing.id);
  } else {
    const { n } = tenant.sqlite
      .query("SELECT count(*) AS n FROM cart_items WHERE cart_id = ?")
      .get(cartId) as {
      n: number;
    };
    if (n >= MAX_CART_LINES) {
      throw new ApiError(
        "UNPROCESSABLE",
        `A cart holds at most ${MAX_CART_LINES} different items; remove one before adding another`,
        [{ path, message: `the cart already has ${n} lines (at most ${MAX_CART_LINES})` }],
      );
    }
    tenant.sqlite
      .query(
        "INSERT INTO cart_items (id, cart_id, product_id, variant_id, quantity, unit_price, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(newId("item"), cartId, variant.product_id, variant.id, quantity, variant.price, Date.now());
  }
}

export function createCart(
  tenant: TenantDb,
  input: { email?: string; items?: { variantId?: string; productId?: string; quantity: number }[] },
  customer: SignedInCustomer | null,
) {
  const id = newId("cart");
  const now = Date.now();
  tenant.sqlite
    .query(
      `INSERT INTO carts (id, status, currency, email, customer_id, created_at, updated_at)
       VALUES (?, 'active', ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      getStore(tenant).currency,
      input.email?.toLowerCase() ?? customer?.email ?? null,
      customer?.id ?? null,
      now,
      now,
    );
  (input.items ?? []).forEach((item, i) => {
    addLine(tenant, id, item, `/body/items/${i}`);
  });
  return input.items?.length ? checkedCart(tenant, id, "/body/items") : writtenCart(tenant, id);
}

export function addItem(
  tenant: TenantDb,
  cartId: string,
  input: { variantId?: string; productId?: string; quantity: number },
) {
  activeCart(tenant, cartId);
  addLine(tenant, cartId, input, "/body");
  touch(tenant, cartId);
  return checkedCart(tenant, cartId, "/body/quantity");
}

function cartItem(tenant: TenantDb, cartId: string, itemId: string) {
  const item = tenant.sqlite
    .query("SELECT id, variant_id, quantity FROM cart_items WHERE id = ? AND cart_id = ?")
    .get(itemId, cartId) as Pick<Row<typeof cartItems>, "id" | "variant_id" | "quantity"> | null;
  if (!item) throw notFound("Cart item");
  return item;
}

export function updateItem(tenant: TenantDb, cartId: string, itemId: string, quantity: number) {
  activeCart(tenant, cartId);
  const item = cartItem(tenant, cartId, itemId);
  if (quantity === 0) {
    tenant.sqlite.query("DELETE FROM cart_items WHERE id = ?").run(itemId);
  } else {
    const variant = tenant.sqlite
      .query(
        "SELECT id, product_id, price, tracked, on_hand, allow_backorder, sku FROM variants WHERE id = ?",
      )
      .get(item.variant_id) as VariantForSale | null;
    if (variant) checkStock(variant, quantity);
    tenant.sqlite.query("UPDATE cart_items SET quantity = ? WHERE id = ?").run(quantity, itemId);
  }
  touch(tenant, cartId);
  // Fewer units never pass the limit (a cart above it after a price rise can always shrink).
  return quantity > item.quantity
    ? checkedCart(tenant, cartId, "/body/quantity")
    : writtenCart(tenant, cartId);
}

export function removeItem(tenant: TenantDb, cartId: string, itemId: string) {
  activeCart(tenant, cartId);
  cartItem(tenant, cartId, itemId);
  tenant.sqlite.query("DELETE FROM cart_items WHERE id = ?").run(itemId);
  touch(tenant, cartId);
  return writtenCart(tenant, cartId);
}

// ---------------------------------------------------------------- coupon

export function applyCoupon(tenant: TenantDb, cartId: string, code: string) {
  activeCart(tenant, cartId);
  const state = readPricedCart(tenant, cartId);
  const coupon = findCouponByCode(tenant, code);
  const problem = couponProblem(coupon, state.priced.totals.subtotal, Date.now());
  if (problem !== null) {
    throw new ApiError("COUPON_INVALID", `The coupon cannot be used: ${problem}`, [
      { path: "/body/code", message: problem },
    ]);
  }
  tenant.sqlite
    .query("UPDATE carts SET coupon_code = ?, updated_at = ? WHERE id = ?")
    .run(coupon!.code, Date.now(), cartId);
  return writtenCart(tenant, cartId);
}

export function removeCoupon(tenant: TenantDb, cartId: string) {
  activeCart(tenant, cartId);
  tenant.sqlite
    .query("UPDATE carts SET coupon_code = NULL, updated_at = ? WHERE id = ?")
    .run(Date.now(), cartId);
  return writtenCart(tenant, cartId);
}

// ---------------------------------------------------------------- shipping

/** Active methods serving the cart's shipping country (all of them before an address is set), priced for this cart. */
export function cartShippingMethods(tenant: TenantDb, cartId: string) {
  const state = readPricedCart(tenant, cartId);
  const country = state.shippingAddress?.country ?? null;
  const { subtotal, discount } = state.priced.totals;
  const freeCoupon = state.coupon?.type === "free_shipping";
  return listActiveShippingMethods(tenant)
    .filter((method) => servesCountry(method, country))
    .map((method) => ({
      id: method.id,
      name: method.name,
      description: method.description,
      price: money(
        freeCoupon || (method.freeOver !== null && subtotal - discount >= method.freeOver) ? 0 : method.price,
        state.cart.currency,
      ),
      minDays: method.minDays,
      maxDays: method.maxDays,
    }));
}

export function setShippingMethod(tenant: TenantDb, cartId: string, shippingMethodId: string) {
  const cart = activeCart(tenant, cartId);
  const method = findShippingMethod(tenant, shippingMethodId);
  if (!method?.active) throw notFound("Shipping method");
  const country = parseJsonOrNull<Address>(cart.shipping_address)?.country ?? null;
  if (!servesCountry(method, country)) {
    throw new ApiError("UNPROCESSABLE", `This shipping method does not serve ${country}`);
  }
  tenant.sqlite
    .query("UPDATE carts SET shipping_method_id = ?, updated_at = ? WHERE id = ?")
    .run(method.id, Date.now(), cartId);
  return checkedCart(tenant, cartId, "/body/shippingMethodId");
}

/** Checks an address: a known country, a postal code in that country's format, and (shipping) a country the store ships to. */
function checkAddress(tenant: TenantDb, address: Address, shipping: boolean): Address {
  if (!isCountryCode(address.country)) {
    throw new ApiError("VALIDATION_ERROR", `Unknown country ${address.country}`, [
      { path: "/body/country", message: "not an ISO 3166-1 country" },
    ]);
  }
  const postal = checkPostalCode(address.country, address.postalCode);
  if (!postal.ok) {
    throw new ApiError("VALIDATION_ERROR", `Postal code: ${postal.reason}`, [
      { path: "/body/postalCode", message: postal.reason },
    ]);
  }
  if (shipping) {
    const served = shippingCountries(tenant);
    if (served !== "all" && !served.has(address.country)) {
      throw new ApiError("UNPROCESSABLE", `The store does not ship to ${address.country}`, [
        { path: "/body/country", message: "not a shipping destination" },
      ]);
    }
  }
  const { postalCode: _, ...rest } = address;
  return postal.value ? { ...rest, postalCode: postal.value } : rest;
}

export function setAddress(tenant: TenantDb, cartId: string, kind: "shipping" | "billing", address: Address) {
  activeCart(tenant, cartId);
  const checked = checkAddress(tenant, address, kind === "shipping");
  const column = kind === "shipping" ? "shipping_address" : "billing_address";
  tenant.sqlite
    .query(`UPDATE carts SET ${column} = ?, updated_at = ? WHERE id = ?`)
    .run(JSON.stringify(checked), Date.now(), cartId);
  // The shipping country picks the tax rate, which moves the total when prices exclude tax.
  return kind === "shipping" ? checkedCart(tenant, cartId, "/body/country") : writtenCart(tenant, cartId);
}

// ---------------------------------------------------------------- payment methods

const MANUAL_NAMES: Record<string, Localized> = {
  bank_transfer: { en: "Bank transfer", pt: "Transferência bancária", es: "Transferencia bancaria" },
  cash_on_delivery: { en: "Cash on delivery", pt: "Pagamento na entrega", es: "Contra reembolso" },
};

/** Methods offered for this cart; manual ones come from the store settings. */
export function paymentMethodsFor(store: Store, total: number) {
  if (total === 0) return [];
  return store.manualPaymentMethods.map((type) => {
    const names = MANUAL_NAMES[type] ?? { en: type };
    const name = Object.fromEntries(
      store.locales.map((locale) => [locale, names[locale] ?? names.en ?? type]),
    ) as Localized;
    return {
      id: `manual_${type}`,
      type,
      provider: "manual",
      flow: "offline",
      name,
      requires: [] as string[],
    };
  });
}

/** The cart became an order: completed, owned by the session's customer when there is one (in the order's transaction). */
export function completeCart(
  tenant: TenantDb,
  cartId: string,
  order: { orderId: string; email: string; customerId: string | null; at: number },
): void {
  tenant.sqlite
    .query(
      "UPDATE carts SET status = 'completed', order_id = ?, email = ?, customer_id = coalesce(?, customer_id), updated_at = ? WHERE id = ?",
    )
    .run(order.orderId, order.email, order.customerId, order.at, cartId);
}
