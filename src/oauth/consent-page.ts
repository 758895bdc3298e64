import { adminOrganizations, csrfToken, csrfValid, DURATIONS, type Duration } from "../agents/approvals.ts";
import { CLASS_LABELS } from "../agents/capabilities.ts";
import { ProtocolError } from "../agents/errors.ts";
import { type DashboardSession, dashboardSession } from "../agents/http.ts";
import {
  DEFAULT_DURATION,
  durationOptions,
  escapeHtml,
  freshSignIn,
  notice,
  passwordSignIn,
  readForm,
  render,
  sameOrigin,
  seeOther,
  sessionEmail,
  signInForm,
} from "../agents/page-kit.ts";
import { sha256Hex } from "../auth/crypto.ts";
import type { RawRoute } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { apiErrorOf } from "../core/respond.ts";
import { type Client, resolveClient } from "./clients.ts";
import { approve, cappableFields, readSelection, tickedByDefault } from "./consent.ts";
import { OAuthError } from "./errors.ts";
import { clientLogo } from "./logos.ts";
import type { OAuthRuntime } from "./runtime.ts";

// `/oauth/authorize`: the consent page. The authorization request is checked on every step (GET,
// sign-in, decision), from the query string the page carries along in a hidden field. Until the
// client and its redirect URI are known good, errors are shown here; after, they go back to the
// client as `error` on its redirect URI (with `state` and `iss`, RFC 9207). The page's rules are
// the approval page's: fresh password, same Origin, a CSRF token bound to the session and to this
// request, no script, no framing, nothing from another origin (hence no client logo).

const SECTION = "Connect an app";
/** Storefront reads first, then what changes the shop, then the admin ones (each by name, as the catalog is). */
const CLASS_ORDER = ["read", "write", "admin-read", "admin-write"];
const MAX_QUERY = 8 * 1024;

interface AuthorizationRequest {
  client: Client;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  /** The query string as received: what the forms carry along, and what the CSRF token is bound to. */
  query: string;
}

type Checked = { ok: AuthorizationRequest } | { answer: Response };

const errorPage = (title: string, status: number, html: string) =>
  render({ title, section: SECTION, status, body: notice("error", html) });

/** Back to the client with an error (RFC 6749 §4.1.2.1), `state` and `iss`. */
function redirectError(
  rt: OAuthRuntime,
  redirectUri: string,
  state: string | null,
  error: string,
  why: string,
) {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error);
  url.searchParams.set("error_description", why);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", rt.urls.issuer);
  return seeOther(url.href);
}

async function checkRequest(rt: OAuthRuntime, query: string): Promise<Checked> {
  if (query.length > MAX_QUERY) return { answer: errorPage("Bad request", 400, "The request is too long.") };
  const params = new URLSearchParams(query);
  const clientId = params.get("client_id") ?? "";
  const redirectUri = params.get("redirect_uri") ?? "";
  let client: Client;
  try {
    client = await resolveClient(rt, clientId);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { answer: errorPage("Unknown app", 400, `This app is not known: ${escapeHtml(error.message)}.`) };
  }
  if (!client.redirectUris.includes(redirectUri)) {
    return {
      answer: errorPage(
        "Wrong return address",
        400,
        "The app asked to return to an address it did not register. Nothing was shared.",
      ),
    };
  }
  const state = params.get("state");
  const fail = (error: string, why: string) => ({
    answer: redirectError(rt, redirectUri, state, error, why),
  });
  if (params.get("response_type") !== "code")
    return fail("unsupported_response_type", "response_type must be code");
  const challenge = params.get("code_challenge") ?? "";
  if (params.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return fail("invalid_request", "PKCE is required: code_challenge (S256) and code_challenge_method=S256");
  }
  const resource = params.get("resource");
  if (resource !== rt.urls.resource) {
    return fail("invalid_target", `resource is required and must be ${rt.urls.resource}`);
  }
  return { ok: { client, redirectUri, state, codeChallenge: challenge, resource, query } };
}

/** The CSRF token of this session and this exact authorization request. */
const csrfFor = (rt: OAuthRuntime, session: DashboardSession, query: string) =>
  csrfToken(rt.agents, session.sessionId, `oauth:${sha256Hex(query)}`);

