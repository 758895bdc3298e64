import { Type } from "@sinclair/typebox";
import { defineOperation } from "../core/operation.ts";
import { named } from "../core/schemas.ts";
import { BLOCKER_CODES, storeReadiness, WARNING_CODES } from "./readiness.ts";

const Readiness = named(
  "Readiness",
  Type.Object({
    ready: Type.Boolean({ description: "True when nothing blocks the first order" }),
    blockers: Type.Array(
      Type.Object({
        code: Type.Union(
          BLOCKER_CODES.map((code) => Type.Literal(code)),
          { description: "Stable code of what blocks selling" },
        ),
        message: Type.String(),
        fix: Type.String({ description: "The endpoint or CLI command that removes it" }),
      }),
    ),
    warnings: Type.Array(
      Type.Object({
        code: Type.Union(
          WARNING_CODES.map((code) => Type.Literal(code)),
          { description: "Stable code of what does not block selling but is missing" },
        ),
        message: Type.String(),
        fix: Type.String({ description: "What sets it" }),
      }),
      { description: "Not blockers: `ready` does not depend on them" },
    ),
  }),
);

const adminGetReadinessOp = defineOperation({
  method: "GET",
  path: "/v1/admin/readiness",
  operationId: "adminGetReadiness",
  summary: "What still blocks selling",
  description:
    "Lists every reason the store cannot take an order yet: `NO_PRODUCT` (no active product with a " +
    "variant in stock, untracked or open to backorder), `NO_SHIPPING_METHOD` (no active method serves " +
    "the store's country, unless every product is digital), `NO_PAYMENT_METHOD` (no manual method and " +
    "no provider integration), `NO_DOMAIN` (no domain, and the platform subdomain is only local). " +
    "`ready` is true when the list is empty. `warnings` name what does not block selling but is missing " +
    "(`EMAIL_NOT_CONFIGURED`: the service sends no email). The CLI prints the same lists: `commerce readiness <org>`.",
  tag: "Admin: store",
  access: "admin",
  response: Readiness,
  handler: ({ ctx, caller, tenant }) => storeReadiness(ctx, caller.orgId, tenant),
});

export const setupOperations = [adminGetReadinessOp];
