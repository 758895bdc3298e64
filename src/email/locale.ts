import type { Localized } from "../catalog/tables.ts";
import { currencyDigits } from "../lib/currency.ts";

// The language an email is written in and how its amounts and dates are shown. Every template
// ships a complete table of strings per language (the type makes a missing one a compile error);
// a locale without a table falls back to English as a whole, so an email never mixes languages.

export const EMAIL_LANGUAGES = ["en", "pt"] as const;
export type EmailLanguage = (typeof EMAIL_LANGUAGES)[number];

/** One table of strings per language: every language has every string. */
export type Strings<T> = Record<EmailLanguage, T>;

export interface EmailLocale {
  lang: EmailLanguage;
  /** The BCP 47 tag numbers and dates are formatted with: the shop's locale when its language has strings, else `en`. */
  tag: string;
  money(value: { amount: number; currency: string }): string;
  /** An ISO 8601 time as a date and time, with the time zone named (UTC: stores have no time zone setting). */
  dateTime(isoTime: string): string;
  /** A country code as its name (`PT` → "Portugal"). */
  country(code: string): string;
  /** The text for this locale: its exact tag, its language, English, else the first one there is. */
  text(value: Localized): string;
}

const languageOf = (locale: string) => locale.toLowerCase().split(/[-_]/)[0]!;

/** `pt-PT` → `pt`; an unknown or malformed locale → `en`. */
export function emailLanguage(locale: string): EmailLanguage {
  const language = languageOf(locale);
  return (EMAIL_LANGUAGES as readonly string[]).includes(language) ? (language as EmailLanguage) : "en";
}

// The Portuguese strings are European Portuguese, so a bare `pt` (which Intl reads as Brazil's
// "€ 90,00") formats as Portugal does ("90,00 €").
const BARE_LANGUAGE_TAG: Record<string, string> = { pt: "pt-PT" };

function canonicalTag(locale: string, lang: EmailLanguage): string {
  if (languageOf(locale) !== lang) return "en";
  let tag: string = lang;
  try {
    tag = Intl.getCanonicalLocales(locale.replace("_", "-"))[0] ?? lang;
  } catch {
    // a malformed tag formats as its language
  }
  return BARE_LANGUAGE_TAG[tag] ?? tag;
}

// Building Intl formatters costs more than writing an email with them: each locale's are built once
// (store locales are few; the cache stops growing at a bound any shop list stays under).
const built = new Map<string, EmailLocale>();
const MAX_BUILT = 64;

export function emailLocale(locale: string): EmailLocale {
  let cached = built.get(locale);
  if (!cached) {
    cached = buildEmailLocale(locale);
    if (built.size < MAX_BUILT) built.set(locale, cached);
  }
  return cached;
}

function buildEmailLocale(locale: string): EmailLocale {
  const lang = emailLanguage(locale);
  const tag = canonicalTag(locale, lang);
  const dates = new Intl.DateTimeFormat(tag, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  });
  const regions = new Intl.DisplayNames([tag], { type: "region", fallback: "code" });
  const currencies = new Map<string, Intl.NumberFormat>();
  return {
    lang,
    tag,
    // Minor units → the currency's decimal, then formatted: 1250 EUR → "€12.50" / "12,50 €".
    money: ({ amount, currency }) => {
      let format = currencies.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(tag, { style: "currency", currency });
        currencies.set(currency, format);
      }
      return format.format(amount / 10 ** currencyDigits(currency));
    },
    dateTime: (isoTime) => `${dates.format(new Date(isoTime))} UTC`,
    country: (code) => regions.of(code) ?? code,
    text: (value) => value[tag] ?? value[lang] ?? value.en ?? Object.values(value)[0] ?? "",
  };
}
