import type { Database } from "bun:sqlite";
import type { AppContext } from "../app-context.ts";
import type { Service } from "../core/module.ts";
import { RateLimiter } from "../core/rate-limit.ts";
import { inGroupCommit } from "../db/sqlite.ts";
import { type Capability, capabilityCatalog } from "./capabilities.ts";
import { KeyCache } from "./keys.ts";
import { type Origins, originsOf } from "./origins.ts";

const MINUTE = 60_000;
/** The most expiry, in ms, one recording's sweep deletes (ReplayCache). */
const SWEEP_SPAN_MS = 10_000;

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

/**
 * Single-use JWTs: `(expires_at, principal, jti)` rows in the control plane, so a restart keeps
 * them. Each row is written by group commit (`inGroupCommit`): the jtis recorded during one turn of
 * the event loop share one transaction, and each request learns whether its jti was fresh only once
 * it has committed; a commit that fails fails every request in it (storage failures are 503s), and
 * none of them is answered. Of two requests with the same token, in one group or not, the first
 * insert wins and the other is a replay. The group commits at synchronous=NORMAL (the control plane
 * is FULL otherwise): WAL keeps it across a process crash, and after a power loss only tokens of the
 * last ~90 s could be replayed.
 *
 * The key leads with the token's expiry, so rows are written near the b-tree's newest end (pages
 * the connection's cache holds) and swept from its oldest, in one `WITHOUT ROWID` b-tree. A key of
 * (principal, jti) alone needs a b-tree ordered by random jtis, written at a random page per token
 * (measured in docs/agents.md). So a jti is single-use per expiry: a token replayed, or signed again
 * with the same `exp`, is refused; one signed again with another `exp` is another token.
 */
class ReplayCache {
  /** Tokens whose row is waiting for its group's commit, as `expiresAt principal jti`, with how many requests carry each. */
  private readonly recording = new Map<string, number>();

  constructor(private readonly sqlite: Database) {}

  /** Records a token's jti at `now`; resolves false when it was already used, once the row is committed. */
  async record(principal: string, jti: string, expiresAt: number, now: number): Promise<boolean> {
    const { sqlite } = this;
    const key = `${expiresAt} ${principal} ${jti}`;
    this.recording.set(key, (this.recording.get(key) ?? 0) + 1);
    try {
      return await inGroupCommit(
        sqlite,
        () => {
          // The expired rows, up to SWEEP_SPAN_MS of expiries past the oldest: a sweep deletes
          // every token that came of age since the one before it, and never more than a few
          // seconds of tokens at once, however many pile up (a burst, then a quiet spell).
          sqlite
            .query(
              `DELETE FROM agent_jwt_replay WHERE expires_at < min(?1,
                 (SELECT expires_at FROM agent_jwt_replay ORDER BY expires_at LIMIT 1) + ?2)`,
            )
            .run(now, SWEEP_SPAN_MS);
          return (
            sqlite
              .query(
                `INSERT INTO agent_jwt_replay (expires_at, principal, jti, created_at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING`,
              )
              .run(expiresAt, principal, jti, now).changes === 1
          );
        },
        "NORMAL",
      );
    } finally {
      const left = this.recording.get(key)! - 1;
      if (left === 0) this.recording.delete(key);
      else this.recording.set(key, left);
    }
  }

  /** Whether a token was used, or is being recorded (introspection only reads). */
  seen(principal: string, jti: string, expiresAt: number): boolean {
    return (
      this.recording.has(`${expiresAt} ${principal} ${jti}`) ||
      this.sqlite
        .query("SELECT 1 FROM agent_jwt_replay WHERE expires_at = ? AND principal = ? AND jti = ?")
        .get(expiresAt, principal, jti) !== null
    );
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
      limits: limiters(),
      now: () => Date.now(),
    };
    runtimes.set(service.ctx, runtime);
  }
  return runtime;
}

/** The agents runtime of a running app, if its routes were mounted (tests adjust its clock and limits). */
export const agentRuntime = (ctx: AppContext): AgentRuntime | undefined => runtimes.get(ctx);
