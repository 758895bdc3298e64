import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { Link, navigate, useLocation } from "./router.tsx";
import {
  Alert,
  BackLink,
  Confirm,
  DataTable,
  Empty,
  Field,
  FormDialog,
  fieldError,
  formatDate,
  PageHeader,
  Pager,
  QueryState,
  SearchForm,
  SelectField,
  toMinorUnits,
  useMoney,
} from "./ui.tsx";

type Order = Schemas["Order"];
const PAGE_SIZE = 20;
const STATUSES = ["open", "completed", "cancelled"] as const;
type Status = (typeof STATUSES)[number];

const PAYMENT_STATUSES = [
  "pending",
  "processing",
  "paid",
  "partially_refunded",
  "refunded",
  "failed",
  "expired",
] as const;
const FULFILLMENT_STATUSES = ["unfulfilled", "fulfilled"] as const;

export const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replaceAll("_", " ");

const oneOf = <T extends string>(values: readonly T[], value: string | null) =>
  values.find((v) => v === value);

/** The list's filters, kept in the address (`/orders?paymentStatus=paid&query=ana`) so a filtered list can be linked to. */
interface Filters {
  status?: Status | undefined;
  paymentStatus?: (typeof PAYMENT_STATUSES)[number] | undefined;
  fulfillmentStatus?: (typeof FULFILLMENT_STATUSES)[number] | undefined;
  query?: string | undefined;
  /** Days (YYYY-MM-DD) in the person's time zone, both included. */
  from?: string | undefined;
  to?: string | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | null) => (value && DAY.test(value) ? value : undefined);

function filtersOf(search: URLSearchParams): Filters {
  return {
    status: oneOf(STATUSES, search.get("status")),
    paymentStatus: oneOf(PAYMENT_STATUSES, search.get("paymentStatus")),
    fulfillmentStatus: oneOf(FULFILLMENT_STATUSES, search.get("fulfillmentStatus")),
    query: search.get("query")?.trim() || undefined,
    from: day(search.get("from")),
    to: day(search.get("to")),
  };
}

/** The address of the orders list with these filters (Home and the customer page link to it). */
export function ordersPath(filters: Filters, page = 1): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (page > 1) query.set("page", String(page));
  return `/orders${query.size ? `?${query}` : ""}`;
}

/** The API's `from` (inclusive) and `to` (exclusive) instants: local midnight of the first day and of the day after the last. */
function placedRange({ from, to }: Filters) {
  const midnight = (date: string, days = 0) => {
    const at = new Date(`${date}T00:00:00`);
    at.setDate(at.getDate() + days);
    return at.toISOString();
  };
  return { from: from && midnight(from), to: to && midnight(to, 1) };
}

/** A filter's choices: "All" (no filter) and each value. */
const choices = (values: readonly string[]) => [
  ["", "All"] as const,
  ...values.map((v) => [v, label(v)] as const),
];

function OrderFilters({ filters, go }: { filters: Filters; go: (next: Partial<Filters>) => void }) {
  return (
    <div className="card mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <SearchForm
        query={filters.query}
        placeholder="Number, email or name"
        onSearch={(query) => go({ query })}
        className="lg:col-span-2"
      />
      <SelectField
        label="Status"
        options={choices(STATUSES)}
        value={filters.status ?? ""}
        onChange={(value) => go({ status: oneOf(STATUSES, value) })}
      />
      <SelectField
        label="Payment"
        options={choices(PAYMENT_STATUSES)}
        value={filters.paymentStatus ?? ""}
        onChange={(value) => go({ paymentStatus: oneOf(PAYMENT_STATUSES, value) })}
      />
      <SelectField
        label="Fulfilment"
        options={choices(FULFILLMENT_STATUSES)}
        value={filters.fulfillmentStatus ?? ""}
        onChange={(value) => go({ fulfillmentStatus: oneOf(FULFILLMENT_STATUSES, value) })}
      />
      <Field
        label="Placed from"
        type="date"
        value={filters.from ?? ""}
        onChange={(e) => go({ from: day(e.target.value) })}
      />
      <Field
        label="Placed to"
        type="date"
        value={filters.to ?? ""}
        onChange={(e) => go({ to: day(e.target.value) })}
      />
    </div>
  );
}

