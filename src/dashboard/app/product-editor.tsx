import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import type { operations } from "../../../examples/api-types.ts";
import { ApiFailure, api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import { ProductImages } from "./product-images.tsx";
import { STATUSES, statusLabel } from "./products.tsx";
import { Link, navigate } from "./router.tsx";
import {
  Alert,
  Checkbox,
  Confirm,
  Field,
  fieldError,
  filledLocales,
  LocalizedFields,
  PageHeader,
  QueryState,
  SelectField,
  toDecimal,
  toMinorUnits,
  useLocalized,
  useStore,
} from "./ui.tsx";

// Create and edit a product. Variants follow the options: each combination of option values is one
// variant, and a variant keeps what was typed for it while other options change. Prices are typed
// as decimals and sent as minor units of the store's currency.

type Product = Schemas["Product"];
type Store = Schemas["Store"];
type Body = operations["adminCreateProduct"]["requestBody"]["content"]["application/json"];
export type Image = { url: string; alt: string };

interface OptionDraft {
  name: string;
  /** The values as typed: "S, M, L". */
  values: string;
}
interface VariantDraft {
  id?: string;
  sku: string;
  price: string;
  tracked: boolean;
  onHand: string;
}
interface Draft {
  name: Record<string, string>;
  description: Record<string, string>;
  status: Product["status"];
  categoryIds: string[];
  options: OptionDraft[];
  /** By combination key (the values joined by " / "; "" for a product without options). */
  variants: Record<string, VariantDraft>;
  images: Image[];
}

const splitValues = (text: string) => [
  ...new Set(
    text
      .split(",")
      .map((value) => value.trim())
      .filter(Boolean),
  ),
];
const namedOptions = (options: OptionDraft[]) =>
  options
    .filter((option) => option.name.trim())
    .map((o) => ({ name: o.name.trim(), values: splitValues(o.values) }));

/** Every combination of the options' values, in order, as {option name: value}. */
function combinations(options: OptionDraft[]): Record<string, string>[] {
  return namedOptions(options).reduce<Record<string, string>[]>(
    (rows, option) => rows.flatMap((row) => option.values.map((value) => ({ ...row, [option.name]: value }))),
    [{}],
  );
}
const keyOf = (combination: Record<string, string>) => Object.values(combination).join(" / ");

function draftOf(product: Product | undefined, currency: string): Draft {
  const variants: Record<string, VariantDraft> = {};
  for (const variant of product?.variants ?? []) {
    variants[keyOf(variant.options)] = {
      id: variant.id,
      sku: variant.sku ?? "",
      price: toDecimal(variant.price.amount, currency),
      tracked: variant.inventory.tracked,
      onHand: String(variant.inventory.onHand),
    };
  }
  return {
    name: { ...product?.name },
    description: { ...product?.description },
    status: product?.status ?? "draft",
    categoryIds: product?.categoryIds ?? [],
    options: product?.options.map((o) => ({ name: o.name, values: o.values.join(", ") })) ?? [],
    variants,
    images: product?.images.map((image) => ({ url: image.url, alt: image.alt ?? "" })) ?? [],
  };
}

const blankVariant: VariantDraft = { sku: "", price: "", tracked: false, onHand: "0" };

/** The request body of a draft, or the first variant whose price is not a decimal. */
function bodyOf(draft: Draft, currency: string): Body | { badPrice: number } {
  const variants: Body["variants"] = [];
  for (const [index, combination] of combinations(draft.options).entries()) {
    const typed = draft.variants[keyOf(combination)] ?? blankVariant;
    const price = toMinorUnits(typed.price, currency);
    if (price === undefined) return { badPrice: index };
    variants.push({
      ...(typed.id ? { id: typed.id } : {}),
      sku: typed.sku.trim() || null,
      options: combination,
      price,
      inventory: typed.tracked ? { tracked: true, onHand: Number(typed.onHand) || 0 } : { tracked: false },
    });
  }
  const description = filledLocales(draft.description);
  return {
    name: filledLocales(draft.name),
    description: Object.keys(description).length ? description : null,
    status: draft.status,
    categoryIds: draft.categoryIds,
    options: namedOptions(draft.options),
    images: draft.images.map((image) => (image.alt.trim() ? image : { url: image.url })),
    variants,
  };
}

export function ProductEditor({ id }: { id: string | undefined }) {
  const store = useStore();
  const product = useQuery({
    queryKey: ["product", id],
    queryFn: () => unwrap(api.GET("/v1/admin/products/{id}", { params: { path: { id: id ?? "" } } })),
    enabled: id !== undefined,
  });
  const title = id ? "Edit product" : "Create product";
  if (!store.data || (id && !product.data))
    return (
      <>
        <PageHeader title={title} />
        <QueryState query={store.data ? product : store} what={store.data ? "the product" : "the store"} />
      </>
    );
  return <EditorForm key={product.data?.id ?? "new"} product={product.data} store={store.data} />;
}

/** The `details[].path`s a field of the form shows its message for; the others are listed under the form. */
function fieldPaths(draft: Draft, store: Store): Set<string> {
  const indexed = (count: number, prefix: string, fields: string[]) =>
    Array.from({ length: count }, (_, i) => fields.map((field) => `${prefix}/${i}/${field}`)).flat();
  const paths = [
    "name",
    "description",
    "status",
    "categoryIds",
    "variants",
    ...store.locales.flatMap((locale) => [`name/${locale}`, `description/${locale}`]),
    ...indexed(draft.options.length, "options", ["name", "values"]),
    ...indexed(draft.images.length, "images", ["alt", "url"]),
    ...indexed(combinations(draft.options).length, "variants", ["sku", "price", "inventory/onHand"]),
  ];
  return new Set(paths.map((path) => `/body/${path}`));
}

/** The save's error under the form: what no field shows, or a pointer to the fields that do. */
function SaveError({ error, draft, store }: { error: Error; draft: Draft; store: Store }) {
  const details = error instanceof ApiFailure ? error.details : [];
  const shown = fieldPaths(draft, store);
  const unmatched = details.filter((detail) => !shown.has(detail.path));
  return (
    <Alert>
      <p>{unmatched.length < details.length ? "Check the fields marked above." : error.message}</p>
      {unmatched.length < details.length &&
        unmatched.map((detail) => <p key={detail.path}>{detail.message}</p>)}
    </Alert>
  );
}

function EditorForm({ product, store }: { product: Product | undefined; store: Store }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(product, store.currency));
  const [badPrice, setBadPrice] = useState<number>();
  const save = useMutation({
    mutationFn: (body: Body) =>
      product
        ? unwrap(api.PATCH("/v1/admin/products/{id}", { params: { path: { id: product.id } }, body }))
        : unwrap(api.POST("/v1/admin/products", { body })),
    onSuccess: async (saved) => {
      // The draft starts again from what the API answered: new variants now have ids to update.
      setDraft(draftOf(saved, store.currency));
      queryClient.setQueryData(["product", saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: ["products"] });
      if (!product) navigate(`/products/${saved.id}`, { replace: true });
    },
  });
  // An edit takes away the last save's "Saved." (and its errors, which may no longer apply).
  const update = (patch: Partial<Draft>) => {
    save.reset();
    setDraft((current) => ({ ...current, ...patch }));
  };
  const at = (path: string) => fieldError(save.error, path);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(draft, store.currency);
    setBadPrice("badPrice" in body ? body.badPrice : undefined);
    if ("badPrice" in body) save.reset();
    else save.mutate(body);
  };
  const form = (
    <form className="max-w-3xl space-y-6" onSubmit={submit} noValidate>
      <Section title="Name and description">
        <Texts store={store} draft={draft} update={update} at={at} error={save.error} />
      </Section>
      <Section title="Status and categories">
        <StatusAndCategories draft={draft} update={update} at={at} />
      </Section>
      <Section title="Images">
        <ProductImages images={draft.images} onChange={(images) => update({ images })} at={at} />
      </Section>
      <Section title="Options and variants">
        <Options draft={draft} update={update} at={at} />
        <Variants draft={draft} update={update} at={at} badPrice={badPrice} />
      </Section>
      {save.error && <SaveError error={save.error} draft={draft} store={store} />}
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {product ? "Save" : "Create product"}
        </button>
        <Link to="/products" className="btn btn-secondary">
          Back to products
        </Link>
      </div>
    </form>
  );
  return (
    <>
      <PageHeader title={product ? "Edit product" : "Create product"}>
        {product && <DeleteProduct product={product} />}
      </PageHeader>
      {form}
    </>
  );
}

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <fieldset className="card space-y-4">
    <legend className="text-lg font-semibold">{title}</legend>
    {children}
  </fieldset>
);

