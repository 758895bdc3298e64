import { createHmac, timingSafeEqual } from "node:crypto";
import { immediately } from "../db/sqlite.ts";
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";
import { type Capability, CLASS_LABELS, constraintsInWords } from "./capabilities.ts";
import { conflict, ProtocolError } from "./errors.ts";
import type { AgentRuntime } from "./runtime.ts";
import {
  type AgentRow,
  type ApprovalRow,
  agentById,
  approvalById,
  changed,
  constraintsOf,
  grantsOf,
  type HostRow,
  hostById,
  pendingApprovalByCodeHash,
} from "./store.ts";
import { grantObjects } from "./views.ts";

// Device authorization (RFC 8628): approval requests, user codes, and the merchant's decision.

const APPROVAL_TTL_MS = 300_000;
const POLL_INTERVAL_S = 5;
const MAX_FAILED_CODES = 5;
/** A decision needs a password check within this long. */
export const FRESH_SIGN_IN_MS = 300_000;

/** No I, O, 0 or 1; 32 symbols, so 5 bits of a random byte pick one without bias. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newUserCode(): string {
  let code = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(8))) code += CODE_ALPHABET[byte & 31];
  return code;
}

/** Upper-case, `-` and spaces removed. */
export const normalizeUserCode = (input: string): string => input.toUpperCase().replace(/[-\s]/g, "");
const formatUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

const hmacHex = (rt: AgentRuntime, text: string) =>
  createHmac("sha256", rt.serverKey).update(text).digest("hex");

/** HMAC-SHA-256 (server key) of a normalised user code: the only form stored. */
const userCodeHash = (rt: AgentRuntime, code: string): string =>
  hmacHex(rt, `user-code:${normalizeUserCode(code)}`);

/** Constant-time comparison of two hex digests. */
function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The approval page's CSRF token: HMAC(server key, session id + approval id). */
export const csrfToken = (rt: AgentRuntime, sessionId: string, approvalId: string): string =>
  hmacHex(rt, `csrf:${sessionId}:${approvalId}`);

export const csrfValid = (rt: AgentRuntime, sessionId: string, approvalId: string, token: string): boolean =>
  /^[0-9a-f]{64}$/.test(token) && sameDigest(csrfToken(rt, sessionId, approvalId), token);

export interface ApprovalObject {
  method: "device_authorization";
  approval_id: string;
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
  binding_message?: string;
}

/**
 * Opens an approval request for all of the agent's pending grants (inside the caller's transaction);
 * the agent's previous pending request expires. The plain user code leaves only in the answer.
 */
export function createApproval(
  rt: AgentRuntime,
  agent: AgentRow,
  options: { bindingMessage?: string; reason?: string } = {},
): ApprovalObject {
  const { sqlite } = rt;
  const now = rt.now();
  const capabilities = (
    sqlite
      .query(
        "SELECT capability FROM agent_grants WHERE agent_id = ? AND status = 'pending' ORDER BY capability",
      )
      .all(agent.id) as { capability: string }[]
  ).map((r) => r.capability);
  sqlite
    .query(
      "UPDATE agent_approvals SET status = 'expired', updated_at = ? WHERE agent_id = ? AND status = 'pending'",
    )
    .run(now, agent.id);
  const id = newId("apr");
  for (let attempt = 0; ; attempt++) {
    const code = newUserCode();
    try {
      sqlite
        .query(
          `INSERT INTO agent_approvals (id, agent_id, host_id, method, capabilities, status, user_code_hash,
           binding_message, reason, interval, last_polled_at, failed_attempts, expires_at, organization_id,
           decided_by, decided_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, 'device_authorization', ?4, 'pending', ?5, ?6, ?7, ?8, NULL, 0, ?9, NULL, NULL, NULL, ?10, ?10)`,
        )
        .run(
          id,
          agent.id,
          agent.host_id,
          JSON.stringify(capabilities),
          userCodeHash(rt, code),
          options.bindingMessage ?? null,
          options.reason ?? null,
          POLL_INTERVAL_S,
          now + APPROVAL_TTL_MS,
          now,
        );
    } catch (error) {
      // Another pending request holds this code: draw again.
      if (attempt < 5 && error instanceof Error && /UNIQUE constraint failed/.test(error.message)) continue;
      throw error;
    }
    const shown = formatUserCode(code);
    const object: ApprovalObject = {
      method: "device_authorization",
      approval_id: id,
      device_code: id,
      user_code: shown,
      verification_uri: rt.origins.page,
      verification_uri_complete: `${rt.origins.page}?code=${shown}`,
      expires_in: APPROVAL_TTL_MS / 1000,
      interval: POLL_INTERVAL_S,
    };
    if (options.bindingMessage) object.binding_message = options.bindingMessage;
    return object;
  }
}

