import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useId, useState } from "react";
import { ApiFailure, api, type Schemas, unwrap, unwrapBody, unwrapEmpty } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import { Link, navigate } from "./router.tsx";
import {
  Alert,
  Checkbox,
  CopyField,
  CreateRevealDialog,
  DataTable,
  DeleteButton,
  Empty,
  Field,
  FormDialog,
  fieldError,
  formatDate,
  PageHeader,
  Pager,
  QueryState,
  RevealDialog,
  ShownOnce,
} from "./ui.tsx";

// Settings → Webhooks: the merchant's endpoints (docs/webhooks.md), each with its deliveries. A
// signing secret is answered only by create and rotate, so it is shown in that dialog and never
// again.

type Endpoint = Schemas["WebhookEndpoint"];
type Delivery = Schemas["WebhookDelivery"];
type EventType = Exclude<Endpoint["events"][number], "*">;

/** Each event type in words; a `Record` so that a type the API adds fails the type-check here. */
const EVENT_TYPES: Record<EventType, string> = {
  "order.placed": "An order is placed",
  "order.paid": "An order is paid",
  "order.payment_failed": "A payment fails (the shopper may try again)",
  "order.cancelled": "An order is cancelled",
  "order.fulfilled": "An order is shipped",
  "order.refunded": "An order is refunded, in full or in part",
  "product.created": "A product is created",
  "product.updated": "A product is changed",
  "product.deleted": "A product is deleted",
  "inventory.low_stock": "A product variant runs low on stock",
  "customer.created": "A new customer",
  "webhook_endpoint.disabled": "The service stops sending to one of your endpoints (it kept failing)",
};

const LIST = ["webhook-endpoints"] as const;
/**
 * Reads again what a change may have changed: the list, each endpoint (its own key, so a deletion
 * does not read it again) and the deliveries (a retry that succeeds also clears `failingSince`).
 */
const refreshWebhooks = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith("webhook-") });
const endpointPath = (id: string) => `/settings/webhooks/${id}`;

const eventsInWords = (events: Endpoint["events"]) =>
  events.includes("*") ? "All events" : events.join(", ");

/** Enabled, or disabled with the reason; and how long its deliveries have been failing. */
function EndpointState({ endpoint }: { endpoint: Endpoint }) {
  return (
    <>
      <span className={endpoint.enabled ? "text-green-800" : "font-medium text-red-800"}>
        {endpoint.enabled ? "Enabled" : `Disabled: ${endpoint.disabledReason ?? "by the merchant"}`}
      </span>
      {endpoint.failingSince && (
        <span className="block text-amber-900">Failing since {formatDate(endpoint.failingSince)}</span>
      )}
    </>
  );
}

// --- The form shared by "Add endpoint" and "Edit" ---------------------------------------------

interface EndpointForm {
  url: string;
  all: boolean;
  chosen: EventType[];
  description: string;
  enabled: boolean;
}

const blankForm: EndpointForm = { url: "", all: true, chosen: [], description: "", enabled: true };

const formOf = (endpoint: Endpoint): EndpointForm => ({
  url: endpoint.url,
  all: endpoint.events.includes("*"),
  chosen: endpoint.events.filter((event): event is EventType => event !== "*"),
  description: endpoint.description ?? "",
  enabled: endpoint.enabled,
});

/** The events as the API takes them; none chosen is sent as none, so the API's message shows. */
const eventsOf = (form: EndpointForm): Endpoint["events"] => (form.all ? ["*"] : form.chosen);

/** All events, or a checkbox per type with what it means; the API's message about `events` below. */
function EventsChooser({
  form,
  set,
  error,
}: {
  form: EndpointForm;
  set: (change: Partial<EndpointForm>) => void;
  error: Error | null;
}) {
  const name = useId();
  // The page sends only known types, so the API's refusal here is an empty choice: said in words.
  const refused = error instanceof ApiFailure && error.details.some((d) => d.path.startsWith("/body/events"));
  const message = refused ? "Choose at least one event, or all events." : undefined;
  const toggle = (type: EventType, on: boolean) =>
    set({ chosen: on ? [...form.chosen, type] : form.chosen.filter((chosen) => chosen !== type) });
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Which events</legend>
      {(
        [
          [true, "All events, including types added later"],
          [false, "Only the events I choose"],
        ] as const
      ).map(([all, label]) => (
        <label key={label} className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name={name}
            className="size-4"
            checked={form.all === all}
            onChange={() => set({ all })}
          />
          {label}
        </label>
      ))}
      {!form.all && (
        <div className="max-h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
          {(Object.entries(EVENT_TYPES) as [EventType, string][]).map(([type, words]) => (
            <Checkbox
              key={type}
              label={`${words} (${type})`}
              checked={form.chosen.includes(type)}
              onChange={(on) => toggle(type, on)}
            />
          ))}
        </div>
      )}
      {message && <p className="text-sm text-red-700">{message}</p>}
    </fieldset>
  );
}

