import { Type } from "@sinclair/typebox";
import type { AppContext } from "../app-context.ts";
import { ApiError } from "../core/errors.ts";
import { type Caller, defineOperation, Paged } from "../core/operation.ts";
import { pageOf } from "../core/schemas.ts";
import { iso } from "../lib/time.ts";
import { ACCOUNT_EMAIL_JOB, mailEnabled, sealAccountEmail } from "./account-email.ts";
import {
  changeMemberRole,
  createInvitation,
  findMember,
  type Invitation as InvitationRecord,
  invitationView,
  listInvitations,
  memberManager,
  removeMember,
  revokeInvitation,
} from "./invitations.ts";
import {
  AddDomainBody,
  Domain,
  DomainParams,
  Invitation,
  InvitationParams,
  InviteMemberBody,
  ListMembersQuery,
  Member,
  MemberParams,
  UpdateMemberBody,
} from "./schema.ts";
import {
  addDomain,
  findOrganization,
  findUser,
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
    "they joined, oldest first. Users join by invitation (`POST /v1/admin/members/invitations`) or are " +
    "added with the command line (`commerce user create --org`).",
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

const memberView = (member: ReturnType<typeof findMember>) => ({
  ...member,
  createdAt: iso(member.createdAt),
});

const ROLE_RULES =
  "From the dashboard, owners and admins only; an admin (or an admin-scoped API key) neither gives the " +
  "`owner` role nor changes or removes an owner (403).";

/** The `member_invite` email, queued in the operation's transaction and sent after the commit. */
function inviteEmail(ctx: AppContext, caller: Caller, invitation: InvitationRecord, token: string) {
  const organizationName = findOrganization(ctx.platform, caller.orgId)?.name ?? "";
  const inviter = caller.userId ? findUser(ctx.platform, caller.userId) : undefined;
  return sealAccountEmail(ctx, {
    template: "member_invite",
    to: invitation.email,
    data: {
      organizationName,
      // An API key invites on behalf of the organization itself.
      inviterName: inviter ? (inviter.name ?? inviter.email) : organizationName,
      role: invitation.role,
      inviteUrl: `${ctx.config.baseUrl}/dashboard/invitations/accept?token=${token}`,
    },
  });
}

const adminInviteMemberOp = defineOperation({
  method: "POST",
  path: "/v1/admin/members/invitations",
  operationId: "adminInviteMember",
  summary: "Invite someone to the organization by email",
  description:
    "Emails a link to `BASE_URL/dashboard/invitations/accept?token=…`, valid 7 days and used once; " +
    "accepting it (`POST /api/auth/invitations/accept`) makes the email's user a member with the role. " +
    "Inviting an email again replaces its pending invitation. An email that is already a member is a 409. " +
    ROLE_RULES,
  tag: TAG,
  access: "admin",
  agent: false,
  status: 201,
  errors: ["CONFLICT"],
  body: InviteMemberBody,
  response: Invitation,
  examples: { body: { email: "ana@example.com", role: "admin" } },
  handler: ({ ctx, caller, body, afterCommit }) => {
    const manager = memberManager(ctx.platform, caller);
    const { invitation, token } = createInvitation(ctx.platform, caller.orgId, body, manager);
    if (mailEnabled(ctx, { template: "member_invite", invitationId: invitation.id })) {
      afterCommit.enqueue(ACCOUNT_EMAIL_JOB, inviteEmail(ctx, caller, invitation, token));
    }
    return invitationView(invitation);
  },
});

const adminListInvitationsOp = defineOperation({
  method: "GET",
  path: "/v1/admin/members/invitations",
  operationId: "adminListInvitations",
  summary: "Pending invitations",
  description:
    "Invitations neither accepted, revoked nor expired, newest first (an organization has few, so the " +
    "list is not paged).",
  tag: TAG,
  access: "admin",
  response: Type.Array(Invitation),
  handler: ({ ctx, caller }) => listInvitations(ctx.platform, caller.orgId).map(invitationView),
});

const adminRevokeInvitationOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/members/invitations/{id}",
  operationId: "adminRevokeInvitation",
  summary: "Revoke a pending invitation",
  description:
    "Its link stops working at once. An invitation that is not pending (accepted, revoked, expired) or not " +
    "this organization's is a 404. From the dashboard, owners and admins only.",
  tag: TAG,
  access: "admin",
  agent: false,
  status: 204,
  params: InvitationParams,
  handler: ({ ctx, caller, params }) => {
    memberManager(ctx.platform, caller);
    revokeInvitation(ctx.platform, caller.orgId, params.id);
    return undefined;
  },
});

const adminUpdateMemberOp = defineOperation({
  method: "PATCH",
  path: "/v1/admin/members/{userId}",
  operationId: "adminUpdateMember",
  summary: "Change a member's role",
  description: `Demoting the last owner is a 409: an organization always keeps one. ${ROLE_RULES}`,
  tag: TAG,
  access: "admin",
  agent: false,
  errors: ["CONFLICT"],
  params: MemberParams,
  body: UpdateMemberBody,
  response: Member,
  handler: ({ ctx, caller, params, body }) => {
    changeMemberRole(
      ctx.platform,
      caller.orgId,
      params.userId,
      body.role,
      memberManager(ctx.platform, caller),
    );
    return memberView(findMember(ctx.platform, caller.orgId, params.userId));
  },
});

const adminRemoveMemberOp = defineOperation({
  method: "DELETE",
  path: "/v1/admin/members/{userId}",
  operationId: "adminRemoveMember",
  summary: "Remove a member from the organization",
  description:
    "The user keeps their account and loses access to this organization at once. Removing the last owner " +
    `is a 409. ${ROLE_RULES}`,
  tag: TAG,
  access: "admin",
  agent: false,
  status: 204,
  errors: ["CONFLICT"],
  params: MemberParams,
  handler: ({ ctx, caller, params }) => {
    removeMember(ctx.platform, caller.orgId, params.userId, memberManager(ctx.platform, caller));
    return undefined;
  },
});

export const authAdminOperations = [
  adminListDomainsOp,
  adminAddDomainOp,
  adminRemoveDomainOp,
  adminListMembersOp,
  adminInviteMemberOp,
  adminListInvitationsOp,
  adminRevokeInvitationOp,
  adminUpdateMemberOp,
  adminRemoveMemberOp,
];
