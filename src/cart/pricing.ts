/**
 * Cart pricing (docs/orders.md, "Pricing"): a pure function of the cart's lines, coupon, shipping method and tax
 * mode. All money is integer minor units and tax rates are basis points (2300 = 23 %). Every
 * multiply-then-divide runs in BigInt, so intermediate products past 2^53 stay exact; each result
 * is checked to be a safe integer before it goes back to `number`.
 */

export interface PricingLine {
  id: string;
  unitPrice: number;
  quantity: number;
  /** Basis points, already resolved with {@link lineTaxRate}. */
  taxRate: number;
}

export type PricingCoupon =
  | { type: "percentage"; value: number }
  | { type: "fixed"; value: number }
  | { type: "free_shipping" };

export interface PricingShipping {
  price: number;
  /** Shipping is free once the subtotal after discount reaches this amount; null = never. */
  freeOver: number | null;
  /** Basis points, already resolved with {@link shippingTaxRate}. */
  taxRate: number;
}

export interface PricingInput {
  /** In the order the items were added to the cart (first added first). */
  lines: PricingLine[];
  coupon: PricingCoupon | null;
  shipping: PricingShipping | null;
  pricesIncludeTax: boolean;
}

export interface PricedLine {
  id: string;
  subtotal: number;
  discount: number;
  taxRate: number;
  tax: number;
  total: number;
}

interface Totals {
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
}

export interface PricedCart {
  lines: PricedLine[];
  shippingTax: number;
  totals: Totals;
}

const BASIS = 10_000n;

function toSafe(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${what} is outside the safe integer range: ${value}`);
  }
  return Number(value);
}

function toBig(value: bigint | number, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
  return BigInt(value);
}

/** A non-negative safe integer input, as a bigint. */
function amount(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${value}`);
  }
  return BigInt(value);
}

/** numerator / denominator rounded to the nearest integer, halves away from zero. */
export function roundDiv(numerator: bigint | number, denominator: bigint | number): number {
  const n = toBig(numerator, "numerator");
  const d = toBig(denominator, "denominator");
  if (d === 0n) throw new RangeError("roundDiv: division by zero");
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  let q = a / b;
  if (2n * (a % b) >= b) q += 1n;
  return toSafe(negative ? -q : q, "roundDiv result");
}

function rateFor(taxRates: { country: string; rate: number }[], country: string | null): number | undefined {
  if (country === null) return undefined;
  const code = country.toUpperCase();
  return taxRates.find((r) => r.country.toUpperCase() === code)?.rate;
}

/** Tax rate of a line: product rate ?? store rate for the shipping country ?? store rate for the store country ?? 0 */
export function lineTaxRate(
  productTaxRate: number | null,
  taxRates: { country: string; rate: number }[],
  shippingCountry: string | null,
  storeCountry: string,
): number {
  return productTaxRate ?? shippingTaxRate(taxRates, shippingCountry, storeCountry);
}

/** Shipping uses the store rate for the shipping country (else the store country's, else 0). */
export function shippingTaxRate(
  taxRates: { country: string; rate: number }[],
  shippingCountry: string | null,
  storeCountry: string,
): number {
  return rateFor(taxRates, shippingCountry) ?? rateFor(taxRates, storeCountry) ?? 0;
}

function couponDiscount(coupon: PricingCoupon | null, subtotal: bigint): bigint {
  if (coupon === null) return 0n;
  switch (coupon.type) {
    case "percentage": {
      if (!Number.isInteger(coupon.value) || coupon.value < 1 || coupon.value > 100) {
        throw new RangeError(`percentage coupon value must be an integer 1–100, got ${coupon.value}`);
      }
      return BigInt(roundDiv(subtotal * BigInt(coupon.value), 100n));
    }
    case "fixed": {
      const value = amount(coupon.value, "fixed coupon value");
      return value < subtotal ? value : subtotal;
    }
    case "free_shipping":
      return 0n;
    default:
      throw new RangeError(`unknown coupon type ${(coupon as { type: unknown }).type}`);
  }
}