interface PartProps {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  at: (path: string) => string | undefined;
}

function Texts({ store, draft, update, at, error }: PartProps & { store: Store; error: Error | null }) {
  const languages = new Intl.DisplayNames([store.defaultLocale], { type: "language" });
  const many = store.locales.length > 1;
  return (
    <>
      <LocalizedFields
        label="Name"
        field="name"
        value={draft.name}
        onChange={(name) => update({ name })}
        error={error}
      />
      {store.locales.map((locale) => (
        <TextArea
          key={locale}
          label={many ? `Description (${languages.of(locale)})` : "Description"}
          lang={locale}
          value={draft.description[locale] ?? ""}
          onChange={(text) => update({ description: { ...draft.description, [locale]: text } })}
          error={
            at(`description/${locale}`) ?? (locale === store.defaultLocale ? at("description") : undefined)
          }
        />
      ))}
    </>
  );
}

function TextArea(props: {
  label: string;
  lang: string;
  value: string;
  onChange: (text: string) => void;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {props.label}
      </label>
      <textarea
        id={id}
        lang={props.lang}
        rows={4}
        className="input"
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

function StatusAndCategories({ draft, update, at }: PartProps) {
  const localized = useLocalized();
  const categories = useQuery({
    queryKey: ["categories"],
    queryFn: () => unwrap(api.GET("/v1/admin/categories")),
  });
  const toggle = (id: string, on: boolean) =>
    update({ categoryIds: on ? [...draft.categoryIds, id] : draft.categoryIds.filter((c) => c !== id) });
  const categoriesError = at("categoryIds");
  return (
    <>
      <SelectField
        label="Status"
        value={draft.status}
        onChange={(status) => update({ status: status as Product["status"] })}
        options={STATUSES.map((status) => [status, statusLabel(status)] as const)}
        error={at("status")}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Categories</legend>
        {!categories.data ? (
          <QueryState query={categories} what="categories" />
        ) : categories.data.length === 0 ? (
          <p className="text-sm text-slate-600">No categories yet (Categories in the menu).</p>
        ) : (
          categories.data.map((category) => (
            <Checkbox
              key={category.id}
              label={localized(category.name) || category.slug}
              checked={draft.categoryIds.includes(category.id)}
              onChange={(on) => toggle(category.id, on)}
            />
          ))
        )}
        {categoriesError && <p className="text-sm text-red-700">{categoriesError}</p>}
      </fieldset>
    </>
  );
}

function Options({ draft, update, at }: PartProps) {
  const set = (index: number, patch: Partial<OptionDraft>) =>
    update({ options: draft.options.map((option, i) => (i === index ? { ...option, ...patch } : option)) });
  return (
    <div className="space-y-3">
      {draft.options.map((option, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: options are edited in place and have no id.
        <div key={index} className="grid grid-cols-[1fr_2fr_auto] items-end gap-2">
          <Field
            label={`Option ${index + 1} name`}
            placeholder="Size"
            value={option.name}
            onChange={(e) => set(index, { name: e.target.value })}
            error={at(`options/${index}/name`)}
          />
          <Field
            label={`Option ${index + 1} values`}
            hint="Separated by commas"
            placeholder="S, M, L"
            value={option.values}
            onChange={(e) => set(index, { values: e.target.value })}
            error={at(`options/${index}/values`)}
          />
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => update({ options: draft.options.filter((_, i) => i !== index) })}
          >
            Remove option {index + 1}
          </button>
        </div>
      ))}
      {draft.options.length < 3 && (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => update({ options: [...draft.options, { name: "", values: "" }] })}
        >
          Add option
        </button>
      )}
    </div>
  );
}