/** Organizations where the user holds the admin role (owner or admin): those it may approve for. */
export function adminOrganizations(
  rt: AgentRuntime,
  userId: string,
): { id: string; name: string; slug: string }[] {
  return rt.sqlite
    .query(
      `SELECT o.id, o.name, o.slug FROM members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ? AND m.role IN ('owner', 'admin') ORDER BY o.name, o.id`,
    )
    .all(userId) as { id: string; name: string; slug: string }[];
}

const isAdmin = (rt: AgentRuntime, organizationId: string, userId: string): boolean =>
  rt.sqlite
    .query("SELECT 1 FROM members WHERE organization_id = ? AND user_id = ? AND role IN ('owner', 'admin')")
    .get(organizationId, userId) !== null;

/** One requested capability as an approver sees it. */
interface RequestedCapability {
  name: string;
  description: string;
  method: string;
  path: string;
  class: Capability["class"];
  label: string;
  admin: boolean;
  constraints: Record<string, unknown> | null;
  /** The constraints in words (`amount ≤ 5000`). */
  constraints_text: string[];
}

/** What an approver is shown for a pending request (the page and the JSON endpoint). */
export interface ApprovalView {
  approval: {
    approval_id: string;
    status: ApprovalRow["status"];
    created_at: string;
    expires_in: number;
    binding_message: string | null;
    reason: string | null;
  };
  agent: { id: string; name: string; mode: AgentRow["mode"]; status: AgentRow["status"] };
  host: { id: string; name: string; status: HostRow["status"] };
  /** Set when agent or host is bound already: the only organization the approval can be for. */
  bound_organization_id: string | null;
  capabilities: RequestedCapability[];
  /** Organizations the user may approve for. */
  organizations: { id: string; name: string; slug: string }[];
}

export function approvalView(rt: AgentRuntime, approval: ApprovalRow, userId: string): ApprovalView {
  const agent = agentById(rt.sqlite, approval.agent_id)!;
  const host = hostById(rt.sqlite, approval.host_id)!;
  const grants = new Map(grantsOf(rt.sqlite, agent.id).map((g) => [g.capability, g]));
  const bound = agent.organization_id ?? host.organization_id;
  const capabilities = (JSON.parse(approval.capabilities) as string[]).flatMap((name) => {
    const capability = rt.catalog.get(name);
    if (!capability) return [];
    const grant = grants.get(name);
    const constraints = grant ? constraintsOf(grant) : null;
    return [
      {
        name,
        description: capability.description,
        method: capability.op.method,
        path: capability.op.path,
        class: capability.class,
        label: CLASS_LABELS[capability.class],
        admin: capability.scope === "admin",
        constraints,
        constraints_text: constraintsInWords(constraints),
      },
    ];
  });
  const organizations = adminOrganizations(rt, userId).filter((o) => bound === null || o.id === bound);
  return {
    approval: {
      approval_id: approval.id,
      status: approval.status,
      created_at: iso(approval.created_at),
      expires_in: Math.max(0, Math.ceil((approval.expires_at - rt.now()) / 1000)),
      binding_message: approval.binding_message,
      reason: approval.reason,
    },
    agent: { id: agent.id, name: agent.name, mode: agent.mode, status: agent.status },
    host: { id: host.id, name: host.name, status: host.status },
    bound_organization_id: bound,
    capabilities,
    organizations,
  };
}

/** The pending, unexpired request a user code names, or null (one neutral answer for every miss). */
export function pendingApprovalForCode(rt: AgentRuntime, code: string): ApprovalRow | null {
  const normalized = normalizeUserCode(code);
  if (!/^[A-Z2-9]{8}$/.test(normalized)) return null;
  const approval = pendingApprovalByCodeHash(rt.sqlite, userCodeHash(rt, normalized));
  return approval && approval.expires_at > rt.now() ? approval : null;
}

export const DURATIONS = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
  "90d": 90 * 86_400_000,
} as const;
export type Duration = keyof typeof DURATIONS;

export type DecisionAction = "approve_all" | "approve_selected" | "deny";