export function Orders() {
  const { search } = useLocation();
  const filters = filtersOf(search);
  const page = Math.max(1, Number(search.get("page")) || 1);
  const orders = useQuery({
    queryKey: ["orders", filters, page],
    queryFn: () =>
      unwrapBody(
        api.GET("/v1/admin/orders", {
          params: { query: { ...filters, ...placedRange(filters), page, limit: PAGE_SIZE } },
        }),
      ),
  });
  const go = (next: Partial<Filters>, nextPage = 1) =>
    navigate(ordersPath({ ...filters, ...next }, nextPage));
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader title="Orders" />
      {/* Keyed by the search so that following a link to another search shows it in the field. */}
      <OrderFilters key={filters.query ?? ""} filters={filters} go={go} />
      {!orders.data ? (
        <QueryState query={orders} what="orders" />
      ) : orders.data.data.length === 0 ? (
        <Empty>
          {filtered
            ? "No orders match these filters."
            : "No orders yet. Orders placed in your store appear here."}
        </Empty>
      ) : (
        <OrderTable orders={orders.data.data} />
      )}
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={orders.data?.meta.total ?? 0}
        onPage={(next) => go({}, next)}
      />
    </>
  );
}

function OrderTable({ orders }: { orders: Schemas["OrderSummary"][] }) {
  const money = useMoney();
  return (
    <DataTable
      columns={["Order", "Placed", "Customer", "Status", "Payment", "Fulfilment", "Total"]}
      right={["Total"]}
      rows={orders.map((order) => ({
        key: order.id,
        cells: [
          <OrderLink key="link" id={order.id} number={order.number} />,
          formatDate(order.placedAt),
          order.email,
          label(order.status),
          label(order.paymentStatus),
          label(order.fulfillmentStatus),
          money(order.totals.total.amount, order.totals.total.currency),
        ],
      }))}
    />
  );
}

export const OrderLink = ({ id, number }: { id: string; number: number }) => (
  <Link to={`/orders/${id}`} className="font-medium text-indigo-800 underline">
    #{number}
  </Link>
);

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section className="card">
    <h2 className="mb-3 text-lg font-semibold">{title}</h2>
    {children}
  </section>
);

function AddressBlock({ title, address }: { title: string; address: Schemas["Address"] | null }) {
  return (
    <Section title={title}>
      {address ? (
        <address className="text-sm not-italic leading-6">
          {address.firstName} {address.lastName}
          {address.company && (
            <>
              <br />
              {address.company}
            </>
          )}
          <br />
          {address.line1}
          {address.line2 && (
            <>
              <br />
              {address.line2}
            </>
          )}
          <br />
          {[address.postalCode, address.city].filter(Boolean).join(" ")}
          <br />
          {address.country}
        </address>
      ) : (
        <p className="text-sm text-slate-600">None</p>
      )}
    </Section>
  );
}

