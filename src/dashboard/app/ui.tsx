import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as Dialog from "@radix-ui/react-dialog";
import { type UseMutationResult, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { ApiFailure, api, messageOf, unwrap } from "./api.ts";
import { Link } from "./router.tsx";

// The pieces every page is made of: labelled fields with the API's message beside them, alerts,
// the loading / empty / error states, dialogs (Radix), and money in the store's currency.

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The API's message about this field, shown under it and tied to it for screen readers. */
  error?: string | undefined;
  hint?: string;
}

export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** `[value, what a person reads]` pairs. */
  options: readonly (readonly [string, string])[];
  error?: string | undefined;
}

/** A labelled `<select>` in a form, with the API's message about it underneath. */
export function SelectField({ label, value, onChange, options, error }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className="input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className="size-4"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
    </div>
  );
}

export function Alert({ children, tone = "error" }: { children: ReactNode; tone?: "error" | "success" }) {
  const colours =
    tone === "error"
      ? "border-red-200 bg-red-50 text-red-800"
      : "border-green-200 bg-green-50 text-green-800";
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border px-4 py-3 text-sm ${colours}`}
    >
      {children}
    </div>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p role="status" className="py-8 text-center text-sm text-slate-600">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: ReactNode }) => (
  <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-600">
    {children}
  </p>
);

/** What a query shows until it has data: its loading line, or its error with a retry. */
export function QueryState({
  query,
  what,
}: {
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  what: string;
}) {
  if (query.isPending) return <Loading what={what} />;
  return (
    <Alert>
      <p>
        Could not load {what}: {messageOf(query.error)}
      </p>
      <button type="button" className="btn btn-secondary mt-2" onClick={() => query.refetch()}>
        Try again
      </button>
    </Alert>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}

/** The store's settings (currency, locales), which money and names are shown in. */
export const useStore = () =>
  useQuery({ queryKey: ["store"], queryFn: () => unwrap(api.GET("/v1/admin/store")), staleTime: 60_000 });

/** A formatter of minor units in the store's currency and default locale. */
export function useMoney(): (amount: number, currency?: string) => string {
  const store = useStore().data;
  return (amount, currency) => {
    const code = currency ?? store?.currency ?? "EUR";
    const format = new Intl.NumberFormat(store?.defaultLocale ?? "en", { style: "currency", currency: code });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  };
}

/** A decimal typed by a person ("49.00", "49,5") as minor units of `currency`; undefined when it is not one. */
export function toMinorUnits(text: string, currency: string): number | undefined {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(text.trim());
  if (!match || (match[2]?.length ?? 0) > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? "").padEnd(digits, "0") || 0);
}

/** Minor units as the decimal a person types ("49.00"), the inverse of `toMinorUnits`. */
export function toDecimal(amount: number, currency: string): string {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (amount / 10 ** digits).toFixed(digits);
}

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

interface ModalProps {
  title: string;
  trigger: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/** A dialog with a form (fulfil, refund, create): Radix keeps the focus inside and Escape closes it. */
export function Modal({ title, trigger, open, onOpenChange, children }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="mb-4 text-lg font-semibold">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The button that closes the dialog it is in ("Close", or "Done" once the dialog's work is done). */
export const ModalClose = ({ label = "Close", primary = false }: { label?: string; primary?: boolean }) => (
  <Dialog.Close asChild>
    <button type="button" className={primary ? "btn btn-primary" : "btn btn-secondary"}>
      {label}
    </button>
  </Dialog.Close>
);

/** A credential just made, read-only with a Copy button; select-all on focus for a browser that refuses to copy. */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const [copied, setCopied] = useState<boolean>();
  // `navigator.clipboard` is absent outside a secure context: that is a refusal too.
  const copy = () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(
        () => setCopied(true),
        () => setCopied(false),
      );
  const what = label.toLowerCase();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          className="input font-mono"
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-secondary" aria-label={`Copy ${what}`} onClick={copy}>
          Copy
        </button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {copied !== undefined && (
        <p role="status" className="text-sm text-slate-700">
          {copied ? "Copied." : `This browser did not allow copying: select the ${what} and copy it.`}
        </p>
      )}
    </div>
  );
}

/** The inside of a dialog showing credentials this once: what to do with them, each to copy, and Done. */
export const ShownOnce = ({ notice, children }: { notice: ReactNode; children: ReactNode }) => (
  <div className="space-y-4">
    <Alert tone="success">{notice}</Alert>
    {children}
    <div className="flex justify-end">
      <ModalClose label="Done" primary />
    </div>
  </div>
);

/** A dialog showing a credential once: closing it forgets the answer (`forget`), so it is never shown again. */
function useForgetOnClose(forget: () => void) {
  const [open, setOpen] = useState(false);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) forget();
  };
  return { open, onOpenChange };
}

interface RevealDialogProps<T> {
  trigger: ReactNode;
  /** The question asked first ("Rotate the signing secret?"); `doneTitle` once answered. */
  title: string;
  doneTitle: string;
  /** What happens, said before anything does. */
  description: string;
  /** The button that does it. */
  confirm: string;
  /** The call that makes the new credential, and what to read again once it answered. */
  make: () => Promise<T>;
  onMade: () => unknown;
  /** The answer, shown this once (a `ShownOnce`). */
  children: (made: T) => ReactNode;
}

/** A dialog that asks first, then makes a credential and shows it once (rotate a secret, replace a token). */
export function RevealDialog<T>({
  title,
  doneTitle,
  description,
  confirm,
  make,
  onMade,
  ...modal
}: RevealDialogProps<T>) {
  const mutation = useMutation({ mutationFn: make, onSuccess: onMade });
  const { open, onOpenChange } = useForgetOnClose(mutation.reset);
  return (
    <Modal
      title={mutation.data === undefined ? title : doneTitle}
      open={open}
      onOpenChange={onOpenChange}
      trigger={modal.trigger}
    >
      {mutation.data !== undefined ? (
        modal.children(mutation.data)
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{description}</p>
          {mutation.error && <Alert>{mutation.error.message}</Alert>}
          <div className="flex justify-end gap-2">
            <ModalClose label="Keep it" />
            <button
              type="button"
              className="btn btn-danger"
              disabled={mutation.isPending}
              onClick={() => mutation.mutate()}
            >
              {confirm}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}

interface FormDialogProps {
  title: string;
  /** The button that opens the dialog; the form's own submit button is named `submit`. */
  trigger: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: () => void;
  submit: string;
  pending: boolean;
  /** The mutation's error: one that names no field is shown above the fields (they show their own). */
  error: Error | null;
  children: ReactNode;
}

/** A dialog holding a form whose submit calls the API (fulfil, refund, create organization, create key). */
export function FormDialog({ onSubmit, submit, pending, error, children, ...modal }: FormDialogProps) {
  const named = error instanceof ApiFailure && error.details.length > 0;
  const submitted = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal {...modal}>
      <form className="space-y-4" onSubmit={submitted}>
        {error && !named && <Alert>{error.message}</Alert>}
        {children}
        <div className="flex justify-end gap-2">
          <ModalClose />
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}

interface CreateRevealDialogProps<T>
  extends Pick<FormDialogProps, "title" | "trigger" | "submit" | "children"> {
  /** The create call, whose answer holds what is shown once. */
  mutation: UseMutationResult<T, Error, void>;
  doneTitle: string;
  /** The answer, shown this once (a `ShownOnce`). */
  reveal: (made: T) => ReactNode;
  /** Empties the form once the dialog closes. */
  onClosed: () => void;
}

/** A create form in a dialog whose answer holds credentials: the same dialog then shows them once. */
export function CreateRevealDialog<T>({
  mutation,
  doneTitle,
  reveal,
  onClosed,
  ...form
}: CreateRevealDialogProps<T>) {
  const { open, onOpenChange } = useForgetOnClose(() => {
    mutation.reset();
    onClosed();
  });
  if (mutation.data !== undefined)
    return (
      <Modal title={doneTitle} open={open} onOpenChange={onOpenChange} trigger={form.trigger}>
        {reveal(mutation.data)}
      </Modal>
    );
  return (
    <FormDialog
      {...form}
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={() => mutation.mutate()}
      pending={mutation.isPending}
      error={mutation.error}
    />
  );
}

/**
 * The state of a create-or-edit dialog: whether it is open, and the save that closes it and reads
 * `list` again. Spread `dialog` into `EditDialog`.
 */
export function useEditDialog<Body>(save: (body: Body) => Promise<unknown>, list: readonly string[]) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: () => {
      setOpen(false);
      return queryClient.invalidateQueries({ queryKey: list });
    },
  });
  const onOpenChange = (next: boolean) => {
    if (next) mutation.reset();
    setOpen(next);
  };
  return { mutation, dialog: { open, onOpenChange, pending: mutation.isPending, error: mutation.error } };
}

/** What a form's own check answers: the API's body, or messages by field ("abc" as a price). */
export type Checked<Body> = { body: Body } | { invalid: Record<string, string> };

/**
 * A dialog's form whose values are checked on the page before they are sent (amounts the API takes
 * as minor units). `onOpen` refills it from `fresh`; `onSubmit` checks it and sends the body.
 */
export function useCheckedForm<Form, Body>(
  fresh: () => Form,
  check: (form: Form) => Checked<Body>,
  send: (body: Body) => void,
) {
  const [form, setForm] = useState(fresh);
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  return {
    form,
    setForm,
    invalid,
    onOpen: () => {
      setForm(fresh());
      setInvalid({});
    },
    onSubmit: () => {
      const result = check(form);
      setInvalid("invalid" in result ? result.invalid : {});
      if ("body" in result) send(result.body);
    },
  };
}

interface EditDialogProps extends Omit<FormDialogProps, "title" | "trigger" | "submit"> {
  /** What is created: "coupon" makes "Create coupon". */
  noun: string;
  /** The name of the record edited ("Edit SUMMER5"); absent, the dialog creates one. */
  editing?: string | undefined;
  /** Called as the dialog opens, to fill the form afresh. */
  onOpen: () => void;
}

/** The create-or-edit dialog of a list page (shipping, coupons, categories), with its trigger button. */
export function EditDialog({ noun, editing, onOpen, onOpenChange, ...form }: EditDialogProps) {
  const title = editing ? `Edit ${editing}` : `Create ${noun}`;
  const openChanged = (next: boolean) => {
    if (next) onOpen();
    onOpenChange(next);
  };
  return (
    <FormDialog
      title={title}
      onOpenChange={openChanged}
      trigger={
        <button
          type="button"
          className={editing ? "btn btn-secondary" : "btn btn-primary"}
          aria-label={editing ? title : undefined}
        >
          {editing ? "Edit" : title}
        </button>
      }
      submit={editing ? "Save" : title}
      {...form}
    />
  );
}

/** What an error says about one field of a form, if the API named that field. */
export const fieldError = (error: Error | null, field: string) =>
  error instanceof ApiFailure ? error.fieldMessage(field) : undefined;

interface ConfirmProps {
  title: string;
  description: string;
  trigger: ReactNode;
  confirm: string;
  onConfirm: () => void;
}

/** A confirmation of something that cannot be undone (cancel an order, revoke a key). */
export function Confirm({ title, description, trigger, confirm, onConfirm }: ConfirmProps) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 bg-slate-900/40" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">
            {description}
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className="btn btn-secondary">Keep it</AlertDialog.Cancel>
            <AlertDialog.Action className="btn btn-danger" onClick={onConfirm}>
              {confirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

interface DeleteButtonProps {
  /** The record's name: the button is "Delete <name>", the question "Delete <name>?". */
  name: string;
  noun: string;
  description: string;
  /** The API call that deletes it. */
  remove: () => Promise<unknown>;
  /** The list to read again once it is gone. */
  list: readonly string[];
}

/** A record's Delete button: asks first, then shows the API's refusal (a 409 says why) beside it. */
export function DeleteButton({ name, noun, description, remove, list }: DeleteButtonProps) {
  const queryClient = useQueryClient();
  const deletion = useMutation({
    mutationFn: remove,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: list }),
  });
  return (
    <>
      {deletion.error && <Alert>{deletion.error.message}</Alert>}
      <Confirm
        title={`Delete ${name}?`}
        description={description}
        trigger={
          <button type="button" className="btn btn-secondary" aria-label={`Delete ${name}`}>
            Delete
          </button>
        }
        confirm={`Delete ${noun}`}
        onConfirm={() => deletion.mutate()}
      />
    </>
  );
}

/** A localized name in the store's default locale, else its first translation. */
export function useLocalized(): (text: Record<string, string> | null | undefined) => string {
  const locale = useStore().data?.defaultLocale;
  return (text) => (text && ((locale && text[locale]) || Object.values(text)[0])) ?? "";
}

interface PagerProps {
  page: number;
  pageSize: number;
  /** The list's `meta.total`: the pager shows only when there is more than one page. */
  total: number;
  onPage: (page: number) => void;
}

/** Previous / next page of a paged list (orders, customers, inventory). */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  if (total <= pageSize) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous page
      </button>
      <span>
        Page {page} of {Math.ceil(total / pageSize)}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={page * pageSize >= total}
        onClick={() => onPage(page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

interface LocalizedFieldsProps {
  label: string;
  value: Record<string, string>;
  onChange: (value: Record<string, string>) => void;
  /** The mutation's error: `/body/<field>` or `/body/<field>/<locale>` is shown under its field. */
  error: Error | null;
  field: string;
}

/** One field per store locale for a localized text (`{en: "…", pt: "…"}`); the default locale's is required. */
export function LocalizedFields({ label, value, onChange, error, field }: LocalizedFieldsProps) {
  const store = useStore().data;
  const locales = store?.locales ?? [];
  const languages = new Intl.DisplayNames([store?.defaultLocale ?? "en"], { type: "language" });
  return (
    <>
      {locales.map((locale) => (
        <Field
          key={locale}
          label={locales.length > 1 ? `${label} (${languages.of(locale)})` : label}
          required={locale === store?.defaultLocale}
          value={value[locale] ?? ""}
          onChange={(event) => onChange({ ...value, [locale]: event.target.value })}
          error={
            fieldError(error, `${field}/${locale}`) ??
            (locale === store?.defaultLocale ? fieldError(error, field) : undefined)
          }
        />
      ))}
    </>
  );
}

/** A localized text as the API takes it: the locales left empty are left out. */
export const filledLocales = (value: Record<string, string>) =>
  Object.fromEntries(Object.entries(value).filter(([, text]) => text.trim() !== ""));

interface TableProps {
  /** Column titles; a title in `right` is a column of amounts (or buttons), aligned right. */
  columns: readonly string[];
  right?: readonly string[];
  /** Titles read by screen readers only (a column of buttons). */
  unseen?: readonly string[];
  rows: { key: string; cells: ReactNode[] }[];
}

/** A table of records (orders, customers, refunds) in a card, one cell per column. */
export function DataTable({ columns, right = [], unseen = [], rows }: TableProps) {
  const align = (column: string) => (right.includes(column) ? "px-4 py-3 text-right" : "px-4 py-3");
  return (
    <div className="card overflow-x-auto p-0">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={align(column)}>
                {unseen.includes(column) ? <span className="sr-only">{column}</span> : column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b border-slate-100 last:border-0">
              {row.cells.map((cell, index) => (
                <td key={columns[index]} className={align(columns[index]!)}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface SearchFormProps {
  /** The search in effect; the field starts from it (key the form by it to follow a new one). */
  query: string | undefined;
  placeholder: string;
  onSearch: (query: string | undefined) => void;
  className?: string;
}

/** A search field with its button (orders, customers); an empty search clears the filter. */
export function SearchForm({ query, placeholder, onSearch, className = "" }: SearchFormProps) {
  const [text, setText] = useState(query ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || undefined);
  };
  return (
    <form className={`flex items-end gap-2 ${className}`} onSubmit={submit}>
      <div className="flex-1">
        <Field
          label="Search"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={placeholder}
        />
      </div>
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </form>
  );
}

/** The link above a detail page back to its list ("All orders", "All settings"). */
export const BackLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <p className="mb-2 text-sm">
    <Link to={to} className="text-indigo-800 underline">
      {children}
    </Link>
  </p>
);
