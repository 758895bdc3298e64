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
  createdAt: number;
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

/** A cart and its lines as a write holds them: changed in memory as the write changes the file. */
interface CartInWrite {
  cart: CartRow;
  lines: CartLine[];
}

/** The active cart a write changes, with its lines. */
function cartToWrite(tenant: TenantDb, cartId: string): CartInWrite {
  return { cart: activeCart(tenant, cartId), lines: loadLines(tenant, cartId) };
}

type CartColumn = "coupon_code" | "shipping_method_id" | "shipping_address" | "billing_address" | "email";

/** Sets `updated_at` (and `column`, when given) in the file and in `cart`. */
function updateCart(tenant: TenantDb, cart: CartRow, column?: CartColumn, value: string | null = null) {
  const now = Date.now();
  if (column === undefined) {
    tenant.sqlite.query("UPDATE carts SET updated_at = ? WHERE id = ?").run(now, cart.id);
  } else {
    tenant.sqlite
      .query(`UPDATE carts SET ${column} = ?, updated_at = ? WHERE id = ?`)
      .run(value, now, cart.id);
    cart[column] = value;
  }
  cart.updated_at = now;
}

/** The variant and product columns of a line (`v.id` as `v_id`); every one is null when the variant is gone. */
type LiveColumns = { v_id: Row<typeof variants>["id"] } & Pick<
  Row<typeof variants>,
  "sku" | "title" | "price" | "tracked" | "on_hand" | "allow_backorder"
> &
  Pick<Row<typeof products>, "status" | "name" | "images" | "tax_rate" | "requires_shipping">;

type LineRow = Pick<
  Row<typeof cartItems>,
  "id" | "product_id" | "variant_id" | "quantity" | "unit_price" | "created_at"
> &
  (LiveColumns | { [K in keyof LiveColumns]: null });

/** A line's live variant and product, from their columns. */
const liveOf = (r: LiveColumns): Pick<CartLine, "variant" | "product"> => ({
  variant: {
    sku: r.sku,
    title: r.title,
    price: r.price,
    tracked: r.tracked === 1,
    onHand: r.on_hand,
    allowBackorder: r.allow_backorder === 1,
  },
  product: {
    status: r.status,
    name: JSON.parse(r.name) as Localized,
    images: JSON.parse(r.images) as ProductImage[],
    taxRate: r.tax_rate,
    requiresShipping: r.requires_shipping === 1,
  },
});

