import { useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { label, OrderLink, ordersPath } from "./orders.tsx";
import { Link, navigate, useLocation } from "./router.tsx";
import {
  BackLink,
  DataTable,
  Empty,
  formatDate,
  PageHeader,
  Pager,
  QueryState,
  SearchForm,
  useMoney,
} from "./ui.tsx";

// Customers are made by checkout (a guest's email, or a shopper's account); the dashboard reads
// them and their orders, it does not edit them.

const PAGE_SIZE = 20;

const fullName = (customer: Schemas["Customer"]) =>
  [customer.firstName, customer.lastName].filter(Boolean).join(" ") || "—";

function customersPath(query: string | undefined, page = 1) {
  const search = new URLSearchParams();
  if (query) search.set("query", query);
  if (page > 1) search.set("page", String(page));
  return `/customers${search.size ? `?${search}` : ""}`;
}

export function Customers() {
  const money = useMoney();
  const { search } = useLocation();
  const query = search.get("query")?.trim() || undefined;
  const page = Math.max(1, Number(search.get("page")) || 1);
  const customers = useQuery({
    queryKey: ["customers", query, page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/customers", { params: { query: { query, page, limit: PAGE_SIZE } } })),
  });
  return (
    <>
      <PageHeader title="Customers" />
      <SearchForm
        key={query ?? ""}
        query={query}
        placeholder="Email or name"
        onSearch={(next) => navigate(customersPath(next))}
        className="card mb-4 max-w-xl"
      />
      {!customers.data ? (
        <QueryState query={customers} what="customers" />
      ) : customers.data.data.length === 0 ? (
        <Empty>
          {query
            ? `No customer matches “${query}”.`
            : "No customers yet. Everyone who places an order appears here."}
        </Empty>
      ) : (
        <DataTable
          columns={["Email", "Name", "Account", "Orders", "Last order", "Spent"]}
          right={["Orders", "Spent"]}
          rows={customers.data.data.map((customer) => ({
            key: customer.id,
            cells: [
              <Link
                key="link"
                to={`/customers/${customer.id}`}
                className="font-medium text-indigo-800 underline"
              >
                {customer.email}
              </Link>,
              fullName(customer),
              customer.hasAccount ? "Yes" : "Guest",
              customer.ordersCount,
              customer.lastOrderAt ? formatDate(customer.lastOrderAt) : "—",
              money(customer.totalSpent.amount, customer.totalSpent.currency),
            ],
          }))}
        />
      )}
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={customers.data?.meta.total ?? 0}
        onPage={(next) => navigate(customersPath(query, next))}
      />
    </>
  );
}

export function CustomerDetail({ id }: { id: string }) {
  const money = useMoney();
  const customer = useQuery({
    queryKey: ["customer", id],
    queryFn: () => unwrap(api.GET("/v1/admin/customers/{id}", { params: { path: { id } } })),
  });
  if (!customer.data) return <QueryState query={customer} what="the customer" />;
  const data = customer.data;
  const facts: [string, string | number][] = [
    ["Name", fullName(data)],
    ["Phone", data.phone ?? "—"],
    ["Account", data.hasAccount ? "Yes" : "Guest checkout only"],
    ["Customer since", formatDate(data.createdAt)],
    ["Orders", data.ordersCount],
    ["Total spent", money(data.totalSpent.amount, data.totalSpent.currency)],
  ];
  return (
    <>
      <BackLink to="/customers">All customers</BackLink>
      <PageHeader title={data.email} />
      <div className="space-y-6">
        <dl className="card grid gap-4 sm:grid-cols-3">
          {facts.map(([title, value]) => (
            <div key={title}>
              <dt className="text-xs font-medium text-slate-600">{title}</dt>
              <dd className="mt-1 font-medium">{value}</dd>
            </div>
          ))}
        </dl>
        <section aria-labelledby="recent-orders" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="recent-orders" className="text-lg font-semibold">
              Recent orders
            </h2>
            {/* The detail carries the 10 most recent; the orders list, searched by email, has them all. */}
            <Link to={ordersPath({ query: data.email })} className="text-sm text-indigo-800 underline">
              All orders of this customer
            </Link>
          </div>
          {data.recentOrders.length === 0 ? (
            <Empty>No orders yet.</Empty>
          ) : (
            <DataTable
              columns={["Order", "Placed", "Status", "Payment", "Total"]}
              right={["Total"]}
              rows={data.recentOrders.map((order) => ({
                key: order.id,
                cells: [
                  <OrderLink key="link" id={order.id} number={order.number} />,
                  formatDate(order.placedAt),
                  label(order.status),
                  label(order.paymentStatus),
                  money(order.total.amount, order.total.currency),
                ],
              }))}
            />
          )}
        </section>
      </div>
    </>
  );
}