/** The order's actions, each offered only where the order's state allows it. */
function OrderActions({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const id = order.id;
  const after = () => queryClient.invalidateQueries();
  const markPaid = useMutation({
    mutationFn: () => unwrap(api.POST("/v1/admin/orders/{id}/mark-paid", { params: { path: { id } } })),
    onSuccess: after,
  });
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST("/v1/admin/orders/{id}/cancel", { params: { path: { id } } })),
    onSuccess: after,
  });
  const open = order.status === "open";
  const refundable = order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded";
  const error = markPaid.error ?? cancel.error;
  return (
    <div className="space-y-3">
      {error && <Alert>{error.message}</Alert>}
      <div className="flex flex-wrap gap-2">
        {open && order.paymentStatus === "pending" && order.paymentMethod?.provider === "manual" && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={markPaid.isPending}
            onClick={() => markPaid.mutate()}
          >
            Mark as paid
          </button>
        )}
        {order.status !== "cancelled" && order.fulfillmentStatus === "unfulfilled" && (
          <FulfilDialog order={order} />
        )}
        {refundable && <RefundDialog order={order} />}
        {open && order.fulfillmentStatus === "unfulfilled" && (
          <Confirm
            title={`Cancel order #${order.number}?`}
            description="The order is cancelled and its stock is given back. This cannot be undone."
            confirm="Cancel order"
            onConfirm={() => cancel.mutate()}
            trigger={
              <button type="button" className="btn btn-secondary">
                Cancel order
              </button>
            }
          />
        )}
      </div>
    </div>
  );
}

function FulfilDialog({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [carrier, setCarrier] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const fulfil = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/admin/orders/{id}/fulfill", {
          params: { path: { id: order.id } },
          body: { ...(carrier && { carrier }), ...(trackingNumber && { trackingNumber }) },
        }),
      ),
    onSuccess: () => {
      setOpen(false);
      return queryClient.invalidateQueries();
    },
  });
  return (
    <FormDialog
      title={`Fulfil order #${order.number}`}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-primary">
          Fulfil
        </button>
      }
      onSubmit={() => fulfil.mutate()}
      submit="Fulfil"
      pending={fulfil.isPending}
      error={fulfil.error}
    >
      <Field
        label="Carrier"
        value={carrier}
        onChange={(e) => setCarrier(e.target.value)}
        error={fieldError(fulfil.error, "carrier")}
      />
      <Field
        label="Tracking number"
        value={trackingNumber}
        onChange={(e) => setTrackingNumber(e.target.value)}
        error={fieldError(fulfil.error, "trackingNumber")}
      />
    </FormDialog>
  );
}

function RefundDialog({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const money = useMoney();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [invalid, setInvalid] = useState<string>();
  const left = order.totals.total.amount - order.totals.refunded.amount;
  const refund = useMutation({
    mutationFn: (minor: number) =>
      unwrap(
        api.POST("/v1/admin/orders/{id}/refund", {
          params: { path: { id: order.id } },
          body: { amount: minor, ...(reason && { reason }) },
        }),
      ),
    onSuccess: () => {
      setOpen(false);
      return queryClient.invalidateQueries();
    },
  });
  // Checked here first: the API takes minor units, so "abc" or "1.234" never leaves the page.
  const onSubmit = () => {
    const minor = toMinorUnits(amount, order.currency);
    setInvalid(minor === undefined ? "Enter an amount such as 49.00" : undefined);
    if (minor !== undefined) refund.mutate(minor);
  };
  return (
    <FormDialog
      title={`Refund order #${order.number}`}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-secondary">
          Refund
        </button>
      }
      onSubmit={onSubmit}
      submit="Refund"
      pending={refund.isPending}
      error={refund.error}
    >
      <Field
        label="Amount"
        inputMode="decimal"
        required
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        hint={`Up to ${money(left, order.currency)}`}
        error={invalid ?? fieldError(refund.error, "amount")}
      />
      <Field
        label="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={fieldError(refund.error, "reason")}
      />
    </FormDialog>
  );
}

