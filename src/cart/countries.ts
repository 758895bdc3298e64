/**
 * Countries (ISO 3166-1 alpha-2) and postal-code rules: the checks of cart addresses and of the
 * countries a shipping method serves, and the list behind `GET /v1/countries`.
 *
 * The code list and the postal-code data below are written by hand from the published standard
 * and the national postal formats; names come from the runtime's ICU data (`Intl.DisplayNames`).
 */

/** Every officially assigned ISO 3166-1 alpha-2 code (249), sorted. User-assigned codes such as XK are not included. */
export const COUNTRY_CODES: readonly string[] = Object.freeze([
  ...["AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ"],
  ...["BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS"],
  ...["BT", "BV", "BW", "BY", "BZ"],
  ...["CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW"],
  ...["CX", "CY", "CZ"],
  ...["DE", "DJ", "DK", "DM", "DO", "DZ"],
  ...["EC", "EE", "EG", "EH", "ER", "ES", "ET"],
  ...["FI", "FJ", "FK", "FM", "FO", "FR"],
  ...["GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT"],
  ...["GU", "GW", "GY"],
  ...["HK", "HM", "HN", "HR", "HT", "HU"],
  ...["ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT"],
  ...["JE", "JM", "JO", "JP"],
  ...["KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ"],
  ...["LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY"],
  ...["MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS"],
  ...["MT", "MU", "MV", "MW", "MX", "MY", "MZ"],
  ...["NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ"],
  ...["OM"],
  ...["PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY"],
  ...["QA"],
  ...["RE", "RO", "RS", "RU", "RW"],
  ...["SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS"],
  ...["ST", "SV", "SX", "SY", "SZ"],
  ...["TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ"],
  ...["UA", "UG", "UM", "US", "UY", "UZ"],
  ...["VA", "VC", "VE", "VG", "VI", "VN", "VU"],
  ...["WF", "WS"],
  ...["YE", "YT"],
  ...["ZA", "ZM", "ZW"],
]);

const COUNTRY_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** True when `code` is an assigned alpha-2 code, written in upper case. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_SET.has(code);
}

/**
 * Countries whose addresses do not use a postal code (or where it is not used in practice).
 * Kept to the cases that are well established; anything else requires one. Ireland has Eircode,
 * but it is optional in practice, so it is not required (it is still format-checked when given).
 */
const NO_POSTAL_CODE: ReadonlySet<string> = new Set([
  ...["AE", "AG", "AO", "AW", "BF", "BI", "BJ", "BO", "BQ", "BS", "BW", "BZ", "CD", "CF", "CG", "CI"],
  ...["CK", "CM", "CW", "DJ", "DM", "ER", "FJ", "GA", "GD", "GH", "GM", "GQ", "GY", "HK", "IE", "JM"],
  ...["KI", "KM", "KN", "KP", "LC", "LY", "ML", "MO", "MR", "MW", "NR", "NU", "QA", "RW", "SB", "SC"],
  ...["SL", "SO", "SR", "SS", "ST", "SX", "SY", "TD", "TG", "TK", "TL", "TO", "TT", "TV", "TZ", "UG"],
  ...["VU", "YE", "ZW"],
]);

/** Whether an address in `code` must carry a postal code. */
export function postalCodeRequired(code: string): boolean {
  return !NO_POSTAL_CODE.has(code);
}

interface PostalRule {
  /** Matched against the normalised value (trimmed, upper case, single inner spaces). */
  pattern: RegExp;
  /** Human-readable shape, used in the rejection reason ("expected …"). */
  format: string;
  /** Rewrites an accepted value into its canonical written form (e.g. the space in a UK postcode). */
  canonical?: (value: string) => string;
}

const compact = (value: string) => value.replace(/[ -]/g, "");
/** Removes spaces and hyphens, then puts `sep` before the last `tail` characters. */
const splitTail = (tail: number, sep: string) => (value: string) => {
  const v = compact(value);
  return `${v.slice(0, -tail)}${sep}${v.slice(-tail)}`;
};

