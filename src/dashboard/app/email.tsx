import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { paths } from "../../../examples/api-types.ts";
import { ApiFailure, api, type Schemas, unwrap } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import { Alert, Field, PageHeader, QueryState, SelectField, useStore } from "./ui.tsx";

// Settings → Email: whether the service sends email at all (readiness warnings), the shop's own
// email settings, and a preview of each email the shop sends (docs/email.md).

type Template = paths["/v1/admin/email-previews/{template}"]["get"]["parameters"]["path"]["template"];

/** Each email in words and who receives it; a `Record`, so a template the API adds fails the type-check here. */
const TEMPLATES: Record<Template, { name: string; to: string }> = {
  order_confirmation: { name: "Order confirmation", to: "the shopper" },
  payment_instructions: { name: "How to pay", to: "the shopper" },
  payment_received: { name: "Payment received", to: "the shopper" },
  order_shipped: { name: "Order shipped", to: "the shopper" },
  order_refunded: { name: "Order refunded", to: "the shopper" },
  order_cancelled: { name: "Order cancelled", to: "the shopper" },
  new_order: { name: "New order", to: "your shop" },
  low_stock: { name: "Low stock", to: "your shop" },
  webhook_failing: { name: "Webhook failing", to: "your shop" },
  password_reset: { name: "Password reset", to: "a dashboard user" },
  member_invite: { name: "Invitation to the store", to: "an invited member" },
};

/** Whether the service can send email: the readiness check warns when the operator set no SMTP server. */
function Sending() {
  const readiness = useQuery({
    queryKey: ["readiness"],
    queryFn: () => unwrap(api.GET("/v1/admin/readiness")),
  });
  if (!readiness.data) return <QueryState query={readiness} what="the email set-up" />;
  const missing = readiness.data.warnings.some((warning) => warning.code === "EMAIL_NOT_CONFIGURED");
  return (
    <section aria-labelledby="sending" className="card max-w-2xl">
      <h2 id="sending" className="text-lg font-semibold">
        {missing ? "Email is not configured" : "Email is configured"}
      </h2>
      {missing ? (
        <div className="mt-2 space-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <p>
            Nothing is sent: shoppers get no order confirmation or payment instructions, and your shop gets no
            notices.
          </p>
          <p>
            Whoever runs this service must set <code>SMTP_URL</code> (the mail server) and{" "}
            <code>MAIL_FROM</code> (the sender address) and restart it. The settings below are kept and used
            from then on.
          </p>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-700">
          The emails below are sent as their events happen, in your store's default language.
        </p>
      )}
    </section>
  );
}

interface EmailDraft {
  emailSenderName: string;
  emailReplyTo: string;
  orderPageUrl: string;
}

const draftOf = (store: Schemas["StoreSettings"]): EmailDraft => ({
  emailSenderName: store.emailSenderName ?? "",
  emailReplyTo: store.emailReplyTo ?? "",
  orderPageUrl: store.orderPageUrl ?? "",
});

/** The API's refusal of the order page URL; the pattern it names (`Expected string to match '^https://…'`) in words. */
const plainUrlMessage = (message: string | undefined) =>
  message?.startsWith("Expected string to match")
    ? "Enter an https:// address with no ? or # part, e.g. https://shop.example/order."
    : message;