function EndpointFields({
  form,
  set,
  error,
  editing,
}: {
  form: EndpointForm;
  set: (change: Partial<EndpointForm>) => void;
  error: Error | null;
  editing: boolean;
}) {
  return (
    <>
      <Field
        label="URL"
        required
        type="url"
        value={form.url}
        placeholder="https://example.com/webhooks"
        onChange={(e) => set({ url: e.target.value })}
        hint="The address of your system that receives the messages (https)."
        error={fieldError(error, "url")}
      />
      <EventsChooser form={form} set={set} error={error} />
      <Field
        label="Description"
        value={form.description}
        onChange={(e) => set({ description: e.target.value })}
        hint="A note for you: what this endpoint is for. Optional."
        error={fieldError(error, "description")}
      />
      {editing && (
        <Checkbox
          label="Enabled (send messages to it)"
          checked={form.enabled}
          onChange={(enabled) => set({ enabled })}
        />
      )}
    </>
  );
}

// --- A secret shown once -------------------------------------------------------------------------

/** A signing secret just made: shown this once, with a copy button. */
const SecretOnce = ({ secret, rotated = false }: { secret: string; rotated?: boolean }) => (
  <ShownOnce
    notice={
      <>
        Copy this signing secret now: you will not see it again. Your system uses it to check that each
        message comes from your store.
        {rotated && " The previous secret keeps working for 24 hours, so you have time to switch."}
      </>
    }
  >
    <CopyField label="Signing secret" value={secret} />
  </ShownOnce>
);

// --- The list ------------------------------------------------------------------------------------

function AddEndpoint() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(blankForm);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/admin/webhook-endpoints", {
          body: {
            url: form.url.trim(),
            events: eventsOf(form),
            description: form.description.trim() || undefined,
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LIST }),
  });
  return (
    <CreateRevealDialog
      title="Add endpoint"
      doneTitle="Endpoint added"
      trigger={
        <button type="button" className="btn btn-primary">
          Add endpoint
        </button>
      }
      submit="Add endpoint"
      mutation={create}
      onClosed={() => setForm(blankForm)}
      reveal={(made) => <SecretOnce secret={made.secret} />}
    >
      <EndpointFields
        form={form}
        set={(change) => setForm((current) => ({ ...current, ...change }))}
        error={create.error}
        editing={false}
      />
    </CreateRevealDialog>
  );
}

export function Webhooks() {
  const endpoints = useQuery({
    queryKey: LIST,
    // At most 20 per shop (the API's limit): one page holds them all.
    queryFn: () => unwrap(api.GET("/v1/admin/webhook-endpoints", { params: { query: { limit: 20 } } })),
  });
  return (
    <>
      <SettingsBack />
      <PageHeader title="Webhooks">
        <AddEndpoint />
      </PageHeader>
      <p className="mb-4 max-w-2xl text-sm text-slate-700">
        Your own systems can be told when something happens in your store, such as an order being paid. Each
        message is signed with the endpoint's secret and tried again for about three and a half days until it
        gets through.
      </p>
      {!endpoints.data ? (
        <QueryState query={endpoints} what="webhook endpoints" />
      ) : endpoints.data.length === 0 ? (
        <Empty>No endpoints yet: nothing is sent to your systems.</Empty>
      ) : (
        <DataTable
          columns={["URL", "Events", "State", "Added"]}
          rows={endpoints.data.map((endpoint) => ({
            key: endpoint.id,
            cells: [
              <span key="url">
                <Link
                  to={endpointPath(endpoint.id)}
                  className="break-all font-medium text-indigo-800 underline"
                >
                  {endpoint.url}
                </Link>
                {endpoint.description && <span className="block text-slate-600">{endpoint.description}</span>}
              </span>,
              eventsInWords(endpoint.events),
              <EndpointState key="state" endpoint={endpoint} />,
              formatDate(endpoint.createdAt),
            ],
          }))}
        />
      )}
    </>
  );
}

