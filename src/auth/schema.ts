import { Type } from "@sinclair/typebox";
import { Body, Id, named, PageQuery, Scope, Text, Timestamp } from "../core/schemas.ts";
import { SLUG_PATTERN } from "./service.ts";

export const Email = Type.String({ format: "email", minLength: 3, maxLength: 254 });
export const Password = Text({ min: 8, max: 256, description: "At least 8 characters" });
const Slug = Text({ min: 1, max: 48, pattern: SLUG_PATTERN });

export const Caller = named(
  "Caller",
  Type.Object({
    orgId: Type.String(),
    scopes: Type.Array(Scope),
    type: Type.Union([
      Type.Literal("agent"),
      Type.Literal("api-key"),
      Type.Literal("session"),
      Type.Literal("host"),
    ]),
    userId: Type.Optional(Type.String({ description: "Only for session and agent callers" })),
  }),
);

const User = named(
  "User",
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
  }),
);

const Session = named(
  "Session",
  Type.Object({
    id: Type.String(),
    activeOrganizationId: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Timestamp,
    createdAt: Timestamp,
  }),
);

export const SessionWithUser = Type.Object({ user: User, session: Session });

export const Role = Type.Union([Type.Literal("owner"), Type.Literal("admin"), Type.Literal("member")]);

export const Organization = named(
  "Organization",
  Type.Object({
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    role: Role,
    createdAt: Timestamp,
  }),
);

export const ApiKey = named(
  "ApiKey",
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    start: Type.String({ description: "First characters of the key, to tell keys apart" }),
    metadata: Type.Object({ organizationId: Type.String(), scopes: Type.Array(Scope) }),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  }),
);

export const CreatedApiKey = Type.Intersect([
  ApiKey,
  Type.Object({ key: Type.String({ description: "The key itself; shown only in this response" }) }),
]);

export const SignUpBody = Body({
  email: Email,
  password: Password,
  name: Type.Optional(Text({ min: 1, max: 200 })),
});
export const SignInBody = Body({ email: Email, password: Text({ min: 1, max: 256 }) });
export const CreateOrganizationBody = Body({ name: Text({ min: 1, max: 200 }), slug: Type.Optional(Slug) });
export const SetActiveOrganizationBody = Body({ organizationId: Id("org") });
export const CreateApiKeyBody = Body({
  name: Text({ min: 1, max: 100 }),
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 2, default: ["storefront"] })),
  organizationId: Type.Optional(Id("org")),
  expiresIn: Type.Optional(Type.Integer({ minimum: 60, maximum: 10 * 365 * 86400, description: "Seconds" })),
});
export const ListApiKeysQuery = Type.Object({ organizationId: Type.Optional(Id("org")), ...PageQuery });
export const RevokeApiKeyBody = Body({ keyId: Id("key") });

// A host as sent: normalised (lower-case, without a trailing dot) before its pattern is checked.
const HostInput = Text({
  min: 1,
  max: 254,
  description: "A host name such as `shop.example.com`; stored lower-case, without a trailing dot",
});

export const Domain = named(
  "Domain",
  Type.Object({
    host: Type.String({ description: "Lower-case, without a trailing dot" }),
    verified: Type.Boolean({
      description:
        "The host answers for the organization. Every host added is verified: there is no ownership check by DNS yet",
    }),
    createdAt: Timestamp,
  }),
);

export const AddDomainBody = Body({ host: HostInput });
export const DomainParams = Type.Object({ host: HostInput });

export const Member = named(
  "Member",
  Type.Object({
    userId: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    role: Role,
    createdAt: Timestamp,
  }),
);

export const ListMembersQuery = Type.Object(PageQuery);

export const Invitation = named(
  "Invitation",
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Role,
    invitedBy: Type.Union([Type.String(), Type.Null()], {
      description: "The inviter's email; null when an API key invited, or the inviter's account is gone",
    }),
    expiresAt: Timestamp,
    createdAt: Timestamp,
  }),
);

export const InviteMemberBody = Body({
  email: Email,
  role: Type.Union([Type.Literal("owner"), Type.Literal("admin"), Type.Literal("member")], {
    description: "An admin may give `admin` or `member`; only an owner gives `owner`",
  }),
});
export const InvitationParams = Type.Object({ id: Id("inv") });
export const MemberParams = Type.Object({ userId: Id("usr") });
export const UpdateMemberBody = Body({ role: Role });
