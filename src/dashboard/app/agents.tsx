import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import {
  Alert,
  Confirm,
  CopyField,
  CreateRevealDialog,
  DataTable,
  DeleteButton,
  EditDialog,
  Empty,
  Field,
  fieldError,
  formatDate,
  PageHeader,
  QueryState,
  RevealDialog,
  ShownOnce,
  useEditDialog,
} from "./ui.tsx";

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
      <AcpPlatforms />
    </>
  );
}

// --- Agent platforms (ACP) ----------------------------------------------------------------------
// Platforms such as ChatGPT that check out on the shop's host with their own bearer token
// (docs/acp.md). The token and the webhook signing secret are answered only by create and
// rotate-token, so they are shown in that dialog and never again.

type Platform = Schemas["AcpPlatform"];
const PLATFORMS = ["acp-platforms"] as const;

interface PlatformForm {
  name: string;
  webhookUrl: string;
}

const blankPlatform: PlatformForm = { name: "", webhookUrl: "" };
const platformForm = (platform: Platform): PlatformForm => ({
  name: platform.name,
  webhookUrl: platform.webhookUrl ?? "",
});
/** The form as the API takes it: an empty webhook URL is `null`, no order webhooks. */
const platformBody = (form: PlatformForm) => ({
  name: form.name.trim(),
  webhookUrl: form.webhookUrl.trim() || null,
});

function PlatformFields({
  form,
  set,
  error,
}: {
  form: PlatformForm;
  set: (change: Partial<PlatformForm>) => void;
  error: Error | null;
}) {
  return (
    <>
      <Field
        label="Name"
        required
        value={form.name}
        placeholder="ChatGPT"
        onChange={(e) => set({ name: e.target.value })}
        hint="Which platform this is, for you."
        error={fieldError(error, "name")}
      />
      <Field
        label="Order webhook URL"
        type="url"
        value={form.webhookUrl}
        placeholder="https://platform.example/order_events"
        onChange={(e) => set({ webhookUrl: e.target.value })}
        hint="Optional: the https address the platform gave you to be told about its orders. Leave it empty for none."
        error={fieldError(error, "webhookUrl")}
      />
    </>
  );
}

const TOKEN_HINT = "The platform sends it with each call to your store.";

function AddPlatform() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(blankPlatform);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/v1/admin/acp-platforms", { body: platformBody(form) })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLATFORMS }),
  });
  return (
    <CreateRevealDialog
      title="Add platform"
      doneTitle="Platform added"
      trigger={
        <button type="button" className="btn btn-primary">
          Add platform
        </button>
      }
      submit="Add platform"
      mutation={create}
      onClosed={() => setForm(blankPlatform)}
      reveal={(made) => (
        <ShownOnce notice={`Copy these two now and give them to ${made.name}: they will not be shown again.`}>
          <CopyField label="Bearer token" value={made.token} hint={TOKEN_HINT} />
          <CopyField
            label="Signing secret"
            value={made.signingSecret}
            hint="The platform uses it to check that the order updates it receives come from your store."
          />
        </ShownOnce>
      )}
    >
      <PlatformFields
        form={form}
        set={(change) => setForm((current) => ({ ...current, ...change }))}
        error={create.error}
      />
    </CreateRevealDialog>
  );
}

function EditPlatform({ platform }: { platform: Platform }) {
  const [form, setForm] = useState(() => platformForm(platform));
  const { mutation, dialog } = useEditDialog(
    (body: ReturnType<typeof platformBody>) =>
      unwrap(api.PATCH("/v1/admin/acp-platforms/{id}", { params: { path: { id: platform.id } }, body })),
    PLATFORMS,
  );
  return (
    <EditDialog
      noun="platform"
      editing={platform.name}
      onOpen={() => setForm(platformForm(platform))}
      onSubmit={() => mutation.mutate(platformBody(form))}
      {...dialog}
    >
      <PlatformFields
        form={form}
        set={(change) => setForm((current) => ({ ...current, ...change }))}
        error={mutation.error}
      />
    </EditDialog>
  );
}

