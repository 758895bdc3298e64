import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { paths } from "../../../examples/api-types.ts";
import { api, type Schemas, unwrap, unwrapBody, unwrapEmpty } from "./api.ts";
import {
  Checkbox,
  type Checked,
  DataTable,
  DeleteButton,
  EditDialog,
  Empty,
  Field,
  fieldError,
  formatDate,
  PageHeader,
  Pager,
  QueryState,
  SelectField,
  toDecimal,
  toMinorUnits,
  useCheckedForm,
  useEditDialog,
  useMoney,
  useStore,
} from "./ui.tsx";

// Coupons: `GET/POST /v1/admin/coupons`, `PATCH/DELETE …/{id}`. A percentage is a whole number, a
// fixed amount and the minimum subtotal are typed as decimals and sent as minor units; dates are the
// browser's local time, sent as ISO instants.

type Coupon = Schemas["Coupon"];
type CouponType = Coupon["type"];
const PAGE_SIZE = 25;
const TYPES = [
  ["percentage", "Percentage off"],
  ["fixed", "Fixed amount off"],
  ["free_shipping", "Free shipping"],
] as const;

interface Form {
  code: string;
  type: CouponType;
  value: string;
  minSubtotal: string;
  usageLimit: string;
  startsAt: string;
  endsAt: string;
  active: boolean;
}

/** What create takes; update takes the same fields. */
type CouponBody = paths["/v1/admin/coupons"]["post"]["requestBody"]["content"]["application/json"];

/** An instant as a `datetime-local` value in the browser's time zone, and back. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (text: string) => (text ? new Date(text).toISOString() : null);

const formOf = (coupon: Coupon | undefined, currency: string): Form => ({
  code: coupon?.code ?? "",
  type: coupon?.type ?? "percentage",
  value:
    !coupon || coupon.type === "free_shipping"
      ? ""
      : coupon.type === "fixed"
        ? toDecimal(coupon.value, currency)
        : String(coupon.value),
  minSubtotal: coupon?.minSubtotal ? toDecimal(coupon.minSubtotal.amount, currency) : "",
  usageLimit: coupon?.usageLimit?.toString() ?? "",
  startsAt: toLocalInput(coupon?.startsAt ?? null),
  endsAt: toLocalInput(coupon?.endsAt ?? null),
  active: coupon?.active ?? true,
});

/** The form as the API's body, or the messages of the amounts that are not amounts. */
function bodyOf(form: Form, currency: string): Checked<CouponBody> {
  const value =
    form.type === "free_shipping"
      ? 0
      : form.type === "fixed"
        ? toMinorUnits(form.value, currency)
        : form.value.trim() === ""
          ? undefined
          : Number(form.value);
  const minSubtotal = form.minSubtotal.trim() === "" ? null : toMinorUnits(form.minSubtotal, currency);
  const invalid: Record<string, string> = {
    ...(form.type === "fixed" && value === undefined && { value: "Enter an amount such as 5.00" }),
    ...(minSubtotal === undefined && { minSubtotal: "Enter an amount such as 30.00, or leave it empty" }),
  };
  if (Object.keys(invalid).length > 0 || minSubtotal === undefined) return { invalid };
  return {
    body: {
      code: form.code,
      type: form.type,
      ...(value !== undefined && { value }),
      minSubtotal,
      usageLimit: form.usageLimit.trim() === "" ? null : Number(form.usageLimit),
      startsAt: fromLocalInput(form.startsAt),
      endsAt: fromLocalInput(form.endsAt),
      active: form.active,
    },
  };
}