function consentForm(
  rt: OAuthRuntime,
  request: AuthorizationRequest,
  session: DashboardSession,
  logo: string | null,
  error?: string,
) {
  const { client } = request;
  const organizations = adminOrganizations(rt.agents, session.userId);
  const redirect = new URL(request.redirectUri);
  const loopback = redirect.protocol === "http:";
  const capabilities = [...rt.agents.catalog.values()]
    .sort((a, b) => CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class))
    .map((c) => {
      const caps = cappableFields(c)
        .map(
          (
            field,
          ) => `<label class="muted" for="max:${escapeHtml(c.name)}:${field}">At most (${field}, optional)</label>
<input id="max:${escapeHtml(c.name)}:${field}" name="max:${escapeHtml(c.name)}:${field}" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="12">`,
        )
        .join("");
      return `<li class="cap${c.scope === "admin" ? " admin" : ""}"><label>
<input type="checkbox" name="capability" value="${escapeHtml(c.name)}"${tickedByDefault(c) ? " checked" : ""}>
<span><span class="cap-name">${escapeHtml(c.summary)}</span><span class="badge">${escapeHtml(CLASS_LABELS[c.class])}</span>
<span class="muted"><code>${escapeHtml(c.name)}</code></span></span>
</label>${caps ? `<div class="limits">${caps}</div>` : ""}</li>`;
    })
    .join("");
  const details = [
    ["App", escapeHtml(client.name)],
    ["Client id", `<code>${escapeHtml(client.id)}</code>`],
    ["Returns to", `<code>${escapeHtml(redirect.host)}</code>`],
  ];
  const warnings = [
    "Connect only an app you are setting up yourself now. It will act in the organization you choose, with the capabilities you tick, until they expire or you revoke it in the dashboard (Settings → Agents).",
  ];
  if (loopback) {
    warnings.push(
      "This app returns to a program on this computer (a loopback address): make sure it is one you started.",
    );
  }
  return render({
    title: `${client.name} wants to use your shop`,
    section: SECTION,
    // Allow and Deny end with a redirect to the client, which the browser checks against form-action.
    formTargets: [redirect.origin],
    inlineImages: logo !== null,
    body: `${error ? notice("error", escapeHtml(error)) : ""}${warnings.map((w) => notice("warning", escapeHtml(w))).join("")}
<div class="card">${logo ? `<img class="app-logo" src="${escapeHtml(logo)}" alt="">` : ""}<h2>App</h2><dl>${details.map(([t, v]) => `<dt>${t}</dt><dd>${v}</dd>`).join("")}</dl></div>
<form method="post" action="${escapeHtml(`${rt.urls.authorize}/decision`)}">
<input type="hidden" name="request" value="${escapeHtml(request.query)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrfFor(rt, session, request.query))}">
<div class="card"><label class="field" for="organization_id">Organization</label>
<select id="organization_id" name="organization_id" required>${organizations
      .map(
        (o) => `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)} (${escapeHtml(o.slug)})</option>`,
      )
      .join("")}</select></div>
<div class="card"><h2>What it may do</h2>
<p class="muted">Reading is ticked; tick what it may change. Admin capabilities are highlighted. A limit caps the amount or quantity of each call.</p>
<ul class="caps">${capabilities}</ul></div>
<div class="card"><label class="field" for="duration">For</label>
<select id="duration" name="duration">${durationOptions()}</select>
<button class="primary" type="submit" name="action" value="approve">Allow</button>
<button class="danger" type="submit" name="action" value="deny">Deny</button>
</div></form>`,
  });
}

class ConsentPage {
  constructor(private readonly rt: OAuthRuntime) {}

  /** The consent form, with the client's logo when its registration names one that is an image. */
  private async consent(request: AuthorizationRequest, session: DashboardSession, error?: string) {
    return consentForm(this.rt, request, session, await clientLogo(this.rt, request.client.logoUri), error);
  }

  private signIn(
    query: string,
    options: { error?: string; email?: string; reconfirm?: boolean; status?: number } = {},
  ) {
    return signInForm({
      ...options,
      action: `${this.rt.urls.authorize}/sign-in`,
      hidden: { request: query },
      purpose: "Connecting an app to your shop",
      section: SECTION,
    });
  }

  /** Signed in with a fresh password, admin somewhere; else the page that says what is missing. */
  private gate(request: Request, query: string, status: number): DashboardSession | Response {
    const session = dashboardSession(this.rt.agents, request);
    if (!session) return this.signIn(query, { status });
    if (!freshSignIn(this.rt.agents, session)) {
      return this.signIn(query, { email: sessionEmail(this.rt.agents, session), reconfirm: true, status });
    }
    if (adminOrganizations(this.rt.agents, session.userId).length === 0) {
      return errorPage("Not allowed", 403, "Only an owner or admin of a shop can connect apps to it.");
    }
    return session;
  }

