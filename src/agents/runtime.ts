import type { Database } from "bun:sqlite";
import type { AppContext } from "../app-context.ts";
import type { Service } from "../core/module.ts";
import { RateLimiter } from "../core/rate-limit.ts";
import { inGroupCommit } from "../db/sqlite.ts";
import { type Capability, capabilityCatalog } from "./capabilities.ts";
import { KeyCache } from "./keys.ts";
import { type Origins, originsOf } from "./origins.ts";
import { StandingCache } from "./standings.ts";
import { UsedTokens } from "./used-tokens.ts";

const MINUTE = 60_000;
/** How often the replay rows are swept (ReplayCache), and the most rows one sweep deletes. */
const SWEEP_EVERY_MS = 250;
const SWEEP_MAX_ROWS = 5_000;

/** Fixed 60 s windows per process (AGENTS rate limits); `hit` throws 429 RATE_LIMITED with Retry-After. */
function limiters() {
  const per = (n: number) => new RateLimiter(n, MINUTE);
  return {
    discovery: per(120),
    registerIp: per(10),
    registerHost: per(10),
    authorize: per(5),
    token: per(60),
    status: per(300),
    requestCapability: per(10),
    capabilities: per(60),
    /** Execute, and `/v1` and `/mcp` calls with an agent JWT. */
    agentCalls: per(120),
    revoke: per(10),
    hostKeys: per(5),
    introspect: per(300),
    /** Failed approval look-ups by code: 10 per hour per session. */
    codeLookups: new RateLimiter(10, 60 * MINUTE),
    /** The approval page: GETs per IP, sign-ins per IP and per email, decisions per session. */
    pageGet: per(30),
    pageSignInIp: per(5),
    pageSignInEmail: per(5),
    pageDecision: per(10),
  };
}

/** A replay row: expiry, principal, jti, when recorded. */
type ReplayRow = [expiresAt: number, principal: string, jti: string, createdAt: number];

/** The rows waiting for one group commit, and its outcome. */
interface ReplayBatch {
  rows: ReplayRow[];
  written: Promise<void>;
}

/** A token as the replay check knows it: its expiry, principal and jti (a jti is single-use per expiry). */
const tokenKey = (expiresAt: number, principal: string, jti: string) => `${expiresAt} ${principal} ${jti}`;

/**
 * Single-use JWTs. A token (`expiresAt principal jti`) is refused when it is among the used tokens
 * kept in memory (UsedTokens), which are read from the control plane's `agent_jwt_replay` rows on
 * first use after a start. A fresh token is added there at once, so a second request with it is a
 * replay, and its row is appended by group commit (`inGroupCommit`): the rows of one turn of the
 * event loop share one transaction, and each request goes on only once it has committed. A commit
 * that fails fails every request in it (storage failures are 503s) and forgets their tokens: none of
 * them counts as used (a request with the same token meanwhile waits for that outcome). The group
 * commits at synchronous=NORMAL (the control plane is FULL otherwise): WAL keeps it across a process
 * crash, and after a power loss only tokens of the last ~90 s could be replayed.
 *
 * Rows are appended in the order tokens come (a rowid table, no index), so a group writes the
 * table's last page or two; a b-tree keyed by the token takes a random page of the current second's
 * tokens per token, about 4 KB of WAL each (measured in docs/agents.md). The oldest rows are deleted
 * once expired, a few times a second. One process serves a data directory (the CLI never checks a
 * token), so the memory of this one is the whole truth between starts.
 */
class ReplayCache {
  private readonly used = new UsedTokens();
  private loaded = false;
  /** Tokens whose row waits for its group's commit. */
  private readonly recording = new Map<string, Promise<unknown>>();
  private sweptAt = 0;
  /** This turn's rows, until its group commit runs. */
  private batch: ReplayBatch | undefined;

  constructor(private readonly sqlite: Database) {}

  /** The rows of earlier runs, read once (they are at most a couple of minutes of tokens). */
  private usedTokens(): UsedTokens {
    if (!this.loaded) {
      const rows = this.sqlite
        .query("SELECT expires_at, principal, jti FROM agent_jwt_replay")
        .iterate() as IterableIterator<{ expires_at: number; principal: string; jti: string }>;
      for (const row of rows) this.used.add(tokenKey(row.expires_at, row.principal, row.jti), row.expires_at);
      this.loaded = true;
    }
    return this.used;
  }

  /** Records a token's jti at `now`; resolves false when it was already used, once the row is committed. */
  async record(principal: string, jti: string, expiresAt: number, now: number): Promise<boolean> {
    const key = tokenKey(expiresAt, principal, jti);
    for (let pending = this.recording.get(key); pending; pending = this.recording.get(key)) {
      await pending.catch(() => undefined);
    }
    const used = this.usedTokens();
    if (!used.add(key, expiresAt)) return false;
    const written = this.append([expiresAt, principal, jti, now]);
    this.recording.set(key, written);
    try {
      await written;
      return true;
    } catch (error) {
      used.remove(key, expiresAt);
      throw error;
    } finally {
      this.recording.delete(key);
    }
  }

