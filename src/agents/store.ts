import type { Database } from "bun:sqlite";
import type { Row } from "../db/rows.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import type { Constraints } from "./capabilities.ts";
import type { agentApprovals, agentGrants, agentHosts, agents } from "./tables.ts";

// Reads and compare-and-set writes on the agent tables (prepared statements on the control plane).

export type HostRow = Row<typeof agentHosts>;
export type AgentRow = Row<typeof agents>;
export type GrantRow = Row<typeof agentGrants>;
export type ApprovalRow = Row<typeof agentApprovals>;

export const hostById = (sqlite: Database, id: string) =>
  sqlite.query("SELECT * FROM agent_hosts WHERE id = ?").get(id) as HostRow | null;

export const hostByThumbprint = (sqlite: Database, thumbprint: string) =>
  sqlite.query("SELECT * FROM agent_hosts WHERE thumbprint = ?").get(thumbprint) as HostRow | null;

export const agentById = (sqlite: Database, id: string) =>
  sqlite.query("SELECT * FROM agents WHERE id = ?").get(id) as AgentRow | null;

export const agentByThumbprint = (sqlite: Database, thumbprint: string) =>
  sqlite.query("SELECT * FROM agents WHERE thumbprint = ?").get(thumbprint) as AgentRow | null;

/** Whether a key thumbprint already names a host or an agent (a thumbprint belongs to at most one). */
export const thumbprintTaken = (sqlite: Database, thumbprint: string): boolean =>
  sqlite
    .query(
      "SELECT 1 FROM agent_hosts WHERE thumbprint = ?1 UNION ALL SELECT 1 FROM agents WHERE thumbprint = ?1 LIMIT 1",
    )
    .get(thumbprint) !== null;

/** The organization's agents, newest first. */
export const agentsOfOrganization = (sqlite: Database, organizationId: string) =>
  sqlite
    .query("SELECT * FROM agents WHERE organization_id = ? ORDER BY created_at DESC, id DESC")
    .all(organizationId) as AgentRow[];

export const grantsOf = (sqlite: Database, agentId: string) =>
  sqlite
    .query("SELECT * FROM agent_grants WHERE agent_id = ? ORDER BY capability")
    .all(agentId) as GrantRow[];

export const approvalById = (sqlite: Database, id: string) =>
  sqlite.query("SELECT * FROM agent_approvals WHERE id = ?").get(id) as ApprovalRow | null;

export const latestApproval = (sqlite: Database, agentId: string) =>
  sqlite
    .query("SELECT * FROM agent_approvals WHERE agent_id = ? ORDER BY created_at DESC, id DESC LIMIT 1")
    .get(agentId) as ApprovalRow | null;

export const pendingApprovalByCodeHash = (sqlite: Database, hash: string) =>
  sqlite
    .query("SELECT * FROM agent_approvals WHERE user_code_hash = ? AND status = 'pending'")
    .get(hash) as ApprovalRow | null;

export const countAgents = (sqlite: Database, hostId: string, status: "active" | "pending"): number =>
  (
    sqlite.query("SELECT COUNT(*) AS n FROM agents WHERE host_id = ? AND status = ?").get(hostId, status) as {
      n: number;
    }
  ).n;

/** A grant in force: `active` and not past its expiry. */
export const isEffective = (grant: Pick<GrantRow, "status" | "expires_at">, now: number): boolean =>
  grant.status === "active" && (grant.expires_at === null || grant.expires_at > now);

export const constraintsOf = (grant: Pick<GrantRow, "constraints">): Constraints | null =>
  parseJsonOrNull<Constraints>(grant.constraints);

/** Runs an UPDATE that must change exactly the rows it names; zero rows changed means the state moved. */
export function changed(sqlite: Database, sql: string, ...args: (string | number | null)[]): number {
  return sqlite.query(sql).run(...args).changes;
}
