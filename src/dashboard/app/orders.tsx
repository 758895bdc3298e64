import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { Link, navigate, useLocation } from "./router.tsx";
import {
  Alert,
  Confirm,
  Empty,
  Field,
  FormDialog,
  fieldError,
  formatDate,
  PageHeader,
  QueryState,
  toMinorUnits,
  useMoney,
} from "./ui.tsx";

type Order = Schemas["Order"];
const PAGE_SIZE = 20;
const STATUSES = ["open", "completed", "cancelled"] as const;
type Status = (typeof STATUSES)[number];

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replaceAll("_", " ");

export function Orders() {
  const money = useMoney();
  const { search } = useLocation();
  const statusParam = search.get("status");
  const status = STATUSES.find((value) => value === statusParam);
  const page = Math.max(1, Number(search.get("page")) || 1);
  const orders = useQuery({
    queryKey: ["orders", status, page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/orders", { params: { query: { status, page, limit: PAGE_SIZE } } })),
  });
  const go = (next: { status?: Status | undefined; page?: number }) => {
    const query = new URLSearchParams();
    const nextStatus = "status" in next ? next.status : status;
    if (nextStatus) query.set("status", nextStatus);
    if ((next.page ?? 1) > 1) query.set("page", String(next.page));
    navigate(`/orders${query.size ? `?${query}` : ""}`);
  };
  const total = orders.data?.meta.total ?? 0;
  return (
    <>
      <PageHeader title="Orders">
        <label className="flex items-center gap-2 text-sm">
          Status
          <select
            className="input w-auto"
            value={status ?? ""}
            onChange={(event) => go({ status: STATUSES.find((s) => s === event.target.value) })}
          >
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {label(value)}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      {!orders.data ? (
        <QueryState query={orders} what="orders" />
      ) : orders.data.data.length === 0 ? (
        <Empty>
          {status ? `No ${status} orders.` : "No orders yet. Orders placed in your store appear here."}
        </Empty>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Order
                </th>
                <th scope="col" className="px-4 py-3">
                  Placed
                </th>
                <th scope="col" className="px-4 py-3">
                  Customer
                </th>
                <th scope="col" className="px-4 py-3">
                  Status
                </th>
                <th scope="col" className="px-4 py-3">
                  Payment
                </th>
                <th scope="col" className="px-4 py-3">
                  Fulfilment
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.data.data.map((order) => (
                <tr key={order.id} className="border-b border-slate-100 last:border-0">
                  <td className="px-4 py-3">
                    <Link to={`/orders/${order.id}`} className="font-medium text-indigo-800 underline">
                      #{order.number}
                    </Link>
                  </td>
                  <td className="px-4 py-3">{formatDate(order.placedAt)}</td>
                  <td className="px-4 py-3">{order.email}</td>
                  <td className="px-4 py-3">{label(order.status)}</td>
                  <td className="px-4 py-3">{label(order.paymentStatus)}</td>
                  <td className="px-4 py-3">{label(order.fulfillmentStatus)}</td>
                  <td className="px-4 py-3 text-right">
                    {money(order.totals.total.amount, order.totals.total.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE_SIZE && (
        <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={page <= 1}
            onClick={() => go({ page: page - 1 })}
          >
            Previous page
          </button>
          <span>
            Page {page} of {Math.ceil(total / PAGE_SIZE)}
          </span>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={page * PAGE_SIZE >= total}
            onClick={() => go({ page: page + 1 })}
          >
            Next page
          </button>
        </nav>
      )}
    </>
  );
}

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

export function OrderDetail({ id }: { id: string }) {
  const order = useQuery({
    queryKey: ["order", id],
    queryFn: () => unwrap(api.GET("/v1/admin/orders/{id}", { params: { path: { id } } })),
  });
  if (!order.data) return <QueryState query={order} what="the order" />;
  const data = order.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/orders" className="text-indigo-800 underline">
          All orders
        </Link>
      </p>
      <PageHeader title={`Order #${data.number}`}>
        <p className="text-sm text-slate-700">
          {label(data.status)} · {label(data.paymentStatus)} · {label(data.fulfillmentStatus)}
        </p>
      </PageHeader>
      <div className="space-y-6">
        <OrderActions order={data} />
        <Lines order={data} />
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
