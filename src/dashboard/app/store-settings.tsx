import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { ApiFailure, api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { Alert, Checkbox, Field, PageHeader, QueryState, SelectField, useStore } from "./ui.tsx";

// Settings → Store: every field of PATCH /v1/admin/store but the email ones (Settings → Email). VAT rates are typed as percentages
// ("23", "6.5") and sent as the API's basis points (2300, 650).

interface RateRow {
  country: string;
  percent: string;
}

/** "23" or "6,5" as basis points; NaN when it is not a percentage with at most two decimals. */
function toBasisPoints(percent: string): number {
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(percent.trim());
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

const splitLocales = (text: string) =>
  text
    .split(",")
    .map((locale) => locale.trim())
    .filter(Boolean);

/** Whether an order exists: the API refuses a currency change from then on. */
const useHasOrders = () =>
  useQuery({
    queryKey: ["orders", "any"],
    queryFn: async () =>
      (await unwrapBody(api.GET("/v1/admin/orders", { params: { query: { limit: 1 } } }))).data.length > 0,
  });

function TaxRatesFields({
  rows,
  onChange,
  failure,
}: {
  rows: RateRow[];
  onChange: (rows: RateRow[]) => void;
  failure: ApiFailure | undefined;
}) {
  const set = (index: number, change: Partial<RateRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">VAT rates by country</legend>
      {rows.length === 0 && <p className="text-sm text-slate-600">No VAT rates: prices are taxed at 0 %.</p>}
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity until saved
        <div key={index} className="flex items-end gap-2">
          <Field
            label={`Country ${index + 1}`}
            value={row.country}
            maxLength={2}
            placeholder="PT"
            onChange={(e) => set(index, { country: e.target.value.toUpperCase() })}
            error={failure?.fieldMessage(`taxRates/${index}/country`)}
          />
          <Field
            label={`VAT rate ${index + 1} (%)`}
            inputMode="decimal"
            value={row.percent}
            placeholder="23"
            onChange={(e) => set(index, { percent: e.target.value })}
            error={failure?.fieldMessage(`taxRates/${index}/rate`)}
          />
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove VAT rate {index + 1}
          </button>
        </div>
      ))}
      {failure?.fieldMessage("taxRates") && (
        <p className="text-sm text-red-700">{failure.fieldMessage("taxRates")}</p>
      )}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onChange([...rows, { country: "", percent: "" }])}
      >
        Add VAT rate
      </button>
    </fieldset>
  );
}

