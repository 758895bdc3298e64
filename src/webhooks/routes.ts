import { defineOperation, Paged } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import { endpointPolicy, getDelivery, listDeliveries, pingEndpoint, retryDelivery } from "./deliveries.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import {
  createEndpoint,
  deleteEndpoint,
  endpointView,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from "./endpoints.ts";
import { ADMIN_EVENTS } from "./event-routes.ts";
import {
  CreateEndpointBody,
  DeliveryParams,
  EndpointIdParams,
  ListQuery,
  MAX_ENDPOINTS,
  PingResult,
  UpdateEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "./schema.ts";

const BASE = "/v1/admin/webhook-endpoints";

const endpointExample = {
  id: "we_0VbsQ4kG6pDPeiLQAuNT0mz5",
  url: "https://hooks.example.com/commerce",
  events: ["order.paid", "order.refunded"],
  description: "Accounting",
  enabled: true,
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: "2026-05-01T10:00:00.000Z",
  updatedAt: "2026-05-01T10:00:00.000Z",
};
const secretExample = { ...endpointExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" };

const deliveryExample = {
  id: "whd_0VbsQ4kG6pDPeiLQAuNT0mz5",
  endpointId: endpointExample.id,
  eventId: "evt_4Jp2cLxV9qRk1Ws8Tn3Yb7Hd",
  eventType: "order.paid",
  messageId: "msg_0VbsQ4kG8sTqWmv2LhX7cN1p",
  status: "pending",
  attempts: 2,
  lastStatusCode: 503,
  lastError: "HTTP 503",
  lastDurationMs: 412,
  nextAttemptAt: "2026-05-01T10:05:05.000Z",
  createdAt: "2026-05-01T10:00:00.000Z",
  updatedAt: "2026-05-01T10:00:05.000Z",
};

const createEndpointOp = defineOperation({
  method: "POST",
  path: BASE,
  operationId: "adminCreateWebhookEndpoint",
  summary: "Add a webhook endpoint",
  description:
    "The shop's events of the chosen types are POSTed to `url`, signed (Standard Webhooks). The answer holds " +
    "the signing `secret` (`whsec_…`), shown this once only. The URL must be `https://` and reach only public " +
    `addresses (a 422 on \`/body/url\` names the rule). At most ${MAX_ENDPOINTS} endpoints per shop (422).`,
  tag: ADMIN_EVENTS,
  access: "admin",
  status: 201,
  answerHoldsSecret: true,
  errors: ["UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
  body: CreateEndpointBody,
  response: WebhookEndpointWithSecret,
  examples: {
    body: { url: endpointExample.url, events: endpointExample.events, description: "Accounting" },
    response: secretExample,
  },
  prepare: ({ ctx, body }) => checkEndpointUrl(body.url, endpointPolicy(ctx)),
  handler: ({ ctx, tenant, body }) => createEndpoint(ctx, tenant, body),
});

const listEndpointsOp = defineOperation({
  method: "GET",
  path: BASE,
  operationId: "adminListWebhookEndpoints",
  summary: "List the webhook endpoints",
  description: "Newest first, without their secrets.",
  tag: ADMIN_EVENTS,
  access: "admin",
  list: true,
  query: ListQuery,
  response: WebhookEndpoint,
  examples: { response: [endpointExample] },
  handler: ({ tenant, query }) => {
    const page = pageOf(query);
    const { items, total } = listEndpoints(tenant, page);
    return new Paged(items, page, total);
  },
});

const getEndpointOp = defineOperation({
  method: "GET",
  path: `${BASE}/{id}`,
  operationId: "adminGetWebhookEndpoint",
  summary: "Get a webhook endpoint",
  description: "Without its secret, which is never readable after it was shown.",
  tag: ADMIN_EVENTS,
  access: "admin",
  params: EndpointIdParams,
  response: WebhookEndpoint,
  examples: { response: endpointExample },
  handler: ({ tenant, params }) => endpointView(getEndpoint(tenant, params.id)),
});

const updateEndpointOp = defineOperation({
  method: "PATCH",
  path: `${BASE}/{id}`,
  operationId: "adminUpdateWebhookEndpoint",
  summary: "Update a webhook endpoint",
  description:
    "Any subset of `url`, `events`, `description` (`null` clears it) and `enabled`. A new URL is checked as on " +
    "creation. `enabled: false` stops its deliveries; `enabled: true` on a disabled endpoint clears why it was " +
    "disabled and its failure streak. Deliveries it gave up on are not sent again by re-enabling: retry them.",
  tag: ADMIN_EVENTS,
  access: "admin",
  errors: ["UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
  params: EndpointIdParams,
  body: UpdateEndpointBody,
  response: WebhookEndpoint,
  examples: { body: { enabled: true }, response: endpointExample },
  prepare: async ({ ctx, body }) => {
    if (body.url !== undefined) await checkEndpointUrl(body.url, endpointPolicy(ctx));
  },
  handler: ({ tenant, params, body }) => updateEndpoint(tenant, params.id, body),
});

const deleteEndpointOp = defineOperation({
  method: "DELETE",
  path: `${BASE}/{id}`,
  operationId: "adminDeleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "With its deliveries: attempts still scheduled for it are not made.",
  tag: ADMIN_EVENTS,
  access: "admin",
  status: 204,
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: EndpointIdParams,
  handler: ({ tenant, params }) => {
    deleteEndpoint(tenant, params.id);
    return undefined;
  },
});

const rotateSecretOp = defineOperation({
  method: "POST",
  path: `${BASE}/{id}/rotate-secret`,
  operationId: "adminRotateWebhookSecret",
  summary: "Replace an endpoint's signing secret",
  description:
    "Answers the new `secret`, shown this once only. For 24 hours (`previousSecretExpiresAt`) deliveries are " +
    "signed with both the new and the previous secret, so the receiver can switch at any moment meanwhile.",
  tag: ADMIN_EVENTS,
  access: "admin",
  answerHoldsSecret: true,
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: EndpointIdParams,
  response: WebhookEndpointWithSecret,
  examples: { response: { ...secretExample, previousSecretExpiresAt: "2026-05-02T10:00:00.000Z" } },
  handler: ({ ctx, tenant, params }) => rotateSecret(ctx, tenant, params.id),
});

const pingEndpointOp = defineOperation({
  method: "POST",
  path: `${BASE}/{id}/ping`,
  operationId: "adminPingWebhookEndpoint",
  summary: "Send a test message to an endpoint",
  description:
    'Sends `{"type": "ping", "createdAt", "data": {"object": {"id", "url"}}}` now, signed as every delivery, and ' +
    "answers what the receiver did. Sent once, also to a disabled endpoint, and not kept as a delivery.",
  tag: ADMIN_EVENTS,
  access: "admin",
  errors: ["IDEMPOTENCY_CONFLICT"],
  params: EndpointIdParams,
  response: PingResult,
  examples: {
    response: {
      succeeded: true,
      messageId: "msg_0VbsQ4kG8sTqWmv2LhX7cN1p",
      statusCode: 204,
      error: null,
      durationMs: 87,
    },
  },
  // The attempt awaits the receiver: outside the write transaction, which only answers its result.
  prepare: ({ ctx, tenant, params }) => pingEndpoint(ctx, tenant, params.id),
  handler: ({ prepared }) => prepared,
});

const listDeliveriesOp = defineOperation({
  method: "GET",
  path: `${BASE}/{id}/deliveries`,
  operationId: "adminListWebhookDeliveries",
  summary: "List an endpoint's deliveries",
  description:
    "Newest first: each event sent to the endpoint, its attempts, the last answer (status, error, duration) " +
    "and when it is tried next.",
  tag: ADMIN_EVENTS,
  access: "admin",
  list: true,
  params: EndpointIdParams,
  query: ListQuery,
  response: WebhookDelivery,
  examples: { response: [deliveryExample] },
  handler: ({ tenant, params, query }) => {
    const page = pageOf(query);
    const { items, total } = listDeliveries(tenant, params.id, page);
    return new Paged(items, page, total);
  },
});

const retryDeliveryOp = defineOperation({
  method: "POST",
  path: `${BASE}/{id}/deliveries/{deliveryId}/retry`,
  operationId: "adminRetryWebhookDelivery",
  summary: "Attempt a delivery again now",
  description:
    "Attempts the delivery before answering (same message, same `webhook-id`) and answers it afterwards. A " +
    "failed attempt goes on with the retry schedule from its number of attempts. A disabled endpoint is a 409: " +
    "enable it first.",
  tag: ADMIN_EVENTS,
  access: "admin",
  errors: ["CONFLICT", "IDEMPOTENCY_CONFLICT"],
  params: DeliveryParams,
  response: WebhookDelivery,
  examples: { response: { ...deliveryExample, status: "succeeded", attempts: 3, nextAttemptAt: null } },
  handler: ({ tenant, params, afterCommit }) =>
    retryDelivery(tenant, params.id, params.deliveryId, afterCommit),
  reload: ({ tenant, params }) => getDelivery(tenant, params.id, params.deliveryId),
});

export const webhookOperations = [
  createEndpointOp,
  listEndpointsOp,
  getEndpointOp,
  updateEndpointOp,
  deleteEndpointOp,
  rotateSecretOp,
  pingEndpointOp,
  listDeliveriesOp,
  retryDeliveryOp,
];
