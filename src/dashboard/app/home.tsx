import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { OrderLink, ordersPath } from "./orders.tsx";
import { Link } from "./router.tsx";
import { Empty, PageHeader, QueryState, useMoney } from "./ui.tsx";

type Blocker = Schemas["Readiness"]["blockers"][number];

/** Where each readiness blocker is fixed. */
const FIX_PAGE: Record<Blocker["code"], { to: string; label: string }> = {
  NO_PRODUCT: { to: "/products", label: "Add a product" },
  NO_SHIPPING_METHOD: { to: "/shipping", label: "Add a shipping method" },
  NO_PAYMENT_METHOD: { to: "/settings/store", label: "Choose a payment method" },
  NO_DOMAIN: { to: "/settings/domains", label: "Add a domain" },
};

/** Where each readiness warning is explained. */
const WARNING_PAGE: Record<Schemas["Readiness"]["warnings"][number]["code"], { to: string; label: string }> =
  {
    EMAIL_NOT_CONFIGURED: { to: "/settings/email", label: "Email settings" },
  };

function Readiness() {
  const readiness = useQuery({
    queryKey: ["readiness"],
    queryFn: () => unwrap(api.GET("/v1/admin/readiness")),
  });
  if (!readiness.data) return <QueryState query={readiness} what="the readiness checklist" />;
  const { ready, blockers, warnings } = readiness.data;
  return (
    <>
      <Blockers ready={ready} blockers={blockers} />
      {warnings.length > 0 && <Warnings warnings={warnings} />}
    </>
  );
}

