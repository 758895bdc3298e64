import { newId } from "../lib/ids.ts";
import type { Constraints } from "./capabilities.ts";
import type { AgentRuntime } from "./runtime.ts";
import type { HostRow } from "./store.ts";

// Apps connected with OAuth (the oauth module's consent page) are agents: one `oauth` host per
// client and organization, one delegated agent per host and approving user (it acts for that user,
// who must stay an owner or admin). Connecting again replaces the agent's grants with the new
// selection. Grants, the executor's checks, the tools listed and revocation from the dashboard are
// then exactly those of any agent. Such rows hold no key: `public_key` is empty and `thumbprint`
// is `oauth:<id>`, which no JWT can name (jwt.ts refuses `oauth` credentials).

function oauthHost(
  rt: AgentRuntime,
  app: { clientId: string; clientName: string },
  organizationId: string,
  userId: string,
  now: number,
) {
  const { sqlite } = rt;
  const found = sqlite
    .query("SELECT * FROM agent_hosts WHERE oauth_client_id = ? AND organization_id = ?")
    .get(app.clientId, organizationId) as HostRow | null;
  if (found) {
    sqlite
      .query("UPDATE agent_hosts SET name = ?1, updated_at = ?2 WHERE id = ?3")
      .run(app.clientName, now, found.id);
    return found.id;
  }
  const id = newId("host");
  sqlite
    .query(
      `INSERT INTO agent_hosts (id, name, public_key, thumbprint, status, credential, oauth_client_id,
         organization_id, user_id, activated_at, last_used_at, created_at, updated_at)
       VALUES (?1, ?2, '', ?3, 'active', 'oauth', ?4, ?5, ?6, ?7, NULL, ?7, ?7)`,
    )
    .run(id, app.clientName, `oauth:${id}`, app.clientId, organizationId, userId, now);
  return id;
}

function oauthAgent(
  rt: AgentRuntime,
  hostId: string,
  app: { clientName: string },
  organizationId: string,
  userId: string,
  now: number,
) {
  const { sqlite } = rt;
  const found = sqlite
    .query(
      "SELECT id FROM agents WHERE host_id = ? AND user_id = ? AND status = 'active' ORDER BY created_at DESC LIMIT 1",
    )
    .get(hostId, userId) as { id: string } | null;
  if (found) return found.id;
  const id = newId("agt");
  sqlite
    .query(
      `INSERT INTO agents (id, host_id, name, mode, public_key, thumbprint, status, credential, organization_id,
         user_id, activated_at, last_used_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'delegated', '', ?4, 'active', 'oauth', ?5, ?6, ?7, NULL, ?7, ?7)`,
    )
    .run(id, hostId, app.clientName, `oauth:${id}`, organizationId, userId, now);
  return id;
}

/** The agent's grants become exactly the selection, each until now + the duration. */
function replaceGrants(
  rt: AgentRuntime,
  agentId: string,
  selection: Map<string, Constraints | null>,
  userId: string,
  until: number,
  now: number,
) {
  const { sqlite } = rt;
  sqlite
    .query(
      "UPDATE agent_grants SET status = 'revoked', updated_at = ?1 WHERE agent_id = ?2 AND status IN ('active', 'pending')",
    )
    .run(now, agentId);
  const upsert = sqlite.query(
    `INSERT INTO agent_grants (id, agent_id, capability, status, constraints, granted_by, denied_by, reason,
       expires_at, created_at, updated_at)
     VALUES (?1, ?2, ?3, 'active', ?4, ?5, NULL, NULL, ?6, ?7, ?7)
     ON CONFLICT (agent_id, capability) DO UPDATE SET status = 'active', constraints = ?4, granted_by = ?5,
       denied_by = NULL, reason = NULL, expires_at = ?6, updated_at = ?7`,
  );
  for (const [capability, constraints] of selection) {
    upsert.run(
      newId("grt"),
      agentId,
      capability,
      constraints ? JSON.stringify(constraints) : null,
      userId,
      until,
      now,
    );
  }
}

/** Records a merchant's consent for an app in an organization (in the caller's transaction); the agent's id. */
export function connectApp(
  rt: AgentRuntime,
  input: {
    clientId: string;
    clientName: string;
    organizationId: string;
    userId: string;
    selection: Map<string, Constraints | null>;
    until: number;
  },
): string {
  const now = rt.now();
  const app = { clientId: input.clientId, clientName: input.clientName };
  const hostId = oauthHost(rt, app, input.organizationId, input.userId, now);
  const agentId = oauthAgent(rt, hostId, app, input.organizationId, input.userId, now);
  replaceGrants(rt, agentId, input.selection, input.userId, input.until, now);
  return agentId;
}
