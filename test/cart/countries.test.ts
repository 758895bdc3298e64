import { describe, expect, test } from "bun:test";
import {
  COUNTRY_CODES,
  checkPostalCode,
  isCountryCode,
  listCountries,
  normalizePostalCode,
  POSTAL_CODE_PATTERNS,
  postalCodeRequired,
} from "../../src/cart/countries.ts";

const all = () => true;
const nameOf = (locale: string, code: string) =>
  listCountries(locale, all).find((c) => c.code === code)?.name;

describe("COUNTRY_CODES", () => {
  test("has the 249 assigned ISO 3166-1 alpha-2 codes, unique, upper-case, sorted", () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect([...COUNTRY_CODES]).toEqual([...COUNTRY_CODES].sort());
  });

  test("includes recent assignments and leaves out user-assigned and withdrawn codes", () => {
    for (const code of ["AX", "BQ", "CW", "SS", "SX", "BL", "MF", "PS", "EH", "AQ", "UM"]) {
      expect(COUNTRY_CODES).toContain(code);
    }
    for (const code of ["XK", "UK", "EU", "AN", "CS", "YU", "ZZ", "AC", "IC", "TA", "FX"]) {
      expect(COUNTRY_CODES).not.toContain(code);
    }
  });

  test("every code has a name in the runtime's region data", () => {
    const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
    expect(COUNTRY_CODES.filter((code) => !names.of(code))).toEqual([]);
  });

  test("isCountryCode matches exact upper-case codes only", () => {
    expect(isCountryCode("PT")).toBe(true);
    expect(isCountryCode("SS")).toBe(true);
    expect(isCountryCode("pt")).toBe(false);
    expect(isCountryCode("Pt")).toBe(false);
    expect(isCountryCode("XK")).toBe(false);
    expect(isCountryCode("PRT")).toBe(false);
    expect(isCountryCode("")).toBe(false);
    expect(isCountryCode("constructor")).toBe(false);
  });
});

describe("postalCodeRequired", () => {
  test("is required where postal codes are used", () => {
    for (const code of ["PT", "ES", "US", "GB", "BR", "DE", "FR", "NL", "CA", "AU", "JP"]) {
      expect(postalCodeRequired(code)).toBe(true);
    }
  });

  test("is not required where addresses have no postal code, nor for Ireland", () => {
    for (const code of ["HK", "AE", "IE", "MO", "QA", "JM", "BS", "FJ", "TZ", "UG", "ZW", "YE", "KP"]) {
      expect(postalCodeRequired(code)).toBe(false);
    }
  });

  test("only a minority of countries go without one", () => {
    const without = COUNTRY_CODES.filter((code) => !postalCodeRequired(code));
    expect(without.length).toBeGreaterThan(40);
    expect(without.length).toBeLessThan(100);
  });
});

describe("POSTAL_CODE_PATTERNS", () => {
  test("covers at least PT, ES, FR, DE, IT, NL, GB, US and BR, all for assigned codes", () => {
    for (const code of ["PT", "ES", "FR", "DE", "IT", "NL", "GB", "US", "BR"]) {
      expect(POSTAL_CODE_PATTERNS[code]).toBeInstanceOf(RegExp);
    }
    for (const code of Object.keys(POSTAL_CODE_PATTERNS)) expect(isCountryCode(code)).toBe(true);
  });

  test("is frozen", () => {
    expect(Object.isFrozen(POSTAL_CODE_PATTERNS)).toBe(true);
  });
});

describe("normalizePostalCode", () => {
  test("trims, upper-cases and collapses inner whitespace", () => {
    expect(normalizePostalCode("GB", "  sw1a   1aa ")).toBe("SW1A 1AA");
    expect(normalizePostalCode("NL", "1012\tab")).toBe("1012 AB");
    expect(normalizePostalCode("PT", "1000-001")).toBe("1000-001");
    expect(normalizePostalCode("PT", "   ")).toBe("");
  });
});

const ok = (country: string, raw: string, value: string) =>
  expect(checkPostalCode(country, raw)).toEqual({ ok: true, value });
const rejected = (country: string, raw: string) => {
  const result = checkPostalCode(country, raw);
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.reason;
};

