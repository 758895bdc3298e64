import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiFailure, api, type Schemas, unwrap, unwrapEmpty } from "./api.ts";
import { AuthCard } from "./auth.tsx";
import { Link, navigate, useLocation } from "./router.tsx";
import { Alert, Field, Loading } from "./ui.tsx";

// The pages an emailed link opens, shown signed in or not: asking for a password reset link,
// choosing the new password, and accepting an invitation (signing in, or choosing a password for a
// new account). The link's token is in the page's `?token=`; it is sent to the API in a body.

/** The signed-in user, if any: an invitation is accepted by their session. */
type Session = { user: { email: string } } | null;

const BackToSignIn = () => (
  <p className="mt-6 text-sm text-slate-600">
    <Link to="/" className="font-medium text-indigo-700 underline">
      Back to sign in
    </Link>
  </p>
);

/** Submits a form's mutation without the browser's own navigation. */
const submitting = (mutate: () => void) => (event: FormEvent) => {
  event.preventDefault();
  mutate();
};

/** An error that names no field (an expired link, a refused role), shown above the form. */
const formAlert = (error: Error | null) =>
  error && !(error instanceof ApiFailure && error.details.length > 0) ? <Alert>{error.message}</Alert> : null;

const fieldMessage = (error: Error | null, field: string) =>
  error instanceof ApiFailure ? error.fieldMessage(field) : undefined;

interface NewPasswordProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: string;
  /** The mutation's error: its message about `password` is shown under the field. */
  error: Error | null;
}

/** A new password, with the sign-up rule as its hint. */
const NewPassword = ({ label, value, onChange, hint, error }: NewPasswordProps) => (
  <Field
    label={label}
    type="password"
    autoComplete="new-password"
    required
    minLength={8}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    hint={hint}
    error={fieldMessage(error, "password")}
  />
);

export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: () => unwrap(api.POST("/api/auth/password-reset", { body: { email: email.trim() } })),
  });
  if (request.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <Alert tone="success">
          If an account exists for {email.trim()}, we sent it a link to choose a new password. The link works
          for 30 minutes.
        </Alert>
        <BackToSignIn />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password">
      <form className="space-y-4" onSubmit={submitting(() => request.mutate())} noValidate>
        {formAlert(request.error)}
        <p className="text-sm text-slate-700">Enter your account's email and we'll send you a link.</p>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldMessage(request.error, "email")}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={request.isPending}>
          Send me a link
        </button>
      </form>
      <BackToSignIn />
    </AuthCard>
  );
}

export function ResetPassword() {
  const queryClient = useQueryClient();
  const token = useLocation().search.get("token") ?? "";
  const [password, setPassword] = useState("");
  const reset = useMutation({
    mutationFn: () =>
      unwrapEmpty(api.POST("/api/auth/password-reset/confirm", { body: { token, password } })),
    // Every session of the account ended, this browser's too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["session"] }),
  });
  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed">
        <Alert tone="success">Your password is changed. Sign in with the new one.</Alert>
        <BackToSignIn />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <form className="space-y-4" onSubmit={submitting(() => reset.mutate())} noValidate>
        {formAlert(reset.error)}
        <NewPassword
          label="New password"
          value={password}
          onChange={setPassword}
          hint="At least 8 characters. You will be signed out everywhere."
          error={reset.error}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={reset.isPending}>
          Set new password
        </button>
      </form>
      {reset.error && (
        <p className="mt-4 text-sm text-slate-600">
          <Link to="/forgot-password" className="font-medium text-indigo-700 underline">
            Ask for a new link
          </Link>
        </p>
      )}
    </AuthCard>
  );
}

type Invitation = Schemas["InvitationPreview"];

const ROLE_NAMES: Record<Invitation["role"], string> = {
  owner: "an owner",
  admin: "an admin",
  member: "a member",
};

/** Accepts the invitation (with a password for a new account) and opens the organization. */
function useAccept(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: {
      password?: string;
      name?: string;
      signIn?: { email: string; password: string };
    }) =>
      (account.signIn
        ? unwrap(api.POST("/api/auth/sign-in/email", { body: account.signIn }))
        : Promise.resolve()
      ).then(() =>
        unwrap(
          api.POST("/api/auth/invitations/accept", {
            body: { token, password: account.password, name: account.name || undefined },
          }),
        ),
      ),
    onSuccess: async () => {
      navigate("/", { replace: true });
      await queryClient.invalidateQueries();
    },
  });
}

export function AcceptInvitation({ session }: { session: Session }) {
  const token = useLocation().search.get("token") ?? "";
  const invitation = useQuery({
    queryKey: ["invitation", token],
    queryFn: () => unwrap(api.POST("/api/auth/invitations/lookup", { body: { token } })),
    retry: false,
  });
  if (invitation.isPending) return <Loading what="the invitation" />;
  if (!invitation.data) {
    return (
      <AuthCard title="Invitation">
        <Alert>{invitation.error?.message ?? "This invitation cannot be opened."}</Alert>
        <p className="mt-4 text-sm text-slate-700">Ask the person who invited you for a new invitation.</p>
        <BackToSignIn />
      </AuthCard>
    );
  }
  const data = invitation.data;
  return (
    <AuthCard title={`Join ${data.organizationName}`}>
      <p className="mb-4 text-sm text-slate-700">
        You are invited to join {data.organizationName} as {ROLE_NAMES[data.role]}, with the email{" "}
        <strong>{data.email}</strong>.
      </p>
      {session ? (
        <JoinSignedIn token={token} invitation={data} email={session.user.email} />
      ) : data.hasAccount ? (
        <JoinBySigningIn token={token} invitation={data} />
      ) : (
        <JoinWithNewAccount token={token} />
      )}
    </AuthCard>
  );
}

function JoinSignedIn({
  token,
  invitation,
  email,
}: {
  token: string;
  invitation: Invitation;
  email: string;
}) {
  const accept = useAccept(token);
  if (email !== invitation.email) {
    return (
      <Alert>
        You are signed in as {email}, but this invitation is for {invitation.email}. Sign out, then open the
        link again.
      </Alert>
    );
  }
  return (
    <>
      {formAlert(accept.error)}
      <button
        type="button"
        className="btn btn-primary w-full"
        disabled={accept.isPending}
        onClick={() => accept.mutate({})}
      >
        Join {invitation.organizationName}
      </button>
    </>
  );
}

function JoinBySigningIn({ token, invitation }: { token: string; invitation: Invitation }) {
  const accept = useAccept(token);
  const [password, setPassword] = useState("");
  return (
    <form
      className="space-y-4"
      onSubmit={submitting(() => accept.mutate({ signIn: { email: invitation.email, password } }))}
      noValidate
    >
      {formAlert(accept.error)}
      <p className="text-sm text-slate-700">You already have an account: sign in to accept.</p>
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="btn btn-primary w-full" disabled={accept.isPending}>
        Sign in and join
      </button>
      <p className="text-sm">
        <Link to="/forgot-password" className="font-medium text-indigo-700 underline">
          Forgot password?
        </Link>
      </p>
    </form>
  );
}

function JoinWithNewAccount({ token }: { token: string }) {
  const accept = useAccept(token);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  return (
    <form className="space-y-4" onSubmit={submitting(() => accept.mutate({ password, name }))} noValidate>
      {formAlert(accept.error)}
      <Field label="Your name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      <NewPassword
        label="Choose a password"
        value={password}
        onChange={setPassword}
        hint="At least 8 characters."
        error={accept.error}
      />
      <button type="submit" className="btn btn-primary w-full" disabled={accept.isPending}>
        Create account and join
      </button>
    </form>
  );
}
