import { SQLiteError } from "bun:sqlite";
import { statfsSync } from "node:fs";
import type { Logger } from "../lib/log.ts";
import { ApiError } from "./errors.ts";

// Storage failing under the service (a full disk, an I/O error, a file locked past busy_timeout by
// another process, a volume gone or remounted read-only) is not a bug of ours and not the client's:
// every transport answers it 503 UNAVAILABLE with Retry-After, and the log tells the operator once
// per episode instead of once per request (docs/operations.md, "Storage failures").

/** What a client is told to wait before retrying a write refused by failing storage. */
export const STORAGE_RETRY_AFTER_S = 5;
/** The data directory's free space is read at most this often (health checks ask for it). */
const DISK_CHECK_MS = 2000;

// bun:sqlite throws SQLiteError with the extended code (`SQLITE_IOERR_WRITE`, `SQLITE_BUSY_SNAPSHOT`).
// CANTOPEN and READONLY come from the environment too: the service opens every file read-write and
// never deletes a tenant file in use, so a missing, unopenable or read-only file is the volume's doing.
const SQLITE_STORAGE = /^SQLITE_(FULL|IOERR|BUSY|CANTOPEN|READONLY)(_|$)/;
/** The same failures met by file-system calls (creating or removing a tenant file). */
const FS_STORAGE = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS"]);

/** The error's code when it is a storage failure of the environment, else undefined (a bug, or the client's). */
export function storageFault(error: unknown): string | undefined {
  if (error instanceof SQLiteError) return SQLITE_STORAGE.test(error.code ?? "") ? error.code : undefined;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && FS_STORAGE.has(code) ? code : undefined;
}

function unavailable(code: string): ApiError {
  const what = code.startsWith("SQLITE_BUSY")
    ? "The database is busy"
    : code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT"
      ? "The service's storage is full"
      : "The service's storage is failing";
  return new ApiError("UNAVAILABLE", `${what}; try again in a few seconds`, undefined, {
    "retry-after": String(STORAGE_RETRY_AFTER_S),
  });
}

/** Why `GET /v1/health` says `degraded`. */
interface DegradedReason {
  code: "LOW_DISK_SPACE" | "STORAGE_FAILING";
  message: string;
  /** When the condition was first seen (ISO 8601). */
  since: string;
}

interface Episode {
  since: number;
  reason: string;
  failures: number;
}

/**
 * The storage state of one service: the current episode of failing writes (from the first failure
 * to the next write that commits) and the data directory's free space against MIN_FREE_DISK_MB.
 */
export class StorageHealth {
  private episode: Episode | undefined;
  private disk: { checkedAt: number; freeMb: number; lowSince?: number } | undefined;

  constructor(
    private readonly log: Logger,
    private readonly dataDir: string,
    /** 0: no free-space check. */
    private readonly minFreeMb: number,
    /** Told of every failure, by its code (the metrics). */
    private readonly counted: (code: string) => void = () => {},
  ) {}

  /**
   * If `error` is a storage failure: notes it (the episode's first one is logged, with its reason)
   * and answers the 503 a client gets for it. Anything else: undefined.
   */
  failure(error: unknown, where?: Record<string, unknown>): ApiError | undefined {
    const code = storageFault(error);
    if (code === undefined) return undefined;
    this.counted(code);
    if (this.episode) this.episode.failures++;
    else {
      this.episode = { since: Date.now(), reason: code, failures: 1 };
      this.log.warn("storage failing: writes answer 503 until one succeeds", {
        reason: code,
        error: error instanceof Error ? error.message : String(error),
        ...where,
      });
    }
    return unavailable(code);
  }

  /** A write committed: ends the episode, if one is open (a field check otherwise: this runs per write). */
  wrote(): void {
    const episode = this.episode;
    if (!episode) return;
    this.episode = undefined;
    this.log.info("storage writes succeed again", {
      reason: episode.reason,
      failures: episode.failures,
      failingMs: Date.now() - episode.since,
    });
  }

  /** Why the node is degraded now (empty: healthy). Reads the free space at most every DISK_CHECK_MS. */
  degraded(): DegradedReason[] {
    const reasons: DegradedReason[] = [];
    const disk = this.checkDisk();
    if (disk?.lowSince !== undefined) {
      reasons.push({
        code: "LOW_DISK_SPACE",
        message: `${disk.freeMb} MB free in the data directory, below MIN_FREE_DISK_MB (${this.minFreeMb})`,
        since: new Date(disk.lowSince).toISOString(),
      });
    }
    if (this.episode) {
      const { reason, failures, since } = this.episode;
      reasons.push({
        code: "STORAGE_FAILING",
        message: `Storage failed ${failures} time(s), first with ${reason}; the next write that succeeds ends this`,
        since: new Date(since).toISOString(),
      });
    }
    return reasons;
  }

  private checkDisk() {
    if (this.minFreeMb === 0) return undefined;
    const now = Date.now();
    if (this.disk && now - this.disk.checkedAt < DISK_CHECK_MS) return this.disk;
    let freeMb: number;
    try {
      const stats = statfsSync(this.dataDir);
      freeMb = Math.floor((stats.bavail * stats.bsize) / 1_048_576);
    } catch {
      freeMb = 0; // the data directory cannot even be asked: as bad as full
    }
    const low = freeMb < this.minFreeMb;
    this.disk = { checkedAt: now, freeMb, lowSince: low ? (this.disk?.lowSince ?? now) : undefined };
    return this.disk;
  }
}