describe("checkPostalCode", () => {
  test("PT: NNNN-NNN", () => {
    ok("PT", "1000-001", "1000-001");
    ok("PT", " 4050-123 ", "4050-123");
    expect(rejected("PT", "1000001")).toBe("expected NNNN-NNN");
    expect(rejected("PT", "1000-01")).toBe("expected NNNN-NNN");
    rejected("PT", "1000 001");
    rejected("PT", "ABCD-EFG");
  });

  test("ES: five digits, province 01–52", () => {
    ok("ES", "28001", "28001");
    ok("ES", "01001", "01001");
    ok("ES", "52001", "52001");
    expect(rejected("ES", "99001")).toContain("expected NNNNN");
    rejected("ES", "00001");
    rejected("ES", "53001");
    rejected("ES", "2800");
  });

  test("FR, DE, IT: five digits", () => {
    for (const country of ["FR", "DE", "IT"]) {
      ok(country, "75008", "75008");
      ok(country, "00144", "00144");
      expect(rejected(country, "7500")).toBe("expected NNNNN");
      rejected(country, "750081");
      rejected(country, "75 008");
    }
  });

  test("NL: NNNN AA, letters in any case, written with a space", () => {
    ok("NL", "1012 AB", "1012 AB");
    ok("NL", "1012ab", "1012 AB");
    ok("NL", "1012 ab", "1012 AB");
    expect(rejected("NL", "0123 AB")).toBe("expected NNNN AA");
    rejected("NL", "1012 A");
    rejected("NL", "1012 ABC");
    rejected("NL", "1012-AB");
  });

  test("GB: UK postcode shapes, space optional on input and added on output", () => {
    ok("GB", "SW1A 1AA", "SW1A 1AA");
    ok("GB", "sw1a1aa", "SW1A 1AA");
    ok("GB", "  ec1a   1bb ", "EC1A 1BB");
    ok("GB", "W1A 0AX", "W1A 0AX");
    ok("GB", "M1 1AE", "M1 1AE");
    ok("GB", "B33 8TH", "B33 8TH");
    ok("GB", "CR2 6XH", "CR2 6XH");
    ok("GB", "DN55 1PT", "DN55 1PT");
    ok("GB", "GIR 0AA", "GIR 0AA");
    ok("GB", "gir0aa", "GIR 0AA");
    expect(rejected("GB", "SW1A")).toContain("expected a UK postcode");
    rejected("GB", "12345");
    rejected("GB", "QA1 1AA");
    rejected("GB", "SW1A 1CA");
    rejected("GB", "SW1A-1AA");
  });

  test("US: ZIP or ZIP+4", () => {
    ok("US", "12345", "12345");
    ok("US", "12345-6789", "12345-6789");
    expect(rejected("US", "1234")).toBe("expected NNNNN or NNNNN-NNNN");
    rejected("US", "123456789");
    rejected("US", "12345-678");
  });

  test("BR: CEP with or without the hyphen, written with it", () => {
    ok("BR", "01310-100", "01310-100");
    ok("BR", "01310100", "01310-100");
    expect(rejected("BR", "0131-0100")).toBe("expected NNNNN-NNN");
    rejected("BR", "0131010");
  });

  test("other patterned countries", () => {
    ok("BE", "1000", "1000");
    rejected("BE", "0100");
    ok("AT", "1010", "1010");
    ok("CH", "8001", "8001");
    rejected("CH", "80011");
    ok("DK", "2100", "2100");
    ok("SE", "114 55", "114 55");
    ok("SE", "11455", "114 55");
    rejected("SE", "1145");
    ok("PL", "00-950", "00-950");
    rejected("PL", "00950");
    ok("LU", "1234", "1234");
    ok("LU", "L-1234", "1234");
    rejected("LU", "12345");
    ok("IE", "D02 X285", "D02 X285");
    ok("IE", "a65f4e2", "A65 F4E2");
    ok("IE", "D6W 1234", "D6W 1234");
    rejected("IE", "Z02 X285");
    ok("CA", "K1A 0B1", "K1A 0B1");
    ok("CA", "k1a0b1", "K1A 0B1");
    rejected("CA", "W1A 0B1");
    rejected("CA", "K1A 0B");
    ok("AU", "2000", "2000");
    rejected("AU", "200");
    ok("JP", "100-0001", "100-0001");
    ok("JP", "1000001", "100-0001");
  });

  test("a required postal code that is missing is rejected", () => {
    for (const raw of [undefined, null, "", "   "]) {
      expect(checkPostalCode("PT", raw)).toEqual({ ok: false, reason: "postal code is required for PT" });
    }
    expect(checkPostalCode("US", "")).toEqual({ ok: false, reason: "postal code is required for US" });
    expect(checkPostalCode("KE", undefined)).toEqual({ ok: false, reason: "postal code is required for KE" });
  });

  test("a missing postal code is fine where none is required", () => {
    expect(checkPostalCode("HK", undefined)).toEqual({ ok: true, value: "" });
    expect(checkPostalCode("AE", "")).toEqual({ ok: true, value: "" });
    expect(checkPostalCode("IE", "  ")).toEqual({ ok: true, value: "" });
  });

  test("countries without a pattern accept 1–12 letters, digits, spaces or hyphens", () => {
    ok("KE", "00100", "00100");
    ok("FO", "fo-100", "FO-100");
    ok("AR", "c1002  aaa", "C1002 AAA");
    ok("HK", "999077", "999077");
    expect(rejected("KE", "1234567890123")).toBe("expected 1–12 letters, digits, spaces or hyphens");
    rejected("KE", "001/00");
    rejected("KE", "-");
    rejected("KE", "ÅÄÖ");
  });

  test("keys that are not countries do not reach Object.prototype", () => {
    ok("constructor", "12345", "12345");
    ok("__proto__", "12345", "12345");
  });
});