// Letters allowed in UK postcodes: first position never Q, V, X; second never I, J, Z; the
// trailing letter of an A9A outward code and of an AA9A outward code come from fixed sets; the
// inward code's letters never include C, I, K, M, O, V.
const GB_OUTWARD = "[A-PR-UWYZ](?:\\d{1,2}|\\d[A-HJKPSTUW]|[A-HK-Y]\\d{1,2}|[A-HK-Y]\\d[ABEHMNPRVWXY])";
const GB_INWARD = "\\d[ABD-HJLNP-UW-Z]{2}";
// Eircode: routing key (letter + 2 digits, or D6W), then a 4-character unique identifier.
const EIRCODE_CHARS = "[0-9AC-FHKNPRTV-Y]";
// Canadian FSA/LDU letters: never D, F, I, O, Q, U; the first letter also never W or Z.
const CA_LETTER = "[ABCEGHJ-NPRSTV-Z]";
const CA_FIRST = "[ABCEGHJ-NPRSTVXY]";

const POSTAL_RULES: Readonly<Record<string, PostalRule>> = {
  AT: { pattern: /^[1-9]\d{3}$/, format: "NNNN" },
  AU: { pattern: /^\d{4}$/, format: "NNNN" },
  BE: { pattern: /^[1-9]\d{3}$/, format: "NNNN" },
  BR: { pattern: /^\d{5}-?\d{3}$/, format: "NNNNN-NNN", canonical: splitTail(3, "-") },
  CA: {
    pattern: new RegExp(`^${CA_FIRST}\\d${CA_LETTER} ?\\d${CA_LETTER}\\d$`),
    format: "A9A 9A9",
    canonical: splitTail(3, " "),
  },
  CH: { pattern: /^[1-9]\d{3}$/, format: "NNNN" },
  CZ: { pattern: /^\d{3} ?\d{2}$/, format: "NNN NN", canonical: splitTail(2, " ") },
  DE: { pattern: /^\d{5}$/, format: "NNNNN" },
  DK: { pattern: /^\d{4}$/, format: "NNNN" },
  ES: { pattern: /^(?:0[1-9]|[1-4]\d|5[0-2])\d{3}$/, format: "NNNNN (province 01–52)" },
  FI: { pattern: /^\d{5}$/, format: "NNNNN" },
  FR: { pattern: /^\d{5}$/, format: "NNNNN" },
  GB: {
    pattern: new RegExp(`^(?:GIR ?0AA|${GB_OUTWARD} ?${GB_INWARD})$`),
    format: "a UK postcode such as SW1A 1AA",
    canonical: splitTail(3, " "),
  },
  GR: { pattern: /^\d{3} ?\d{2}$/, format: "NNN NN", canonical: splitTail(2, " ") },
  IE: {
    pattern: new RegExp(`^(?:[AC-FHKNPRTV-Y]\\d{2}|D6W) ?${EIRCODE_CHARS}{4}$`),
    format: "an Eircode such as D02 X285",
    canonical: splitTail(4, " "),
  },
  IT: { pattern: /^\d{5}$/, format: "NNNNN" },
  JP: { pattern: /^\d{3}-?\d{4}$/, format: "NNN-NNNN", canonical: splitTail(4, "-") },
  LU: { pattern: /^(?:L-)?\d{4}$/, format: "NNNN", canonical: (v) => v.replace(/^L-/, "") },
  NL: { pattern: /^[1-9]\d{3} ?[A-Z]{2}$/, format: "NNNN AA", canonical: splitTail(2, " ") },
  NO: { pattern: /^\d{4}$/, format: "NNNN" },
  PL: { pattern: /^\d{2}-\d{3}$/, format: "NN-NNN" },
  PT: { pattern: /^\d{4}-\d{3}$/, format: "NNNN-NNN" },
  SE: { pattern: /^[1-9]\d{2} ?\d{2}$/, format: "NNN NN", canonical: splitTail(2, " ") },
  SK: { pattern: /^\d{3} ?\d{2}$/, format: "NNN NN", canonical: splitTail(2, " ") },
  US: { pattern: /^\d{5}(?:-\d{4})?$/, format: "NNNNN or NNNNN-NNNN" },
};

/** Postal-code shapes by country, matched against the normalised value (see `normalizePostalCode`). */
export const POSTAL_CODE_PATTERNS: Readonly<Record<string, RegExp>> = Object.freeze(
  Object.fromEntries(Object.entries(POSTAL_RULES).map(([code, rule]) => [code, rule.pattern])),
);

