// The tokens used recently, kept in memory so that a replay is found without reading the disk: the
// durable record (TokenJournal) is then only appended to, in the order tokens come, and read back
// when a process starts. Each token is a 64-bit fingerprint (two seeded xxHash32 of its expiry,
// principal and jti) in an open-addressed table; one table per 10 s of expiry, dropped whole once
// every token in it has expired. Slots of 8 bytes, at most 60 % full: 8 000 tokens a second for the
// 90–120 s a token is kept is about 15 MB. Two tokens share a fingerprint with odds of about
// n / 2^64: the later one would be refused as a replay (and a fresh token accepted).

const BUCKET_MS = 10_000;
const FIRST_SLOTS = 1024;
const MAX_LOAD = 0.6;
/** A slot never used, and one whose token was removed (a write that failed): both are (0, 0|1). */
const FREE = 0;
const REMOVED = 1;

function fingerprintOf(key: string): [number, number] {
  const high = Bun.hash.xxHash32(key, 0x9e3779b9);
  const low = Bun.hash.xxHash32(key, 0x85ebca6b);
  return high === 0 && low <= REMOVED ? [0, low + 2] : [high, low];
}

/** An open-addressed set of 64-bit fingerprints with linear probing; grows to keep its load under 0.6. */
class FingerprintTable {
  /** Pairs (high, low); (0, 0) free, (0, 1) removed. */
  private slots = new Uint32Array(2 * FIRST_SLOTS);
  /** Slots holding a fingerprint or a removal mark. */
  private taken = 0;

  /** The slot holding the fingerprint, or -1. */
  private find(high: number, low: number): number {
    const mask = this.slots.length / 2 - 1;
    for (let i = low & mask; ; i = (i + 1) & mask) {
      const h = this.slots[2 * i]!;
      const l = this.slots[2 * i + 1]!;
      if (h === high && l === low) return i;
      if (h === 0 && l === FREE) return -1;
    }
  }

  has(high: number, low: number): boolean {
    return this.find(high, low) >= 0;
  }

  /** Adds a fingerprint; false when it is there already. */
  add(high: number, low: number): boolean {
    if (this.find(high, low) >= 0) return false;
    if (this.taken + 1 > (this.slots.length / 2) * MAX_LOAD) this.grow();
    this.place(high, low);
    return true;
  }

  remove(high: number, low: number): void {
    const at = this.find(high, low);
    if (at < 0) return;
    this.slots[2 * at] = 0;
    this.slots[2 * at + 1] = REMOVED;
  }

  private place(high: number, low: number): void {
    const mask = this.slots.length / 2 - 1;
    let i = low & mask;
    while (this.slots[2 * i] !== 0 || this.slots[2 * i + 1]! > REMOVED) i = (i + 1) & mask;
    if (this.slots[2 * i + 1] === FREE) this.taken++;
    this.slots[2 * i] = high;
    this.slots[2 * i + 1] = low;
  }

  /** Twice the slots, the removal marks left behind. */
  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.taken = 0;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== 0 || old[i + 1]! > REMOVED) this.place(old[i]!, old[i + 1]!);
    }
  }
}

/** Tokens by `expiresAt principal jti`, each kept until its expiry has passed (dropExpired). */
export class UsedTokens {
  private readonly tables = new Map<number, FingerprintTable>();

  private tableOf(expiresAt: number, create: true): FingerprintTable;
  private tableOf(expiresAt: number, create: false): FingerprintTable | undefined;
  private tableOf(expiresAt: number, create: boolean): FingerprintTable | undefined {
    const bucket = Math.floor(expiresAt / BUCKET_MS);
    let table = this.tables.get(bucket);
    if (!table && create) {
      table = new FingerprintTable();
      this.tables.set(bucket, table);
    }
    return table;
  }

  /** Adds a token; false when it was used already. */
  add(key: string, expiresAt: number): boolean {
    return this.tableOf(expiresAt, true).add(...fingerprintOf(key));
  }

  has(key: string, expiresAt: number): boolean {
    return this.tableOf(expiresAt, false)?.has(...fingerprintOf(key)) === true;
  }

  /** Forgets a token (its row's write failed, so it was not used). */
  remove(key: string, expiresAt: number): void {
    this.tableOf(expiresAt, false)?.remove(...fingerprintOf(key));
  }

  /** Drops the tables whose every token expired before `now`. */
  dropExpired(now: number): void {
    for (const bucket of this.tables.keys()) {
      if ((bucket + 1) * BUCKET_MS <= now) this.tables.delete(bucket);
    }
  }
}
