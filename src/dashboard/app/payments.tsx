import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiFailure, api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import { Alert, Checkbox, Confirm, Field, PageHeader, QueryState } from "./ui.tsx";

// Settings → Payments: one card per provider of GET /v1/admin/integrations. The fields are those the
// API declares for PUT /v1/admin/integrations/{provider}. Secrets are write-only: the page says
// whether one is saved, never its value, and an empty secret field is left out of the PUT, which
// keeps the saved one. Non-secret fields are always sent (the API replaces them as given).

interface ProviderField {
  name: string;
  label: string;
  secret?: boolean;
  number?: boolean;
  hint?: string;
}

interface ProviderInfo {
  title: string;
  /** The checkout methods the provider's settings turn on (GET /v1/carts/{id}/payment-methods). */
  methods: string;
  fields: ProviderField[];
}

const PROVIDERS: Record<string, ProviderInfo> = {
  stripe: {
    title: "Stripe",
    methods: "Card",
    fields: [
      { name: "secretKey", label: "Stripe secret key", secret: true, hint: "sk_live_… or sk_test_…" },
      { name: "publishableKey", label: "Stripe publishable key", hint: "pk_live_… or pk_test_…" },
      { name: "webhookSecret", label: "Stripe webhook signing secret", secret: true, hint: "whsec_…" },
    ],
  },
  ifthenpay: {
    title: "Ifthenpay",
    methods: "MB WAY and Multibanco (euro carts)",
    fields: [
      { name: "antiPhishingKey", label: "Ifthenpay anti-phishing key", secret: true },
      { name: "mbKey", label: "Ifthenpay Multibanco key", secret: true },
      { name: "mbWayKey", label: "Ifthenpay MB WAY key", secret: true },
      {
        name: "multibancoExpiryDays",
        label: "Multibanco reference valid for (days)",
        number: true,
        hint: "0 to 31; 3 when empty.",
      },
    ],
  },
  easypay: {
    title: "Easypay",
    methods: "MB WAY and Multibanco (euro carts)",
    fields: [
      { name: "accountId", label: "Easypay account ID" },
      { name: "apiKey", label: "Easypay API key", secret: true },
      { name: "webhookSecret", label: "Easypay webhook secret", secret: true },
      {
        name: "environment",
        label: "Easypay environment",
        hint: "production or sandbox; production when empty.",
      },
    ],
  },
};

type Integration = Schemas["Integration"];

const SOURCE: Record<Integration["source"], string> = {
  tenant: "Your store's own settings",
  environment: "The operator's settings (until you save your own)",
  none: "Not set up",
};

function secretHint(integration: Integration, field: ProviderField): string {
  const saved = integration.secrets[field.name]?.set === true;
  const state = saved ? "Saved. Leave empty to keep it." : "Not set.";
  return field.hint ? `${state} ${field.hint}` : state;
}

/** The PUT body: every non-secret field as typed, secrets only when something was typed. */
function fieldsOf(info: ProviderInfo, values: Record<string, string>): Record<string, string | number> {
  const fields: Record<string, string | number> = {};
  for (const field of info.fields) {
    const value = values[field.name]?.trim() ?? "";
    if (value === "") continue;
    fields[field.name] = field.number && /^\d+$/.test(value) ? Number(value) : value;
  }
  return fields;
}

const secretsCleared = (info: ProviderInfo) =>
  Object.fromEntries(info.fields.filter((f) => f.secret).map((f) => [f.name, ""]));

/** After a save or a removal: the cards and Home's readiness checklist read the API again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["integrations"] }),
      queryClient.invalidateQueries({ queryKey: ["readiness"] }),
    ]);
}

/** The form's state and its save: typed secrets are cleared once saved, so they leave the page. */
function useProviderForm(integration: Integration, info: ProviderInfo) {
  const refresh = useRefresh();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      info.fields.filter((f) => !f.secret).map((f) => [f.name, String(integration.settings[f.name] ?? "")]),
    ),
  );
  const [enabled, setEnabled] = useState(integration.enabled || integration.source !== "tenant");
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/v1/admin/integrations/{provider}", {
          params: { path: { provider: integration.provider } },
          body: { enabled, fields: fieldsOf(info, values) },
        }),
      ),
    onSuccess: () => {
      setValues((current) => ({ ...current, ...secretsCleared(info) }));
      return refresh();
    },
  });
  return { values, setValues, enabled, setEnabled, save };
}