describe("listCountries", () => {
  test("lists every country once with its flags", () => {
    const list = listCountries("en", (code) => code === "PT");
    expect(list).toHaveLength(249);
    expect(new Set(list.map((c) => c.code))).toEqual(new Set(COUNTRY_CODES));
    expect(list.find((c) => c.code === "PT")).toEqual({
      code: "PT",
      name: "Portugal",
      postalCodeRequired: true,
      shipsTo: true,
    });
    expect(list.find((c) => c.code === "HK")).toMatchObject({ postalCodeRequired: false, shipsTo: false });
    for (const country of list)
      expect(Object.keys(country).sort()).toEqual(["code", "name", "postalCodeRequired", "shipsTo"]);
  });

  test("names are in the requested locale", () => {
    expect(nameOf("pt", "PT")).toBe("Portugal");
    expect(nameOf("pt", "DE")).toBe("Alemanha");
    expect(nameOf("en", "DE")).toBe("Germany");
    expect(nameOf("de", "DE")).toBe("Deutschland");
    expect(nameOf("pt-BR", "DE")).toBe("Alemanha");
  });

  test("an unsupported or malformed locale falls back to English", () => {
    for (const locale of ["xx-YY", "zz", "not a locale!", ""]) {
      expect(nameOf(locale, "DE")).toBe("Germany");
      expect(nameOf(locale, "PT")).toBe("Portugal");
    }
  });

  test("sorted by name with the locale's collation, not byte order", () => {
    const names = listCountries("de", all).map((c) => c.name);
    const at = names.indexOf("Österreich");
    expect(at).toBeGreaterThan(names.indexOf("Oman"));
    expect(at).toBeLessThan(names.indexOf("Pakistan"));
    expect(at).toBeLessThan(names.length - 1);
    // Byte order would put it after every name starting with A–Z.
    expect([...names].sort().at(-1)).toBe("Österreich");

    const en = listCountries("en", all).map((c) => c.name);
    expect(en[0]).toBe("Afghanistan");
    const alandAt = en.indexOf("Åland Islands");
    expect(alandAt).toBeGreaterThan(en.indexOf("Afghanistan"));
    expect(alandAt).toBeLessThan(en.indexOf("Algeria"));
  });

  test("shipsTo is asked on every call, once per country", () => {
    const seen: string[] = [];
    const first = listCountries("pt", (code) => {
      seen.push(code);
      return code === "ES";
    });
    expect(seen.sort()).toEqual([...COUNTRY_CODES]);
    expect(first.filter((c) => c.shipsTo).map((c) => c.code)).toEqual(["ES"]);

    const second = listCountries("pt", (code) => code === "PT" || code === "FR");
    expect(second.filter((c) => c.shipsTo).map((c) => c.code)).toEqual(["FR", "PT"]);
    expect(first.find((c) => c.code === "PT")!.shipsTo).toBe(false);
    expect(second.map((c) => c.code)).toEqual(first.map((c) => c.code));
  });

  test("repeated calls return fresh arrays with the same names", () => {
    const a = listCountries("fr", all);
    const b = listCountries("fr", all);
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
    a[0]!.name = "changed";
    expect(listCountries("fr", all)[0]!.name).not.toBe("changed");
  });
});
