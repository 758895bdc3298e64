import { ApiError, notFound } from "../core/errors.ts";
import type { Caller } from "../core/operation.ts";
import type { PlatformDb } from "../db/platform.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { sha256Hex } from "./crypto.ts";
import { invalidToken, newLinkToken } from "./password-reset.ts";
import { findUserByEmail, membershipRole, normalizeEmail, requireManager } from "./service.ts";
import type { Role } from "./tables.ts";

// Members of an organization and the invitations that add them. Roles: an owner may give any role
// (invite, change), an admin only `admin` or `member`, and never changes or removes an owner; an
// admin-scoped API key counts as an admin. An organization always keeps an owner: removing or
// demoting the last one is a 409. An invitation is a single-use token (only its SHA-256 stored)
// valid 7 days; inviting an email again replaces its pending invitation (the old link stops working).

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** Who manages the members: their role, and the user (null for an API key, which acts as an admin). */
export interface MemberManager {
  role: "owner" | "admin";
  userId: string | null;
}

export function memberManager(platform: PlatformDb, caller: Caller): MemberManager {
  if (caller.type === "session" && caller.userId) {
    const role = requireManager(platform, caller.orgId, caller.userId);
    return { role: role === "owner" ? "owner" : "admin", userId: caller.userId };
  }
  return { role: "admin", userId: null };
}

function requireMayGive(manager: MemberManager, role: Role): void {
  if (role === "owner" && manager.role !== "owner") {
    throw new ApiError("FORBIDDEN", "Only an owner can make someone an owner");
  }
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  /** The inviter's email; null when an API key invited, or the inviter's account is gone. */
  invitedBy: string | null;
  expiresAt: number;
  createdAt: number;
}

export const invitationView = ({ organizationId: _, ...invitation }: Invitation) => ({
  ...invitation,
  expiresAt: iso(invitation.expiresAt),
  createdAt: iso(invitation.createdAt),
});

const PENDING = "i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $now";
const SELECT_INVITATIONS = `SELECT i.id, i.organization_id AS organizationId, i.email, i.role,
       u.email AS invitedBy, i.expires_at AS expiresAt, i.created_at AS createdAt
  FROM invitations i LEFT JOIN users u ON u.id = i.invited_by`;

/** The organization's pending invitations (neither accepted, revoked nor expired), newest first. */
export function listInvitations(platform: PlatformDb, organizationId: string): Invitation[] {
  return platform.sqlite
    .query(
      `${SELECT_INVITATIONS} WHERE i.organization_id = $org AND ${PENDING} ORDER BY i.created_at DESC, i.id`,
    )
    .all({ $org: organizationId, $now: Date.now() }) as Invitation[];
}

function pendingInvitation(platform: PlatformDb, where: string, values: Record<string, string>) {
  return platform.sqlite
    .query(`${SELECT_INVITATIONS} WHERE ${where} AND ${PENDING}`)
    .get({ ...values, $now: Date.now() }) as Invitation | null;
}

/**
 * Creates an invitation (revoking the email's pending one) and returns it with its token, which only
 * the email carries. 409 when the email is already a member; 403 for a role the manager cannot give.
 */
