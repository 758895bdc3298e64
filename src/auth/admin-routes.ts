import { Type } from "@sinclair/typebox";
import { ApiError } from "../core/errors.ts";
import { defineOperation, Paged } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import { iso } from "../lib/time.ts";
import { AddDomainBody, Domain, DomainParams, ListMembersQuery, Member } from "./schema.ts";
import {
  addDomain,
  listDomains,
  listMembers,
  removeDomain,
  requireManagingCaller,
  validDomainHost,
} from "./service.ts";

// The organization as the dashboard's Settings show it: its domains and members. They live in the
// control plane, not in the tenant's file; the commands of the command line call the same rules.
// A write still runs in the executor's tenant transaction, which keeps its idempotency record: the
// control plane's change is one statement, made after every check passed, so a refused call
// changes nothing.

const TAG = "Admin: organization";

/** The host as stored, or a 400 at the field that sent it. */
function hostOf(raw: string, path: string): string {
  const host = validDomainHost(raw);
  if (host === undefined) {
    throw new ApiError("VALIDATION_ERROR", `"${raw}" is not a host name`, [
      { path, message: "Expected a host name such as shop.example.com" },
    ]);
  }
  return host;
}

const domainView = (domain: { host: string; verified: boolean; createdAt: number }) => ({
  host: domain.host,
  verified: domain.verified,
  createdAt: iso(domain.createdAt),
});

const adminListDomainsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/domains",
  operationId: "adminListDomains",
  summary: "The organization's own domains",
  description:
    "Every host that answers for the organization besides `{slug}.{PLATFORM_DOMAIN}`, oldest first " +
    "(an organization has few, so the list is not paged).",
  tag: TAG,
  access: "admin",
  response: Type.Array(Domain),
  handler: ({ ctx, caller }) => listDomains(ctx.platform, caller.orgId).map(domainView),
});

const adminAddDomainOp = defineOperation({
  method: "POST",
  path: "/v1/admin/domains",
  operationId: "adminAddDomain",
  summary: "Add a domain the shop answers on",
  description:
    "The host is stored lower-case and without a trailing dot; point its DNS at the service. A host " +
    "that is another organization's (or already this one's), that is `{slug}.{PLATFORM_DOMAIN}` of " +
    "an organization, or that is the service's own is a 409 CONFLICT. It answers at once " +
    "(`verified`: there is no ownership check by DNS yet). From the dashboard, owners and admins only.",
  tag: TAG,
  access: "admin",
  status: 201,
  errors: ["CONFLICT"],
  body: AddDomainBody,
  response: Domain,
  examples: { body: { host: "shop.example.com" } },
  handler: ({ ctx, caller, body }) => {
    requireManagingCaller(ctx.platform, caller);
    return domainView(addDomain(ctx, caller.orgId, hostOf(body.host, "/body/host")));
  },
});

const adminRemoveDomainOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/domains/{host}",
  operationId: "adminRemoveDomain",
  summary: "Remove a domain",
  description:
    "The host stops answering for the organization at once. A host that is not this organization's " +
    "is a 404. From the dashboard, owners and admins only.",
  tag: TAG,
  access: "admin",
  status: 204,
  params: DomainParams,
  handler: ({ ctx, caller, params }) => {
    requireManagingCaller(ctx.platform, caller);
    removeDomain(ctx.platform, hostOf(params.host, "/params/host"), caller.orgId);
    return undefined;
  },
});

const adminListMembersOp = defineOperation({
  method: "GET",
  path: "/v1/admin/members",
  operationId: "adminListMembers",
  summary: "Members of the organization",
  description:
    "Each dashboard user of the organization with their role (`owner`, `admin`, `member`) and when " +
    "they joined, oldest first. Users are added with the command line (`commerce user create --org`).",
  tag: TAG,
  access: "admin",
  list: true,
  query: ListMembersQuery,
  response: Member,
  handler: ({ ctx, caller, query }) => {
    const page = pageOf(query);
    const { items, total } = listMembers(ctx.platform, caller.orgId, page);
    return new Paged(
      items.map((member) => ({ ...member, createdAt: iso(member.createdAt) })),
      page,
      total,
    );
  },
});

export const authAdminOperations = [
  adminListDomainsOp,
  adminAddDomainOp,
  adminRemoveDomainOp,
  adminListMembersOp,
];
