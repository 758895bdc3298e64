// Amounts are integer minor units everywhere; these turn them into the decimal a person reads or
// types ("12.50" for 1250 EUR, "1250" for 1250 JPY) and back, with the currency's own decimals.

const digitsOf = new Map<string, number>();

/** How many decimals the currency's minor unit has (EUR 2, JPY 0, BHD 3); an unknown code has 2. */
export function currencyDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = 2;
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits as number;
    } catch {
      // an unknown code keeps two decimals
    }
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** `1250` EUR → `"12.50"`: written from the digits, so no floating-point rounding is involved. */
export function decimalAmount(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  const sign = amount < 0 ? "-" : "";
  const text = String(Math.abs(amount)).padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const DECIMAL = /^(\d+)(?:[.,](\d*))?$/;

/**
 * `"12.5"` or `"12,50"` EUR → `1250`; undefined when the text is not a plain non-negative decimal
 * (no sign, no thousands separator) or has more decimals than the currency.
 */
export function minorUnits(text: string, currency: string): number | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return undefined;
  return Number(match[1]! + fraction.padEnd(digits, "0"));
}