function ProviderForm({ integration, info }: { integration: Integration; info: ProviderInfo }) {
  const { values, setValues, enabled, setEnabled, save } = useProviderForm(integration, info);
  const failure = save.error instanceof ApiFailure ? save.error : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="space-y-4" onSubmit={onSubmit}>
      {save.isSuccess && <Alert tone="success">{info.title} settings saved.</Alert>}
      {save.error && (failure?.status !== 400 || !failure.details.length) && (
        <Alert>{save.error.message}</Alert>
      )}
      {info.fields.map((field) => (
        <Field
          key={field.name}
          label={field.label}
          type={field.secret ? "password" : "text"}
          autoComplete="off"
          value={values[field.name] ?? ""}
          onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
          hint={field.secret ? secretHint(integration, field) : field.hint}
          error={failure?.fieldMessage(`fields/${field.name}`)}
        />
      ))}
      <Checkbox label={`Offer ${info.title} at checkout`} checked={enabled} onChange={setEnabled} />
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        Save {info.title}
      </button>
    </form>
  );
}

function RemoveSettings({
  provider,
  title,
  onRemoved,
}: {
  provider: string;
  title: string;
  onRemoved: () => void;
}) {
  const refresh = useRefresh();
  const remove = useMutation({
    mutationFn: () =>
      unwrapEmpty(api.DELETE("/v1/admin/integrations/{provider}", { params: { path: { provider } } })),
    onSuccess: () => {
      onRemoved();
      return refresh();
    },
  });
  return (
    <>
      {remove.error && <Alert>{remove.error.message}</Alert>}
      <Confirm
        title={`Remove your ${title} settings?`}
        description="Your saved keys are deleted. The operator's settings apply again, if there are any."
        confirm="Remove"
        onConfirm={() => remove.mutate()}
        trigger={
          <button type="button" className="btn btn-secondary">
            Remove {title} settings
          </button>
        }
      />
    </>
  );
}

function ProviderCard({ integration }: { integration: Integration }) {
  // A removal starts the form again, empty.
  const [generation, setGeneration] = useState(0);
  const info = PROVIDERS[integration.provider];
  // A provider this page has no fields for is left to the API.
  if (!info) return null;
  const live = integration.source !== "none" && integration.enabled;
  return (
    <section aria-label={info.title} className="card space-y-4">
      <h2 className="text-lg font-semibold">{info.title}</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Settings</dt>
        <dd>{SOURCE[integration.source]}</dd>
        <dt className="text-slate-600">Live methods</dt>
        <dd>{live ? info.methods : "None"}</dd>
      </dl>
      <Field
        label={`${info.title} webhook URL`}
        readOnly
        value={integration.webhookUrl}
        hint={`Paste this into ${info.title}'s dashboard so payments are confirmed here.`}
        onFocus={(e) => e.target.select()}
      />
      <ProviderForm key={generation} integration={integration} info={info} />
      {integration.source === "tenant" && (
        <RemoveSettings
          provider={integration.provider}
          title={info.title}
          onRemoved={() => setGeneration((n) => n + 1)}
        />
      )}
    </section>
  );
}

export function PaymentsPage() {
  const integrations = useQuery({
    queryKey: ["integrations"],
    queryFn: () => unwrap(api.GET("/v1/admin/integrations")),
  });
  return (
    <>
      <PageHeader title="Payments" />
      {integrations.data ? (
        <div className="max-w-2xl space-y-6">
          {integrations.data.map((integration) => (
            <ProviderCard key={integration.provider} integration={integration} />
          ))}
        </div>
      ) : (
        <QueryState query={integrations} what="the payment providers" />
      )}
    </>
  );
}
