import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ApiFailure, api, unwrap } from "./api.ts";
import { Link, navigate } from "./router.tsx";
import { Alert, Field } from "./ui.tsx";

// Sign in and sign up: `/api/auth/*` sets the session cookie; the session query then shows the app.
// The pages of emailed links (password reset, invitations) are in account-links.tsx.

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="card w-full max-w-sm">
        <p className="mb-1 text-sm font-medium text-indigo-700">Commerce</p>
        <h1 className="mb-6 text-2xl font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}

function useCredentialsForm(send: (email: string, password: string) => Promise<unknown>) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const mutation = useMutation({
    mutationFn: () => send(email, password),
    onSuccess: async () => {
      navigate("/", { replace: true });
      await queryClient.invalidateQueries();
    },
  });
  const failure = mutation.error instanceof ApiFailure ? mutation.error : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const fields = (
    <>
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={failure?.fieldMessage("email")}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={failure?.fieldMessage("password")}
      />
    </>
  );
  // An error that names no field (wrong password, sign-up closed) is shown above the form.
  const alert = mutation.error && !failure?.details.length ? <Alert>{mutation.error.message}</Alert> : null;
  return { onSubmit, fields, alert, pending: mutation.isPending };
}

export function SignIn() {
  const form = useCredentialsForm((email, password) =>
    unwrap(api.POST("/api/auth/sign-in/email", { body: { email, password } })),
  );
  return (
    <AuthCard title="Sign in">
      <form className="space-y-4" onSubmit={form.onSubmit} noValidate>
        {form.alert}
        {form.fields}
        <button type="submit" className="btn btn-primary w-full" disabled={form.pending}>
          {form.pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p className="mt-4 text-sm">
        <Link to="/forgot-password" className="font-medium text-indigo-700 underline">
          Forgot password?
        </Link>
      </p>
      <p className="mt-6 text-sm text-slate-600">
        No account?{" "}
        <Link to="/sign-up" className="font-medium text-indigo-700 underline">
          Create one
        </Link>{" "}
        (when this service allows sign-up).
      </p>
    </AuthCard>
  );
}

export function SignUp() {
  const form = useCredentialsForm((email, password) =>
    unwrap(api.POST("/api/auth/sign-up/email", { body: { email, password } })),
  );
  return (
    <AuthCard title="Create your account">
      <form className="space-y-4" onSubmit={form.onSubmit} noValidate>
        {form.alert}
        {form.fields}
        <button type="submit" className="btn btn-primary w-full" disabled={form.pending}>
          Sign up
        </button>
      </form>
      <p className="mt-6 text-sm text-slate-600">
        Have an account?{" "}
        <Link to="/" className="font-medium text-indigo-700 underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