function OriginsFields({
  origins,
  onChange,
  failure,
}: {
  origins: string[];
  onChange: (origins: string[]) => void;
  failure: ApiFailure | undefined;
}) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Allowed storefront origins</legend>
      <p className="text-xs text-slate-600">
        Websites (scheme://host[:port]) whose pages may call your storefront from a browser.
      </p>
      {origins.map((origin, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity until saved
        <div key={index} className="flex items-end gap-2">
          <Field
            label={`Origin ${index + 1}`}
            value={origin}
            placeholder="https://shop.example"
            onChange={(e) => onChange(origins.map((o, i) => (i === index ? e.target.value : o)))}
            error={failure?.fieldMessage(`allowedOrigins/${index}`)}
          />
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => onChange(origins.filter((_, i) => i !== index))}
          >
            Remove origin {index + 1}
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-secondary" onClick={() => onChange([...origins, ""])}>
        Add origin
      </button>
    </fieldset>
  );
}

type PolicyPage = keyof Schemas["PolicyLinks"];

const POLICY_PAGE_LABELS: Record<PolicyPage, string> = {
  terms: "Terms and conditions page",
  privacy: "Privacy policy page",
  returns: "Returns and refunds page",
  shipping: "Shipping information page",
  faq: "FAQ page",
  contact: "Contact page",
};

/** The API's refusal of a policy page; the pattern it names (`Expected string to match '^https://…'`) in words. */
const plainPolicyMessage = (message: string | undefined) =>
  message?.startsWith("Expected string to match")
    ? "Enter the page's full https:// address, e.g. https://shop.example/terms."
    : message;

function PolicyLinksFields({
  links,
  onChange,
  failure,
}: {
  links: Record<PolicyPage, string>;
  onChange: (links: Record<PolicyPage, string>) => void;
  failure: ApiFailure | undefined;
}) {
  const hint = useId();
  return (
    <fieldset className="space-y-3" aria-describedby={hint}>
      <legend className="text-sm font-medium text-slate-700">Policy pages</legend>
      <p id={hint} className="text-xs text-slate-600">
        AI shopping assistants show these pages of your website to buyers when they check out in your shop.
        Leave a page empty if you do not have it.
      </p>
      {(Object.keys(POLICY_PAGE_LABELS) as PolicyPage[]).map((page) => (
        <Field
          key={page}
          label={POLICY_PAGE_LABELS[page]}
          type="url"
          placeholder={`https://shop.example/${page}`}
          value={links[page]}
          onChange={(e) => onChange({ ...links, [page]: e.target.value })}
          error={plainPolicyMessage(failure?.fieldMessage(`policyLinks/${page}`))}
        />
      ))}
    </fieldset>
  );
}

function CurrencyField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const store = useStore().data;
  const locked = useHasOrders().data === true;
  return (
    <Field
      label="Currency"
      value={value}
      maxLength={3}
      readOnly={locked}
      onChange={(e) => onChange(e.target.value.toUpperCase())}
      hint={
        locked
          ? `Fixed at ${store?.currency}: orders already exist, and their amounts are in this currency.`
          : "ISO 4217 code, e.g. EUR. It cannot change once the first order exists."
      }
      error={error}
    />
  );
}

/** The form's values as typed. */
interface Draft {
  name: string;
  contactEmail: string;
  country: string;
  threshold: string;
  bankTransfer: boolean;
  currency: string;
  locales: string;
  defaultLocale: string;
  pricesIncludeTax: boolean;
  rates: RateRow[];
  origins: string[];
  policyLinks: Record<PolicyPage, string>;
}

const draftOf = (store: Schemas["StoreSettings"]): Draft => ({
  name: store.name,
  contactEmail: store.contactEmail ?? "",
  country: store.country,
  threshold: String(store.lowStockThreshold),
  bankTransfer: store.manualPaymentMethods.includes("bank_transfer"),
  currency: store.currency,
  locales: store.locales.join(", "),
  defaultLocale: store.defaultLocale,
  pricesIncludeTax: store.pricesIncludeTax,
  rates: store.taxRates.map((r) => ({ country: r.country, percent: String(r.rate / 100) })),
  origins: store.allowedOrigins,
  policyLinks: Object.fromEntries(
    Object.entries(store.policyLinks).map(([page, url]) => [page, url ?? ""]),
  ) as Record<PolicyPage, string>,
});

function saveStore(store: Schemas["StoreSettings"], draft: Draft) {
  const others = store.manualPaymentMethods.filter(
    (method) => method !== "bank_transfer",
  ) as "cash_on_delivery"[];
  return unwrap(
    api.PATCH("/v1/admin/store", {
      body: {
        name: draft.name,
        contactEmail: draft.contactEmail.trim() || null,
        country: draft.country,
        lowStockThreshold: Number(draft.threshold),
        manualPaymentMethods: draft.bankTransfer ? ["bank_transfer", ...others] : others,
        currency: draft.currency,
        locales: splitLocales(draft.locales),
        defaultLocale: draft.defaultLocale,
        pricesIncludeTax: draft.pricesIncludeTax,
        // A rate that is not a percentage goes as NaN (JSON null): the API names the field.
        taxRates: draft.rates.map((row) => ({ country: row.country, rate: toBasisPoints(row.percent) })),
        allowedOrigins: draft.origins.map((origin) => origin.trim()),
        // An emptied page is removed (null).
        policyLinks: Object.fromEntries(
          Object.entries(draft.policyLinks).map(([page, url]) => [page, url.trim() || null]),
        ),
      },
    }),
  );
}