// --- One endpoint --------------------------------------------------------------------------------

function EditEndpoint({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(() => formOf(endpoint));
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/v1/admin/webhook-endpoints/{id}", {
          params: { path: { id: endpoint.id } },
          body: {
            url: form.url.trim(),
            events: eventsOf(form),
            description: form.description.trim() || null,
            enabled: form.enabled,
          },
        }),
      ),
    onSuccess: () => {
      setOpen(false);
      return refreshWebhooks(queryClient);
    },
  });
  const onOpenChange = (next: boolean) => {
    if (next) {
      save.reset();
      setForm(formOf(endpoint));
    }
    setOpen(next);
  };
  return (
    <FormDialog
      title="Edit endpoint"
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <button type="button" className="btn btn-secondary">
          Edit
        </button>
      }
      onSubmit={() => save.mutate()}
      submit="Save"
      pending={save.isPending}
      error={save.error}
    >
      <EndpointFields
        form={form}
        set={(change) => setForm((current) => ({ ...current, ...change }))}
        error={save.error}
        editing
      />
    </FormDialog>
  );
}

/** "Rotate secret": asks first, then shows the new secret once. */
function RotateSecret({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  return (
    <RevealDialog
      title="Rotate the signing secret?"
      doneTitle="New signing secret"
      trigger={
        <button type="button" className="btn btn-secondary">
          Rotate secret
        </button>
      }
      description="A new secret signs every message from now on; it is shown once. The current secret keeps working for 24 hours, so your system can switch without missing a message."
      confirm="Rotate secret"
      make={() =>
        unwrap(
          api.POST("/v1/admin/webhook-endpoints/{id}/rotate-secret", {
            params: { path: { id: endpoint.id } },
          }),
        )
      }
      onMade={() => refreshWebhooks(queryClient)}
    >
      {(made) => <SecretOnce secret={made.secret} rotated />}
    </RevealDialog>
  );
}

/** What the receiver answered a ping, in words. */
function pingInWords(result: Schemas["WebhookPingResult"]): string {
  const answer = result.statusCode === null ? "gave no answer" : `answered ${result.statusCode}`;
  if (result.succeeded) return `Test sent: your system ${answer} in ${result.durationMs} ms.`;
  return `The test did not get through: your system ${answer}${result.error ? ` (${result.error})` : ""}.`;
}

function SendTest({ endpoint }: { endpoint: Endpoint }) {
  const ping = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/v1/admin/webhook-endpoints/{id}/ping", { params: { path: { id: endpoint.id } } })),
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={ping.isPending}
        onClick={() => ping.mutate()}
      >
        {ping.isPending ? "Sending test…" : "Send test"}
      </button>
      {ping.data && (
        <div className="basis-full">
          {ping.data.succeeded ? (
            <Alert tone="success">{pingInWords(ping.data)}</Alert>
          ) : (
            <Alert>{pingInWords(ping.data)}</Alert>
          )}
        </div>
      )}
      {ping.error && (
        <div className="basis-full">
          <Alert>{ping.error.message}</Alert>
        </div>
      )}
    </>
  );
}

const DELIVERY_STATUS: Record<Delivery["status"], string> = {
  pending: "Waiting to be sent",
  succeeded: "Delivered",
  failed: "Failed, no more attempts",
};

/** A delivery's state in words: a pending one that has been attempted is being retried. */
const deliveryState = (delivery: Delivery) =>
  delivery.status === "pending" && delivery.attempts > 0
    ? "Failed, will retry"
    : DELIVERY_STATUS[delivery.status];

/** The receiver's status on the last attempt, or what went wrong when there was no answer. */
const lastAnswer = (delivery: Delivery) =>
  delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? "—");

