import { adminOrganizations, DURATIONS, type Duration } from "../agents/approvals.ts";
import { type Capability, type Constraints, parseConstraints } from "../agents/capabilities.ts";
import { connectApp } from "../agents/connected-apps.ts";
import { ProtocolError } from "../agents/errors.ts";
import { immediately } from "../db/sqlite.ts";
import type { Client } from "./clients.ts";
import { invalidRequest } from "./errors.ts";
import type { OAuthRuntime } from "./runtime.ts";
import { issueCode } from "./tokens.ts";

// A consent is an agent (the agents module's `connectApp`) and an authorization code for it, made
// in one transaction. What the page offers: every capability, reads ticked, caps on amounts.

/** Numeric input fields a merchant may cap on the consent page: money refunded, items added. */
const CAPPABLE_FIELDS = new Set(["amount", "quantity"]);

/** The integer fields of a mutating capability that the consent page offers a maximum for. */
export function cappableFields(capability: Capability): string[] {
  if (capability.op.method === "GET") return [];
  const properties = (capability.input.properties ?? {}) as Record<string, { type?: string }>;
  return Object.entries(properties)
    .filter(([name, schema]) => CAPPABLE_FIELDS.has(name) && schema.type === "integer")
    .map(([name]) => name);
}

/** Read-only capabilities are ticked by default; anything that changes something is opt-in. */
export const tickedByDefault = (capability: Capability): boolean => capability.op.method === "GET";

/** The selection as the form sent it: each ticked capability and its caps (`max:<capability>:<field>`). */
export function readSelection(rt: OAuthRuntime, form: URLSearchParams): Map<string, Constraints | null> {
  const selection = new Map<string, Constraints | null>();
  for (const name of form.getAll("capability").slice(0, 200)) {
    const capability = rt.agents.catalog.get(name);
    if (!capability) throw invalidRequest(`Unknown capability ${name.slice(0, 80)}`);
    const caps: Record<string, { max: number }> = {};
    for (const field of cappableFields(capability)) {
      const raw = (form.get(`max:${name}:${field}`) ?? "").trim();
      if (raw === "") continue;
      if (!/^\d{1,12}$/.test(raw))
        throw invalidRequest(`The limit on ${field} of ${name} must be a whole number`);
      caps[field] = { max: Number(raw) };
    }
    selection.set(name, Object.keys(caps).length > 0 ? parseConstraints(capability, caps) : null);
  }
  return selection;
}

export interface Consent {
  client: Client;
  userId: string;
  organizationId: string;
  selection: Map<string, Constraints | null>;
  duration: Duration;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
}

/** Records an approval (agent, grants) and answers its authorization code, in one transaction. */
export function approve(rt: OAuthRuntime, consent: Consent): string {
  const { client, userId, organizationId, selection } = consent;
  if (!adminOrganizations(rt.agents, userId).some((o) => o.id === organizationId)) {
    throw new ProtocolError(
      403,
      "unauthorized",
      "Only an owner or admin of the organization can connect apps to it",
    );
  }
  if (selection.size === 0) throw invalidRequest("Tick at least one capability, or deny");
  return immediately(rt.sqlite, () => {
    const agentId = connectApp(rt.agents, {
      clientId: client.id,
      clientName: client.name,
      organizationId,
      userId,
      selection,
      until: rt.agents.now() + DURATIONS[consent.duration],
    });
    return issueCode(rt, {
      agentId,
      clientId: client.id,
      resource: consent.resource,
      codeChallenge: consent.codeChallenge,
      redirectUri: consent.redirectUri,
    });
  });
}
