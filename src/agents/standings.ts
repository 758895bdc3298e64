import type { Database, Statement } from "bun:sqlite";
import { readTogether } from "../db/sqlite.ts";
import type { AgentRow, GrantRow, HostRow } from "./store.ts";

export type GrantRead = Pick<GrantRow, "capability" | "status" | "constraints" | "expires_at">;

/** What an agent's call is decided on besides the agent and its host: its user's role and its active grants. */
export interface Standing {
  role: string | undefined;
  grants: GrantRead[];
}

/** An agent with its host and standing, as its requests are decided on them (kept: never changed in place). */
export interface AgentWithStanding {
  agent: AgentRow;
  host: HostRow;
  standing: Standing;
}

/** Agents kept at once; past it the cache starts again empty (a miss only costs the reads). */
const MAX_AGENTS = 10_000;

/**
 * The agents this process has read, with their hosts and standing, kept while nothing they are
 * decided on changed. Every request of an agent needs them (four reads, about a third of its main
 * thread's work); one read of `agent_standing_version`, whose count triggers move on any change to
 * the agents, hosts, grants or members (by this process or another), tells whether they still hold.
 * So a revocation, a grant or a role change counts from the next request, as if read each time.
 */
export class StandingCache {
  private readonly entries = new Map<string, AgentWithStanding>();
  /** The count the entries were read at. */
  private version = -1;
  private readonly versionNow: Statement<{ version: number }, []>;

  constructor(private readonly sqlite: Database) {
    this.versionNow = sqlite.prepare("SELECT version FROM agent_standing_version WHERE id = 1");
  }

  private currentVersion(): number {
    return this.versionNow.get()?.version ?? 0;
  }

  /** The agent as stored now: kept, or `read` (null when the agent or its host is missing) in one transaction. */
  get(agentId: string, read: () => AgentWithStanding | null): AgentWithStanding | null {
    const version = this.currentVersion();
    if (version === this.version) {
      const kept = this.entries.get(agentId);
      if (kept) return kept;
    } else {
      this.entries.clear();
      this.version = version;
    }
    const fresh = readTogether(this.sqlite, () => ({ version: this.currentVersion(), found: read() }));
    // Kept only when read at the count just checked: a change between the two reads is seen next time.
    if (fresh.found && fresh.version === this.version) {
      if (this.entries.size >= MAX_AGENTS) this.entries.clear();
      this.entries.set(agentId, fresh.found);
    }
    return fresh.found;
  }
}