/**
 * Spreads `discount` (≤ the sum of `subtotals`) over the lines: floor of the proportional share
 * each, then one leftover cent each to the largest subtotals, earlier lines first on ties.
 */
function spreadDiscount(discount: bigint, subtotals: bigint[], subtotal: bigint): bigint[] {
  if (discount === 0n) return subtotals.map(() => 0n);
  const shares = subtotals.map((s) => (discount * s) / subtotal);
  let leftover = discount - shares.reduce((a, b) => a + b, 0n);
  const bySize = subtotals
    .map((s, index) => ({ s, index }))
    .sort((x, y) => (x.s === y.s ? x.index - y.index : x.s > y.s ? -1 : 1));
  for (const { index } of bySize) {
    if (leftover === 0n) break;
    shares[index]! += 1n;
    leftover -= 1n;
  }
  // Σ floor(d·sᵢ/S) > d − n, so fewer cents are left over than there are lines.
  if (leftover !== 0n) throw new Error("discount spread left cents over");
  return shares;
}

/** Tax on `net` at `rate` bp: the part included in it (inclusive) or to add on top (exclusive). */
function taxOn(net: bigint, rate: bigint, pricesIncludeTax: boolean): bigint {
  if (net === 0n || rate === 0n) return 0n;
  return BigInt(roundDiv(net * rate, pricesIncludeTax ? BASIS + rate : BASIS));
}

export function priceCart(input: PricingInput): PricedCart {
  const { pricesIncludeTax } = input;
  const subtotals = input.lines.map(
    (l) => amount(l.unitPrice, `unitPrice of line ${l.id}`) * amount(l.quantity, `quantity of line ${l.id}`),
  );
  const rates = input.lines.map((l) => amount(l.taxRate, `taxRate of line ${l.id}`));
  const subtotal = subtotals.reduce((a, b) => a + b, 0n);
  const discount = couponDiscount(input.coupon, subtotal);
  const discounts = spreadDiscount(discount, subtotals, subtotal);

  let linesTax = 0n;
  const lines: PricedLine[] = input.lines.map((line, i) => {
    const net = subtotals[i]! - discounts[i]!;
    const tax = taxOn(net, rates[i]!, pricesIncludeTax);
    linesTax += tax;
    const total = pricesIncludeTax ? net : net + tax;
    return {
      id: line.id,
      subtotal: toSafe(subtotals[i]!, `subtotal of line ${line.id}`),
      discount: toSafe(discounts[i]!, `discount of line ${line.id}`),
      taxRate: line.taxRate,
      tax: toSafe(tax, `tax of line ${line.id}`),
      total: toSafe(total, `total of line ${line.id}`),
    };
  });

  let shipping = 0n;
  let shippingTax = 0n;
  if (input.shipping !== null) {
    const price = amount(input.shipping.price, "shipping price");
    const freeOver =
      input.shipping.freeOver === null ? null : amount(input.shipping.freeOver, "shipping freeOver");
    const rate = amount(input.shipping.taxRate, "shipping taxRate");
    const free =
      input.coupon?.type === "free_shipping" || (freeOver !== null && subtotal - discount >= freeOver);
    shipping = free ? 0n : price;
    shippingTax = taxOn(shipping, rate, pricesIncludeTax);
  }

  const tax = linesTax + shippingTax;
  const total = subtotal - discount + shipping + (pricesIncludeTax ? 0n : tax);
  return {
    lines,
    shippingTax: toSafe(shippingTax, "shipping tax"),
    totals: {
      subtotal: toSafe(subtotal, "subtotal"),
      discount: toSafe(discount, "discount"),
      shipping: toSafe(shipping, "shipping"),
      tax: toSafe(tax, "tax"),
      total: toSafe(total, "total"),
    },
  };
}
