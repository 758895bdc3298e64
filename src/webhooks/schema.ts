import { type Static, Type } from "@sinclair/typebox";
import { EVENT_TYPES } from "../core/events.ts";
import { Body, Id, Nullable, named, PageQuery, Text, Timestamp } from "../core/schemas.ts";

/** At most this many endpoints per shop. */
export const MAX_ENDPOINTS = 20;

export const EndpointIdParams = Type.Object({ id: Id("we") });
export const DeliveryParams = Type.Object({ id: Id("we"), deliveryId: Id("whd") });
export const ListQuery = Type.Object({ ...PageQuery });

const EventSelector = Type.Union([...EVENT_TYPES.map((type) => Type.Literal(type)), Type.Literal("*")]);
/** An event type an endpoint takes, or `*` for all of them. */
export type EventSelector = Static<typeof EventSelector>;

const Events = Type.Array(EventSelector, {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description:
    'The event types sent to the endpoint (docs/events.md), or `["*"]` for every type, now and later',
});

const Url = Type.String({
  maxLength: 2000,
  description:
    "Where deliveries are POSTed: an absolute `https://` URL whose host resolves only to public addresses " +
    "(docs/webhooks.md)",
});

const Description = Text({ max: 200, description: "A note for the merchant: what this endpoint is" });

export const CreateEndpointBody = Body({
  url: Url,
  events: Events,
  description: Type.Optional(Description),
});

export const UpdateEndpointBody = Body(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Nullable(Description)),
    enabled: Type.Optional(
      Type.Boolean({ description: "`true` re-enables a disabled endpoint and clears its failure" }),
    ),
  },
  { minProperties: 1 },
);

const endpointFields = {
  id: Id("we"),
  url: Type.String(),
  events: Type.Array(EventSelector),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(
    Type.String({
      description: "Why the service disabled it (a 410 answer, 3 days of failures); null when enabled",
    }),
  ),
  failingSince: Nullable({
    ...Timestamp,
    description: "The first failed attempt since the last success; null while deliveries succeed",
  }),
  previousSecretExpiresAt: Nullable({
    ...Timestamp,
    description: "During a rotation: until when the previous secret still signs; null otherwise",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookEndpoint = named("WebhookEndpoint", Type.Object(endpointFields));

export const WebhookEndpointWithSecret = named(
  "WebhookEndpointWithSecret",
  Type.Object({
    ...endpointFields,
    secret: Type.String({
      pattern: "^whsec_[A-Za-z0-9+/=]+$",
      description: "The signing secret: shown in this answer only, never readable again",
    }),
  }),
);

export const WebhookDelivery = named(
  "WebhookDelivery",
  Type.Object({
    id: Id("whd"),
    endpointId: Id("we"),
    eventId: Id("evt"),
    eventType: Type.String({ description: "The event's type (docs/events.md)" }),
    messageId: Type.String({ description: "The `webhook-id` header: the same on every attempt" }),
    status: Type.Union([Type.Literal("pending"), Type.Literal("succeeded"), Type.Literal("failed")]),
    attempts: Type.Integer({ minimum: 0 }),
    lastStatusCode: Nullable(Type.Integer({ description: "The receiver's status on the last attempt" })),
    lastError: Nullable(Type.String({ description: "What went wrong on the last attempt" })),
    lastDurationMs: Nullable(Type.Integer({ minimum: 0 })),
    nextAttemptAt: Nullable({ ...Timestamp, description: "When it is tried again; null once settled" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

export const PingResult = named(
  "WebhookPingResult",
  Type.Object({
    succeeded: Type.Boolean({ description: "The receiver answered 2xx" }),
    messageId: Type.String({ description: "The `webhook-id` the ping was sent with" }),
    statusCode: Nullable(Type.Integer({ description: "The receiver's status; null with no answer" })),
    error: Nullable(Type.String()),
    durationMs: Type.Integer({ minimum: 0 }),
  }),
);