export function createInvitation(
  platform: PlatformDb,
  organizationId: string,
  input: { email: string; role: Role },
  manager: MemberManager,
): { invitation: Invitation; token: string } {
  requireMayGive(manager, input.role);
  const email = normalizeEmail(input.email);
  const existing = findUserByEmail(platform, email);
  if (existing && membershipRole(platform, organizationId, existing.id)) {
    throw new ApiError("CONFLICT", `${email} is already a member of this organization`);
  }
  const { token, tokenHash } = newLinkToken();
  const now = Date.now();
  const id = newId("inv");
  const { sqlite } = platform;
  sqlite.transaction(() => {
    sqlite
      .query(
        `UPDATE invitations SET revoked_at = $now WHERE organization_id = $org AND email = $email
            AND accepted_at IS NULL AND revoked_at IS NULL`,
      )
      .run({ $now: now, $org: organizationId, $email: email });
    sqlite
      .query(
        `INSERT INTO invitations (id, organization_id, email, role, token_hash, invited_by, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, organizationId, email, input.role, tokenHash, manager.userId, now + INVITATION_TTL_MS, now);
  })();
  const invitation = pendingInvitation(platform, "i.id = $id", { $id: id });
  if (!invitation) throw new Error("invitation not stored");
  return { invitation, token };
}

/** Revokes a pending invitation of the organization: its link stops working. 404 when there is none. */
export function revokeInvitation(platform: PlatformDb, organizationId: string, id: string): void {
  const revoked = platform.sqlite
    .query(
      `UPDATE invitations SET revoked_at = ?1 WHERE id = ?2 AND organization_id = ?3
          AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?1`,
    )
    .run(Date.now(), id, organizationId);
  if (revoked.changes === 0) throw notFound("Invitation");
}

/** The pending invitation a token opens, or TOKEN_INVALID (unknown, used, revoked or expired alike). */
export function invitationOfToken(platform: PlatformDb, token: string): Invitation {
  const invitation = pendingInvitation(platform, "i.token_hash = $hash", { $hash: sha256Hex(token) });
  if (!invitation) throw invalidToken("invitation");
  return invitation;
}

/**
 * Makes `userId` a member with the invitation's role and uses the invitation, in one transaction
 * (the token is checked again inside it, so two accepts cannot both win). 409 when already a member.
 */
export function joinByInvitation(platform: PlatformDb, token: string, userId: string): Invitation {
  const { sqlite } = platform;
  return sqlite.transaction(() => {
    const invitation = invitationOfToken(platform, token);
    if (membershipRole(platform, invitation.organizationId, userId)) {
      throw new ApiError("CONFLICT", "You are already a member of this organization");
    }
    const now = Date.now();
    sqlite
      .query("INSERT INTO members (id, organization_id, user_id, role, created_at) VALUES (?, ?, ?, ?, ?)")
      .run(newId("mem"), invitation.organizationId, userId, invitation.role, now);
    sqlite.query("UPDATE invitations SET accepted_at = ? WHERE id = ?").run(now, invitation.id);
    return invitation;
  })();
}

/** A member's role, or 404 when the user is not a member of the organization. */
function roleOf(platform: PlatformDb, organizationId: string, userId: string): Role {
  const role = membershipRole(platform, organizationId, userId);
  if (!role) throw notFound("Member");
  return role;
}

/** 409 when the change would leave the organization without an owner. */
function keepAnOwner(platform: PlatformDb, organizationId: string, userId: string): void {
  const owners = platform.sqlite
    .query("SELECT count(*) AS n FROM members WHERE organization_id = ? AND role = 'owner' AND user_id != ?")
    .get(organizationId, userId) as { n: number };
  if (owners.n === 0)
    throw new ApiError("CONFLICT", "An organization needs an owner: make someone else owner first");
}

/** Changes a member's role under the role rules; returns nothing (the caller lists the member). */
export function changeMemberRole(
  platform: PlatformDb,
  organizationId: string,
  userId: string,
  role: Role,
  manager: MemberManager,
): void {
  const current = roleOf(platform, organizationId, userId);
  requireMayGive(manager, role);
  if (current === "owner") {
    if (manager.role !== "owner") throw new ApiError("FORBIDDEN", "Only an owner can change an owner's role");
    if (role !== "owner") keepAnOwner(platform, organizationId, userId);
  }
  platform.sqlite
    .query("UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?")
    .run(role, organizationId, userId);
}

/**
 * Removes a member: their sessions that had the organization active get none, so their next request
 * to it is refused. An owner can be removed by an owner only, and never the last one.
 */
export function removeMember(
  platform: PlatformDb,
  organizationId: string,
  userId: string,
  manager: MemberManager,
): void {
  const current = roleOf(platform, organizationId, userId);
  if (current === "owner") {
    if (manager.role !== "owner") throw new ApiError("FORBIDDEN", "Only an owner can remove an owner");
    keepAnOwner(platform, organizationId, userId);
  }
  const { sqlite } = platform;
  sqlite.transaction(() => {
    sqlite.query("DELETE FROM members WHERE organization_id = ? AND user_id = ?").run(organizationId, userId);
    sqlite
      .query(
        "UPDATE sessions SET active_organization_id = NULL, updated_at = ? WHERE user_id = ? AND active_organization_id = ?",
      )
      .run(Date.now(), userId, organizationId);
  })();
}

/** One member as the members list shows them, or 404. */
export function findMember(platform: PlatformDb, organizationId: string, userId: string) {
  const member = platform.sqlite
    .query(
      `SELECT m.user_id AS userId, u.email, u.name, m.role, m.created_at AS createdAt
         FROM members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? AND m.user_id = ?`,
    )
    .get(organizationId, userId) as {
    userId: string;
    email: string;
    name: string | null;
    role: Role;
    createdAt: number;
  } | null;
  if (!member) throw notFound("Member");
  return member;
}