interface DecisionInput {
  approvalId: string;
  /** The code the approver typed (any case, with or without `-`). */
  userCode: string;
  /** The signed-in dashboard user deciding, and when they last gave their password. */
  userId: string;
  authenticatedAt: number;
  action: DecisionAction;
  /** `approve_selected`: a non-empty subset of the requested capabilities. */
  capabilities?: string[];
  /** Required unless agent or host is bound already (then it must be that one, if given). */
  organizationId?: string;
  /** How long approved grants last (default 30 days). */
  duration?: Duration;
  /** Kept on denied grants. */
  reason?: string;
}

export interface DecisionResult {
  approval_id: string;
  status: "approved" | "denied";
  agent_id: string;
  agent_status: AgentRow["status"];
  organization_id: string | null;
  agent_capability_grants: Record<string, unknown>[];
}

/**
 * The merchant's decision on an approval request, for the approval page and the JSON endpoint
 * alike. Checks, in order: a password check within 5 minutes (401 `authentication_required`); the
 * request exists (404 `approval_not_found`); the user code, in constant time (400
 * `invalid_user_code`; the 5th wrong code expires the request); the request is pending and
 * unexpired (409 `conflict`); the admin role in the chosen organization, which must be the bound
 * one once agent or host is bound (403 `unauthorized`); the selection (400 `invalid_capabilities`).
 * Then one transaction of compare-and-set moves: the request `pending → approved/denied`, host and
 * agent bound to the organization and activated (or a pending agent rejected on a deny), selected
 * grants `active` until now + duration, the others `denied`. A second decision changes zero rows
 * → 409. CSRF and Origin checks belong to the transport (page or JSON route) before this call.
 */
export function decideApproval(rt: AgentRuntime, input: DecisionInput): DecisionResult {
  const now = rt.now();
  const approval = pendingRequest(rt, input, now);
  const agent = agentById(rt.sqlite, approval.agent_id)!;
  const host = hostById(rt.sqlite, approval.host_id)!;
  const organizationId = decidingOrganization(rt, input, agent, host);
  const requested = JSON.parse(approval.capabilities) as string[];
  const selected = selectedCapabilities(input, requested);
  const approve = selected.length > 0;
  // Denying an agent that is bound to nothing binds nothing; approving binds it to the chosen organization.
  if (approve && organizationId === null) {
    throw new ProtocolError(400, "invalid_request", "Choose the organization to approve for");
  }
  const decision: Decision = { approval, agent, host, organizationId, approve, requested, selected, now };
  immediately(rt.sqlite, () => recordDecision(rt, input, decision));
  const after = agentById(rt.sqlite, agent.id)!;
  return {
    approval_id: approval.id,
    status: approve ? "approved" : "denied",
    agent_id: agent.id,
    agent_status: after.status,
    organization_id: after.organization_id,
    agent_capability_grants: grantObjects(rt, agent.id),
  };
}

/**
 * The request the decision is about, once the approver signed in lately, the request exists, the
 * code matches (a wrong one counts against the request) and the request is pending and unexpired.
 */
function pendingRequest(rt: AgentRuntime, input: DecisionInput, now: number): ApprovalRow {
  const { sqlite } = rt;
  if (now - input.authenticatedAt > FRESH_SIGN_IN_MS) {
    throw new ProtocolError(
      401,
      "authentication_required",
      "Confirm your password: approving needs a sign-in within the last 5 minutes",
    );
  }
  const approval = approvalById(sqlite, input.approvalId);
  if (!approval) throw new ProtocolError(404, "approval_not_found", "No such approval request");
  if (!sameDigest(userCodeHash(rt, input.userCode), approval.user_code_hash)) {
    changed(
      sqlite,
      `UPDATE agent_approvals SET failed_attempts = failed_attempts + 1,
              status = CASE WHEN failed_attempts + 1 >= ?1 THEN 'expired' ELSE status END, updated_at = ?2
        WHERE id = ?3 AND status = 'pending'`,
      MAX_FAILED_CODES,
      now,
      approval.id,
    );
    throw new ProtocolError(400, "invalid_user_code", "The code does not match this request");
  }
  if (approval.status !== "pending") throw conflict(`The request is ${approval.status} already`);
  if (approval.expires_at <= now) {
    changed(
      sqlite,
      "UPDATE agent_approvals SET status = 'expired', updated_at = ? WHERE id = ? AND status = 'pending'",
      now,
      approval.id,
    );
    throw conflict("The request expired");
  }
  return approval;
}

/**
 * The organization decided for: the one agent or host is bound to, else the one chosen (null when
 * none is, which only a deny accepts); the approver must be an owner or admin of it (of any, with none).
 */
