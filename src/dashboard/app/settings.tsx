import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiFailure, api, unwrap } from "./api.ts";
import { Link } from "./router.tsx";
import {
  Alert,
  Checkbox,
  Confirm,
  Empty,
  Field,
  formatDate,
  Modal,
  ModalClose,
  PageHeader,
  QueryState,
} from "./ui.tsx";

export function Settings() {
  return (
    <>
      <PageHeader title="Settings" />
      <ul className="grid max-w-2xl gap-4 sm:grid-cols-2">
        <li className="card">
          <Link to="/settings/store" className="font-semibold text-indigo-800 underline">
            Store
          </Link>
          <p className="mt-1 text-sm text-slate-700">
            Name, currency, languages, VAT rates, allowed origins, payment methods by hand.
          </p>
        </li>
        <li className="card">
          <Link to="/settings/payments" className="font-semibold text-indigo-800 underline">
            Payments
          </Link>
          <p className="mt-1 text-sm text-slate-700">Stripe, Ifthenpay and Easypay keys and webhook URLs.</p>
        </li>
        <li className="card">
          <Link to="/settings/api-keys" className="font-semibold text-indigo-800 underline">
            API keys
          </Link>
          <p className="mt-1 text-sm text-slate-700">Keys for your storefront and your own programs.</p>
        </li>
        <li className="card">
          <Link to="/settings/domains" className="font-semibold text-indigo-800 underline">
            Domains
          </Link>
          <p className="mt-1 text-sm text-slate-700">The hosts your store answers on.</p>
        </li>
        <li className="card">
          <Link to="/settings/members" className="font-semibold text-indigo-800 underline">
            Members
          </Link>
          <p className="mt-1 text-sm text-slate-700">Who can sign in to this store, and their role.</p>
        </li>
        <li className="card">
          <Link to="/settings/agents" className="font-semibold text-indigo-800 underline">
            Agents
          </Link>
          <p className="mt-1 text-sm text-slate-700">
            The agents acting for your store, what they may do; revoke them.
          </p>
        </li>
        <li className="card">
          <Link to="/settings/webhooks" className="font-semibold text-indigo-800 underline">
            Webhooks
          </Link>
          <p className="mt-1 text-sm text-slate-700">
            Tell your own systems when orders and products change.
          </p>
        </li>
        <li className="card">
          <Link to="/settings/email" className="font-semibold text-indigo-800 underline">
            Email
          </Link>
          <p className="mt-1 text-sm text-slate-700">
            Whether email is sent, the sender name and reply-to address, and previews of each email.
          </p>
        </li>
      </ul>
    </>
  );
}

/** A key just created: shown this once, to copy. */
function NewKey({ value }: { value: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="success">Copy this key now: it is shown only once.</Alert>
      <label htmlFor="new-key" className="block text-sm font-medium">
        New API key
      </label>
      <input
        id="new-key"
        readOnly
        className="input font-mono"
        value={value}
        onFocus={(e) => e.target.select()}
      />
      <div className="flex justify-end">
        <ModalClose label="Done" primary />
      </div>
    </div>
  );
}

type ApiKey = Awaited<ReturnType<typeof listApiKeys>>[number];
const listApiKeys = () => unwrap(api.GET("/api/auth/api-key/list", { params: { query: { limit: 100 } } }));

function ApiKeyRow({ apiKey: key, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <tr className="border-b border-slate-100 last:border-0">
      <td className="px-4 py-3 font-medium">{key.name}</td>
      <td className="px-4 py-3 font-mono">{key.start}…</td>
      <td className="px-4 py-3">{key.metadata.scopes.join(", ")}</td>
      <td className="px-4 py-3">{formatDate(key.createdAt)}</td>
      <td className="px-4 py-3">{key.revokedAt ? "Revoked" : "Active"}</td>
      <td className="px-4 py-3 text-right">
        {!key.revokedAt && (
          <Confirm
            title={`Revoke "${key.name}"?`}
            description="Programs using this key stop working at once. This cannot be undone."
            confirm="Revoke"
            onConfirm={onRevoke}
            trigger={
              <button type="button" className="btn btn-secondary" aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            }
          />
        )}
      </td>
    </tr>
  );
}

function CreateKey() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [admin, setAdmin] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/auth/api-key/create", {
          body: { name, scopes: admin ? ["admin", "storefront"] : ["storefront"] },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["api-keys"] }),
  });
  const failure = create.error instanceof ApiFailure ? create.error : undefined;
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      create.reset();
      setName("");
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Modal
      title="Create API key"
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <button type="button" className="btn btn-primary">
          Create API key
        </button>
      }
    >
      {create.data ? (
        <NewKey value={create.data.key} />
      ) : (
        <form className="space-y-4" onSubmit={onSubmit}>
          {create.error && !failure?.details.length && <Alert>{create.error.message}</Alert>}
          <Field
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={failure?.fieldMessage("name")}
          />
          <Checkbox label="Admin access (otherwise storefront only)" checked={admin} onChange={setAdmin} />
          <div className="flex justify-end gap-2">
            <ModalClose />
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              Create API key
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

export function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ["api-keys"],
    queryFn: listApiKeys,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => unwrap(api.POST("/api/auth/api-key/revoke", { body: { keyId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["api-keys"] }),
  });
  return (
    <>
      <PageHeader title="API keys">
        <CreateKey />
      </PageHeader>
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      {!keys.data ? (
        <QueryState query={keys} what="API keys" />
      ) : keys.data.length === 0 ? (
        <Empty>No API keys yet.</Empty>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Name
                </th>
                <th scope="col" className="px-4 py-3">
                  Key
                </th>
                <th scope="col" className="px-4 py-3">
                  Access
                </th>
                <th scope="col" className="px-4 py-3">
                  Created
                </th>
                <th scope="col" className="px-4 py-3">
                  State
                </th>
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <ApiKeyRow key={key.id} apiKey={key} onRevoke={() => revoke.mutate(key.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
