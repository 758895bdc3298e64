import { Type } from "@sinclair/typebox";
import { getStore } from "../catalog/store-settings.ts";
import { defineOperation } from "../core/operation.ts";
import { named } from "../core/schemas.ts";
import { emailLanguage } from "./locale.ts";
import { renderPreview, TEMPLATE_NAMES } from "./registry.ts";

const EmailPreview = named(
  "EmailPreview",
  Type.Object({
    template: Type.String(),
    locale: Type.String({
      description: "The language the email was written in (English when the asked one has no strings)",
    }),
    subject: Type.String(),
    html: Type.String({ description: "The HTML part, every value escaped" }),
    text: Type.String({ description: "The plain-text part" }),
  }),
);

const previewEmailOp = defineOperation({
  method: "GET",
  path: "/v1/admin/email-previews/{template}",
  operationId: "adminPreviewEmail",
  summary: "Preview an email",
  description:
    "Renders one of the emails the service sends with sample data, in `locale` (default: the store's default " +
    "language; English where a language has no strings). Nothing is sent.",
  tag: "Admin: email",
  access: "admin",
  params: Type.Object({ template: Type.Union(TEMPLATE_NAMES.map((name) => Type.Literal(name))) }),
  query: Type.Object({
    locale: Type.Optional(
      Type.String({ pattern: "^[a-z]{2}(-[A-Z]{2})?$", description: "`pt`, `en`, `pt-PT`" }),
    ),
  }),
  response: EmailPreview,
  examples: {
    response: {
      template: "order_shipped",
      locale: "en",
      subject: "Your order #1042 is on its way",
      html: "<!doctype html>…",
      text: "Your order #1042 is on its way…",
    },
  },
  handler: ({ tenant, params, query }) => {
    const locale = query.locale ?? getStore(tenant).defaultLocale;
    return {
      template: params.template,
      locale: emailLanguage(locale),
      ...renderPreview(params.template, locale),
    };
  },
});

export const emailOperations = [previewEmailOp];
