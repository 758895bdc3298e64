import type { Database } from "bun:sqlite";
import type { AppContext } from "../app-context.ts";
import type { Service } from "../core/module.ts";
import { RateLimiter } from "../core/rate-limit.ts";
import { type Capability, capabilityCatalog } from "./capabilities.ts";
import { KeyCache } from "./keys.ts";
import { type Origins, originsOf } from "./origins.ts";
import { StandingCache } from "./standings.ts";
import { TokenJournal, type UsedToken, usedTokensDir } from "./token-journal.ts";
import { UsedTokens } from "./used-tokens.ts";

const MINUTE = 60_000;

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

/** The tokens of one turn, written together, and the outcome of their write. */
interface ReplayBatch {
  tokens: UsedToken[];
  written: Promise<void>;
}

/** A token as the replay check knows it: its expiry, principal and jti (a jti is single-use per expiry). */
const tokenKey = (expiresAt: number, principal: string, jti: string) => `${expiresAt} ${principal} ${jti}`;

/**
 * Single-use JWTs. A token (`expiresAt principal jti`) is refused when it is among the used tokens
 * kept in memory (UsedTokens), which are read from the journal (TokenJournal, files in the data
 * directory) on first use after a start. A fresh token is added there at once, so a second request
 * with it is a replay, and it is appended to the journal with the other tokens of the same turn of
 * the event loop, in one write made after that turn's I/O; each request goes on only once that
 * write returned. A write that fails fails every request of its turn (storage failures are 503s)
 * and forgets their tokens: none of them counts as used (a request with the same token meanwhile
 * waits for that outcome). One process serves a data directory (the CLI never checks a token), so
 * the memory of this one is the whole truth between starts.
 */
class ReplayCache {
  private readonly used = new UsedTokens();
  private loaded = false;
  /** Tokens whose write is pending. */
  private readonly recording = new Map<string, Promise<unknown>>();
  /** This turn's tokens, until their write. */
  private batch: ReplayBatch | undefined;

  constructor(
    private readonly journal: TokenJournal,
    private readonly now: () => number,
  ) {}

  /** The tokens of earlier runs, read once (at most a couple of minutes of them). */
  private usedTokens(): UsedTokens {
    if (!this.loaded) {
      for (const [expiresAt, principal, jti] of this.journal.read(this.now())) {
        this.used.add(tokenKey(expiresAt, principal, jti), expiresAt);
      }
      this.loaded = true;
    }
    return this.used;
  }

  /** Records a token's jti; resolves false when it was already used, once it is written. */
  async record(principal: string, jti: string, expiresAt: number): Promise<boolean> {
    const key = tokenKey(expiresAt, principal, jti);
    for (let pending = this.recording.get(key); pending; pending = this.recording.get(key)) {
      await pending.catch(() => undefined);
    }
    const used = this.usedTokens();
    if (!used.add(key, expiresAt)) return false;
    this.batch ??= this.openBatch();
    this.batch.tokens.push([expiresAt, principal, jti]);
    const { written } = this.batch;
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

  /** A batch written after this turn's I/O (`setImmediate`); a token added after that starts the next one. */
  private openBatch(): ReplayBatch {
    const tokens: UsedToken[] = [];
    const written = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.batch = undefined;
        try {
          const now = this.now();
          this.used.dropExpired(now);
          this.journal.dropExpired(now);
          this.journal.append(tokens);
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
    return { tokens, written };
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
    const created: AgentRuntime = {
      ctx: service.ctx,
      service,
      sqlite,
      origins: originsOf(service.ctx.config),
      catalog: capabilityCatalog(service.operations),
      serverKey: loadServerKey(sqlite),
      keys: new KeyCache(),
      replay: new ReplayCache(new TokenJournal(usedTokensDir(service.ctx.config.dataDir)), () =>
        created.now(),
      ),
      standings: new StandingCache(sqlite),
      limits: limiters(),
      now: () => Date.now(),
    };
    runtimes.set(service.ctx, created);
    runtime = created;
  }
  return runtime;
}

/** The agents runtime of a running app, if its routes were mounted (tests adjust its clock and limits). */
export const agentRuntime = (ctx: AppContext): AgentRuntime | undefined => runtimes.get(ctx);
