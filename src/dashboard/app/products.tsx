import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap, unwrapBody } from "./api.ts";
import { Link, navigate, useLocation } from "./router.tsx";
import {
  Alert,
  DataTable,
  Empty,
  Field,
  Modal,
  ModalClose,
  PageHeader,
  Pager,
  QueryState,
  SearchForm,
  useLocalized,
  useMoney,
} from "./ui.tsx";

// The catalog list: search, status filter, sort and pages kept in the address (a reload or a shared
// link shows the same list), with the CSV export and import beside it. Editing is product-editor.tsx.

const PAGE_SIZE = 20;
export const STATUSES = ["active", "draft", "archived"] as const;
type Status = (typeof STATUSES)[number];
const SORTS = {
  newest: ["createdAt", "desc", "Newest first"],
  oldest: ["createdAt", "asc", "Oldest first"],
  "name-asc": ["name", "asc", "Name A–Z"],
  "name-desc": ["name", "desc", "Name Z–A"],
  "price-asc": ["price", "asc", "Price, low to high"],
  "price-desc": ["price", "desc", "Price, high to low"],
} as const;
type Sort = keyof typeof SORTS;

export const statusLabel = (status: Status) => status.charAt(0).toUpperCase() + status.slice(1);

interface ListParams {
  query: string;
  status: Status | undefined;
  sort: Sort;
  page: number;
}

function useListParams(): [ListParams, (next: Partial<ListParams>) => void] {
  const { search } = useLocation();
  const current: ListParams = {
    query: search.get("query") ?? "",
    status: STATUSES.find((value) => value === search.get("status")),
    sort: (Object.keys(SORTS) as Sort[]).find((key) => key === search.get("sort")) ?? "newest",
    page: Math.max(1, Number(search.get("page")) || 1),
  };
  const go = (next: Partial<ListParams>) => {
    // Any change but the page itself starts again from the first page.
    const merged = { ...current, page: 1, ...next };
    const query = new URLSearchParams();
    if (merged.query) query.set("query", merged.query);
    if (merged.status) query.set("status", merged.status);
    if (merged.sort !== "newest") query.set("sort", merged.sort);
    if (merged.page > 1) query.set("page", String(merged.page));
    navigate(`/products${query.size ? `?${query}` : ""}`);
  };
  return [current, go];
}

export function Products() {
  const [params, go] = useListParams();
  const [sortBy, order] = SORTS[params.sort];
  const products = useQuery({
    queryKey: ["products", params],
    queryFn: () =>
      unwrapBody(
        api.GET("/v1/admin/products", {
          params: {
            query: {
              query: params.query || undefined,
              status: params.status,
              sort: sortBy,
              order,
              page: params.page,
              limit: PAGE_SIZE,
            },
          },
        }),
      ),
  });
  const filtered = Boolean(params.query || params.status);
  return (
    <>
      <PageHeader title="Products">
        <div className="flex flex-wrap gap-2">
          {/* A plain link: the browser downloads the file the API names (same origin, the session cookie goes with it). */}
          <a href="/v1/admin/products/export" download className="btn btn-secondary">
            Export CSV
          </a>
          <ImportCsv />
          <Link to="/products/new" className="btn btn-primary">
            Create product
          </Link>
        </div>
      </PageHeader>
      <ListFilters params={params} go={go} />
      {!products.data ? (
        <QueryState query={products} what="products" />
      ) : products.data.data.length === 0 ? (
        <Empty>
          {filtered
            ? "No products match this search."
            : "No products yet. Use “Create product” or import a CSV file."}
        </Empty>
      ) : (
        <ProductTable products={products.data.data} />
      )}
      <Pager
        page={params.page}
        pageSize={PAGE_SIZE}
        total={products.data?.meta.total ?? 0}
        onPage={(page) => go({ page })}
      />
    </>
  );
}