function Blockers({ ready, blockers }: { ready: boolean; blockers: Blocker[] }) {
  return (
    <section aria-labelledby="readiness" className="card">
      <h2 id="readiness" className="text-lg font-semibold">
        {ready ? "Your store is ready to sell" : "Before your first order"}
      </h2>
      {ready ? (
        <p className="mt-2 text-sm text-slate-700">Nothing blocks the first order.</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {blockers.map((blocker) => (
            <li
              key={blocker.code}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2"
            >
              <span className="text-sm text-amber-950">{blocker.message}</span>
              <Link to={FIX_PAGE[blocker.code].to} className="text-sm font-medium text-indigo-800 underline">
                {FIX_PAGE[blocker.code].label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What does not block selling but is missing: a card apart from the blockers, each linking to where it is explained. */
function Warnings({ warnings }: { warnings: Schemas["Readiness"]["warnings"] }) {
  return (
    <section aria-labelledby="readiness-warnings" className="card">
      <h2 id="readiness-warnings" className="text-lg font-semibold">
        Worth knowing
      </h2>
      <p className="mt-1 text-sm text-slate-600">These do not stop orders.</p>
      <ul className="mt-3 space-y-2">
        {warnings.map((warning) => (
          <li
            key={warning.code}
            className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2"
          >
            <span className="text-sm text-slate-800">{warning.message}.</span>
            <Link
              to={WARNING_PAGE[warning.code].to}
              className="text-sm font-medium text-indigo-800 underline"
            >
              {WARNING_PAGE[warning.code].label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SalesChart({ days }: { days: Schemas["DashboardStats"]["salesByDay"] }) {
  const money = useMoney();
  if (days.every((day) => day.orders === 0)) return <Empty>No sales in this period yet.</Empty>;
  const most = Math.max(1, ...days.map((day) => day.revenue.amount));
  const width = 100 / days.length;
  return (
    <figure>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        className="h-40 w-full"
        role="img"
        aria-label={`Sales by day, ${days.length} days`}
      >
        {days.map((day, index) => {
          const height = (day.revenue.amount / most) * 38;
          return (
            <rect
              key={day.date}
              x={index * width + width * 0.1}
              y={40 - height}
              width={width * 0.8}
              height={height}
              className="fill-indigo-500"
            >
              <title>{`${day.date}: ${money(day.revenue.amount, day.revenue.currency)}, ${day.orders} orders`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex justify-between text-xs text-slate-600">
        <span>{days[0]!.date}</span>
        <span>{days.at(-1)!.date}</span>
      </figcaption>
      <table className="sr-only">
        <caption>Sales by day</caption>
        <thead>
          <tr>
            <th>Day</th>
            <th>Orders</th>
            <th>Revenue</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <td>{day.date}</td>
              <td>{day.orders}</td>
              <td>{money(day.revenue.amount, day.revenue.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

const RANGES = { "7": "Last 7 days", "30": "Last 30 days", "90": "Last 90 days" } as const;

function Stats() {
  const money = useMoney();
  const [range, setRange] = useState<keyof typeof RANGES>("30");
  const stats = useQuery({
    queryKey: ["stats", range],
    queryFn: () => {
      const from = new Date(Date.now() - Number(range) * 86_400_000).toISOString();
      return unwrap(api.GET("/v1/admin/dashboard/stats", { params: { query: { from } } }));
    },
  });
  const data = stats.data;
  const figures: [string, string | number][] = data
    ? [
        ["Revenue", money(data.revenue.amount, data.revenue.currency)],
        ["Orders", data.ordersCount],
        ["Average order", money(data.averageOrderValue.amount, data.averageOrderValue.currency)],
        ["Customers", data.customersCount],
        ["Awaiting payment", data.ordersAwaitingPayment],
        ["Awaiting fulfilment", data.ordersAwaitingFulfillment],
        ["Low-stock variants", data.lowStockVariants],
        ["Products", data.productsCount],
      ]
    : [];
  return (
    <section aria-labelledby="stats" className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="stats" className="text-lg font-semibold">
          Sales
        </h2>
        <label className="flex items-center gap-2 text-sm">
          Period
          <select
            className="input w-auto"
            value={range}
            onChange={(event) => setRange(event.target.value as keyof typeof RANGES)}
          >
            {Object.entries(RANGES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!data ? (
        <QueryState query={stats} what="the statistics" />
      ) : (
        <>
          <dl className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
            {figures.map(([label, value]) => (
              <div key={label} className="rounded-md bg-slate-50 p-3">
                <dt className="text-xs font-medium text-slate-600">{label}</dt>
                <dd className="mt-1 text-xl font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          <SalesChart days={data.salesByDay} />
        </>
      )}
    </section>
  );
}

/**
 * Orders to act on: the list operation with the filter the link opens, so the count and the list
 * agree. Fulfilment lists paid orders only (ready to ship); the statistics' figure also counts open
 * orders paid by hand, which may ship before their payment (cash on delivery).
 */
const TO_DO: { title: string; link: string; empty: string; filters: Parameters<typeof ordersPath>[0] }[] = [
  {
    title: "Awaiting payment",
    link: "All orders awaiting payment",
    empty: "No order awaits payment.",
    filters: { status: "open", paymentStatus: "pending" },
  },
  {
    title: "Paid, awaiting fulfilment",
    link: "All paid orders awaiting fulfilment",
    empty: "No paid order awaits fulfilment.",
    filters: { status: "open", paymentStatus: "paid", fulfillmentStatus: "unfulfilled" },
  },
];

function OrdersToDo({ title, link, empty, filters }: (typeof TO_DO)[number]) {
  const money = useMoney();
  const orders = useQuery({
    queryKey: ["orders", filters, "home"],
    queryFn: () => unwrapBody(api.GET("/v1/admin/orders", { params: { query: { ...filters, limit: 5 } } })),
  });
  return (
    <section aria-label={title} className="card">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">
          {title}
          {orders.data && ` (${orders.data.meta.total})`}
        </h2>
        <Link to={ordersPath(filters)} className="text-sm font-medium text-indigo-800 underline">
          {link}
        </Link>
      </div>
      {!orders.data ? (
        <QueryState query={orders} what="orders" />
      ) : orders.data.data.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {orders.data.data.map((order) => (
            <li key={order.id} className="flex justify-between gap-2">
              <span>
                <OrderLink id={order.id} number={order.number} /> {order.email}
              </span>
              <span>{money(order.totals.total.amount, order.totals.total.currency)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The low-stock count comes from the statistics: no list operation filters variants by stock. */
function LowStock() {
  const stats = useQuery({
    queryKey: ["stats", "low-stock"],
    queryFn: () => unwrap(api.GET("/v1/admin/dashboard/stats")),
  });
  if (!stats.data) return <QueryState query={stats} what="stock" />;
  const count = stats.data.lowStockVariants;
  return (
    <section aria-labelledby="low-stock" className="card">
      <h2 id="low-stock" className="text-lg font-semibold">
        Low stock
      </h2>
      <p className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
        <span>
          {count === 0
            ? "No variant is running low."
            : `${count} ${count === 1 ? "variant is" : "variants are"} running low.`}
        </span>
        <Link to="/inventory" className="font-medium text-indigo-800 underline">
          Open inventory
        </Link>
      </p>
    </section>
  );
}

export function Home() {
  return (
    <>
      <PageHeader title="Home" />
      <div className="space-y-6">
        <Readiness />
        <div className="grid gap-6 lg:grid-cols-3">
          {TO_DO.map((item) => (
            <OrdersToDo key={item.title} {...item} />
          ))}
          <LowStock />
        </div>
        <Stats />
      </div>
    </>
  );
}
