import type { AppContext } from "../app-context.ts";
import type { TenantDb } from "../db/tenant-pool.ts";
import { parseJsonOrNull } from "../lib/json.ts";
import { iso } from "../lib/time.ts";
import type { OrderPayment, PaymentAction } from "../orders/tables.ts";
import { paymentsState } from "./state.ts";
import type { AttemptInstructions, AttemptStatus, CredentialSource, Provider } from "./tables.ts";

// Payment attempts as rows, as the order shows them, and the two in-memory indexes kept beside
// them (routes for org `_`, expiry deadlines for the sweep).

export interface AttemptRow {
  id: string;
  order_id: string;
  provider: Provider;
  method: string;
  status: AttemptStatus;
  amount: number;
  currency: string;
  credential_source: CredentialSource;
  provider_ref: string | null;
  provider_ref2: string | null;
  instructions: string;
  last_error: string | null;
  expires_at: number;
  received_amount: number | null;
  received_currency: string | null;
  refunded_seen: number;
  created_at: number;
  updated_at: number;
}

export const instructionsOf = (row: AttemptRow): AttemptInstructions =>
  parseJsonOrNull<AttemptInstructions>(row.instructions) ?? {};

export function findAttempt(tenant: TenantDb, id: string): AttemptRow | null {
  return tenant.sqlite.query("SELECT * FROM payment_attempts WHERE id = ?").get(id) as AttemptRow | null;
}

export function attemptByRef(tenant: TenantDb, provider: Provider, ref: string): AttemptRow | null {
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE provider = ? AND provider_ref = ?")
    .get(provider, ref) as AttemptRow | null;
}

export function attemptByRef2(tenant: TenantDb, provider: Provider, ref: string): AttemptRow | null {
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE provider = ? AND provider_ref2 = ?")
    .get(provider, ref) as AttemptRow | null;
}

export function orderAttempts(tenant: TenantDb, orderId: string): AttemptRow[] {
  return tenant.sqlite
    .query("SELECT * FROM payment_attempts WHERE order_id = ? ORDER BY created_at, rowid")
    .all(orderId) as AttemptRow[];
}

/** What the shopper must do next for an attempt still waiting for its payment. */
function actionOf(row: AttemptRow): PaymentAction | undefined {
  if (row.status !== "created" || row.provider_ref === null) return undefined;
  const instructions = instructionsOf(row);
  if (row.method === "card" && instructions.url) return { type: "redirect", url: instructions.url };
  if (row.method === "multibanco" && instructions.entity && instructions.reference) {
    return {
      type: "reference",
      entity: instructions.entity,
      reference: instructions.reference,
      amount: row.amount,
      expiresAt: iso(row.expires_at),
    };
  }
  if (row.method === "mbway" && instructions.phone) {
    return { type: "push", phone: instructions.phone, expiresAt: iso(row.expires_at) };
  }
  return undefined;
}

export function attemptView(row: AttemptRow): OrderPayment {
  const view: OrderPayment = {
    attemptId: row.id,
    provider: row.provider,
    method: row.method,
    status: row.status,
    amount: row.amount,
    expiresAt: iso(row.expires_at),
  };
  const action = actionOf(row);
  if (action) view.action = action;
  return view;
}

/** Writes the order's `payments` (every attempt as shown) after an attempt changed. */
export function syncOrderPayments(tenant: TenantDb, orderId: string): void {
  const views = orderAttempts(tenant, orderId).map(attemptView);
  tenant.sqlite.query("UPDATE orders SET payments = ? WHERE id = ?").run(JSON.stringify(views), orderId);
}

// ---------------------------------------------------------------- routes of `_` notifications

/** Route keys of an attempt paid with environment credentials: its id and provider references. */
export function routeKeys(
  row: Pick<AttemptRow, "id" | "provider" | "provider_ref" | "provider_ref2">,
): string[] {
  const keys = [`${row.provider}:${row.id}`];
  if (row.provider_ref) keys.push(`${row.provider}:${row.provider_ref}`);
  if (row.provider_ref2) keys.push(`${row.provider}:${row.provider_ref2}`);
  return keys;
}

