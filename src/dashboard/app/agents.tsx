import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import { Alert, Confirm, DataTable, Empty, formatDate, PageHeader, QueryState } from "./ui.tsx";

// The organization's agents, by the host (the program or device) that registered them, with what
// each may do. Agents are registered and approved through Agent Auth, not here; a revoked agent's
// next call is refused, hence the confirmation.

const REVOCABLE: readonly string[] = ["pending", "active"];

function Grants({ grants }: { grants: Schemas["AgentGrant"][] }) {
  if (grants.length === 0) return <span className="text-slate-600">None</span>;
  return (
    <ul className="space-y-0.5">
      {grants.map((grant) => (
        <li key={grant.capability}>
          {grant.description} <span className="text-slate-600">({grant.status})</span>
        </li>
      ))}
    </ul>
  );
}

function HostAgents({ host, onRevoke }: { host: Schemas["AgentHost"]; onRevoke: (id: string) => void }) {
  return (
    <section className="mb-8" aria-labelledby={`host-${host.id}`}>
      <h2 id={`host-${host.id}`} className="mb-2 text-lg font-semibold">
        {host.name}{" "}
        <span className="text-sm font-normal text-slate-600">
          {host.credential === "oauth" ? "app connected with OAuth" : "Agent Auth host"}, {host.status}
        </span>
      </h2>
      <DataTable
        columns={["Agent", "Status", "Grants", "Last used", "Actions"]}
        right={["Actions"]}
        unseen={["Actions"]}
        rows={host.agents.map((agent) => ({
          key: agent.id,
          cells: [
            <span key="name" className="font-medium">
              {agent.name}
            </span>,
            agent.status,
            <Grants key="grants" grants={agent.grants} />,
            agent.lastUsedAt ? formatDate(agent.lastUsedAt) : "Never",
            REVOCABLE.includes(agent.status) ? (
              <Confirm
                key="revoke"
                title={`Revoke ${agent.name}?`}
                description="Its next call is refused and its grants end. A new agent must be approved again."
                confirm="Revoke"
                onConfirm={() => onRevoke(agent.id)}
                trigger={
                  <button type="button" className="btn btn-secondary" aria-label={`Revoke ${agent.name}`}>
                    Revoke
                  </button>
                }
              />
            ) : null,
          ],
        }))}
      />
    </section>
  );
}

export function Agents() {
  const queryClient = useQueryClient();
  const hosts = useQuery({ queryKey: ["agents"], queryFn: () => unwrap(api.GET("/v1/admin/agents")) });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST("/v1/admin/agents/{id}/revoke", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["agents"] }),
  });
  return (
    <>
      <SettingsBack />
      <PageHeader title="Agents" />
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      {!hosts.data ? (
        <QueryState query={hosts} what="agents" />
      ) : hosts.data.length === 0 ? (
        <Empty>
          No agent is registered for this store. Agents ask for access through Agent Auth; apps such as Claude
          connect to the store's MCP address and ask you on a consent page.
        </Empty>
      ) : (
        hosts.data.map((host) => (
          <HostAgents key={host.id} host={host} onRevoke={(id) => revoke.mutate(id)} />
        ))
      )}
    </>
  );
}
