import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Agents } from "./agents.tsx";
import { api, type Schemas, unwrap } from "./api.ts";
import { Categories } from "./categories.tsx";
import { Coupons } from "./coupons.tsx";
import { CustomerDetail, Customers } from "./customers.tsx";
import { Domains } from "./domains.tsx";
import { EmailSettingsPage } from "./email.tsx";
import { Home } from "./home.tsx";
import { Inventory } from "./inventory.tsx";
import { Members } from "./members.tsx";
import { OrderDetail, Orders } from "./orders.tsx";
import { PaymentsPage } from "./payments.tsx";
import { ProductEditor } from "./product-editor.tsx";
import { Products } from "./products.tsx";
import { Link, navigate, useLocation } from "./router.tsx";
import { ApiKeys, Settings } from "./settings.tsx";
import { Shipping } from "./shipping.tsx";
import { StoreSettingsPage } from "./store-settings.tsx";
import { Field, FormDialog, fieldError } from "./ui.tsx";
import { WebhookEndpointPage, Webhooks } from "./webhooks.tsx";

const NAV = [
  ["Home", "/"],
  ["Products", "/products"],
  ["Categories", "/categories"],
  ["Inventory", "/inventory"],
  ["Orders", "/orders"],
  ["Customers", "/customers"],
  ["Coupons", "/coupons"],
  ["Shipping", "/shipping"],
  ["Settings", "/settings"],
] as const;

interface Session {
  user: Schemas["User"];
  session: Schemas["Session"];
}

/** The page of a path. */
function Page({ path }: { path: string }) {
  if (path === "/") return <Home />;
  if (path === "/inventory") return <Inventory />;
  if (path === "/shipping") return <Shipping />;
  if (path === "/coupons") return <Coupons />;
  if (path === "/categories") return <Categories />;
  if (path === "/products") return <Products />;
  if (path.startsWith("/products/"))
    return <ProductEditor id={path === "/products/new" ? undefined : path.slice("/products/".length)} />;
  if (path === "/orders") return <Orders />;
  if (path.startsWith("/orders/")) return <OrderDetail id={path.slice("/orders/".length)} />;
  if (path === "/customers") return <Customers />;
  if (path.startsWith("/customers/")) return <CustomerDetail id={path.slice("/customers/".length)} />;
  if (path === "/settings") return <Settings />;
  if (path === "/settings/store") return <StoreSettingsPage />;
  if (path === "/settings/payments") return <PaymentsPage />;
  if (path === "/settings/api-keys") return <ApiKeys />;
  if (path === "/settings/domains") return <Domains />;
  if (path === "/settings/members") return <Members />;
  if (path === "/settings/agents") return <Agents />;
  if (path === "/settings/webhooks") return <Webhooks />;
  if (path.startsWith("/settings/webhooks/"))
    return <WebhookEndpointPage id={path.slice("/settings/webhooks/".length)} />;
  if (path === "/settings/email") return <EmailSettingsPage />;
  return (
    <div className="card max-w-xl">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-3 text-sm text-slate-700">There is no page at this address.</p>
    </div>
  );
}

function OrganizationSwitcher({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const organizations = useQuery({
    queryKey: ["organizations"],
    queryFn: () => unwrap(api.GET("/api/auth/organization/list")),
  });
  const switchTo = useMutation({
    mutationFn: (organizationId: string) =>
      unwrap(api.POST("/api/auth/organization/set-active", { body: { organizationId } })),
    // Everything shown belongs to the organization: ask again for all of it.
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="organization" className="text-sm text-slate-300">
        Organization
      </label>
      <select
        id="organization"
        className="rounded-md border border-slate-600 bg-slate-800 px-2 py-1 text-sm text-white"
        value={session.session.activeOrganizationId ?? ""}
        onChange={(event) => switchTo.mutate(event.target.value)}
        disabled={!organizations.data}
      >
        {!session.session.activeOrganizationId && <option value="">None yet</option>}
        {organizations.data?.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
      <CreateOrganization />
    </div>
  );
}

function CreateOrganization() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: async () => {
      const organization = await unwrap(api.POST("/api/auth/organization/create", { body: { name } }));
      await unwrap(
        api.POST("/api/auth/organization/set-active", { body: { organizationId: organization.id } }),
      );
    },
    onSuccess: async () => {
      setOpen(false);
      setName("");
      navigate("/");
      await queryClient.invalidateQueries();
    },
  });
  return (
    <FormDialog
      title="Create organization"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn bg-slate-700 text-white hover:bg-slate-600">
          Create organization
        </button>
      }
      onSubmit={() => create.mutate()}
      submit="Create organization"
      pending={create.isPending}
      error={create.error}
    >
      <Field
        label="Name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(create.error, "name")}
      />
    </FormDialog>
  );
}

export function Layout({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const { path } = useLocation();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST("/api/auth/sign-out")),
    onSuccess: () => {
      navigate("/", { replace: true });
      // The session is known to be gone: show the sign-in form at once, and drop what the
      // signed-out user's pages loaded so the next user never sees it.
      queryClient.setQueryData(["session"], null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "session" });
    },
  });
  const active = (to: string) => (to === "/" ? path === "/" : path.startsWith(to));
  return (
    <div className="min-h-screen">
      <header className="flex flex-wrap items-center justify-between gap-3 bg-slate-900 px-6 py-3 text-white">
        <p className="font-semibold">Commerce</p>
        <div className="flex flex-wrap items-center gap-4">
          <OrganizationSwitcher session={session} />
          <span className="text-sm text-slate-300">{session.user.email}</span>
          <button
            type="button"
            className="btn bg-slate-700 text-white hover:bg-slate-600"
            onClick={() => signOut.mutate()}
          >
            Sign out
          </button>
        </div>
      </header>
      <div className="flex flex-col md:flex-row">
        <nav
          aria-label="Main"
          className="border-b border-slate-200 bg-white p-4 md:min-h-[calc(100vh-3.5rem)] md:w-56 md:border-r md:border-b-0"
        >
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {NAV.map(([label, to]) => (
              <li key={to}>
                <Link
                  to={to}
                  aria-current={active(to) ? "page" : undefined}
                  className={`block rounded-md px-3 py-2 text-sm font-medium ${active(to) ? "bg-indigo-50 text-indigo-800" : "text-slate-700 hover:bg-slate-100"}`}
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="flex-1 p-6">
          {session.session.activeOrganizationId ? (
            <Page path={path} />
          ) : (
            <div className="card max-w-xl">
              <h1 className="text-2xl font-semibold">Create your first organization</h1>
              <p className="mt-3 text-sm text-slate-700">
                An organization is a store with its own database. Use "Create organization" above.
              </p>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