/** The store's name, contact email, country and low-stock threshold. */
function ContactFields({
  draft,
  set,
  failure,
}: {
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  failure: ApiFailure | undefined;
}) {
  return (
    <>
      <Field
        label="Name"
        required
        value={draft.name}
        onChange={(e) => set({ name: e.target.value })}
        error={failure?.fieldMessage("name")}
      />
      <Field
        label="Contact email"
        type="email"
        value={draft.contactEmail}
        onChange={(e) => set({ contactEmail: e.target.value })}
        hint="Where shoppers can write to the store. Leave empty for none."
        error={failure?.fieldMessage("contactEmail")}
      />
      <Field
        label="Store country"
        value={draft.country}
        maxLength={2}
        placeholder="PT"
        onChange={(e) => set({ country: e.target.value.toUpperCase() })}
        hint="Two-letter code (ISO 3166-1), e.g. PT. Shipping to this country is needed before the first order."
        error={failure?.fieldMessage("country")}
      />
      <Field
        label="Low-stock threshold"
        type="number"
        min={0}
        required
        value={draft.threshold}
        onChange={(e) => set({ threshold: e.target.value })}
        hint="A variant with this many units or fewer counts as low on stock."
        error={failure?.fieldMessage("lowStockThreshold")}
      />
    </>
  );
}

function StoreForm({ store }: { store: Schemas["StoreSettings"] }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(store));
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const save = useMutation({
    mutationFn: () => saveStore(store, draft),
    onSuccess: (saved) => {
      queryClient.setQueryData(["store"], saved);
      return queryClient.invalidateQueries({ queryKey: ["readiness"] });
    },
  });
  const failure = save.error instanceof ApiFailure ? save.error : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const localeOptions = [...new Set([draft.defaultLocale, ...splitLocales(draft.locales)])].map(
    (l) => [l, l] as const,
  );
  return (
    <form className="card max-w-xl space-y-4" onSubmit={onSubmit} noValidate>
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      {save.error && !failure?.details.length && <Alert>{save.error.message}</Alert>}
      <ContactFields draft={draft} set={set} failure={failure} />
      <Checkbox
        label="Accept bank transfers (marked as paid by hand)"
        checked={draft.bankTransfer}
        onChange={(bankTransfer) => set({ bankTransfer })}
      />
      <CurrencyField
        value={draft.currency}
        onChange={(currency) => set({ currency })}
        error={failure?.fieldMessage("currency")}
      />
      <Field
        label="Languages"
        value={draft.locales}
        onChange={(e) => set({ locales: e.target.value })}
        hint="Comma-separated, e.g. pt, en. The default language is always included."
        error={
          failure?.fieldMessage("locales") ??
          failure?.details.find((d) => d.path.startsWith("/body/locales/"))?.message
        }
      />
      <SelectField
        label="Default language"
        value={draft.defaultLocale}
        onChange={(defaultLocale) => set({ defaultLocale })}
        options={localeOptions}
        error={failure?.fieldMessage("defaultLocale")}
      />
      <Checkbox
        label="Prices include VAT"
        checked={draft.pricesIncludeTax}
        onChange={(pricesIncludeTax) => set({ pricesIncludeTax })}
      />
      <TaxRatesFields rows={draft.rates} onChange={(rates) => set({ rates })} failure={failure} />
      <OriginsFields origins={draft.origins} onChange={(origins) => set({ origins })} failure={failure} />
      <PolicyLinksFields
        links={draft.policyLinks}
        onChange={(policyLinks) => set({ policyLinks })}
        failure={failure}
      />
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

export function StoreSettingsPage() {
  const store = useStore();
  return (
    <>
      <PageHeader title="Store settings" />
      {store.data ? <StoreForm store={store.data} /> : <QueryState query={store} what="the store settings" />}
    </>
  );
}
