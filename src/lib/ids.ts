const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `count` characters of base62 from a CSPRNG, without modulo bias. */
export function randomBase62(count: number): string {
  let out = "";
  while (out.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count * 2))) {
      if (byte < 248 && out.length < count) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Opaque id with a type prefix, e.g. `org_3kTMd92jQp0aZrx1`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}