/** Any postal code in a country without a known pattern: 1–12 letters, digits, spaces or hyphens. */
const GENERIC_POSTAL_CODE = /^[A-Z0-9](?:[A-Z0-9 -]{0,11})$/;

/** Trims, upper-cases and collapses runs of inner whitespace to a single space. */
export function normalizePostalCode(_country: string, raw: string): string {
  return raw.trim().toUpperCase().replace(/\s+/g, " ");
}

type PostalCodeCheck = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Validates the postal code of an address in `country` (an upper-case alpha-2 code; the country
 * itself is checked elsewhere). A missing code is fine where none is required (value `""`).
 * Accepted values come back normalised, and in their canonical written form where the country
 * has one (e.g. GB "sw1a1aa" → "SW1A 1AA", NL "1012ab" → "1012 AB", BR "01310100" → "01310-100").
 */
export function checkPostalCode(country: string, raw: string | null | undefined): PostalCodeCheck {
  const value = normalizePostalCode(country, raw ?? "");
  if (value === "") {
    return postalCodeRequired(country)
      ? { ok: false, reason: `postal code is required for ${country}` }
      : { ok: true, value: "" };
  }
  const rule = Object.hasOwn(POSTAL_RULES, country) ? POSTAL_RULES[country] : undefined;
  if (rule) {
    if (!rule.pattern.test(value)) return { ok: false, reason: `expected ${rule.format}` };
    return { ok: true, value: rule.canonical ? rule.canonical(value) : value };
  }
  if (!GENERIC_POSTAL_CODE.test(value)) {
    return { ok: false, reason: "expected 1–12 letters, digits, spaces or hyphens" };
  }
  return { ok: true, value };
}

interface CountryView {
  code: string;
  name: string;
  postalCodeRequired: boolean;
  shipsTo: boolean;
}

type NamedCountry = Readonly<Omit<CountryView, "shipsTo">>;

/** Sorted name lists by resolved locale; bounded by the locales the runtime actually has data for. */
const listsByResolvedLocale = new Map<string, readonly NamedCountry[]>();
/** Requested locale string → its list, so repeated requests skip resolution. Capped, since input is client-supplied. */
const listsByRequestedLocale = new Map<string, readonly NamedCountry[]>();
const MAX_REQUESTED_LOCALES = 256;

/** The locale to use for `locale`: itself when Intl supports it, else "en" (also for malformed tags). */
function effectiveLocale(locale: string): string {
  try {
    return Intl.DisplayNames.supportedLocalesOf([locale])[0] ?? "en";
  } catch {
    return "en";
  }
}

function namedCountries(locale: string): readonly NamedCountry[] {
  const hit = listsByRequestedLocale.get(locale);
  if (hit) return hit;

  const effective = effectiveLocale(locale);
  const displayNames = new Intl.DisplayNames([effective], { type: "region", fallback: "none" });
  const collator = new Intl.Collator([effective]);
  const key = `${displayNames.resolvedOptions().locale}|${collator.resolvedOptions().locale}`;
  let list = listsByResolvedLocale.get(key);
  if (!list) {
    list = Object.freeze(
      COUNTRY_CODES.map((code) =>
        Object.freeze({
          code,
          name: displayNames.of(code) ?? code,
          postalCodeRequired: postalCodeRequired(code),
        }),
      ).sort((a, b) => collator.compare(a.name, b.name) || (a.code < b.code ? -1 : 1)),
    );
    listsByResolvedLocale.set(key, list);
  }

  if (listsByRequestedLocale.size >= MAX_REQUESTED_LOCALES) listsByRequestedLocale.clear();
  listsByRequestedLocale.set(locale, list);
  return list;
}

/**
 * Every country with its name in `locale` (English when the runtime does not support that
 * locale), sorted by name in that locale. `shipsTo` is asked once per country on every call.
 */
export function listCountries(locale: string, shipsTo: (code: string) => boolean): CountryView[] {
  return namedCountries(locale).map((country) => ({ ...country, shipsTo: shipsTo(country.code) }));
}
