import type { TenantDb } from "../db/tenant-pool.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { tidyNowAndThen } from "./housekeeping.ts";

// Events: what happened in a shop, recorded in its own file in the transaction of the change, so an
// event exists exactly when its change does. Each is `{id, type, createdAt, data: {object}}`, the
// object as the admin API renders it. Recording one runs the modules' reactions in the same
// transaction (webhook deliveries and emails become outbox rows there), so nothing that happened
// is lost between the commit and its delivery. docs/events.md lists the types and their objects.

export const EVENT_TYPES = [
  "order.placed",
  "order.paid",
  "order.payment_failed",
  "order.cancelled",
  "order.fulfilled",
  "order.refunded",
  "product.created",
  "product.updated",
  "product.deleted",
  "inventory.low_stock",
  "customer.created",
  "webhook_endpoint.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** How long events are kept (the admin list and retries read them). */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

export interface StoredEvent {
  id: string;
  type: EventType;
  createdAt: string;
  data: { object: unknown };
}

interface EventRow {
  id: string;
  type: EventType;
  data: string;
  created_at: number;
}

const view = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  createdAt: iso(row.created_at),
  data: { object: JSON.parse(row.data) },
});

/** Old events are dropped at most once an hour per open shop, by the write that records one. */
export const PRUNE_EVERY_MS = 3600 * 1000;

/** Records an event in the caller's transaction and runs the modules' reactions to it. */
export function recordEvent(tenant: TenantDb, type: EventType, object: unknown, at = Date.now()): string {
  tidyNowAndThen(tenant, "events", PRUNE_EVERY_MS, at, () =>
    tenant.sqlite.query("DELETE FROM events WHERE created_at < ?").run(at - EVENT_RETENTION_MS),
  );
  const id = newId("evt");
  tenant.sqlite
    .query("INSERT INTO events (id, type, data, created_at) VALUES (?, ?, ?, ?)")
    .run(id, type, JSON.stringify(object), at);
  for (const react of tenant.reactions?.list ?? []) react(tenant, { id, type });
  return id;
}

/** One event of the shop, or null. */
export function findEvent(tenant: TenantDb, id: string): StoredEvent | null {
  const row = tenant.sqlite
    .query("SELECT id, type, data, created_at FROM events WHERE id = ?")
    .get(id) as EventRow | null;
  return row && view(row);
}

/** A page of the shop's events, newest first, optionally of some types. */
export function listEvents(
  tenant: TenantDb,
  filter: { types?: readonly string[] },
  page: { page: number; limit: number },
): { items: StoredEvent[]; total: number } {
  const types = filter.types?.length ? filter.types : null;
  const where = types ? `WHERE type IN (${types.map(() => "?").join(", ")})` : "";
  const args = types ?? [];
  const rows = tenant.sqlite
    .query(`SELECT id, type, data, created_at FROM events ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`)
    .all(...args, page.limit, (page.page - 1) * page.limit) as EventRow[];
  const { total } = tenant.sqlite.query(`SELECT count(*) AS total FROM events ${where}`).get(...args) as {
    total: number;
  };
  return { items: rows.map(view), total };
}
