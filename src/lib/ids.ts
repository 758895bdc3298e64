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

let stampedAt = -1;
let stamp = "";

/** The current millisecond as 8 base62 digits: in this alphabet's byte order, later is greater. */
function timeStamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    let rest = now;
    stamp = "";
    for (let i = 0; i < 8; i++) {
      stamp = ALPHABET[rest % 62] + stamp;
      rest = Math.floor(rest / 62);
    }
  }
  return stamp;
}

/**
 * Opaque id with a type prefix: 8 characters of creation time, then 16 random ones (95 bits), e.g.
 * `cart_0mYqfW3k3kTMd92jQp0aZrx1`. Ids made later sort later, so a new row goes to the end of its
 * primary-key index (and of indexes led by it) rather than onto a random page: a random key dirties
 * another page per index on every insert, and checkpoints then write each of them back.
 */
export function newId(prefix: string): string {
  return `${prefix}_${timeStamp()}${randomBase62(16)}`;
}