function ReplaceToken({ platform }: { platform: Platform }) {
  const queryClient = useQueryClient();
  const { id, name } = platform;
  return (
    <RevealDialog
      title={`Replace the token of ${name}?`}
      doneTitle={`New token for ${name}`}
      trigger={
        <button type="button" className="btn btn-secondary" aria-label={`Replace token of ${name}`}>
          Replace token
        </button>
      }
      description={`A new token is made and shown once. The current one is refused at once: ${name} cannot check out until you give it the new token. The signing secret stays the same.`}
      confirm="Replace token"
      make={() => unwrap(api.POST("/v1/admin/acp-platforms/{id}/rotate-token", { params: { path: { id } } }))}
      onMade={() => queryClient.invalidateQueries({ queryKey: PLATFORMS })}
    >
      {(made) => (
        <ShownOnce notice={`Copy the new token now and give it to ${name}: it will not be shown again.`}>
          <CopyField label="Bearer token" value={made.token} hint={TOKEN_HINT} />
        </ShownOnce>
      )}
    </RevealDialog>
  );
}

function PlatformActions({ platform }: { platform: Platform }) {
  return (
    <div className="flex justify-end gap-2 whitespace-nowrap">
      <EditPlatform platform={platform} />
      <ReplaceToken platform={platform} />
      <DeleteButton
        name={platform.name}
        noun="platform"
        description={`Its next call to your store is refused, and no more order updates are sent to it. Orders it placed stay yours.`}
        remove={() =>
          unwrapEmpty(api.DELETE("/v1/admin/acp-platforms/{id}", { params: { path: { id: platform.id } } }))
        }
        list={PLATFORMS}
      />
    </div>
  );
}

function PlatformTable({ platforms }: { platforms: Platform[] }) {
  return (
    <DataTable
      columns={["Platform", "Token", "Order webhooks", "Added", "Actions"]}
      right={["Actions"]}
      unseen={["Actions"]}
      rows={platforms.map((platform) => ({
        key: platform.id,
        cells: [
          <span key="name" className="font-medium">
            {platform.name}
          </span>,
          <span key="token" className="whitespace-nowrap font-mono">
            …{platform.tokenHint}
          </span>,
          platform.webhookUrl ? (
            <span key="webhook" className="break-all">
              {platform.webhookUrl}
            </span>
          ) : (
            <span key="webhook" className="text-slate-600">
              No order webhooks
            </span>
          ),
          formatDate(platform.createdAt),
          <PlatformActions key="actions" platform={platform} />,
        ],
      }))}
    />
  );
}

function AcpPlatforms() {
  const platforms = useQuery({
    queryKey: PLATFORMS,
    queryFn: () => unwrap(api.GET("/v1/admin/acp-platforms")),
  });
  return (
    <section className="mt-10" aria-labelledby="acp-platforms">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h2 id="acp-platforms" className="text-lg font-semibold">
          Agent platforms (ACP)
        </h2>
        <AddPlatform />
      </div>
      <p className="mb-4 max-w-2xl text-sm text-slate-700">
        Services such as ChatGPT let shoppers buy by asking an AI assistant. Through the Agentic Commerce
        Protocol (ACP), a platform you add here can check out in your store, at your prices and with your
        stock. Each one gets its own token; replace it or remove the platform at any time.
      </p>
      {!platforms.data ? (
        <QueryState query={platforms} what="agent platforms" />
      ) : platforms.data.length === 0 ? (
        <Empty>
          No agent platform can check out in your store yet. When a platform such as ChatGPT offers to sell
          your products, choose Add platform, type its name and the order webhook URL it gave you, then give
          it the token and signing secret shown.
        </Empty>
      ) : (
        <PlatformTable platforms={platforms.data} />
      )}
    </section>
  );
}