function Variants({ draft, update, at, badPrice }: PartProps & { badPrice: number | undefined }) {
  const rows = combinations(draft.options);
  return (
    <div className="space-y-3">
      {rows.map((combination, index) => {
        const key = keyOf(combination);
        const variant = draft.variants[key] ?? blankVariant;
        const set = (patch: Partial<VariantDraft>) =>
          update({ variants: { ...draft.variants, [key]: { ...variant, ...patch } } });
        // Each control names its variant ("Price, S") so a screen reader user knows which row it is.
        const of = (label: string) => (key ? `${label}, ${key}` : label);
        return (
          <div key={key || "only"} className="rounded-md border border-slate-200 p-3">
            {key && <p className="mb-2 text-sm font-semibold">{key}</p>}
            <div className="grid grid-cols-2 items-end gap-3 md:grid-cols-4">
              <Field
                label={of("SKU")}
                value={variant.sku}
                onChange={(e) => set({ sku: e.target.value })}
                error={at(`variants/${index}/sku`)}
              />
              <Field
                label={of("Price")}
                inputMode="decimal"
                placeholder="49.00"
                value={variant.price}
                onChange={(e) => set({ price: e.target.value })}
                error={badPrice === index ? "Enter a price such as 49.00" : at(`variants/${index}/price`)}
              />
              <Checkbox
                label={of("Track stock")}
                checked={variant.tracked}
                onChange={(tracked) => set({ tracked })}
              />
              <Field
                label={of("Stock")}
                type="number"
                min={0}
                disabled={!variant.tracked}
                value={variant.onHand}
                onChange={(e) => set({ onHand: e.target.value })}
                error={at(`variants/${index}/inventory/onHand`)}
              />
            </div>
          </div>
        );
      })}
      {at("variants") && <p className="text-sm text-red-700">{at("variants")}</p>}
    </div>
  );
}

function DeleteProduct({ product }: { product: Product }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrapEmpty(api.DELETE("/v1/admin/products/{id}", { params: { path: { id: product.id } } })),
    onSuccess: async () => {
      navigate("/products", { replace: true });
      queryClient.removeQueries({ queryKey: ["product", product.id] });
      await queryClient.invalidateQueries({ queryKey: ["products"] });
    },
  });
  return (
    <div className="flex items-center gap-3">
      {remove.error && <Alert>{remove.error.message}</Alert>}
      <Confirm
        title="Delete this product?"
        description="It disappears from the store and its search at once, with its variants and their stock. Placed orders keep their own copy. This cannot be undone."
        trigger={
          <button type="button" className="btn btn-danger">
            Delete product
          </button>
        }
        confirm="Delete product"
        onConfirm={() => remove.mutate()}
      />
    </div>
  );
}
