import type { Database } from "bun:sqlite";
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";

// The durable record of the tokens used: append-only files in DATA_DIR/used-tokens, one per 30 s of
// expiry, removed whole once every token in it has expired. A turn's tokens are one write(2): the
// kernel holds them from then on, so they survive a crash of the process (not a power loss: no
// fsync, like the WAL at synchronous=NORMAL). A transaction of the control plane cost about ten
// times as much per turn (docs/agents.md, "For operators").

/** Each file holds the tokens whose expiry falls in one window of this length. */
const WINDOW_MS = 30_000;
const FILE_NAME = /^(\d{1,15})\.jsonl$/;
/** How much of a file is read at once when a process starts. */
const READ_CHUNK = 1 << 20;

/** Where a data directory's journal is. */
export const usedTokensDir = (dataDir: string) => join(dataDir, "used-tokens");

/** A used token: when it can no longer verify (ms), its principal (agent id or host thumbprint), its jti. */
export type UsedToken = [expiresAt: number, principal: string, jti: string];

const windowOf = (expiresAt: number) => Math.floor(expiresAt / WINDOW_MS);
/** Whether every token of a window has expired by `now` (its file can go). */
const windowPast = (window: number, now: number) => (window + 1) * WINDOW_MS <= now;

/** A line of a journal file as a token, or null (a line cut off by a crash mid-write, or not ours). */
function tokenOf(line: string): UsedToken | null {
  try {
    const value: unknown = JSON.parse(line);
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === "number" &&
      Number.isFinite(value[0]) &&
      typeof value[1] === "string" &&
      typeof value[2] === "string"
    ) {
      return value as UsedToken;
    }
  } catch {}
  return null;
}

/**
 * One process writes a data directory's journal (the CLI never checks a token). Every write starts
 * with a line break, so a line cut off by a crash is ended by the next write and skipped on reading,
 * never joined to the next token.
 */
export class TokenJournal {
  /** The windows with a file on disk (read at start, or written since). */
  private readonly windows = new Set<number>();

  constructor(private readonly dir: string) {}

  /** The tokens recorded that can still verify at `now`; the files of windows past are removed. */
  read(now: number): UsedToken[] {
    const tokens: UsedToken[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return tokens;
      throw error;
    }
    for (const name of names) {
      const digits = FILE_NAME.exec(name)?.[1];
      if (digits === undefined) continue;
      const window = Number(digits);
      const path = join(this.dir, name);
      if (windowPast(window, now)) {
        rmSync(path, { force: true });
        continue;
      }
      this.windows.add(window);
      for (const line of linesOf(path)) {
        const token = tokenOf(line);
        if (token && token[0] > now) tokens.push(token);
      }
    }
    return tokens;
  }

  /**
   * Appends tokens; returns once the kernel holds them. A failed write leaves the files as they were.
   * Each write opens its file and closes it after (four system calls for a turn's tokens), so no
   * descriptor outlives it, however the app ends. `durably`: flushed to the disk too (fsync).
   */
  append(tokens: readonly UsedToken[], durably = false): void {
    const byWindow = new Map<number, string>();
    for (const token of tokens) {
      const window = windowOf(token[0]);
      byWindow.set(window, `${byWindow.get(window) ?? ""}\n${JSON.stringify(token)}`);
    }
    for (const [window, text] of byWindow) this.write(window, Buffer.from(text), durably);
    if (durably) syncEntries(this.dir);
  }

  private write(window: number, bytes: Buffer, durably: boolean): void {
    if (!this.windows.has(window)) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const fd = openSync(join(this.dir, `${window}.jsonl`), "a", 0o600);
    this.windows.add(window);
    try {
      const size = fstatSync(fd).size;
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
        if (durably) fsyncSync(fd);
      } catch (error) {
        // A write cut short (a full disk) would leave lines of tokens whose requests fail: cut them off.
        try {
          ftruncateSync(fd, size);
        } catch {}
        throw error;
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Removes the files whose every token has expired by `now`. */
  dropExpired(now: number): void {
    for (const window of this.windows) {
      if (!windowPast(window, now)) continue;
      this.windows.delete(window);
      rmSync(join(this.dir, `${window}.jsonl`), { force: true });
    }
  }
}

/** Flushes a directory's entries (files just created) to the disk. */
function syncEntries(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's lines, read a chunk at a time (a busy minute's file can hold tens of megabytes). */
function* linesOf(path: string): Generator<string> {
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.alloc(READ_CHUNK);
    // A jti may hold any character: one cut by a chunk's end is completed by the next chunk.
    const decoder = new StringDecoder("utf8");
    let rest = "";
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const lines = (rest + decoder.write(chunk.subarray(0, read))).split("\n");
      rest = lines.pop()!;
      yield* lines;
    }
    yield rest;
  } finally {
    closeSync(fd);
  }
}

/**
 * Before the control plane's `agent_jwt_replay` table is dropped (migration 0013), the tokens it
 * holds that can still verify are appended to the journal and flushed, so an upgrade refuses them
 * as a restart does. Run again if the migration did not commit, it appends them again: harmless.
 */
export function carryOverReplayTable(sqlite: Database, dataDir: string): void {
  const table = sqlite.query(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agent_jwt_replay'",
  );
  if (!table.get()) return;
  const rows = sqlite
    .query("SELECT expires_at, principal, jti FROM agent_jwt_replay WHERE expires_at > ?")
    .values(Date.now()) as UsedToken[];
  if (rows.length > 0) new TokenJournal(usedTokensDir(dataDir)).append(rows, true);
}