function eachOrg(app: AppContext, visit: (tenant: TenantDb) => void): void {
  const orgs = app.platform.sqlite.query("SELECT id FROM organizations").all() as { id: string }[];
  for (const { id } of orgs) {
    const tenant = app.tenants.acquire(id);
    try {
      visit(tenant);
    } finally {
      app.tenants.release(tenant);
    }
  }
}

export function routesOf(app: AppContext): Map<string, string> {
  const state = paymentsState(app);
  if (state.routes) return state.routes;
  const routes = new Map<string, string>();
  eachOrg(app, (tenant) => {
    const rows = tenant.sqlite
      .query(
        "SELECT id, provider, provider_ref, provider_ref2 FROM payment_attempts WHERE credential_source = 'environment'",
      )
      .all() as Pick<AttemptRow, "id" | "provider" | "provider_ref" | "provider_ref2">[];
    for (const row of rows) for (const key of routeKeys(row)) routes.set(key, tenant.orgId);
  });
  state.routes = routes;
  return routes;
}

/** Records the routes of an environment-credential attempt (called when it is created or gains references). */
export function addRoutes(app: AppContext, orgId: string, row: AttemptRow): void {
  if (row.credential_source !== "environment") return;
  const routes = routesOf(app);
  for (const key of routeKeys(row)) routes.set(key, orgId);
}

/** The organization an environment-credential payment reference belongs to. */
export function routeOf(
  app: AppContext,
  provider: Provider,
  refs: (string | null | undefined)[],
): string | null {
  const routes = routesOf(app);
  for (const ref of refs) {
    const org = ref ? routes.get(`${provider}:${ref}`) : undefined;
    if (org) return org;
  }
  return null;
}

// ---------------------------------------------------------------- expiry deadlines

/** How long after its expiry an unpaid attempt is given before the sweep expires it. */
export const SWEEP_GRACE_MS: Record<string, number> = {
  multibanco: 15 * 60_000,
  mbway: 60_000,
  card: 24 * 3600_000,
};

const GRACE_SQL = `CASE method WHEN 'multibanco' THEN ${SWEEP_GRACE_MS.multibanco} WHEN 'mbway' THEN ${SWEEP_GRACE_MS.mbway} ELSE ${SWEEP_GRACE_MS.card} END`;

/** The tenant's earliest expiry + grace among its `created` attempts, or null. */
export function nextDeadline(tenant: TenantDb): number | null {
  const row = tenant.sqlite
    .query(`SELECT MIN(expires_at + ${GRACE_SQL}) AS at FROM payment_attempts WHERE status = 'created'`)
    .get() as { at: number | null };
  return row.at;
}

/** `created` attempts past expiry + grace. */
export function overdueAttempts(tenant: TenantDb, now: number): AttemptRow[] {
  return tenant.sqlite
    .query(
      `SELECT * FROM payment_attempts WHERE status = 'created' AND expires_at + ${GRACE_SQL} <= ? ORDER BY expires_at`,
    )
    .all(now) as AttemptRow[];
}

export function deadlinesOf(app: AppContext): Map<string, number> {
  const state = paymentsState(app);
  if (state.deadlines) return state.deadlines;
  const deadlines = new Map<string, number>();
  eachOrg(app, (tenant) => {
    const at = nextDeadline(tenant);
    if (at !== null) deadlines.set(tenant.orgId, at);
  });
  state.deadlines = deadlines;
  return deadlines;
}

/** An attempt with this deadline now exists in the organization. */
export function noteDeadline(
  app: AppContext,
  orgId: string,
  row: Pick<AttemptRow, "method" | "expires_at">,
): void {
  const state = paymentsState(app);
  if (!state.deadlines) return; // built from the files on first use
  const at = row.expires_at + (SWEEP_GRACE_MS[row.method] ?? SWEEP_GRACE_MS.card!);
  const current = state.deadlines.get(orgId);
  if (current === undefined || at < current) state.deadlines.set(orgId, at);
}