/** Sender name, reply-to and order page, saved with PATCH /v1/admin/store; empty is `null` (the default). */
function EmailSettingsForm({ store }: { store: Schemas["StoreSettings"] }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(store));
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/v1/admin/store", {
          body: {
            emailSenderName: draft.emailSenderName.trim() || null,
            emailReplyTo: draft.emailReplyTo.trim() || null,
            orderPageUrl: draft.orderPageUrl.trim() || null,
          },
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(["store"], saved),
  });
  const failure = save.error instanceof ApiFailure ? save.error : undefined;
  const field = (name: keyof EmailDraft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    error:
      name === "orderPageUrl" ? plainUrlMessage(failure?.fieldMessage(name)) : failure?.fieldMessage(name),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form
      aria-labelledby="email-settings"
      className="card max-w-2xl space-y-4"
      onSubmit={onSubmit}
      noValidate
    >
      <h2 id="email-settings" className="text-lg font-semibold">
        Your shop's emails
      </h2>
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      {save.error && !failure?.details.length && <Alert>{save.error.message}</Alert>}
      <Field
        label="Sender name"
        hint={`Shoppers see emails as coming from this name. Empty: "${store.name}".`}
        {...field("emailSenderName")}
      />
      <Field
        label="Reply-to address"
        type="email"
        hint={`Where shoppers' replies go. Empty: the contact email${store.contactEmail ? ` (${store.contactEmail})` : ""}.`}
        {...field("emailReplyTo")}
      />
      <Field
        label="Order page URL"
        type="url"
        placeholder="https://shop.example/order"
        hint="Your storefront's order page (https, no ?…). Emails link to it so shoppers can open their order. Empty: no link."
        {...field("orderPageUrl")}
      />
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

/** The chosen email rendered with sample data: its subject, its plain text and its HTML (sandboxed). */
function Preview({ template, locale }: { template: Template; locale: string }) {
  const ids = useId();
  const preview = useQuery({
    queryKey: ["email-preview", template, locale],
    queryFn: () =>
      unwrap(
        api.GET("/v1/admin/email-previews/{template}", { params: { path: { template }, query: { locale } } }),
      ),
  });
  if (!preview.data) return <QueryState query={preview} what="the preview" />;
  const { subject, text, html } = preview.data;
  const name = TEMPLATES[template].name;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <span className="font-medium text-slate-600">Subject: </span>
        <span>{subject}</span>
      </p>
      <section aria-labelledby={`${ids}-html`}>
        <h3 id={`${ids}-html`} className="mb-1 text-sm font-medium text-slate-600">
          As HTML
        </h3>
        {/* An empty sandbox: no script runs, no link opens, and the email gets an origin of its own. */}
        <iframe
          title={`${name}, HTML`}
          sandbox=""
          srcDoc={html}
          className="h-[28rem] w-full rounded-md border border-slate-200 bg-white"
        />
      </section>
      <section aria-labelledby={`${ids}-text`}>
        <h3 id={`${ids}-text`} className="mb-1 text-sm font-medium text-slate-600">
          As plain text
        </h3>
        <pre className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm">
          {text}
        </pre>
      </section>
    </div>
  );
}

/** Every email as a button: the one pressed is previewed. */
function TemplateList({ chosen, onChoose }: { chosen: Template; onChoose: (template: Template) => void }) {
  return (
    <ul aria-label="Emails" className="space-y-1">
      {(Object.entries(TEMPLATES) as [Template, { name: string; to: string }][]).map(
        ([template, { name, to }]) => (
          <li key={template}>
            <button
              type="button"
              aria-pressed={template === chosen}
              onClick={() => onChoose(template)}
              className={`w-full rounded-md px-3 py-2 text-left text-sm ${template === chosen ? "bg-indigo-50 font-medium text-indigo-900" : "hover:bg-slate-100"}`}
            >
              {name}
              <span className="block text-xs text-slate-600">To {to}</span>
            </button>
          </li>
        ),
      )}
    </ul>
  );
}

function Previews() {
  const store = useStore().data;
  const [template, setTemplate] = useState<Template>("order_confirmation");
  const [locale, setLocale] = useState<string>();
  const languages = new Intl.DisplayNames([store?.defaultLocale ?? "en"], { type: "language" });
  const chosenLocale = locale ?? store?.defaultLocale;
  return (
    <section aria-labelledby="emails" className="card space-y-4">
      <h2 id="emails" className="text-lg font-semibold">
        Emails your shop sends
      </h2>
      <p className="text-sm text-slate-700">Choose one to see it with sample data. Nothing is sent.</p>
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <TemplateList chosen={template} onChoose={setTemplate} />
        <div className="space-y-4">
          <div className="max-w-xs">
            <SelectField
              label="Language"
              value={chosenLocale ?? ""}
              onChange={setLocale}
              options={(store?.locales ?? []).map((code) => [code, languages.of(code) ?? code] as const)}
            />
          </div>
          {chosenLocale && <Preview template={template} locale={chosenLocale} />}
        </div>
      </div>
    </section>
  );
}

export function EmailSettingsPage() {
  const store = useStore();
  return (
    <>
      <SettingsBack />
      <PageHeader title="Email" />
      <div className="space-y-6">
        <Sending />
        {store.data ? (
          <EmailSettingsForm store={store.data} />
        ) : (
          <QueryState query={store} what="the store settings" />
        )}
        <Previews />
      </div>
    </>
  );
}
