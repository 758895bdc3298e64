import { Type } from "@sinclair/typebox";
import { defineOperation } from "../core/operation.ts";
import { endpointPolicy } from "../webhooks/deliveries.ts";
import { checkEndpointUrl } from "../webhooks/endpoint-url.ts";
import {
  createPlatform,
  deletePlatform,
  listPlatforms,
  MAX_PLATFORMS,
  rotatePlatformToken,
  updatePlatform,
} from "./platforms.ts";
import {
  AcpPlatform,
  AcpPlatformWithSecrets,
  AcpPlatformWithToken,
  CreatePlatformBody,
  PlatformIdParams,
  UpdatePlatformBody,
} from "./schema.ts";

// Which agent platforms may check out through ACP on the shop's host, with which credential, and
// where their order webhooks go: shop configuration (dashboard Settings → Agents). They mint
// credentials, so they are never offered to agents.

const BASE = "/v1/admin/acp-platforms";
const TAG = "Admin: agents";

const example = {
  id: "acpp_0VbsQ4kG6pDPeiLQAuNT0mz5",
  name: "ChatGPT",
  tokenHint: "x9Qa",
  webhookUrl: "https://platform.example/agentic_checkout/webhooks/order_events",
  createdAt: "2026-05-01T10:00:00.000Z",
  updatedAt: "2026-05-01T10:00:00.000Z",
};
const token = "acp_Zr8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8Gx9Qa";

const adminOp = { tag: TAG, access: "admin" as const, agent: false as const };

async function checkUrl(ctx: Parameters<typeof endpointPolicy>[0], url: string | null | undefined) {
  if (url) await checkEndpointUrl(url, endpointPolicy(ctx), "/body/webhookUrl");
}

export const acpAdminOperations = [
  defineOperation({
    ...adminOp,
    method: "GET",
    path: BASE,
    operationId: "adminListAcpPlatforms",
    summary: "List the ACP platforms",
    description: "The agent platforms that may check out on the shop's host through ACP, newest first.",
    response: Type.Array(AcpPlatform),
    examples: { response: [example] },
    handler: ({ tenant }) => listPlatforms(tenant),
  }),
  defineOperation({
    ...adminOp,
    method: "POST",
    path: BASE,
    operationId: "adminCreateAcpPlatform",
    summary: "Let an agent platform check out through ACP",
    description:
      "Answers the platform's bearer `token` and the `signingSecret` of its order webhooks, shown this once " +
      `only: give both to the platform. The webhook URL is checked as a webhook endpoint's. At most ${MAX_PLATFORMS}.`,
    status: 201,
    answerHoldsSecret: true,
    errors: ["UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
    body: CreatePlatformBody,
    response: AcpPlatformWithSecrets,
    examples: {
      body: { name: example.name, webhookUrl: example.webhookUrl },
      response: { ...example, token, signingSecret: "9f".repeat(32) },
    },
    prepare: ({ ctx, body }) => checkUrl(ctx, body.webhookUrl),
    handler: ({ ctx, tenant, body }) => createPlatform(ctx, tenant, body),
  }),
  defineOperation({
    ...adminOp,
    method: "PATCH",
    path: `${BASE}/{id}`,
    operationId: "adminUpdateAcpPlatform",
    summary: "Rename an ACP platform or change its webhook URL",
    description: "`webhookUrl: null` stops its order webhooks.",
    errors: ["UNPROCESSABLE", "IDEMPOTENCY_CONFLICT"],
    params: PlatformIdParams,
    body: UpdatePlatformBody,
    response: AcpPlatform,
    examples: { body: { name: "ChatGPT (live)" }, response: example },
    prepare: ({ ctx, body }) => checkUrl(ctx, body.webhookUrl),
    handler: ({ tenant, params, body }) => updatePlatform(tenant, params.id, body),
  }),
  defineOperation({
    ...adminOp,
    method: "POST",
    path: `${BASE}/{id}/rotate-token`,
    operationId: "adminRotateAcpPlatformToken",
    summary: "Replace an ACP platform's bearer token",
    description: "Answers the new `token`, shown this once only; the previous one is refused from now on.",
    answerHoldsSecret: true,
    errors: ["IDEMPOTENCY_CONFLICT"],
    params: PlatformIdParams,
    response: AcpPlatformWithToken,
    examples: { response: { ...example, token } },
    handler: ({ tenant, params }) => rotatePlatformToken(tenant, params.id),
  }),
  defineOperation({
    ...adminOp,
    method: "DELETE",
    path: `${BASE}/{id}`,
    operationId: "adminDeleteAcpPlatform",
    summary: "Stop an ACP platform",
    description:
      "Its next call is refused. Orders it placed stay the shop's; no further webhooks are sent to it.",
    status: 204,
    errors: ["IDEMPOTENCY_CONFLICT"],
    params: PlatformIdParams,
    handler: ({ tenant, params }) => {
      deletePlatform(tenant, params.id);
      return undefined;
    },
  }),
];
