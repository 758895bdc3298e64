import { type TSchema, Type } from "@sinclair/typebox";
import { InventoryLevel, Product } from "../catalog/schema.ts";
import type { EventType } from "../core/events.ts";
import { Id, Timestamp } from "../core/schemas.ts";
import { Customer } from "../customers/routes.ts";
import { Order } from "../orders/schema.ts";
import { WebhookEndpoint } from "./schema.ts";

// What each event type says and the object it carries: the OpenAPI document's `webhooks` section is
// built from this, so a receiver's generated types match what is delivered (docs/events.md).

const LowStock = Type.Intersect([
  InventoryLevel,
  Type.Object({ lowStockThreshold: Type.Integer({ description: "The store's threshold it fell to" }) }),
]);

const DisabledEndpoint = Type.Intersect([
  WebhookEndpoint,
  Type.Object({
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: "The HTTP status of the last attempt; null when no answer came",
    }),
  }),
]);

export const EVENT_CATALOG: Record<EventType, { summary: string; object: TSchema }> = {
  "order.placed": { summary: "An order was placed", object: Order },
  "order.paid": { summary: "An order's payment was received", object: Order },
  "order.payment_failed": { summary: "An order's payment failed (the shopper may try again)", object: Order },
  "order.cancelled": { summary: "An order was cancelled", object: Order },
  "order.fulfilled": { summary: "An order was fulfilled", object: Order },
  "order.refunded": { summary: "Part or all of an order's payment was refunded", object: Order },
  "product.created": { summary: "A product was created", object: Product },
  "product.updated": { summary: "A product was changed", object: Product },
  "product.deleted": { summary: "A product was deleted (the product as it was)", object: Product },
  "inventory.low_stock": { summary: "A variant's stock fell to the low-stock threshold", object: LowStock },
  "customer.created": { summary: "A customer record was created", object: Customer },
  "webhook_endpoint.disabled": {
    summary: "The service gave up on one of the shop's webhook endpoints",
    object: DisabledEndpoint,
  },
};

/** The body a webhook of `type` delivers. */
export const deliveredEvent = (type: EventType) =>
  Type.Object(
    {
      id: Id("evt"),
      type: Type.Literal(type),
      createdAt: Timestamp,
      data: Type.Object({ object: EVENT_CATALOG[type].object }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
