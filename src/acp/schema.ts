import { Type } from "@sinclair/typebox";
import { Body, Id, Nullable, named, Text, Timestamp } from "../core/schemas.ts";

// The shop's ACP platforms on the wire (admin operations, docs/acp.md).

const Name = Text({
  min: 1,
  max: 100,
  description: "Which platform this is, for the merchant (e.g. `ChatGPT`)",
});

const WebhookUrl = Type.String({
  maxLength: 2000,
  description:
    "Where the platform takes order events (`order_create`, `order_update`), signed with `Merchant-Signature`: " +
    "an absolute `https://` URL whose host resolves only to public addresses; `null`: none sent",
});

export const PlatformIdParams = Type.Object({ id: Id("acpp") });

export const CreatePlatformBody = Body({
  name: Name,
  webhookUrl: Type.Optional(Nullable(WebhookUrl)),
});

export const UpdatePlatformBody = Body(
  { name: Type.Optional(Name), webhookUrl: Type.Optional(Nullable(WebhookUrl)) },
  { minProperties: 1 },
);

const platformFields = {
  id: Id("acpp"),
  name: Type.String(),
  tokenHint: Type.String({ description: "The bearer token's last four characters" }),
  webhookUrl: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const AcpPlatform = named("AcpPlatform", Type.Object(platformFields));

const Token = Type.String({
  pattern: "^acp_[A-Za-z0-9]{40}$",
  description:
    "The platform's bearer token (`Authorization: Bearer acp_…` on the shop's ACP endpoints): shown in this " +
    "answer only, never readable again",
});

export const AcpPlatformWithToken = named(
  "AcpPlatformWithToken",
  Type.Object({ ...platformFields, token: Token }),
);

export const AcpPlatformWithSecrets = named(
  "AcpPlatformWithSecrets",
  Type.Object({
    ...platformFields,
    token: Token,
    signingSecret: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description:
        "The `Merchant-Signature` HMAC-SHA256 key the platform verifies order webhooks with: shown in this " +
        "answer only",
    }),
  }),
);
