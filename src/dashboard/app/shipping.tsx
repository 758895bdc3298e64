import { useQuery } from "@tanstack/react-query";
import type { paths } from "../../../examples/api-types.ts";
import { api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import {
  Checkbox,
  type Checked,
  DataTable,
  DeleteButton,
  EditDialog,
  Empty,
  Field,
  fieldError,
  filledLocales,
  LocalizedFields,
  PageHeader,
  QueryState,
  toDecimal,
  toMinorUnits,
  useCheckedForm,
  useEditDialog,
  useLocalized,
  useMoney,
  useStore,
} from "./ui.tsx";

// Shipping methods: `GET/POST /v1/admin/shipping-methods`, `PATCH/DELETE …/{id}`. Prices are typed
// as decimals and sent as minor units of the store's currency; countries are typed as ISO codes
// (the page names them from `GET /v1/countries`), none meaning every country.

type Method = Schemas["ShippingMethod"];

interface Form {
  name: Record<string, string>;
  price: string;
  freeOver: string;
  countries: string;
  minDays: string;
  maxDays: string;
  active: boolean;
}

const formOf = (method: Method | undefined, currency: string): Form => ({
  name: method?.name ?? {},
  price: method ? toDecimal(method.price.amount, currency) : "",
  freeOver: method?.freeOver ? toDecimal(method.freeOver.amount, currency) : "",
  countries: method?.countries.join(", ") ?? "",
  minDays: method?.minDays?.toString() ?? "",
  maxDays: method?.maxDays?.toString() ?? "",
  active: method?.active ?? true,
});

/** What create takes; update takes the same fields. */
type ShippingBody = paths["/v1/admin/shipping-methods"]["post"]["requestBody"]["content"]["application/json"];

const codesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((code) => code.toUpperCase())
    .filter(Boolean);
const daysOf = (text: string) => (text.trim() === "" ? null : Number(text));

/** The form as the API's body; amounts are checked here first, so "abc" never leaves the page. */
function bodyOf(form: Form, currency: string): Checked<ShippingBody> {
  const price = toMinorUnits(form.price, currency);
  const freeOver = form.freeOver.trim() === "" ? null : toMinorUnits(form.freeOver, currency);
  if (price === undefined || freeOver === undefined)
    return {
      invalid: {
        ...(price === undefined && { price: "Enter an amount such as 4.90" }),
        ...(freeOver === undefined && { freeOver: "Enter an amount such as 50.00, or leave it empty" }),
      },
    };
  return {
    body: {
      name: filledLocales(form.name),
      price,
      freeOver,
      countries: codesOf(form.countries),
      minDays: daysOf(form.minDays),
      maxDays: daysOf(form.maxDays),
      active: form.active,
    },
  };
}

const useCountries = () =>
  useQuery({
    queryKey: ["countries"],
    queryFn: () => unwrap(api.GET("/v1/countries")),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function Shipping() {
  const methods = useQuery({
    queryKey: ["shipping-methods"],
    queryFn: () => unwrap(api.GET("/v1/admin/shipping-methods")),
  });
  return (
    <>
      <PageHeader title="Shipping">
        <MethodDialog />
      </PageHeader>
      {!methods.data ? (
        <QueryState query={methods} what="shipping methods" />
      ) : methods.data.length === 0 ? (
        <Empty>
          No shipping methods yet. Customers cannot check out a physical product until one serves their
          country.
        </Empty>
      ) : (
        <MethodTable methods={methods.data} />
      )}
    </>
  );
}

function MethodTable({ methods }: { methods: Method[] }) {
  const money = useMoney();
  const localized = useLocalized();
  const countries = useCountries().data;
  const countryNames = (codes: string[]) =>
    codes.length === 0
      ? "Every country"
      : codes.map((code) => countries?.find((country) => country.code === code)?.name ?? code).join(", ");
  const days = (method: Method) =>
    method.minDays === null && method.maxDays === null
      ? "—"
      : `${method.minDays ?? 0}–${method.maxDays ?? method.minDays} days`;
  return (
    <DataTable
      columns={["Name", "Price", "Free over", "Countries", "Delivery", "Active", "Actions"]}
      rows={methods.map((method) => ({
        key: method.id,
        cells: [
          <span key="name" className="font-medium">
            {localized(method.name)}
          </span>,
          money(method.price.amount, method.price.currency),
          method.freeOver ? money(method.freeOver.amount, method.freeOver.currency) : "—",
          countryNames(method.countries),
          days(method),
          method.active ? "Yes" : "No",
          <div key="actions" className="flex gap-2">
            <MethodDialog method={method} />
            <DeleteButton
              name={localized(method.name)}
              noun="shipping method"
              description="Carts that chose it must choose again; placed orders keep their copy."
              remove={() =>
                unwrapEmpty(
                  api.DELETE("/v1/admin/shipping-methods/{id}", {
                    params: { path: { id: method.id } },
                  }),
                )
              }
              list={["shipping-methods"]}
            />
          </div>,
        ],
      }))}
    />
  );
}

/** Create a method (no `method`) or edit one. */
function MethodDialog({ method }: { method?: Method }) {
  const currency = useStore().data?.currency ?? "EUR";
  const localized = useLocalized();
  const { mutation: save, dialog } = useEditDialog(
    (body: ShippingBody) =>
      method
        ? unwrap(api.PATCH("/v1/admin/shipping-methods/{id}", { params: { path: { id: method.id } }, body }))
        : unwrap(api.POST("/v1/admin/shipping-methods", { body })),
    ["shipping-methods"],
  );
  const { form, setForm, invalid, onOpen, onSubmit } = useCheckedForm(
    () => formOf(method, currency),
    (checked: Form) => bodyOf(checked, currency),
    save.mutate,
  );
  return (
    <EditDialog
      noun="shipping method"
      editing={method && localized(method.name)}
      onOpen={onOpen}
      onSubmit={onSubmit}
      {...dialog}
    >
      <MethodFields form={form} onChange={setForm} invalid={invalid} error={save.error} />
    </EditDialog>
  );
}

interface FieldsProps {
  form: Form;
  onChange: (form: Form) => void;
  /** The page's own messages (amounts that are not amounts), then the API's. */
  invalid: Record<string, string>;
  error: Error | null;
}

function MethodFields({ form, onChange, invalid, error }: FieldsProps) {
  const countries = useCountries().data;
  const set = (patch: Partial<Form>) => onChange({ ...form, ...patch });
  const codes = codesOf(form.countries);
  const named = codes.map(
    (code) => countries?.find((country) => country.code === code)?.name ?? `${code} (unknown)`,
  );
  return (
    <>
      <LocalizedFields
        label="Name"
        field="name"
        value={form.name}
        onChange={(name) => set({ name })}
        error={error}
      />
      <Field
        label="Price"
        inputMode="decimal"
        required
        value={form.price}
        onChange={(e) => set({ price: e.target.value })}
        error={invalid.price ?? fieldError(error, "price")}
      />
      <Field
        label="Free over"
        inputMode="decimal"
        hint="Shipping is free once the subtotal after discounts reaches this amount. Empty: never free."
        value={form.freeOver}
        onChange={(e) => set({ freeOver: e.target.value })}
        error={invalid.freeOver ?? fieldError(error, "freeOver")}
      />
      <Field
        label="Countries"
        hint={`Country codes separated by commas (PT, ES). ${codes.length ? named.join(", ") : "Empty: every country."}`}
        value={form.countries}
        onChange={(e) => set({ countries: e.target.value })}
        error={fieldError(error, "countries")}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Minimum days"
          type="number"
          min={0}
          max={365}
          value={form.minDays}
          onChange={(e) => set({ minDays: e.target.value })}
          error={fieldError(error, "minDays")}
        />
        <Field
          label="Maximum days"
          type="number"
          min={0}
          max={365}
          value={form.maxDays}
          onChange={(e) => set({ maxDays: e.target.value })}
          error={fieldError(error, "maxDays")}
        />
      </div>
      <Checkbox label="Active" checked={form.active} onChange={(active) => set({ active })} />
    </>
  );
}