  /**
   * Adds a row to the rows of this turn, written by one call of the group commit: one statement per
   * row and no savepoint or promise of its own (a call per token cost about 10 µs more each).
   */
  private append(row: ReplayRow): Promise<void> {
    this.batch ??= this.openBatch();
    this.batch.rows.push(row);
    return this.batch.written;
  }

  /** A batch that closes when its call runs (a row added after that starts the next one), or when its group fails before. */
  private openBatch(): ReplayBatch {
    const rows: ReplayRow[] = [];
    const { sqlite } = this;
    const written = inGroupCommit(
      sqlite,
      () => {
        this.batch = undefined;
        const now = rows[rows.length - 1]![3];
        if (now - this.sweptAt >= SWEEP_EVERY_MS) this.sweep(now);
        const insert = sqlite.query(
          "INSERT INTO agent_jwt_replay (expires_at, principal, jti, created_at) VALUES (?1, ?2, ?3, ?4)",
        );
        for (const values of rows) insert.run(...values);
      },
      "NORMAL",
    );
    const batch: ReplayBatch = { rows, written };
    // A group that failed before its call ran (a busy file) must not leave its batch open.
    const closed = () => {
      if (this.batch === batch) this.batch = undefined;
    };
    written.then(closed, closed);
    return batch;
  }

  /**
   * Deletes the oldest rows up to the first that has not expired (a token of a longer life holds
   * back the expired ones after it until it expires too: at most two minutes), at most
   * SWEEP_MAX_ROWS at once, however many piled up (a burst, then a quiet spell).
   */
  private sweep(now: number): void {
    this.sweptAt = now;
    this.sqlite
      .query(
        `DELETE FROM agent_jwt_replay WHERE rowid < min(
           coalesce((SELECT rowid FROM agent_jwt_replay WHERE expires_at >= ?1 ORDER BY rowid LIMIT 1),
                    (SELECT max(rowid) + 1 FROM agent_jwt_replay)),
           (SELECT min(rowid) FROM agent_jwt_replay) + ?2)`,
      )
      .run(now, SWEEP_MAX_ROWS);
    this.used.dropExpired(now);
  }

  /** Whether a token was used, or is being recorded (introspection only reads). */
  seen(principal: string, jti: string, expiresAt: number): boolean {
    return this.usedTokens().has(tokenKey(expiresAt, principal, jti), expiresAt);
  }
}

/** What the agents module keeps per running app: settings, the capability catalog, keys, used jtis, limits. */
export interface AgentRuntime {
  ctx: AppContext;
  service: Service;
  sqlite: Database;
  origins: Origins;
  catalog: Map<string, Capability>;
  /** 32 bytes kept in the control plane: keys the user-code HMAC and CSRF tokens. */
  serverKey: Uint8Array;
  keys: KeyCache;
  replay: ReplayCache;
  /** The agents read so far with their hosts and standing, while unchanged. */
  standings: StandingCache;
  limits: ReturnType<typeof limiters>;
  /** The clock (tests move it). */
  now(): number;
}

const runtimes = new WeakMap<AppContext, AgentRuntime>();

function loadServerKey(sqlite: Database): Uint8Array {
  const now = Date.now();
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  sqlite
    .query(
      "INSERT INTO agent_server_keys (name, key, created_at, updated_at) VALUES ('approval', ?1, ?2, ?2) ON CONFLICT (name) DO NOTHING",
    )
    .run(fresh, now);
  const row = sqlite.query("SELECT key FROM agent_server_keys WHERE name = 'approval'").get() as {
    key: string;
  };
  return Uint8Array.from(Buffer.from(row.key, "base64url"));
}

/** The agents runtime of an app, made on first use. */
export function runtimeOf(service: Service): AgentRuntime {
  let runtime = runtimes.get(service.ctx);
  if (!runtime) {
    const sqlite = service.ctx.platform.sqlite;
    runtime = {
      ctx: service.ctx,
      service,
      sqlite,
      origins: originsOf(service.ctx.config),
      catalog: capabilityCatalog(service.operations),
      serverKey: loadServerKey(sqlite),
      keys: new KeyCache(),
      replay: new ReplayCache(sqlite),
      standings: new StandingCache(sqlite),
      limits: limiters(),
      now: () => Date.now(),
    };
    runtimes.set(service.ctx, runtime);
  }
  return runtime;
}

/** The agents runtime of a running app, if its routes were mounted (tests adjust its clock and limits). */
export const agentRuntime = (ctx: AppContext): AgentRuntime | undefined => runtimes.get(ctx);