function loadLines(tenant: TenantDb, cartId: string): CartLine[] {
  // `+?`, not `?`: a bare parameter in a join is re-prepared on every run (see src/db/sqlite.ts).
  const rows = tenant.sqlite
    .query(
      `SELECT i.id, i.product_id, i.variant_id, i.quantity, i.unit_price, i.created_at,
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
    createdAt: r.created_at,
    ...(r.v_id === null ? { variant: null, product: null } : liveOf(r)),
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
function liveLines(found: UnpricedCart, lines: CartLine[]) {
  const { cart, store, messages, corrections } = found;
  const editable = cart.status === "active";
  for (const line of lines) {
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
export const readPricedCart = (tenant: TenantDb, cartId: string): PricedCartState =>
  pricedState(tenant, findCart(tenant, cartId), loadLines(tenant, cartId));

/** Prices `cart` with `lines` (as read, or as a write left them), writing nothing. */
function pricedState(tenant: TenantDb, cart: CartRow, lines: CartLine[]): PricedCartState {
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
  liveLines(found, lines);
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
export const loadPricedCart = (tenant: TenantDb, cartId: string): PricedCartState =>
  writtenState(tenant, { cart: findCart(tenant, cartId), lines: loadLines(tenant, cartId) });

/**
 * A cart write's state from the cart and lines it holds in memory, which equal what reading them
 * back would give (the write changed both alike), with what the pricing found out of date persisted.
 */
function writtenState(tenant: TenantDb, { cart, lines }: CartInWrite): PricedCartState {
  const state = pricedState(tenant, cart, lines);
  persistCorrections(tenant, cart.id, state.corrections);
  return state;
}

/** A priced cart as the API shows it (`getCart`'s answer), from a state already priced. */
export function cartView(state: PricedCartState) {
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

/** The answer of a cart write, which persists the corrections its pricing finds (see `writtenState`). */
const writtenCart = (tenant: TenantDb, written: CartInWrite) => cartView(writtenState(tenant, written));

// ---------------------------------------------------------------- items

/** A variant on sale, as a cart line holds it. */
interface VariantForSale {
  variantId: string;
  productId: string;
  variant: NonNullable<CartLine["variant"]>;
  product: NonNullable<CartLine["product"]>;
}

/**
 * The variant a shopper asks for: by variantId, or by productId of a single-variant product. Active
 * products only. A line of the cart already holding it answers without a query: it was read with
 * the same join in the same transaction.
 */
function variantForSale(
  tenant: TenantDb,
  lines: CartLine[],
  input: { variantId?: string; productId?: string },
  path: string,
): VariantForSale {
  if ((input.variantId === undefined) === (input.productId === undefined)) {
    throw new ApiError("VALIDATION_ERROR", "Send variantId, or productId for a product with one variant", [
      { path, message: "exactly one of variantId and productId" },
    ]);
  }
  const held = lines.find((l) => l.variantId === input.variantId && l.product?.status === "active");
  if (held) return held as VariantForSale;
  const rows = tenant.sqlite // `+?`: see loadLines
    .query(
      `SELECT v.id AS v_id, v.product_id, v.sku, v.title, v.price, v.tracked, v.on_hand, v.allow_backorder,
              p.status, p.name, p.images, p.tax_rate, p.requires_shipping
         FROM variants v JOIN products p ON p.id = v.product_id
        WHERE p.status = 'active' AND ${input.variantId !== undefined ? "v.id = +?" : "v.product_id = +?"}`,
    )
    .all(input.variantId ?? input.productId!) as (LiveColumns & Pick<Row<typeof variants>, "product_id">)[];
  if (rows.length === 0) throw notFound(input.variantId !== undefined ? "Variant" : "Product");
  if (rows.length > 1) {
    throw new ApiError("VALIDATION_ERROR", "This product has several variants: send variantId", [
      { path: `${path}/productId`, message: "choose a variant" },
    ]);
  }
  const row = rows[0]!;
  return { variantId: row.v_id, productId: row.product_id, ...liveOf(row) } as VariantForSale;
}

function checkStock(variantId: string, variant: NonNullable<CartLine["variant"]>, quantity: number) {
  if (quantity <= buyable(variant)) return;
  throw new ApiError(
    "INSUFFICIENT_STOCK",
    `Not enough stock of ${variant.sku ?? variantId}: ${variant.onHand} available`,
    [{ path: "/body/quantity", message: `available: ${variant.onHand}` }],
  );
}

/**
 * The answer of a cart write, refused when the cart would price above {@link MAX_CART_AMOUNT}. Runs
 * after the write, inside the operation's transaction, so the refusal rolls the write back.
 */
function checkedCart(tenant: TenantDb, written: CartInWrite, path: string) {
  // The subtotal first, in BigInt: it bounds every amount priceCart computes from it.
  const max = BigInt(MAX_CART_AMOUNT);
  const subtotal = written.lines.reduce(
    (sum, l) => (l.variant ? sum + BigInt(l.variant.price) * BigInt(l.quantity) : sum),
    0n,
  );
  const state = subtotal > max ? null : writtenState(tenant, written);
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

/** Adds `input` to the cart (the same variant raises its line), in the file and in `written.lines`. */
function addLine(
  tenant: TenantDb,
  { cart, lines }: CartInWrite,
  input: { variantId?: string; productId?: string; quantity: number },
  path: string,
) {
  const sale = variantForSale(tenant, lines, input, path);
  const existing = lines.find((l) => l.variantId === sale.variantId);
  const quantity = (existing?.quantity ?? 0) + input.quantity;
  if (quantity > MAX_QUANTITY) {
    throw new ApiError("VALIDATION_ERROR", `At most ${MAX_QUANTITY} of one item per cart`, [
      { path: `${path}/quantity`, message: `the cart would hold ${quantity}` },
    ]);
  }
  checkStock(sale.variantId, sale.variant, quantity);
  const price = sale.variant.price;
  if (existing) {
    tenant.sqlite
      .query("UPDATE cart_items SET quantity = ?, unit_price = ? WHERE id = ?")
      .run(quantity, price, existing.id);
    existing.quantity = quantity;
    existing.seenPrice = price;
    return;
  }
  if (lines.length >= MAX_CART_LINES) {
    throw new ApiError(
      "UNPROCESSABLE",
      `A cart holds at most ${MAX_CART_LINES} different items; remove one before adding another`,
      [{ path, message: `the cart already has ${lines.length} lines (at most ${MAX_CART_LINES})` }],
    );
  }
  const line: CartLine = { ...sale, id: newId("item"), quantity, seenPrice: price, createdAt: Date.now() };
  tenant.sqlite
    .query(
      "INSERT INTO cart_items (id, cart_id, product_id, variant_id, quantity, unit_price, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .run(line.id, cart.id, line.productId, line.variantId, quantity, price, line.createdAt);
  // Lines are read ordered by created_at, then insertion: after every line not created later.
  const later = lines.findIndex((l) => l.createdAt > line.createdAt);
  lines.splice(later === -1 ? lines.length : later, 0, line);
}

export function createCart(
  tenant: TenantDb,
  input: { email?: string; items?: { variantId?: string; productId?: string; quantity: number }[] },
  customer: SignedInCustomer | null,
) {
  const now = Date.now();
  const cart: CartRow = {
    id: newId("cart"),
    status: "active",
    currency: getStore(tenant).currency,
    email: input.email?.toLowerCase() ?? customer?.email ?? null,
    customer_id: customer?.id ?? null,
    coupon_code: null,
    shipping_address: null,
    billing_address: null,
    shipping_method_id: null,
    order_id: null,
    created_at: now,
    updated_at: now,
  };
  tenant.sqlite
    .query(
      `INSERT INTO carts (id, status, currency, email, customer_id, created_at, updated_at)
       VALUES (?, 'active', ?, ?, ?, ?, ?)`,
    )
    .run(cart.id, cart.currency, cart.email, cart.customer_id, now, now);
  const written: CartInWrite = { cart, lines: [] };
  (input.items ?? []).forEach((item, i) => {
    addLine(tenant, written, item, `/body/items/${i}`);
  });
  return input.items?.length ? checkedCart(tenant, written, "/body/items") : writtenCart(tenant, written);
}

export function addItem(
  tenant: TenantDb,
  cartId: string,
  input: { variantId?: string; productId?: string; quantity: number },
) {
  const written = cartToWrite(tenant, cartId);
  addLine(tenant, written, input, "/body");
  updateCart(tenant, written.cart);
  return checkedCart(tenant, written, "/body/quantity");
}

/** The cart's line `itemId`, and where it is among the lines. */
function cartItem({ lines }: CartInWrite, itemId: string) {
  const index = lines.findIndex((l) => l.id === itemId);
  if (index === -1) throw notFound("Cart item");
  return { line: lines[index]!, index };
}

export function updateItem(tenant: TenantDb, cartId: string, itemId: string, quantity: number) {
  const written = cartToWrite(tenant, cartId);
  const { line, index } = cartItem(written, itemId);
  const before = line.quantity;
  if (quantity === 0) {
    tenant.sqlite.query("DELETE FROM cart_items WHERE id = ?").run(itemId);
    written.lines.splice(index, 1);
  } else {
    if (line.variant) checkStock(line.variantId, line.variant, quantity);
    tenant.sqlite.query("UPDATE cart_items SET quantity = ? WHERE id = ?").run(quantity, itemId);
    line.quantity = quantity;
  }
  updateCart(tenant, written.cart);
  // Fewer units never pass the limit (a cart above it after a price rise can always shrink).
  return quantity > before ? checkedCart(tenant, written, "/body/quantity") : writtenCart(tenant, written);
}

export function removeItem(tenant: TenantDb, cartId: string, itemId: string) {
  const written = cartToWrite(tenant, cartId);
  const { index } = cartItem(written, itemId);
  tenant.sqlite.query("DELETE FROM cart_items WHERE id = ?").run(itemId);
  written.lines.splice(index, 1);
  updateCart(tenant, written.cart);
  return writtenCart(tenant, written);
}

/** Sets the buyer's email (lower case) on an active cart: what place-order uses when its body names none. */
export function setCartEmail(tenant: TenantDb, cartId: string, email: string) {
  const written = cartToWrite(tenant, cartId);
  updateCart(tenant, written.cart, "email", email.toLowerCase());
  return writtenCart(tenant, written);
}

// ---------------------------------------------------------------- coupon

export function applyCoupon(tenant: TenantDb, cartId: string, code: string) {
  const written = cartToWrite(tenant, cartId);
  const state = pricedState(tenant, written.cart, written.lines);
  const coupon = findCouponByCode(tenant, code);
  const problem = couponProblem(coupon, state.priced.totals.subtotal, Date.now());
  if (problem !== null) {
    throw new ApiError("COUPON_INVALID", `The coupon cannot be used: ${problem}`, [
      { path: "/body/code", message: problem },
    ]);
  }
  updateCart(tenant, written.cart, "coupon_code", coupon!.code);
  return writtenCart(tenant, written);
}

export function removeCoupon(tenant: TenantDb, cartId: string) {
  const written = cartToWrite(tenant, cartId);
  updateCart(tenant, written.cart, "coupon_code", null);
  return writtenCart(tenant, written);
}

// ---------------------------------------------------------------- shipping

/** Active methods serving the cart's shipping country (all of them before an address is set), priced for this cart. */
export const cartShippingMethods = (tenant: TenantDb, cartId: string) =>
  shippingMethodsFor(tenant, readPricedCart(tenant, cartId));

/** The shipping methods serving a priced cart, at their price for it. */
export function shippingMethodsFor(tenant: TenantDb, state: PricedCartState) {
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
  const written = cartToWrite(tenant, cartId);
  const { cart } = written;
  const method = findShippingMethod(tenant, shippingMethodId);
  if (!method?.active) throw notFound("Shipping method");
  const country = parseJsonOrNull<Address>(cart.shipping_address)?.country ?? null;
  if (!servesCountry(method, country)) {
    throw new ApiError("UNPROCESSABLE", `This shipping method does not serve ${country}`);
  }
  updateCart(tenant, cart, "shipping_method_id", method.id);
  return checkedCart(tenant, written, "/body/shippingMethodId");
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
  const written = cartToWrite(tenant, cartId);
  const checked = checkAddress(tenant, address, kind === "shipping");
  const column = kind === "shipping" ? "shipping_address" : "billing_address";
  updateCart(tenant, written.cart, column, JSON.stringify(checked));
  // The shipping country picks the tax rate, which moves the total when prices exclude tax.
  return kind === "shipping" ? checkedCart(tenant, written, "/body/country") : writtenCart(tenant, written);
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