export function Coupons() {
  const [page, setPage] = useState(1);
  const coupons = useQuery({
    queryKey: ["coupons", page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/coupons", { params: { query: { page, limit: PAGE_SIZE } } })),
  });
  return (
    <>
      <PageHeader title="Coupons">
        <CouponDialog />
      </PageHeader>
      {!coupons.data ? (
        <QueryState query={coupons} what="coupons" />
      ) : coupons.data.data.length === 0 ? (
        <Empty>
          No coupons yet. A coupon gives a discount or free shipping to the carts that enter its code.
        </Empty>
      ) : (
        <CouponTable coupons={coupons.data.data} />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={coupons.data?.meta.total ?? 0} onPage={setPage} />
    </>
  );
}

function CouponTable({ coupons }: { coupons: Coupon[] }) {
  const money = useMoney();
  const discount = (coupon: Coupon) =>
    coupon.type === "percentage"
      ? `${coupon.value} %`
      : coupon.type === "fixed"
        ? money(coupon.value)
        : "Free shipping";
  const validity = (coupon: Coupon) =>
    coupon.startsAt || coupon.endsAt
      ? `${coupon.startsAt ? formatDate(coupon.startsAt) : "Now"} – ${coupon.endsAt ? formatDate(coupon.endsAt) : "no end"}`
      : "Always";
  return (
    <DataTable
      columns={["Code", "Discount", "Minimum subtotal", "Used", "Valid", "Active", "Actions"]}
      rows={coupons.map((coupon) => ({
        key: coupon.id,
        cells: [
          <span key="code" className="font-mono font-medium">
            {coupon.code}
          </span>,
          discount(coupon),
          coupon.minSubtotal ? money(coupon.minSubtotal.amount, coupon.minSubtotal.currency) : "—",
          coupon.usageLimit === null ? coupon.usageCount : `${coupon.usageCount} of ${coupon.usageLimit}`,
          validity(coupon),
          coupon.active ? "Yes" : "No",
          <div key="actions" className="flex gap-2">
            <CouponDialog coupon={coupon} />
            <DeleteButton
              name={coupon.code}
              noun="coupon"
              description="Carts holding its code lose the discount; placed orders keep theirs."
              remove={() =>
                unwrapEmpty(api.DELETE("/v1/admin/coupons/{id}", { params: { path: { id: coupon.id } } }))
              }
              list={["coupons"]}
            />
          </div>,
        ],
      }))}
    />
  );
}

/** Create a coupon (no `coupon`) or edit one. */
function CouponDialog({ coupon }: { coupon?: Coupon }) {
  const currency = useStore().data?.currency ?? "EUR";
  const { mutation: save, dialog } = useEditDialog(
    (body: CouponBody) =>
      coupon
        ? unwrap(api.PATCH("/v1/admin/coupons/{id}", { params: { path: { id: coupon.id } }, body }))
        : unwrap(api.POST("/v1/admin/coupons", { body })),
    ["coupons"],
  );
  const { form, setForm, invalid, onOpen, onSubmit } = useCheckedForm(
    () => formOf(coupon, currency),
    (checked: Form) => bodyOf(checked, currency),
    save.mutate,
  );
  return (
    <EditDialog noun="coupon" editing={coupon?.code} onOpen={onOpen} onSubmit={onSubmit} {...dialog}>
      <CouponFields
        form={form}
        onChange={setForm}
        error={(field) => invalid[field] ?? fieldError(save.error, field)}
      />
    </EditDialog>
  );
}

interface FieldsProps {
  form: Form;
  onChange: (form: Form) => void;
  /** The message about a field: the page's own (an amount that is not one), else the API's. */
  error: (field: string) => string | undefined;
}

function CouponFields({ form, onChange, error }: FieldsProps) {
  const set = (patch: Partial<Form>) => onChange({ ...form, ...patch });
  return (
    <>
      <Field
        label="Code"
        required
        value={form.code}
        onChange={(e) => set({ code: e.target.value })}
        error={error("code")}
      />
      <SelectField
        label="Type"
        value={form.type}
        onChange={(type) =>
          set({ type: TYPES.find(([value]) => value === type)?.[0] ?? "percentage", value: "" })
        }
        options={TYPES}
        error={error("type")}
      />
      {form.type !== "free_shipping" && (
        <Field
          label={form.type === "percentage" ? "Percent off" : "Amount off"}
          inputMode={form.type === "percentage" ? "numeric" : "decimal"}
          hint={form.type === "percentage" ? "A whole number from 1 to 100." : undefined}
          required
          value={form.value}
          onChange={(e) => set({ value: e.target.value })}
          error={error("value")}
        />
      )}
      <Field
        label="Minimum subtotal"
        inputMode="decimal"
        hint="Empty: any subtotal."
        value={form.minSubtotal}
        onChange={(e) => set({ minSubtotal: e.target.value })}
        error={error("minSubtotal")}
      />
      <Field
        label="Usage limit"
        type="number"
        min={1}
        hint="How many orders may use it. Empty: no limit."
        value={form.usageLimit}
        onChange={(e) => set({ usageLimit: e.target.value })}
        error={error("usageLimit")}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Starts"
          type="datetime-local"
          value={form.startsAt}
          onChange={(e) => set({ startsAt: e.target.value })}
          error={error("startsAt")}
        />
        <Field
          label="Ends"
          type="datetime-local"
          value={form.endsAt}
          onChange={(e) => set({ endsAt: e.target.value })}
          error={error("endsAt")}
        />
      </div>
      <Checkbox label="Active" checked={form.active} onChange={(active) => set({ active })} />
    </>
  );
}
