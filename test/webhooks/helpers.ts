import { Webhook } from "standardwebhooks";
import type { EventType } from "../../src/core/events.ts";
import { recordEvent } from "../../src/core/events.ts";
import { immediately } from "../../src/db/sqlite.ts";
import type { TestApp } from "../helpers/app.ts";
import { adminClient } from "../helpers/catalog.ts";
import { withTenant } from "../helpers/seed-orders.ts";
import type { ReceivedRequest } from "./receivers.ts";

// Shops, events and checks for the webhooks module's tests.

/** Records an event in the shop as a change would: in its own transaction, which fans it out. */
export function emit(
  t: TestApp,
  orgId: string,
  type: EventType = "product.deleted",
  object: unknown = { id: "prod_x" },
) {
  return withTenant(t, orgId, (tenant) =>
    immediately(tenant.sqlite, () => recordEvent(tenant, type, object)),
  );
}

/** The payload when the request's signature verifies with `secret` (standardwebhooks), else throws. */
export const verify = (request: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

export async function until(condition: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** A shop with an admin client, and a way to add an endpoint answering its one-time secret. */
export async function webhookShop(t: TestApp, name: string) {
  const org = await t.org(name);
  const admin = adminClient(t, org.key);
  const addEndpoint = async (url: string, events: string[] = ["*"], description?: string) => {
    const created = await admin.post("/v1/admin/webhook-endpoints", { url, events, description });
    if (created.status !== 201)
      throw new Error(`endpoint: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.data as { id: string; secret: string };
  };
  const deliveries = async (endpointId: string) =>
    (await admin.get(`/v1/admin/webhook-endpoints/${endpointId}/deliveries`)).body.data as any[];
  return { org, admin, addEndpoint, deliveries };
}

export type WebhookShop = Awaited<ReturnType<typeof webhookShop>>;
