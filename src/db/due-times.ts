import type { Database } from "bun:sqlite";

// Control-plane columns of `organizations` saying when a module must next open the organization's
// tenant file (null: nothing to do), so a sweep or a restart opens only those files. The tenant
// write and the control-plane write are in two databases, so each column is kept conservative: it
// is lowered before the tenant write that creates the work can commit, and raised or cleared only
// from what the tenant file says once the work ran. A due time with nothing behind it costs one
// useless open; a missing one would lose the work.

const DUE_COLUMNS = ["next_payment_deadline", "outbox_due_at"] as const;
type DueColumn = (typeof DUE_COLUMNS)[number];

/** Lowers the organization's due time to `at`; never raises it. */
export function lowerDueTime(sqlite: Database, column: DueColumn, orgId: string, at: number): void {
  sqlite
    .query(`UPDATE organizations SET ${column} = ?1 WHERE id = ?2 AND (${column} IS NULL OR ${column} > ?1)`)
    .run(at, orgId);
}

/** Sets the organization's due time to what its tenant file says now (null: nothing left). */
export function storeDueTime(sqlite: Database, column: DueColumn, orgId: string, at: number | null): void {
  sqlite
    .query(`UPDATE organizations SET ${column} = ?1 WHERE id = ?2 AND ${column} IS NOT ?1`)
    .run(at, orgId);
}

/** Organizations with a due time at or before `until` (any, by default), earliest first. */
export function dueTimes(
  sqlite: Database,
  column: DueColumn,
  until = Number.MAX_SAFE_INTEGER,
): { id: string; at: number }[] {
  return sqlite
    .query(`SELECT id, ${column} AS at FROM organizations WHERE ${column} <= ? ORDER BY ${column}`)
    .all(until) as { id: string; at: number }[];
}

/**
 * Makes every organization due now, in a control-plane copy whose tenant files may hold work its
 * due times miss (a backup copies the tenants after the control plane): a service started on it
 * opens each tenant once and sets the times from the files.
 */
export function markEveryOrganizationDue(sqlite: Database): void {
  sqlite.run(`UPDATE organizations SET ${DUE_COLUMNS.map((column) => `${column} = 0`).join(", ")}`);
}

/** The same for one organization whose file just arrived (an imported shop). */
export function markOrganizationDue(sqlite: Database, orgId: string): void {
  sqlite
    .query(`UPDATE organizations SET ${DUE_COLUMNS.map((column) => `${column} = 0`).join(", ")} WHERE id = ?`)
    .run(orgId);
}
