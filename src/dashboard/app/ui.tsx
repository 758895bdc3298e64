import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as Dialog from "@radix-ui/react-dialog";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { ApiFailure, api, messageOf, unwrap } from "./api.ts";

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

export const ModalClose = ({ children }: { children: ReactNode }) => (
  <Dialog.Close asChild>{children}</Dialog.Close>
);

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
          <ModalClose>
            <button type="button" className="btn btn-secondary">
              Close
            </button>
          </ModalClose>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {submit}
          </button>
        </div>
      </form>
    </Modal>
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