  async get(request: Request, client: ClientInfo): Promise<Response> {
    this.rt.limits.authorize.hit(client.ip() ?? "unknown");
    const query = new URL(request.url).search.slice(1);
    const checked = await checkRequest(this.rt, query);
    if ("answer" in checked) return checked.answer;
    const session = this.gate(request, query, 200);
    if (session instanceof Response) return session;
    return this.consent(checked.ok, session);
  }

  async signInPost(request: Request, client: ClientInfo): Promise<Response> {
    if (!sameOrigin(this.rt.agents, request))
      return errorPage("Not allowed", 403, "The form was not sent from this page.");
    const form = await readForm(request);
    if (!form) return errorPage("Bad request", 400, "Send the form of this page.");
    const query = (form.get("request") ?? "").slice(0, MAX_QUERY);
    const email = (form.get("email") ?? "").trim().slice(0, 254);
    const password = (form.get("password") ?? "").slice(0, 200);
    const signedIn = await passwordSignIn(this.rt.agents, request, client, email, password);
    if ("failed" in signedIn) {
      return this.signIn(query, { email, reconfirm: signedIn.reconfirm, error: "Wrong email or password." });
    }
    return seeOther(`${this.rt.urls.authorize}?${query}`, signedIn.headers);
  }

  async decisionPost(request: Request): Promise<Response> {
    const rt = this.rt;
    if (!sameOrigin(rt.agents, request))
      return errorPage("Not allowed", 403, "The form was not sent from this page.");
    const form = await readForm(request);
    if (!form) return errorPage("Bad request", 400, "Send the form of this page.");
    const query = (form.get("request") ?? "").slice(0, MAX_QUERY);
    const session = this.gate(request, query, 401);
    if (session instanceof Response) return session;
    rt.agents.limits.pageDecision.hit(session.sessionId);
    if (!csrfValid(rt.agents, session.sessionId, `oauth:${sha256Hex(query)}`, form.get("csrf") ?? "")) {
      return errorPage(
        "Not allowed",
        403,
        "The form expired or was not made for you. Start again from the app.",
      );
    }
    const checked = await checkRequest(rt, query);
    if ("answer" in checked) return checked.answer;
    const auth = checked.ok;
    const action = form.get("action");
    if (action === "deny") {
      return redirectError(
        rt,
        auth.redirectUri,
        auth.state,
        "access_denied",
        "The merchant denied the request",
      );
    }
    const duration = (form.get("duration") || DEFAULT_DURATION) as Duration;
    if (action !== "approve" || !(duration in DURATIONS)) {
      return this.consent(auth, session, "Choose Allow or Deny.");
    }
    try {
      const code = approve(rt, {
        client: auth.client,
        userId: session.userId,
        organizationId: form.get("organization_id") ?? "",
        selection: readSelection(rt, form),
        duration,
        redirectUri: auth.redirectUri,
        codeChallenge: auth.codeChallenge,
        resource: auth.resource,
      });
      const back = new URL(auth.redirectUri);
      back.searchParams.set("code", code);
      if (auth.state !== null) back.searchParams.set("state", auth.state);
      back.searchParams.set("iss", rt.urls.issuer);
      return seeOther(back.href);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      if (error.status === 403) return errorPage("Not allowed", 403, escapeHtml(error.message));
      return this.consent(auth, session, error.message);
    }
  }
}

/** `GET /oauth/authorize`, `POST /oauth/authorize/sign-in`, `POST /oauth/authorize/decision`. */
export function consentRoutes(rt: OAuthRuntime): RawRoute[] {
  const page = new ConsentPage(rt);
  const guarded =
    (handler: (request: Request, client: ClientInfo) => Promise<Response>): RawRoute["handle"] =>
    async (request, _params, requestId, client) => {
      try {
        return await handler(request, client);
      } catch (error) {
        const known = apiErrorOf(error, rt.agents.ctx, requestId);
        if (known.status === 429 || known.status === 413) {
          return render({
            title: "Try again shortly",
            section: SECTION,
            status: known.status,
            headers: known.headers,
            body: notice("error", escapeHtml(known.message)),
          });
        }
        return errorPage("Something went wrong", 500, "Internal error. Try again in a moment.");
      }
    };
  const path = new URL(rt.urls.authorize).pathname;
  return [
    { method: "GET", path, handle: guarded((request, client) => page.get(request, client)) },
    {
      method: "POST",
      path: `${path}/sign-in`,
      handle: guarded((request, client) => page.signInPost(request, client)),
    },
    { method: "POST", path: `${path}/decision`, handle: guarded((request) => page.decisionPost(request)) },
  ];
}
