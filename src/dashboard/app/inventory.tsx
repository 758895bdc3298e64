import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, messageOf, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { Alert, Empty, PageHeader, Pager, QueryState, useLocalized } from "./ui.tsx";

// Stock per variant, read from the admin product list (each variant carries its inventory) and
// changed through `PATCH /v1/admin/inventory/{variantId}`: `adjust` for the Add 1 / Remove 1 buttons (a delta,
// so two people counting at once do not overwrite each other), `onHand` for a counted total, which
// also starts tracking a variant whose stock was not tracked (adjusting an untracked one is not offered).

const PAGE_SIZE = 25;

type Change = { onHand: number; tracked: true } | { adjust: number };

export function Inventory() {
  const [page, setPage] = useState(1);
  const products = useQuery({
    queryKey: ["products", "inventory", page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/products", { params: { query: { page, limit: PAGE_SIZE } } })),
  });
  return (
    <>
      <PageHeader title="Inventory" />
      {!products.data ? (
        <QueryState query={products} what="inventory" />
      ) : products.data.data.length === 0 ? (
        <Empty>No products yet. Each variant's stock appears here once products exist.</Empty>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Variant
                </th>
                <th scope="col" className="px-4 py-3">
                  SKU
                </th>
                <th scope="col" className="px-4 py-3">
                  Stock
                </th>
                <th scope="col" className="px-4 py-3">
                  Adjust
                </th>
                <th scope="col" className="px-4 py-3">
                  Set on hand
                </th>
              </tr>
            </thead>
            <tbody>
              {products.data.data.flatMap((product) =>
                product.variants.map((variant) => (
                  <VariantRow key={variant.id} product={product} variant={variant} />
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={products.data?.meta.total ?? 0} onPage={setPage} />
    </>
  );
}

function VariantRow({ product, variant }: { product: Schemas["Product"]; variant: Schemas["Variant"] }) {
  const queryClient = useQueryClient();
  const localized = useLocalized();
  const change = useMutation({
    mutationFn: (body: Change) =>
      unwrap(
        api.PATCH("/v1/admin/inventory/{variantId}", { params: { path: { variantId: variant.id } }, body }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["products"] }),
  });
  const name =
    product.variants.length > 1 ? `${localized(product.name)} – ${variant.title}` : localized(product.name);
  const { inventory } = variant;
  const soldOut = inventory.tracked && !variant.available;
  return (
    <tr
      className={`border-b border-slate-100 last:border-0 ${variant.lowStock || soldOut ? "bg-amber-50" : ""}`}
    >
      <th scope="row" className="px-4 py-3 font-medium">
        {name}
      </th>
      <td className="px-4 py-3">{variant.sku ?? "—"}</td>
      <td className="px-4 py-3">
        {inventory.tracked ? (
          <>
            <span className="font-semibold">{inventory.onHand}</span>
            {variant.lowStock && <span className="ml-2 text-amber-900">Low stock</span>}
            {soldOut && <span className="ml-2 text-red-800">Sold out</span>}
          </>
        ) : (
          "Not tracked"
        )}
        {change.error && <Alert>{messageOf(change.error)}</Alert>}
      </td>
      <td className="px-4 py-3">
        {inventory.tracked && (
          <div className="flex gap-1">
            <button
              type="button"
              className="btn btn-secondary"
              aria-label={`Remove 1 from ${name}`}
              disabled={change.isPending || inventory.onHand === 0}
              onClick={() => change.mutate({ adjust: -1 })}
            >
              Remove 1
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              aria-label={`Add 1 to ${name}`}
              disabled={change.isPending}
              onClick={() => change.mutate({ adjust: 1 })}
            >
              Add 1
            </button>
          </div>
        )}
      </td>
      <td className="px-4 py-3">
        <SetOnHand
          name={name}
          pending={change.isPending}
          onSet={(onHand, done) => change.mutate({ onHand, tracked: true }, { onSuccess: done })}
        />
      </td>
    </tr>
  );
}

interface SetOnHandProps {
  name: string;
  pending: boolean;
  /** Sets the counted total; `done` empties the field once the API took it. */
  onSet: (onHand: number, done: () => void) => void;
}

function SetOnHand({ name, pending, onSet }: SetOnHandProps) {
  const [count, setCount] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSet(Number(count), () => setCount(""));
  };
  return (
    <form className="flex gap-1" onSubmit={submit}>
      <input
        className="input w-24"
        type="number"
        min={0}
        required
        aria-label={`On hand of ${name}`}
        value={count}
        onChange={(event) => setCount(event.target.value)}
      />
      <button
        type="submit"
        className="btn btn-secondary"
        disabled={pending}
        aria-label={`Set on hand of ${name}`}
      >
        Set
      </button>
    </form>
  );
}