function ListFilters({ params, go }: { params: ListParams; go: (next: Partial<ListParams>) => void }) {
  return (
    <div className="mb-4 flex flex-wrap items-end gap-4">
      <search>
        <SearchForm
          key={params.query}
          query={params.query}
          placeholder="Name or description"
          onSearch={(query) => go({ query: query ?? "" })}
        />
      </search>
      <label className="flex items-center gap-2 text-sm">
        Status
        <select
          className="input w-auto"
          value={params.status ?? ""}
          onChange={(event) => go({ status: STATUSES.find((s) => s === event.target.value) })}
        >
          <option value="">All</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {statusLabel(value)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm">
        Sort by
        <select
          className="input w-auto"
          value={params.sort}
          onChange={(event) => go({ sort: event.target.value as Sort })}
        >
          {(Object.keys(SORTS) as Sort[]).map((key) => (
            <option key={key} value={key}>
              {SORTS[key][2]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function ProductTable({ products }: { products: Schemas["Product"][] }) {
  const money = useMoney();
  const localized = useLocalized();
  const price = ({ min, max }: Schemas["Product"]["priceRange"]) =>
    min.amount === max.amount
      ? money(min.amount, min.currency)
      : `${money(min.amount, min.currency)} – ${money(max.amount, max.currency)}`;
  return (
    <DataTable
      columns={["Name", "Status", "Variants", "Stock", "Price"]}
      right={["Price"]}
      rows={products.map((product) => ({
        key: product.id,
        cells: [
          <Link key="name" to={`/products/${product.id}`} className="font-medium text-indigo-800 underline">
            {localized(product.name) || product.slug}
          </Link>,
          statusLabel(product.status),
          product.variants.length,
          product.inStock ? "In stock" : "Out of stock",
          price(product.priceRange),
        ],
      }))}
    />
  );
}

type ImportReport = Schemas["CatalogImportReport"];

/** Choose a file, see what a dry run would do, then apply it: nothing is written before "Import". */
function ImportCsv() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [csv, setCsv] = useState<string>();
  const run = useMutation({
    mutationFn: (dryRun: boolean) =>
      unwrap(
        api.POST("/v1/admin/products/import", { params: { query: { dryRun } }, body: { csv: csv ?? "" } }),
      ),
    onSuccess: (report) => {
      if (!report.dryRun) return queryClient.invalidateQueries({ queryKey: ["products"] });
    },
  });
  const choose = async (file: File | undefined) => {
    run.reset();
    setCsv(file ? await file.text() : undefined);
  };
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setCsv(undefined);
      run.reset();
    }
  };
  const report = run.data;
  return (
    <Modal
      title="Import CSV"
      open={open}
      onOpenChange={changeOpen}
      trigger={
        <button type="button" className="btn btn-secondary">
          Import CSV
        </button>
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          The columns of “Export CSV”. A row whose SKU exists updates that variant; a new slug creates a
          product. Any refused row imports nothing.
        </p>
        <Field
          label="CSV file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => choose(e.target.files?.[0])}
        />
        {run.error && <Alert>{run.error.message}</Alert>}
        {report && <ReportView report={report} />}
        <div className="flex justify-end gap-2">
          <ModalClose />
          {!report?.dryRun ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={!csv || run.isPending || report !== undefined}
              onClick={() => run.mutate(true)}
            >
              Check file
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={run.isPending || report.errors.length > 0}
              onClick={() => run.mutate(false)}
            >
              Import
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}

function ReportView({ report }: { report: ImportReport }) {
  const counts = [
    ["Created", report.created],
    ["Updated", report.updated],
    ["Unchanged", report.unchanged],
  ] as const;
  return (
    <section aria-label="Import report" className="space-y-3 text-sm">
      <p role="status">
        {report.dryRun
          ? `Checked ${report.rows} rows; nothing is written until you import.`
          : `Imported ${report.rows} rows.`}
      </p>
      <dl className="grid grid-cols-3 gap-2">
        {counts.map(([title, count]) => (
          <div key={title} className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{title}</dt>
            <dd className="text-lg font-semibold">{count}</dd>
          </div>
        ))}
      </dl>
      {report.errors.length > 0 && (
        <table className="w-full text-left">
          <caption className="mb-1 text-left font-medium text-red-800">
            {report.errors.length} refused {report.errors.length === 1 ? "cell" : "cells"}: fix the file and
            choose it again
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Column</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.map((error) => (
              <tr key={`${error.row}-${error.column}-${error.message}`}>
                <td>{error.row}</td>
                <td>{error.column ?? "—"}</td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
