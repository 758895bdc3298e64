import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import {
  DeleteButton,
  EditDialog,
  Empty,
  fieldError,
  filledLocales,
  LocalizedFields,
  PageHeader,
  QueryState,
  SelectField,
  useEditDialog,
  useLocalized,
} from "./ui.tsx";

// Categories as a tree: `GET /v1/admin/categories` is one flat list by position, nested here by
// `parentId`. Renaming and moving are one update (`PATCH …/{id}` with `name` and `parentId`); the
// API refuses a cycle (409) and the deletion of a category that still has subcategories (409).

type Category = Schemas["Category"];

const childrenOf = (all: Category[], parentId: string | null) => all.filter((c) => c.parentId === parentId);

/** A category and everything under it: where it cannot be moved to. */
function subtree(all: Category[], id: string): Set<string> {
  const ids = new Set([id]);
  for (const child of childrenOf(all, id)) for (const below of subtree(all, child.id)) ids.add(below);
  return ids;
}

export function Categories() {
  const categories = useQuery({
    queryKey: ["categories"],
    queryFn: () => unwrap(api.GET("/v1/admin/categories")),
  });
  const all = categories.data ?? [];
  return (
    <>
      <PageHeader title="Categories">{categories.data && <CategoryDialog all={all} />}</PageHeader>
      {!categories.data ? (
        <QueryState query={categories} what="categories" />
      ) : all.length === 0 ? (
        <Empty>No categories yet. Categories group products in the storefront's navigation.</Empty>
      ) : (
        <div className="card">
          <Branch all={all} parentId={null} />
        </div>
      )}
    </>
  );
}

function Branch({ all, parentId }: { all: Category[]; parentId: string | null }) {
  const children = childrenOf(all, parentId);
  if (children.length === 0) return null;
  return (
    <ul className={parentId ? "ml-6 border-l border-slate-200 pl-4" : "space-y-1"}>
      {children.map((category) => (
        <li key={category.id}>
          <CategoryRow all={all} category={category} />
          <Branch all={all} parentId={category.id} />
        </li>
      ))}
    </ul>
  );
}

function CategoryRow({ all, category }: { all: Category[]; category: Category }) {
  const localized = useLocalized();
  const name = localized(category.name);
  return (
    <div className="py-1">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium">{name}</span>
        <span className="text-sm text-slate-600">
          {category.productCount} {category.productCount === 1 ? "product" : "products"}
        </span>
        <CategoryDialog all={all} category={category} />
        <DeleteButton
          name={name}
          noun="category"
          description="Its products lose this category; the products themselves stay."
          remove={() =>
            unwrapEmpty(api.DELETE("/v1/admin/categories/{id}", { params: { path: { id: category.id } } }))
          }
          list={["categories"]}
        />
      </div>
    </div>
  );
}

/** Create a category (no `category`) or rename and move one. */
function CategoryDialog({ all, category }: { all: Category[]; category?: Category }) {
  const localized = useLocalized();
  const [name, setName] = useState<Record<string, string>>({});
  const [parentId, setParentId] = useState("");
  const { mutation: save, dialog } = useEditDialog(
    (body: { name: Record<string, string>; parentId: string | null }) =>
      category
        ? unwrap(api.PATCH("/v1/admin/categories/{id}", { params: { path: { id: category.id } }, body }))
        : unwrap(api.POST("/v1/admin/categories", { body })),
    ["categories"],
  );
  const excluded = category ? subtree(all, category.id) : new Set<string>();
  const parents = [
    ["", "None (top level)"] as const,
    ...all.filter((c) => !excluded.has(c.id)).map((c) => [c.id, localized(c.name)] as const),
  ];
  return (
    <EditDialog
      noun="category"
      editing={category && localized(category.name)}
      onOpen={() => {
        setName(category?.name ?? {});
        setParentId(category?.parentId ?? "");
      }}
      onSubmit={() => save.mutate({ name: filledLocales(name), parentId: parentId || null })}
      {...dialog}
    >
      <LocalizedFields label="Name" field="name" value={name} onChange={setName} error={save.error} />
      <SelectField
        label="Parent"
        value={parentId}
        onChange={setParentId}
        options={parents}
        error={fieldError(save.error, "parentId")}
      />
    </EditDialog>
  );
}