const DELIVERY_PAGE = 20;

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: ["webhook-deliveries", endpoint.id, page],
    queryFn: () =>
      unwrapBody(
        api.GET("/v1/admin/webhook-endpoints/{id}/deliveries", {
          params: { path: { id: endpoint.id }, query: { page, limit: DELIVERY_PAGE } },
        }),
      ),
  });
  const retry = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST("/v1/admin/webhook-endpoints/{id}/deliveries/{deliveryId}/retry", {
          params: { path: { id: endpoint.id, deliveryId } },
        }),
      ),
    onSettled: () => refreshWebhooks(queryClient),
  });
  return (
    <section aria-labelledby="deliveries" className="mt-8">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="deliveries" className="text-lg font-semibold">
          Deliveries
        </h2>
        <button type="button" className="btn btn-secondary" onClick={() => refreshWebhooks(queryClient)}>
          Refresh
        </button>
      </div>
      {retry.error && <Alert>{retry.error.message}</Alert>}
      {!deliveries.data ? (
        <QueryState query={deliveries} what="deliveries" />
      ) : deliveries.data.data.length === 0 ? (
        <Empty>No deliveries yet: none of the chosen events has happened since the endpoint was added.</Empty>
      ) : (
        <>
          <DeliveryTable
            deliveries={deliveries.data.data}
            onRetry={(id) => retry.mutate(id)}
            retrying={retry.variables}
          />
          <Pager page={page} pageSize={DELIVERY_PAGE} total={deliveries.data.meta.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function DeliveryTable({
  deliveries,
  onRetry,
  retrying,
}: {
  deliveries: Delivery[];
  onRetry: (id: string) => void;
  retrying: string | undefined;
}) {
  return (
    <DataTable
      columns={["Event", "When", "Attempts", "Last answer", "Next attempt", "Status", "Actions"]}
      right={["Attempts", "Actions"]}
      unseen={["Actions"]}
      rows={deliveries.map((delivery) => ({
        key: delivery.id,
        cells: [
          <span key="event" className="font-mono">
            {delivery.eventType}
          </span>,
          formatDate(delivery.createdAt),
          delivery.attempts,
          lastAnswer(delivery),
          delivery.nextAttemptAt ? formatDate(delivery.nextAttemptAt) : "—",
          deliveryState(delivery),
          delivery.status !== "succeeded" && delivery.attempts > 0 && (
            <button
              key="retry"
              type="button"
              className="btn btn-secondary"
              aria-label={`Retry ${delivery.eventType} from ${formatDate(delivery.createdAt)}`}
              disabled={retrying === delivery.id}
              onClick={() => onRetry(delivery.id)}
            >
              Retry
            </button>
          ),
        ],
      }))}
    />
  );
}

function EndpointFacts({ endpoint }: { endpoint: Endpoint }) {
  const facts: [string, ReactNode][] = [
    [
      "URL",
      <span key="url" className="break-all font-mono">
        {endpoint.url}
      </span>,
    ],
    ["Description", endpoint.description ?? "—"],
    ["Events", eventsInWords(endpoint.events)],
    ["State", <EndpointState key="state" endpoint={endpoint} />],
    ["Added", formatDate(endpoint.createdAt)],
  ];
  if (endpoint.previousSecretExpiresAt)
    facts.push(["Previous secret", `Still works until ${formatDate(endpoint.previousSecretExpiresAt)}`]);
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-600">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function WebhookEndpointPage({ id }: { id: string }) {
  const endpoints = useQuery({
    queryKey: ["webhook-endpoint", id],
    queryFn: () => unwrap(api.GET("/v1/admin/webhook-endpoints/{id}", { params: { path: { id } } })),
  });
  const endpoint = endpoints.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/settings/webhooks" className="text-indigo-800 underline">
          All webhooks
        </Link>
      </p>
      <PageHeader title="Webhook endpoint" />
      {!endpoint ? (
        <QueryState query={endpoints} what="the endpoint" />
      ) : (
        <>
          <div className="card space-y-4">
            <EndpointFacts endpoint={endpoint} />
            <div className="flex flex-wrap items-center gap-2">
              <SendTest endpoint={endpoint} />
              <EditEndpoint endpoint={endpoint} />
              <RotateSecret endpoint={endpoint} />
              <DeleteButton
                name="this endpoint"
                noun="endpoint"
                description="Messages stop at once, and its deliveries are removed with it. This cannot be undone."
                remove={async () => {
                  await unwrapEmpty(
                    api.DELETE("/v1/admin/webhook-endpoints/{id}", { params: { path: { id } } }),
                  );
                  navigate("/settings/webhooks");
                }}
                list={LIST}
              />
            </div>
          </div>
          <Deliveries endpoint={endpoint} />
        </>
      )}
    </>
  );
}
