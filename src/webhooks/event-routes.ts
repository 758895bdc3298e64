import { Type } from "@sinclair/typebox";
import { notFound } from "../core/errors.ts";
import { EVENT_TYPES, findEvent, listEvents } from "../core/events.ts";
import { defineOperation, Paged } from "../core/operation.ts";
import { Id, named, PageQuery, pageOf, Timestamp } from "../core/schemas.ts";

// The shop's events as the admin API lists them: what webhooks deliver and emails are sent for.

export const ADMIN_EVENTS = "Admin: events and webhooks";

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { description: "What happened (docs/events.md lists each type with its object)" },
);

export const Event = named(
  "Event",
  Type.Object({
    id: Id("evt"),
    type: EventTypeSchema,
    createdAt: Timestamp,
    data: Type.Object(
      {
        object: Type.Unknown({
          description:
            "The resource as the admin API renders it when the event happened (an order, a product, …)",
        }),
      },
      { additionalProperties: false },
    ),
  }),
);

const eventExample = {
  id: "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
  type: "product.deleted",
  createdAt: "2026-05-01T10:00:00.000Z",
  data: { object: { id: "prod_0VbsQ4kG6pDPeiLQAuNT0mz5" } },
};

const ListEventsQuery = Type.Object({
  ...PageQuery,
  type: Type.Optional(
    Type.String({
      maxLength: 400,
      description: "Only these types, comma-separated (`order.paid,order.refunded`)",
      pattern: "^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$",
    }),
  ),
});

const listEventsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/events",
  operationId: "adminListEvents",
  summary: "List the shop's events",
  description:
    "Newest first, kept 30 days. Each is what a webhook delivers: `{id, type, createdAt, data: {object}}`.",
  tag: ADMIN_EVENTS,
  access: "admin",
  list: true,
  query: ListEventsQuery,
  response: Event,
  examples: { response: [eventExample] },
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { items, total } = listEvents(tenant, { types: query.type?.split(",") }, page);
    return new Paged(items, page, total);
  },
});

const getEventOp = defineOperation({
  method: "GET",
  path: "/v1/admin/events/{id}",
  operationId: "adminGetEvent",
  summary: "Get an event",
  description: "One event of the shop, as a webhook delivers it; another shop's event is a 404.",
  tag: ADMIN_EVENTS,
  access: "admin",
  params: Type.Object({ id: Id("evt") }),
  response: Event,
  errors: ["NOT_FOUND"],
  examples: { response: eventExample },
  handler: ({ tenant, params }) => {
    const event = findEvent(tenant, params.id);
    if (!event) throw notFound("Event");
    return event;
  },
});

export const eventOperations = [listEventsOp, getEventOp];