function decidingOrganization(rt: AgentRuntime, input: DecisionInput, agent: AgentRow, host: HostRow) {
  const bound = agent.organization_id ?? host.organization_id;
  if (bound !== null && input.organizationId !== undefined && input.organizationId !== bound) {
    throw new ProtocolError(403, "unauthorized", "This agent is bound to another organization");
  }
  const organizationId = bound ?? input.organizationId ?? null;
  if (
    organizationId !== null
      ? !isAdmin(rt, organizationId, input.userId)
      : adminOrganizations(rt, input.userId).length === 0
  ) {
    throw new ProtocolError(403, "unauthorized", "Only an owner or admin of the organization can decide");
  }
  return organizationId;
}

/** The capabilities approved: all requested, none (deny), or a non-empty subset of the requested ones. */
function selectedCapabilities(input: DecisionInput, requested: string[]): string[] {
  if (input.action === "approve_all") return requested;
  if (input.action === "deny") return [];
  const chosen = [...new Set(input.capabilities ?? [])];
  const foreign = chosen.filter((c) => !requested.includes(c));
  if (chosen.length === 0 || foreign.length > 0) {
    throw new ProtocolError(400, "invalid_capabilities", "Select one or more of the requested capabilities", {
      invalid_capabilities: foreign,
    });
  }
  return chosen;
}

interface Decision {
  approval: ApprovalRow;
  agent: AgentRow;
  host: HostRow;
  organizationId: string | null;
  approve: boolean;
  requested: string[];
  selected: string[];
  now: number;
}

/** The decision's compare-and-set moves, in the caller's transaction; a move that finds its row changed is a 409. */
function recordDecision(rt: AgentRuntime, input: DecisionInput, d: Decision) {
  const cas = (sql: string, ...args: (string | number | null)[]) => {
    if (changed(rt.sqlite, sql, ...args) === 0) throw conflict();
  };
  cas(
    `UPDATE agent_approvals SET status = ?1, organization_id = ?2, decided_by = ?3, decided_at = ?4, updated_at = ?4
      WHERE id = ?5 AND status = 'pending'`,
    d.approve ? "approved" : "denied",
    d.organizationId,
    input.userId,
    d.now,
    d.approval.id,
  );
  let hostUser = d.host.user_id;
  if (d.approve && d.host.organization_id === null) {
    cas(
      `UPDATE agent_hosts SET status = 'active', organization_id = ?1, user_id = ?2, activated_at = ?3, updated_at = ?3
        WHERE id = ?4 AND status = 'pending' AND organization_id IS NULL`,
      d.organizationId,
      input.userId,
      d.now,
      d.host.id,
    );
    hostUser = input.userId;
  }
  if (d.agent.status === "pending") {
    if (d.approve) {
      cas(
        `UPDATE agents SET status = 'active', organization_id = ?1, user_id = ?2, activated_at = ?3, updated_at = ?3
          WHERE id = ?4 AND status = 'pending'`,
        d.organizationId,
        d.agent.mode === "delegated" ? hostUser : null,
        d.now,
        d.agent.id,
      );
    } else {
      cas(
        "UPDATE agents SET status = 'rejected', updated_at = ?1 WHERE id = ?2 AND status = 'pending'",
        d.now,
        d.agent.id,
      );
    }
  } else if (d.agent.status !== "active") {
    throw conflict(`The agent is ${d.agent.status}`);
  }
  settleGrants(rt, input, d);
}

/** Selected grants become active until now + the duration; the other requested ones are denied. */
function settleGrants(rt: AgentRuntime, input: DecisionInput, d: Decision) {
  const grantsUntil = d.now + DURATIONS[input.duration ?? "30d"];
  for (const name of d.requested) {
    if (d.selected.includes(name)) {
      changed(
        rt.sqlite,
        `UPDATE agent_grants SET status = 'active', granted_by = ?1, denied_by = NULL, reason = NULL,
                expires_at = ?2, updated_at = ?3
          WHERE agent_id = ?4 AND capability = ?5 AND status = 'pending'`,
        input.userId,
        grantsUntil,
        d.now,
        d.agent.id,
        name,
      );
    } else {
      changed(
        rt.sqlite,
        `UPDATE agent_grants SET status = 'denied', denied_by = ?1, reason = ?2, granted_by = NULL,
                expires_at = NULL, updated_at = ?3
          WHERE agent_id = ?4 AND capability = ?5 AND status = 'pending'`,
        input.userId,
        input.reason ?? null,
        d.now,
        d.agent.id,
        name,
      );
    }
  }
}