function Lines({ order }: { order: Order }) {
  const money = useMoney();
  const name = (text: Schemas["LocalizedText"]) => Object.values(text)[0] ?? "";
  const totals: [string, Schemas["Money"]][] = [
    ["Subtotal", order.totals.subtotal],
    ["Discount", order.totals.discount],
    ["Shipping", order.totals.shipping],
    ["Tax", order.totals.tax],
    ["Total", order.totals.total],
    ["Refunded", order.totals.refunded],
  ];
  return (
    <Section title="Items">
      <table className="w-full text-left text-sm">
        <thead className="text-xs uppercase text-slate-600">
          <tr>
            <th scope="col" className="py-2">
              Product
            </th>
            <th scope="col" className="py-2">
              SKU
            </th>
            <th scope="col" className="py-2 text-right">
              Quantity
            </th>
            <th scope="col" className="py-2 text-right">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.variantId} className="border-t border-slate-100">
              <td className="py-2">
                {name(item.productName)} <span className="text-slate-600">{item.variantTitle}</span>
              </td>
              <td className="py-2">{item.sku ?? "—"}</td>
              <td className="py-2 text-right">{item.quantity}</td>
              <td className="py-2 text-right">{money(item.total.amount, item.total.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="mt-4 ml-auto max-w-xs space-y-1 text-sm">
        {totals.map(([title, value]) => (
          <div key={title} className="flex justify-between">
            <dt>{title}</dt>
            <dd>{money(value.amount, value.currency)}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

/** Every payment attempt of the order (a retry adds one) and every refund, as the order view lists them. */
function Payments({ order }: { order: Order }) {
  const money = useMoney();
  return (
    <Section title="Payments and refunds">
      <h3 className="mb-2 text-sm font-semibold">Payment attempts</h3>
      {order.payments.length === 0 ? (
        <p className="mb-4 text-sm text-slate-600">
          None: the order is paid by hand (mark it as paid) or not yet.
        </p>
      ) : (
        <div className="mb-4">
          <DataTable
            columns={["Provider", "Method", "Status", "Expires", "Amount"]}
            right={["Amount"]}
            rows={order.payments.map((payment) => ({
              key: payment.attemptId,
              cells: [
                payment.provider,
                payment.method,
                label(payment.status),
                payment.expiresAt ? formatDate(payment.expiresAt) : "—",
                money(payment.amount, order.currency),
              ],
            }))}
          />
        </div>
      )}
      <h3 className="mb-2 text-sm font-semibold">Refunds</h3>
      {order.refunds.length === 0 ? (
        <p className="text-sm text-slate-600">No refunds.</p>
      ) : (
        <DataTable
          columns={["Date", "Reason", "Status", "Amount"]}
          right={["Amount"]}
          rows={order.refunds.map((refund) => ({
            key: refund.id,
            cells: [
              formatDate(refund.createdAt),
              refund.reason ?? "—",
              label(refund.status),
              money(refund.amount.amount, refund.amount.currency),
            ],
          }))}
        />
      )}
    </Section>
  );
}

export function OrderDetail({ id }: { id: string }) {
  const order = useQuery({
    queryKey: ["order", id],
    queryFn: () => unwrap(api.GET("/v1/admin/orders/{id}", { params: { path: { id } } })),
  });
  if (!order.data) return <QueryState query={order} what="the order" />;
  const data = order.data;
  return (
    <>
      <BackLink to="/orders">All orders</BackLink>
      <PageHeader title={`Order #${data.number}`}>
        <p className="text-sm text-slate-700">
          {label(data.status)} · {label(data.paymentStatus)} · {label(data.fulfillmentStatus)} ·{" "}
          <Link to={`/customers/${data.customerId}`} className="text-indigo-800 underline">
            {data.email}
          </Link>
        </p>
      </PageHeader>
      <div className="space-y-6">
        <OrderActions order={data} />
        <Lines order={data} />
        <Payments order={data} />
        <div className="grid gap-6 md:grid-cols-2">
          <AddressBlock title="Shipping address" address={data.shippingAddress} />
          <AddressBlock title="Billing address" address={data.billingAddress} />
        </div>
        <Section title="Timeline">
          <ol className="space-y-2 text-sm">
            {data.events.map((event) => (
              <li key={`${event.createdAt} ${event.type} ${event.message}`} className="flex gap-3">
                <time dateTime={event.createdAt} className="shrink-0 text-slate-600">
                  {formatDate(event.createdAt)}
                </time>
                <span>{event.message}</span>
              </li>
            ))}
          </ol>
        </Section>
      </div>
    </>
  );
}
