import { Type } from "@sinclair/typebox";
import { defineOperation, Paged } from "../../src/core/operation.ts";
import { Body, PageQuery, pageOf, Text } from "../../src/core/schemas.ts";

// Operations declared only in tests, to exercise the executor and the REST adapter on each kind of access.

const Probe = Type.Object({ orgId: Type.String(), scope: Type.String() });

export const adminProbe = defineOperation({
  method: "GET",
  path: "/v1/admin/probe",
  operationId: "testAdminProbe",
  summary: "Admin-scoped probe",
  tag: "Test",
  access: "admin",
  response: Probe,
  handler: ({ caller }) => ({ orgId: caller.orgId, scope: "admin" }),
});

export const storefrontProbe = defineOperation({
  method: "GET",
  path: "/v1/probe",
  operationId: "testStorefrontProbe",
  summary: "Storefront-scoped probe that reads the tenant file",
  tag: "Test",
  access: "storefront",
  response: Probe,
  handler: ({ caller, tenant }) => {
    const row = tenant.sqlite.query("SELECT value FROM tenant_meta WHERE key = 'organization_id'").get() as {
      value: string;
    };
    return { orgId: row.value, scope: caller.scopes.join(",") };
  },
});

export const echo = defineOperation({
  method: "POST",
  path: "/v1/admin/echo/{id}",
  operationId: "testEcho",
  summary: "Validates path, query and body and echoes them",
  tag: "Test",
  access: "admin",
  params: Type.Object({ id: Type.String({ pattern: "^thing_[A-Za-z0-9]+$", maxLength: 40 }) }),
  query: Type.Object({ verbose: Type.Optional(Type.Boolean()) }),
  body: Body({
    name: Text({ min: 1, max: 50 }),
    quantity: Type.Integer({ minimum: 1, maximum: 999 }),
    tags: Type.Optional(Type.Array(Text({ max: 20 }), { maxItems: 5 })),
  }),
  status: 201,
  response: Type.Object({
    id: Type.String(),
    verbose: Type.Boolean(),
    name: Type.String(),
    quantity: Type.Integer(),
  }),
  handler: ({ params, query, body }) => ({
    id: params.id,
    verbose: query.verbose ?? false,
    name: body.name,
    quantity: body.quantity,
  }),
});

export const pagedList = defineOperation({
  method: "GET",
  path: "/v1/things",
  operationId: "testListThings",
  summary: "A paginated list of 45 numbers",
  tag: "Test",
  access: "storefront",
  list: true,
  query: Type.Object({ ...PageQuery }),
  response: Type.Integer(),
  handler: ({ query }) => {
    const page = pageOf(query);
    const all = Array.from({ length: 45 }, (_, i) => i + 1);
    return new Paged(all.slice((page.page - 1) * page.limit, page.page * page.limit), page, all.length);
  },
});

export const probeOperations = [adminProbe, storefrontProbe, echo, pagedList];
