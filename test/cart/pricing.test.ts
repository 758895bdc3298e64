import { describe, expect, test } from "bun:test";
import {
  lineTaxRate,
  type PricedCart,
  type PricedLine,
  type PricingCoupon,
  type PricingInput,
  type PricingLine,
  type PricingShipping,
  priceCart,
  roundDiv,
  shippingTaxRate,
} from "../../src/cart/pricing.ts";

// ---------------------------------------------------------------------------------------------
// Helpers. `line` builds an input line, `priced` an expected output line; every expected number
// below is worked out by hand in the comment next to it (÷ is exact division, → is the rounding).
// ---------------------------------------------------------------------------------------------

const line = (id: string, unitPrice: number, quantity: number, taxRate: number): PricingLine => ({
  id,
  unitPrice,
  quantity,
  taxRate,
});
const priced = (
  id: string,
  subtotal: number,
  discount: number,
  taxRate: number,
  tax: number,
  total: number,
): PricedLine => ({ id, subtotal, discount, taxRate, tax, total });
const ship = (price: number, freeOver: number | null, taxRate: number): PricingShipping => ({
  price,
  freeOver,
  taxRate,
});
const pct = (value: number): PricingCoupon => ({ type: "percentage", value });
const fixed = (value: number): PricingCoupon => ({ type: "fixed", value });
const freeShipping: PricingCoupon = { type: "free_shipping" };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Pricing invariants (docs/orders.md), checked on every priced cart in this file. */
function expectInvariants(input: PricingInput, cart: PricedCart): void {
  const { lines, totals, shippingTax } = cart;
  expect(lines.map((l) => l.id)).toEqual(input.lines.map((l) => l.id));
  expect(sum(lines.map((l) => l.subtotal))).toBe(totals.subtotal);
  expect(sum(lines.map((l) => l.discount))).toBe(totals.discount);
  expect(totals.tax).toBe(sum(lines.map((l) => l.tax)) + shippingTax);
  if (input.pricesIncludeTax) {
    expect(totals.total).toBe(sum(lines.map((l) => l.total)) + totals.shipping);
    expect(totals.total).toBe(totals.subtotal - totals.discount + totals.shipping);
    for (const l of lines) expect(l.total).toBe(l.subtotal - l.discount);
  } else {
    expect(totals.total).toBe(sum(lines.map((l) => l.total)) + totals.shipping + shippingTax);
    expect(totals.total).toBe(totals.subtotal - totals.discount + totals.shipping + totals.tax);
    for (const l of lines) expect(l.total).toBe(l.subtotal - l.discount + l.tax);
  }
  const numbers = [
    shippingTax,
    ...Object.values(totals),
    ...lines.flatMap((l) => [l.subtotal, l.discount, l.taxRate, l.tax, l.total]),
  ];
  for (const n of numbers) {
    expect(Number.isSafeInteger(n)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(0);
  }
  for (const l of lines) expect(l.discount).toBeLessThanOrEqual(l.subtotal);
  expect(totals.discount).toBeLessThanOrEqual(totals.subtotal);
  input.lines.forEach((l, i) => {
    expect(lines[i]!.taxRate).toBe(l.taxRate);
  });
}

interface Case {
  name: string;
  input: PricingInput;
  expected: PricedCart;
}

const incl = (lines: PricingLine[], coupon: PricingCoupon | null, shipping: PricingShipping | null) => ({
  lines,
  coupon,
  shipping,
  pricesIncludeTax: true,
});
const excl = (lines: PricingLine[], coupon: PricingCoupon | null, shipping: PricingShipping | null) => ({
  lines,
  coupon,
  shipping,
  pricesIncludeTax: false,
});

// ---------------------------------------------------------------------------------------------
// Hand-computed cases.
// ---------------------------------------------------------------------------------------------

const cases: Case[] = [
  {
    // 1999 × 2 = 3998. Tax 3998 × 2300 ÷ 12300 = 747.59… → 748. Total = net = 3998.
    name: "VAT-inclusive single line at 23 %",
    input: incl([line("a", 1999, 2, 2300)], null, null),
    expected: {
      lines: [priced("a", 3998, 0, 2300, 748, 3998)],
      shippingTax: 0,
      totals: { subtotal: 3998, discount: 0, shipping: 0, tax: 748, total: 3998 },
    },
  },
  {
    // 1999 × 2 = 3998. Tax 3998 × 2300 ÷ 10000 = 919.54 → 920. Total 3998 + 920 = 4918.
    name: "VAT-exclusive single line at 23 %",
    input: excl([line("a", 1999, 2, 2300)], null, null),
    expected: {
      lines: [priced("a", 3998, 0, 2300, 920, 4918)],
      shippingTax: 0,
      totals: { subtotal: 3998, discount: 0, shipping: 0, tax: 920, total: 4918 },
    },
  },
  {
    // a 1000 @23 %: 1000 × 2300 ÷ 12300 = 186.99… → 187
    // b 250 × 2 = 500 @6 %: 500 × 600 ÷ 10600 = 28.30… → 28
    // c 300 @0 %: 0
    // shipping 500 @23 %: 500 × 2300 ÷ 12300 = 93.49… → 93
    // subtotal 1800; tax 187 + 28 + 0 + 93 = 308; total 1800 + 500 = 2300
    name: "23 %, 6 % and 0 % lines, prices include tax",
    input: incl(
      [line("a", 1000, 1, 2300), line("b", 250, 2, 600), line("c", 300, 1, 0)],
      null,
      ship(500, null, 2300),
    ),
    expected: {
      lines: [
        priced("a", 1000, 0, 2300, 187, 1000),
        priced("b", 500, 0, 600, 28, 500),
        priced("c", 300, 0, 0, 0, 300),
      ],
      shippingTax: 93,
      totals: { subtotal: 1800, discount: 0, shipping: 500, tax: 308, total: 2300 },
    },
  },
  {
    // a 1000 × 2300 ÷ 10000 = 230 → total 1230
    // b 500 × 600 ÷ 10000 = 30 → total 530
    // c 300 @0 → 0, total 300
    // shipping 500 × 2300 ÷ 10000 = 115
    // tax 230 + 30 + 0 + 115 = 375; total 1800 + 500 + 375 = 2675
    name: "23 %, 6 % and 0 % lines, prices exclude tax",
    input: excl(
      [line("a", 1000, 1, 2300), line("b", 250, 2, 600), line("c", 300, 1, 0)],
      null,
      ship(500, null, 2300),
    ),
    expected: {
      lines: [
        priced("a", 1000, 0, 2300, 230, 1230),
        priced("b", 500, 0, 600, 30, 530),
        priced("c", 300, 0, 0, 0, 300),
      ],
      shippingTax: 115,
      totals: { subtotal: 1800, discount: 0, shipping: 500, tax: 375, total: 2675 },
    },
  },
  {
    // a 433 × 3 = 1299, b 651 × 2 = 1302, c 1299 × 1 = 1299; subtotal 3900.
    // 10 %: 3900 × 10 ÷ 100 = 390.
    // floors: a 390 × 1299 ÷ 3900 = 129.9 → 129; b 390 × 1302 ÷ 3900 = 130.2 → 130; c 129.9 → 129.
    // Σ 388, 2 cents left: first to the largest subtotal b (131), then the tie a/c (1299 each)
    // goes to a, added first (130); c keeps 129. (Largest-remainder would have picked a and c.)
    // nets 1169, 1171, 1170; taxes ×2300 ÷ 12300: 218.59… → 219, 218.97… → 219, 218.78… → 219.
    // tax 657; total 3900 − 390 = 3510.
    name: "percentage 10 %: leftover cents go to the largest subtotal, then the tie by input order",
    input: incl([line("a", 433, 3, 2300), line("b", 651, 2, 2300), line("c", 1299, 1, 2300)], pct(10), null),
    expected: {
      lines: [
        priced("a", 1299, 130, 2300, 219, 1169),
        priced("b", 1302, 131, 2300, 219, 1171),
        priced("c", 1299, 129, 2300, 219, 1170),
      ],
      shippingTax: 0,
      totals: { subtotal: 3900, discount: 390, shipping: 0, tax: 657, total: 3510 },
    },
  },
  {
    // Same lines with the two 1299 lines swapped in input order: now c comes first and wins the tie.
    // c 130, b 131, a 129; nets 1169, 1171, 1170 → taxes 219 each (as above).
    name: "percentage 10 %: the same tie goes to whichever tied line was added first",
    input: incl([line("c", 1299, 1, 2300), line("b", 651, 2, 2300), line("a", 433, 3, 2300)], pct(10), null),
    expected: {
      lines: [
        priced("c", 1299, 130, 2300, 219, 1169),
        priced("b", 1302, 131, 2300, 219, 1171),
        priced("a", 1299, 129, 2300, 219, 1170),
      ],
      shippingTax: 0,
      totals: { subtotal: 3900, discount: 390, shipping: 0, tax: 657, total: 3510 },
    },
  },
  {
    // a 1000 @23 %, b 500 @6 %; subtotal 1500; fixed 250 < 1500 → discount 250.
    // floors: a 250 × 1000 ÷ 1500 = 166.67 → 166; b 250 × 500 ÷ 1500 = 83.33 → 83; Σ 249,
    // 1 cent left → a (largest) → 167.
    // nets 833, 417. Tax a 833 × 0.23 = 191.59 → 192; b 417 × 0.06 = 25.02 → 25.
    // Shipping 500 × 0.23 = 115. Tax 192 + 25 + 115 = 332. Total 1500 − 250 + 500 + 332 = 2082.
    name: "fixed coupon smaller than the subtotal, prices exclude tax",
    input: excl([line("a", 1000, 1, 2300), line("b", 500, 1, 600)], fixed(250), ship(500, null, 2300)),
    expected: {
      lines: [priced("a", 1000, 167, 2300, 192, 1025), priced("b", 500, 83, 600, 25, 442)],
      shippingTax: 115,
      totals: { subtotal: 1500, discount: 250, shipping: 500, tax: 332, total: 2082 },
    },
  },
  {
    // a 400 × 2 = 800, b 200; subtotal 1000; fixed 5000 → min(5000, 1000) = 1000.
    // shares exact: a 1000 × 800 ÷ 1000 = 800, b 200; nets 0 → line taxes 0.
    // Shipping 399 × 2300 ÷ 12300 = 74.61 → 75. Total 1000 − 1000 + 399 = 399 (shipping only).
    name: "fixed coupon larger than the subtotal, prices include tax: total is the shipping",
    input: incl([line("a", 400, 2, 2300), line("b", 200, 1, 600)], fixed(5000), ship(399, null, 2300)),
    expected: {
      lines: [priced("a", 800, 800, 2300, 0, 0), priced("b", 200, 200, 600, 0, 0)],
      shippingTax: 75,
      totals: { subtotal: 1000, discount: 1000, shipping: 399, tax: 75, total: 399 },
    },
  },
  {
    // As above, exclusive: shipping tax 399 × 0.23 = 91.77 → 92; total 0 + 399 + 92 = 491.
    name: "fixed coupon larger than the subtotal, prices exclude tax: total is shipping plus its tax",
    input: excl([line("a", 400, 2, 2300), line("b", 200, 1, 600)], fixed(5000), ship(399, null, 2300)),
    expected: {
      lines: [priced("a", 800, 800, 2300, 0, 0), priced("b", 200, 200, 600, 0, 0)],
      shippingTax: 92,
      totals: { subtotal: 1000, discount: 1000, shipping: 399, tax: 92, total: 491 },
    },
  },
  {
    // 2500 @23 % inclusive: 2500 × 2300 ÷ 12300 = 467.48 → 467. Coupon: no discount, shipping 0
    // (the method's 500 is waived), shipping tax 0. Total 2500.
    name: "free_shipping coupon: no discount, shipping and its tax become 0",
    input: incl([line("a", 2500, 1, 2300)], freeShipping, ship(500, null, 2300)),
    expected: {
      lines: [priced("a", 2500, 0, 2300, 467, 2500)],
      shippingTax: 0,
      totals: { subtotal: 2500, discount: 0, shipping: 0, tax: 467, total: 2500 },
    },
  },
  {
    // 2500 × 2 = 5000 = freeOver → reached, shipping 0. Tax 5000 × 2300 ÷ 12300 = 934.96 → 935.
    name: "free shipping threshold: exactly at freeOver counts as reached",
    input: incl([line("a", 2500, 2, 2300)], null, ship(450, 5000, 2300)),
    expected: {
      lines: [priced("a", 5000, 0, 2300, 935, 5000)],
      shippingTax: 0,
      totals: { subtotal: 5000, discount: 0, shipping: 0, tax: 935, total: 5000 },
    },
  },
  {
    // 4999 < 5000 → shipping 450. Line tax 4999 × 2300 ÷ 12300 = 934.77 → 935;
    // shipping tax 450 × 2300 ÷ 12300 = 84.15 → 84. Tax 1019; total 4999 + 450 = 5449.
    name: "free shipping threshold: one cent below is not reached",
    input: incl([line("a", 4999, 1, 2300)], null, ship(450, 5000, 2300)),
    expected: {
      lines: [priced("a", 4999, 0, 2300, 935, 4999)],
      shippingTax: 84,
      totals: { subtotal: 4999, discount: 0, shipping: 450, tax: 1019, total: 5449 },
    },
  },
  {
    // 5500 − 10 % (550) = 4950 < 5000 → shipping 450 even though the subtotal before discount is over.
    // Line tax 4950 × 2300 ÷ 12300 = 925.61 → 926; shipping tax 84 (as above). Tax 1010; total 4950 + 450 = 5400.
    name: "free shipping threshold applies to the subtotal after discount (not reached)",
    input: incl([line("a", 5500, 1, 2300)], pct(10), ship(450, 5000, 2300)),
    expected: {
      lines: [priced("a", 5500, 550, 2300, 926, 4950)],
      shippingTax: 84,
      totals: { subtotal: 5500, discount: 550, shipping: 450, tax: 1010, total: 5400 },
    },
  },
  {
    // 5556 × 10 ÷ 100 = 555.6 → 556; 5556 − 556 = 5000 ≥ 5000 → free. Tax 5000 → 935 (as above).
    name: "free shipping threshold applies to the subtotal after discount (reached exactly)",
    input: incl([line("a", 5556, 1, 2300)], pct(10), ship(450, 5000, 2300)),
    expected: {
      lines: [priced("a", 5556, 556, 2300, 935, 5000)],
      shippingTax: 0,
      totals: { subtotal: 5556, discount: 556, shipping: 0, tax: 935, total: 5000 },
    },
  },
  {
    // Exclusive: the threshold compares the subtotal after discount, before tax: 4999 < 5000 even
    // though 4999 + tax is over. Line tax 4999 × 0.23 = 1149.77 → 1150; shipping tax
    // 450 × 0.23 = 103.5 → 104 (a half, away from zero). Tax 1254; total 4999 + 450 + 1254 = 6703.
    name: "free shipping threshold, prices exclude tax: tax does not count towards it",
    input: excl([line("a", 4999, 1, 2300)], null, ship(450, 5000, 2300)),
    expected: {
      lines: [priced("a", 4999, 0, 2300, 1150, 6149)],
      shippingTax: 104,
      totals: { subtotal: 4999, discount: 0, shipping: 450, tax: 1254, total: 6703 },
    },
  },
  {
    // Each 333 × 2300 ÷ 12300 = 62.27 → 62, so tax = 3 × 62 = 186.
    // Rounding the sum instead would give 999 × 2300 ÷ 12300 = 186.80 → 187 (checked below).
    name: "three lines of 333 at 23 % inclusive: rounding is per line (186, not 187)",
    input: incl([line("a", 333, 1, 2300), line("b", 333, 1, 2300), line("c", 333, 1, 2300)], null, null),
    expected: {
      lines: [
        priced("a", 333, 0, 2300, 62, 333),
        priced("b", 333, 0, 2300, 62, 333),
        priced("c", 333, 0, 2300, 62, 333),
      ],
      shippingTax: 0,
      totals: { subtotal: 999, discount: 0, shipping: 0, tax: 186, total: 999 },
    },
  },
  {
    // Each 333 × 0.23 = 76.59 → 77, tax 231 (the sum 999 × 0.23 = 229.77 would give 230).
    // Total 999 + 231 = 1230.
    name: "three lines of 333 at 23 % exclusive: rounding is per line (231, not 230)",
    input: excl([line("a", 333, 1, 2300), line("b", 333, 1, 2300), line("c", 333, 1, 2300)], null, null),
    expected: {
      lines: [
        priced("a", 333, 0, 2300, 77, 410),
        priced("b", 333, 0, 2300, 77, 410),
        priced("c", 333, 0, 2300, 77, 410),
      ],
      shippingTax: 0,
      totals: { subtotal: 999, discount: 0, shipping: 0, tax: 231, total: 1230 },
    },
  },
  {
    // 20 % inclusive: 1503 × 2000 ÷ 12000 = 250.5 → 251 (half away from zero; banker's would say 250).
    // Shipping 375 × 2000 ÷ 12000 = 62.5 → 63 (banker's 62). Tax 314; total 1503 + 375 = 1878.
    name: "exact halves round away from zero (inclusive line and shipping tax)",
    input: incl([line("a", 1503, 1, 2000)], null, ship(375, null, 2000)),
    expected: {
      lines: [priced("a", 1503, 0, 2000, 251, 1503)],
      shippingTax: 63,
      totals: { subtotal: 1503, discount: 0, shipping: 375, tax: 314, total: 1878 },
    },
  },
  {
    // 6 % exclusive: 75 × 600 ÷ 10000 = 4.5 → 5 (banker's 4). Total 80.
    name: "exact halves round away from zero (exclusive line tax)",
    input: excl([line("a", 25, 3, 600)], null, null),
    expected: {
      lines: [priced("a", 75, 0, 600, 5, 80)],
      shippingTax: 0,
      totals: { subtotal: 75, discount: 0, shipping: 0, tax: 5, total: 80 },
    },
  },
  {
    // 10 % of 45 = 4.5 → 5 (banker's 4). Net 40 at 20 % inclusive: 40 × 2000 ÷ 12000 = 6.67 → 7.
    name: "exact halves round away from zero (percentage discount)",
    input: incl([line("a", 15, 3, 2000)], pct(10), null),
    expected: {
      lines: [priced("a", 45, 5, 2000, 7, 40)],
      shippingTax: 0,
      totals: { subtotal: 45, discount: 5, shipping: 0, tax: 7, total: 40 },
    },
  },
  {
    // 10^11 × 999 = 99 900 000 000 000. At 10000 bp inclusive: × 10000 ÷ 20000 = 49 950 000 000 000
    // (the product 9.99 × 10^17 is past 2^53).
    name: "large amounts: 10^11 × 999 at 10000 bp, prices include tax",
    input: incl([line("a", 100_000_000_000, 999, 10_000)], null, null),
    expected: {
      lines: [priced("a", 99_900_000_000_000, 0, 10_000, 49_950_000_000_000, 99_900_000_000_000)],
      shippingTax: 0,
      totals: {
        subtotal: 99_900_000_000_000,
        discount: 0,
        shipping: 0,
        tax: 49_950_000_000_000,
        total: 99_900_000_000_000,
      },
    },
  },
  {
    // Exclusive at 10000 bp: tax = net = 99 900 000 000 000; total 199 800 000 000 000.
    name: "large amounts: 10^11 × 999 at 10000 bp, prices exclude tax",
    input: excl([line("a", 100_000_000_000, 999, 10_000)], null, null),
    expected: {
      lines: [priced("a", 99_900_000_000_000, 0, 10_000, 99_900_000_000_000, 199_800_000_000_000)],
      shippingTax: 0,
      totals: {
        subtotal: 99_900_000_000_000,
        discount: 0,
        shipping: 0,
        tax: 99_900_000_000_000,
        total: 199_800_000_000_000,
      },
    },
  },
  {
    // 16 396 216 682 875 × 2 = 32 792 433 365 750 at 23 % exclusive:
    // × 2300 = 75 422 596 741 225 000 (> 2^53) ÷ 10000 = 7 542 259 674 122.5 → 7 542 259 674 123.
    // In doubles the product rounds and Math.round gives …122 (checked below).
    // Total 32 792 433 365 750 + 7 542 259 674 123 = 40 334 693 039 873.
    name: "large amounts: an exact half past 2^53 still rounds away from zero",
    input: excl([line("a", 16_396_216_682_875, 2, 2300)], null, null),
    expected: {
      lines: [priced("a", 32_792_433_365_750, 0, 2300, 7_542_259_674_123, 40_334_693_039_873)],
      shippingTax: 0,
      totals: {
        subtotal: 32_792_433_365_750,
        discount: 0,
        shipping: 0,
        tax: 7_542_259_674_123,
        total: 40_334_693_039_873,
      },
    },
  },
  {
    // a 100 000 000 001 × 999 = 99 900 000 000 999 @23 %; b 99 999 999 999 × 7 = 699 999 999 993 @6 %.
    // Subtotal 100 600 000 000 992. 7 %: × 7 ÷ 100 = 7 042 000 000 069.44 → 7 042 000 000 069.
    // floors: a D × Sa ÷ S = 6 993 000 000 069.99… → …069; b = 48 999 999 999.98… → …999;
    // Σ 7 042 000 000 068, 1 cent left → a (larger) → 6 993 000 000 070.
    // nets: a 92 907 000 000 929; b 650 999 999 994.
    // tax a: × 2300 ÷ 12300 = 17 372 853 658 710.3 → 17 372 853 658 710
    // tax b: × 600 ÷ 10600 = 36 849 056 603.43 → 36 849 056 603
    // tax 17 409 702 715 313; total = S − D = 93 558 000 000 923.
    name: "large amounts with a percentage coupon and two rates stay exact",
    input: incl([line("a", 100_000_000_001, 999, 2300), line("b", 99_999_999_999, 7, 600)], pct(7), null),
    expected: {
      lines: [
        priced("a", 99_900_000_000_999, 6_993_000_000_070, 2300, 17_372_853_658_710, 92_907_000_000_929),
        priced("b", 699_999_999_993, 48_999_999_999, 600, 36_849_056_603, 650_999_999_994),
      ],
      shippingTax: 0,
      totals: {
        subtotal: 100_600_000_000_992,
        discount: 7_042_000_000_069,
        shipping: 0,
        tax: 17_409_702_715_313,
        total: 93_558_000_000_923,
      },
    },
  },
  {
    name: "empty cart: everything is 0",
    input: incl([], null, null),
    expected: {
      lines: [],
      shippingTax: 0,
      totals: { subtotal: 0, discount: 0, shipping: 0, tax: 0, total: 0 },
    },
  },
  {
    // Subtotal 0 → any discount is 0 (10 % of 0 = 0; min(500, 0) = 0).
    name: "empty cart with a percentage coupon: discount 0",
    input: excl([], pct(10), null),
    expected: {
      lines: [],
      shippingTax: 0,
      totals: { subtotal: 0, discount: 0, shipping: 0, tax: 0, total: 0 },
    },
  },
  {
    name: "empty cart with a fixed coupon: discount 0",
    input: incl([], fixed(500), null),
    expected: {
      lines: [],
      shippingTax: 0,
      totals: { subtotal: 0, discount: 0, shipping: 0, tax: 0, total: 0 },
    },
  },
  {
    // The totals rule read literally: a chosen method costs its price even with no lines (whether an empty
    // cart carries a method is the caller's business). 500 × 2300 ÷ 12300 = 93.49 → 93.
    name: "empty cart with a shipping method: the method's price still applies",
    input: incl([], null, ship(500, null, 2300)),
    expected: {
      lines: [],
      shippingTax: 93,
      totals: { subtotal: 0, discount: 0, shipping: 500, tax: 93, total: 500 },
    },
  },
  {
    // A zero-priced line: share floor(100 × 0 ÷ 1000) = 0 and it never gets a leftover cent.
    // a 1000 @23 % gets the whole 10 % = 100; net 900 × 2300 ÷ 12300 = 168.29 → 168.
    name: "zero-priced line takes no part of the discount",
    input: incl([line("free", 0, 3, 2300), line("a", 1000, 1, 2300)], pct(10), null),
    expected: {
      lines: [priced("free", 0, 0, 2300, 0, 0), priced("a", 1000, 100, 2300, 168, 900)],
      shippingTax: 0,
      totals: { subtotal: 1000, discount: 100, shipping: 0, tax: 168, total: 900 },
    },
  },
  {
    // 100 % coupon: discount = subtotal; every line's share is its whole subtotal (exact).
    // Shipping 490 at 6 %: 490 × 600 ÷ 10600 = 27.74 → 28. Total 490.
    name: "100 % coupon: everything but shipping is free",
    input: incl([line("a", 333, 1, 2300), line("b", 667, 2, 600)], pct(100), ship(490, null, 600)),
    expected: {
      lines: [priced("a", 333, 333, 2300, 0, 0), priced("b", 1334, 1334, 600, 0, 0)],
      shippingTax: 28,
      totals: { subtotal: 1667, discount: 1667, shipping: 490, tax: 28, total: 490 },
    },
  },
];

describe("priceCart: hand-computed cases", () => {
  for (const c of cases) {
    test(c.name, () => {
      const result = priceCart(c.input);
      expect(result).toEqual(c.expected);
      expectInvariants(c.input, result);
    });
  }

  test("rounding the sum would differ from the per-line rounding in the 333 cases", () => {
    expect(roundDiv(999 * 2300, 12_300)).toBe(187);
    expect(roundDiv(999 * 2300, 10_000)).toBe(230);
  });

  test("doubles would get the large exact half wrong; BigInt does not", () => {
    const net = 32_792_433_365_750;
    expect(Math.round((net * 2300) / 10_000)).toBe(7_542_259_674_122);
    expect(roundDiv(BigInt(net) * 2300n, 10_000n)).toBe(7_542_259_674_123);
  });

  test("does not mutate its input", () => {
    const input = incl([line("a", 433, 3, 2300), line("b", 651, 2, 2300)], pct(10), ship(450, 5000, 2300));
    const copy = structuredClone(input);
    priceCart(input);
    expect(input).toEqual(copy);
  });
});

describe("tax rates by country", () => {
  const rates = [
    { country: "PT", rate: 2300 },
    { country: "ES", rate: 2100 },
    { country: "DE", rate: 1900 },
  ];

  test("lineTaxRate: product rate ?? shipping country ?? store country ?? 0", () => {
    expect(lineTaxRate(600, rates, "ES", "PT")).toBe(600); // product override beats the country
    expect(lineTaxRate(0, rates, "ES", "PT")).toBe(0); // an override of 0 is still an override
    expect(lineTaxRate(null, rates, "ES", "PT")).toBe(2100); // shipping country's rate
    expect(lineTaxRate(null, rates, "FR", "PT")).toBe(2300); // no FR rate → store country PT
    expect(lineTaxRate(null, rates, null, "PT")).toBe(2300); // no address yet → store country
    expect(lineTaxRate(null, rates, "FR", "IT")).toBe(0); // neither has a rate → 0
    expect(lineTaxRate(null, [], null, "PT")).toBe(0);
    expect(lineTaxRate(null, rates, "es", "PT")).toBe(2100); // country codes compare case-insensitively
  });

  test("shippingTaxRate: shipping country ?? store country ?? 0", () => {
    expect(shippingTaxRate(rates, "DE", "PT")).toBe(1900);
    expect(shippingTaxRate(rates, "FR", "PT")).toBe(2300);
    expect(shippingTaxRate(rates, null, "PT")).toBe(2300);
    expect(shippingTaxRate(rates, "FR", "IT")).toBe(0);
    expect(shippingTaxRate([], "ES", "PT")).toBe(0);
  });

  // Store PT (2300), rates ES 2100; line a has no product rate, line b overrides with 600.
  const cart = (country: string): PricingInput => ({
    lines: [
      line("a", 1000, 1, lineTaxRate(null, rates, country, "PT")),
      line("b", 500, 1, lineTaxRate(600, rates, country, "PT")),
    ],
    coupon: null,
    shipping: ship(600, null, shippingTaxRate(rates, country, "PT")),
    pricesIncludeTax: true,
  });

  test("shipping to ES: lines without an override and the shipping use the ES rate", () => {
    // a 1000 × 2100 ÷ 12100 = 173.55 → 174; b 500 × 600 ÷ 10600 = 28.30 → 28;
    // shipping 600 × 2100 ÷ 12100 = 104.13 → 104. Tax 306; total 1500 + 600 = 2100.
    const input = cart("ES");
    const result = priceCart(input);
    expect(result).toEqual({
      lines: [priced("a", 1000, 0, 2100, 174, 1000), priced("b", 500, 0, 600, 28, 500)],
      shippingTax: 104,
      totals: { subtotal: 1500, discount: 0, shipping: 600, tax: 306, total: 2100 },
    });
    expectInvariants(input, result);
  });

  test("shipping to FR (no store rate): falls back to the store country PT", () => {
    // a 1000 × 2300 ÷ 12300 = 186.99 → 187; b 28 as above;
    // shipping 600 × 2300 ÷ 12300 = 112.20 → 112. Tax 327; total 2100.
    const input = cart("FR");
    const result = priceCart(input);
    expect(result).toEqual({
      lines: [priced("a", 1000, 0, 2300, 187, 1000), priced("b", 500, 0, 600, 28, 500)],
      shippingTax: 112,
      totals: { subtotal: 1500, discount: 0, shipping: 600, tax: 327, total: 2100 },
    });
    expectInvariants(input, result);
  });
});

describe("roundDiv", () => {
  test("rounds halves away from zero in every sign combination", () => {
    expect(roundDiv(5, 2)).toBe(3);
    expect(roundDiv(-5, 2)).toBe(-3);
    expect(roundDiv(5, -2)).toBe(-3);
    expect(roundDiv(-5, -2)).toBe(3);
    expect(roundDiv(7, 2)).toBe(4);
    expect(roundDiv(-7, 2)).toBe(-4);
    expect(roundDiv(0, 7)).toBe(0);
    expect(Object.is(roundDiv(-1, 3), 0)).toBe(true); // never -0
    expect(roundDiv(149, 100)).toBe(1);
    expect(roundDiv(150, 100)).toBe(2);
    expect(roundDiv(-149, 100)).toBe(-1);
    expect(roundDiv(-150, 100)).toBe(-2);
  });

  test("agrees with the real quotient rounded half away from zero on small values", () => {
    for (let n = -60; n <= 60; n++) {
      for (let d = -9; d <= 9; d++) {
        if (d === 0) continue;
        const q = n / d; // exact enough at this size
        const expected = Math.sign(q) * Math.floor(Math.abs(q) + 0.5);
        expect(roundDiv(n, d)).toBe(expected === 0 ? 0 : expected);
        expect(roundDiv(BigInt(n), BigInt(d))).toBe(expected === 0 ? 0 : expected);
      }
    }
  });

  test("is exact past 2^53 and checks its inputs and result", () => {
    // 10^13 × 10000 = 10^17, ÷ 3 = 33 333 333 333 333 333.3 → too big for a safe integer.
    expect(() => roundDiv(10n ** 17n, 3n)).toThrow(RangeError);
    // (2^53 + 1) × 3 ÷ 6 = 4 503 599 627 370 496.5 → 4 503 599 627 370 497
    expect(roundDiv((2n ** 53n + 1n) * 3n, 6n)).toBe(4_503_599_627_370_497);
    // (10^17 + 5000) ÷ 10^4 = 10^13 + 0.5 → 10^13 + 1; (10^17 + 4999) ÷ 10^4 = 10^13 + 0.4999 → 10^13.
    expect(roundDiv(10n ** 17n + 5_000n, 10_000n)).toBe(10_000_000_000_001);
    expect(roundDiv(10n ** 17n + 4_999n, 10_000n)).toBe(10_000_000_000_000);
    expect(roundDiv(-(10n ** 17n) - 5_000n, 10_000n)).toBe(-10_000_000_000_001);
    expect(() => roundDiv(1, 0)).toThrow(RangeError);
    expect(() => roundDiv(1.5, 1)).toThrow(RangeError);
    expect(() => roundDiv(2 ** 53, 1)).toThrow(RangeError);
  });
});

describe("priceCart rejects invalid input", () => {
  const base = (over: Partial<PricingLine>): PricingInput =>
    incl([{ ...line("a", 100, 1, 2300), ...over }], null, null);

  test("negative, fractional or unsafe line numbers", () => {
    expect(() => priceCart(base({ unitPrice: -1 }))).toThrow(RangeError);
    expect(() => priceCart(base({ unitPrice: 1.5 }))).toThrow(RangeError);
    expect(() => priceCart(base({ quantity: -1 }))).toThrow(RangeError);
    expect(() => priceCart(base({ taxRate: -100 }))).toThrow(RangeError);
    expect(() => priceCart(base({ unitPrice: Number.NaN }))).toThrow(RangeError);
  });

  test("a subtotal past the safe integer range", () => {
    expect(() => priceCart(base({ unitPrice: 2 ** 52, quantity: 3 }))).toThrow(RangeError);
  });

  test("coupon values out of range", () => {
    const lines = [line("a", 100, 1, 2300)];
    expect(() => priceCart(incl(lines, pct(0), null))).toThrow(RangeError);
    expect(() => priceCart(incl(lines, pct(101), null))).toThrow(RangeError);
    expect(() => priceCart(incl(lines, pct(12.5), null))).toThrow(RangeError);
    expect(() => priceCart(incl(lines, fixed(-1), null))).toThrow(RangeError);
  });

  test("shipping values out of range", () => {
    const lines = [line("a", 100, 1, 2300)];
    expect(() => priceCart(incl(lines, null, ship(-1, null, 2300)))).toThrow(RangeError);
    expect(() => priceCart(incl(lines, null, ship(100, -1, 2300)))).toThrow(RangeError);
    expect(() => priceCart(incl(lines, null, ship(100, null, 0.5)))).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Property-style: 500 pseudo-random carts from a fixed seed.
// ---------------------------------------------------------------------------------------------

/** xorshift32; deterministic, returns integers in [0, n). */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return (n: number) => Math.floor((next() / 2 ** 32) * n);
}

describe("priceCart: 500 pseudo-random carts", () => {
  const int = prng(0x5eed_2024);
  const RATES = [0, 600, 1300, 2100, 2300, 10_000];
  const COUPONS = ["none", "percentage", "fixed", "free_shipping"] as const;

  const randomCart = (i: number): PricingInput => {
    const count = int(7); // 0–6 lines
    const lines: PricingLine[] = [];
    for (let j = 0; j < count; j++) {
      const big = int(10) === 0;
      // Duplicated prices now and then, so subtotal ties are common.
      const unitPrice = big ? int(100_000_000_000) : int(4) === 0 ? 500 : int(20_000);
      const quantity = int(3) === 0 ? 1 : 1 + int(999);
      const taxRate = int(4) === 0 ? int(10_001) : RATES[int(RATES.length)]!;
      lines.push(line(`l${j}`, unitPrice, quantity, taxRate));
    }
    const subtotal = sum(lines.map((l) => l.unitPrice * l.quantity));
    const kind = COUPONS[i % 4]!;
    const coupon: PricingCoupon | null =
      kind === "none"
        ? null
        : kind === "percentage"
          ? pct(1 + int(100))
          : kind === "fixed"
            ? fixed(int(Math.max(1, Math.min(2 * subtotal, 2 ** 31))))
            : freeShipping;
    const shipping =
      int(4) === 0
        ? null
        : ship(
            int(3000),
            int(2) === 0 ? null : int(Math.max(1, Math.min(subtotal * 2, 2 ** 31))),
            RATES[int(RATES.length)]!,
          );
    return { lines, coupon, shipping, pricesIncludeTax: (i >> 2) % 2 === 0 };
  };

  test("pricing invariants and rules hold", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const input = randomCart(i);
      seen.add(`${input.pricesIncludeTax}:${input.coupon?.type ?? "none"}`);
      const result = priceCart(input);
      expectInvariants(input, result);
      const { totals } = result;
      const S = BigInt(totals.subtotal);
      const D = BigInt(totals.discount);

      // Coupon discount.
      const c = input.coupon;
      if (c === null || c.type === "free_shipping") expect(totals.discount).toBe(0);
      else if (c.type === "fixed") expect(totals.discount).toBe(Math.min(c.value, totals.subtotal));
      else {
        // |100·D − S·v| ≤ 50, and an exact half goes up (amounts are non-negative).
        const diff = 100n * D - S * BigInt(c.value);
        expect(diff >= -49n && diff <= 50n).toBe(true);
      }

      // Spread: floor share plus at most one cent, cents to the largest subtotals, ties by order.
      if (S > 0n) {
        const extra = result.lines.map((l) => BigInt(l.discount) - (D * BigInt(l.subtotal)) / S);
        for (const e of extra) expect(e === 0n || e === 1n).toBe(true);
        const order = result.lines
          .map((l, idx) => ({ s: l.subtotal, idx }))
          .sort((a, b) => b.s - a.s || a.idx - b.idx)
          .map((x) => x.idx);
        const k = Number(extra.reduce((a, b) => a + b, 0n));
        const winners = new Set(order.slice(0, k));
        extra.forEach((e, idx) => {
          expect(e === 1n).toBe(winners.has(idx));
        });
      }

      // Shipping.
      const sh = input.shipping;
      const expectedShipping =
        sh === null ||
        c?.type === "free_shipping" ||
        (sh.freeOver !== null && totals.subtotal - totals.discount >= sh.freeOver)
          ? 0
          : sh.price;
      expect(totals.shipping).toBe(expectedShipping);

      // Each tax is the true quotient rounded to the nearest cent: |tax·den − amount·rate| ≤ den/2.
      const check = (amount: number, rate: number, tax: number) => {
        const den = BigInt(input.pricesIncludeTax ? 10_000 + rate : 10_000);
        const err = BigInt(tax) * den - BigInt(amount) * BigInt(rate);
        expect(2n * err <= den && -2n * err < den).toBe(true);
      };
      result.lines.forEach((l) => {
        check(l.subtotal - l.discount, l.taxRate, l.tax);
      });
      check(totals.shipping, sh?.taxRate ?? 0, result.shippingTax);
    }
    expect(seen.size).toBe(8); // both modes × all four coupon kinds
  });
});
