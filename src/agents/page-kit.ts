import { SESSION_COOKIE } from "../auth/caller.ts";
import {
  createSession,
  findUser,
  markSessionAuthenticated,
  SESSION_TTL_MS,
  verifyPassword,
} from "../auth/service.ts";
import type { ClientInfo } from "../core/operation.ts";
import { DURATIONS, type Duration, FRESH_SIGN_IN_MS } from "./approvals.ts";
import { type DashboardSession, dashboardSession, MAX_BODY_BYTES, readText } from "./http.ts";
import type { AgentRuntime } from "./runtime.ts";

// What the merchant's server-rendered pages share (the agent approval page, the OAuth consent page):
// one stylesheet, headers that forbid framing, caching and any third-party load, a password sign-in
// that must be fresh (5 minutes) before any decision, and the checks every form post passes.

export const DURATION_LABELS: Record<Duration, string> = {
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
  "30d": "30 days",
  "90d": "90 days",
};
export const DEFAULT_DURATION: Duration = "30d";

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b1f24;background:#f3f4f6}
main{max-width:40rem;margin:0 auto;padding:1rem 1rem 2rem}
.brand{font-size:.875rem;color:#5b6470;margin:.25rem 0 0}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
p{margin:.5rem 0}
.card{background:#fff;border:1px solid #d9dde3;border-radius:12px;padding:1rem;margin:0 0 1rem}
.field{display:block;font-weight:600;margin:.875rem 0 .25rem}
.card>.field:first-child{margin-top:0}
input[type=email],input[type=password],input[type=text],select,textarea{display:block;width:100%;font:inherit;font-size:1rem;padding:.75rem;border:1px solid #aeb4bd;border-radius:8px;background:#fff;color:inherit}
input[readonly]{background:#f3f4f6}
textarea{min-height:4.5rem;resize:vertical}
input:focus,select:focus,textarea:focus,button:focus{outline:3px solid #8db3f5;outline-offset:1px}
.code{font:600 1.375rem/1.2 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.12em;text-transform:uppercase}
.shown-code{font:700 1.5rem/1.2 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.12em}
button{display:block;width:100%;min-height:48px;font:inherit;font-size:1rem;font-weight:600;border-radius:8px;border:2px solid transparent;padding:.625rem 1rem;margin:.625rem 0 0;cursor:pointer}
.primary{background:#1d5bd0;color:#fff}
.secondary{background:#fff;color:#1d5bd0;border-color:#1d5bd0}
.danger{background:#fff;color:#a8231b;border-color:#a8231b}
.notice{border-radius:8px;padding:.75rem;margin:0 0 1rem;border:1px solid}
.warning{background:#fff6dc;border-color:#e3bd4f}
.error{background:#fdeceb;border-color:#e39b95;color:#7f1a14}
.success{background:#e7f6ec;border-color:#8bcf9f}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .75rem;margin:0}
dt{color:#5b6470}
dd{margin:0;overflow-wrap:anywhere}
.caps{list-style:none;margin:0;padding:0}
.cap{padding:.75rem;border:1px solid #d9dde3;border-radius:8px;margin:.5rem 0}
.cap label{display:flex;gap:.75rem;align-items:flex-start;cursor:pointer}
.cap input[type=checkbox]{flex:none;width:1.5rem;height:1.5rem;margin:.125rem 0 0}
.limits{margin:.5rem 0 0 2.25rem}
.limits label{display:block}
.app-logo{display:block;width:4rem;height:4rem;object-fit:contain;border-radius:12px;margin:0 0 .75rem}
.limits input{width:10rem;font:inherit;padding:.5rem;border:1px solid #aeb4bd;border-radius:8px;margin:.25rem 0 0}
.cap.admin{border-color:#dc9a3e;background:#fff7ec}
.summary,.cap .muted,.constraint{display:block}
details{margin:.5rem 0 0 2.25rem;font-size:.875rem;color:#3d444d}
details summary{cursor:pointer;color:#1d5bd0;min-height:2rem;padding:.25rem 0}
details p{margin:.25rem 0 0;overflow-wrap:anywhere}
.cap-name{font-weight:600;overflow-wrap:anywhere}
.badge{display:inline-block;font-size:.8125rem;font-weight:600;padding:0 .5rem;border-radius:999px;background:#e4ecfb;color:#1b4496;margin-left:.25rem;white-space:nowrap}
.admin .badge{background:#fbe1bd;color:#6e3b00}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem;overflow-wrap:anywhere}
.muted{color:#5b6470;font-size:.875rem}
.constraint{font-size:.875rem;color:#6e3b00}
a{color:#1d5bd0}
`;

/** Headers of every answer of the page: no framing, no caching, no third-party anything. */
export function pageHeaders(
  nonce: string,
  formTargets: string[] = [],
  inlineImages = false,
): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}';${inlineImages ? " img-src data:;" : ""} form-action ${["'self'", ...formTargets].join(" ")}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    // Same-origin keeps the code in the URL away from other sites, and keeps the browser's Origin on
    // the page's own form posts (under no-referrer a browser sends `Origin: null`, which the Origin
    // check below has to refuse).
    "referrer-policy": "same-origin",
    "x-content-type-options": "nosniff",
  };
}

export const newNonce = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");

export interface Html {
  title: string;
  /** What the page is for, after the product name (default "Agent approval"). */
  section?: string;
  /**
   * Origins a form post may end at besides this one: browsers apply `form-action` to the redirect
   * that answers a post too (the OAuth consent's 303 back to the client).
   */
  formTargets?: string[];
  /** Images inlined as `data:` URLs may show (still nothing from any origin). */
  inlineImages?: boolean;
  body: string;
  status?: number;
  headers?: Record<string, string>;
}

export function render({
  title,
  section = "Agent approval",
  formTargets = [],
  inlineImages = false,
  body,
  status = 200,
  headers = {},
}: Html): Response {
  const nonce = newNonce();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · ${escapeHtml(section)}</title>
<style nonce="${nonce}">${CSS}</style>
</head>
<body>
<main>
<p class="brand">Commerce API · ${escapeHtml(section)}</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { ...pageHeaders(nonce, formTargets, inlineImages), ...headers },
  });
}

export const notice = (kind: "warning" | "error" | "success", html: string) =>
  `<div class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}">${html}</div>`;

/** The duration picker of a grant decision, the default selected. */
export const durationOptions = (): string =>
  (Object.keys(DURATIONS) as Duration[])
    .map(
      (d) =>
        `<option value="${d}"${d === DEFAULT_DURATION ? " selected" : ""}>${escapeHtml(DURATION_LABELS[d])}</option>`,
    )
    .join("");

/** The sign-in (or password confirmation) form, posting `email`, `password` and `hidden` to `action`. */
export function signInForm(options: {
  action: string;
  hidden: Record<string, string>;
  purpose: string;
  section?: string;
  error?: string;
  email?: string;
  status?: number;
  reconfirm?: boolean;
}): Response {
  const { action, hidden, purpose, error, email = "", reconfirm = false } = options;
  const intro = reconfirm
    ? `<p>You are signed in as <strong>${escapeHtml(email)}</strong>. ${escapeHtml(purpose)} needs your password again: the last check was more than 5 minutes ago.</p>`
    : `<p>Sign in with your dashboard account. ${escapeHtml(purpose)} needs it.</p>`;
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  return render({
    title: reconfirm ? "Confirm your password" : "Sign in",
    section: options.section,
    status: options.status ?? (error ? 401 : 200),
    body: `${error ? notice("error", escapeHtml(error)) : ""}<div class="card">${intro}
<form method="post" action="${escapeHtml(action)}">
<label class="field" for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(email)}"${reconfirm ? " readonly" : ""}>
<label class="field" for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200"${reconfirm ? " autofocus" : ""}>
${fields}
<button class="primary" type="submit">${reconfirm ? "Confirm password" : "Sign in"}</button>
</form></div>`,
  });
}

/** Whether the session's password was checked within the last 5 minutes (decisions need it). */
export const freshSignIn = (rt: AgentRuntime, session: DashboardSession): boolean =>
  rt.now() - session.authenticatedAt <= FRESH_SIGN_IN_MS;

/** The email of a session's user, for the password confirmation form. */
export const sessionEmail = (rt: AgentRuntime, session: DashboardSession): string =>
  findUser(rt.ctx.platform, session.userId)?.email ?? "";

/**
 * Checks a page's sign-in form (rate-limited per address and per email). Right: a new dashboard
 * session (its cookie in `headers`) or, for the user already signed in, a fresh password check.
 * Wrong: null, and `reconfirm` says whether the form was a confirmation of the signed-in user.
 */
export async function passwordSignIn(
  rt: AgentRuntime,
  request: Request,
  client: ClientInfo,
  email: string,
  password: string,
): Promise<{ headers: Record<string, string> } | { failed: true; reconfirm: boolean }> {
  rt.limits.pageSignInIp.hit(client.ip() ?? "unknown");
  rt.limits.pageSignInEmail.hit(email.toLowerCase());
  const current = dashboardSession(rt, request);
  const user = email && password ? await verifyPassword(rt.ctx.platform, email, password) : null;
  if (!user) {
    const reconfirm = current !== null && findUser(rt.ctx.platform, current.userId)?.email === email;
    return { failed: true, reconfirm };
  }
  const headers: Record<string, string> = {};
  let sessionId: string;
  if (current && current.userId === user.id) {
    sessionId = current.sessionId;
  } else {
    const created = createSession(rt.ctx.platform, user.id, client.userAgent);
    sessionId = created.session.id;
    const secure = rt.origins.base.startsWith("https:") ? "; Secure" : "";
    headers["set-cookie"] =
      `${SESSION_COOKIE}=${created.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
  }
  markSessionAuthenticated(rt.ctx.platform, sessionId, rt.now());
  return { headers };
}

/** A 303 to `location` with the page headers. */
export const seeOther = (location: string, headers: Record<string, string> = {}): Response =>
  new Response(null, { status: 303, headers: { ...pageHeaders(newNonce()), location, ...headers } });

/** `Origin` (else `Referer`) must be the service's own origin B; a form post from elsewhere is refused. */
export function sameOrigin(rt: AgentRuntime, request: Request): boolean {
  const value = request.headers.get("origin") ?? request.headers.get("referer");
  if (!value || value === "null") return false;
  try {
    return new URL(value).origin === rt.origins.base;
  } catch {
    return false;
  }
}

/** The url-encoded form body (≤ 64 KiB), or null when it is something else. */
export async function readForm(request: Request): Promise<URLSearchParams | null> {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return null;
  return new URLSearchParams(await readText(request, MAX_BODY_BYTES));
}
