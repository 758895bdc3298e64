import type { ApiError } from "../core/errors.ts";
import type { RawRoute } from "../core/module.ts";
import type { ClientInfo } from "../core/operation.ts";
import { apiErrorOf } from "../core/respond.ts";
import {
  type ApprovalView,
  adminOrganizations,
  approvalView,
  csrfToken,
  csrfValid,
  type DecisionAction,
  type DecisionResult,
  DURATIONS,
  type Duration,
  decideApproval,
  normalizeUserCode,
  pendingApprovalForCode,
} from "./approvals.ts";
import { ProtocolError } from "./errors.ts";
import { type DashboardSession, dashboardSession } from "./http.ts";
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
} from "./page-kit.ts";
import type { AgentRuntime } from "./runtime.ts";

// The merchant approval page at AGENT_DEVICE_AUTH_PAGE (default `/device/capabilities`):
// server-rendered HTML that works without JavaScript and on a phone. A merchant signs in (or confirms
// the password when the last check is older than 5 minutes), types the code the agent shows, reviews
// the agent and the capabilities it asks for, and approves all, some or none of them. Every decision
// goes through `decideApproval`, after the page's own checks: same Origin, a CSRF token bound to the
// session and the request, a rate limit per session. Never approves on GET; cannot be framed.

const ACTIONS: readonly DecisionAction[] = ["approve_all", "approve_selected", "deny"];
/** `ABCDEFGH` → `ABCD-EFGH`; anything else as typed. */
function shownCode(code: string): string {
  const normalized = normalizeUserCode(code);
  return /^[A-Z2-9]{8}$/.test(normalized) ? `${normalized.slice(0, 4)}-${normalized.slice(4)}` : code;
}

function timeLeft(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
}

const when = (isoTime: string) => `${isoTime.slice(0, 16).replace("T", " ")} UTC`;

/** The page's pieces, bound to the configured path. */
class ApprovalPage {
  readonly path: string;

  constructor(private readonly rt: AgentRuntime) {
    this.path = rt.ctx.config.agentDeviceAuthPage;
  }

  private hrefFor(code?: string): string {
    return code ? `${this.path}?code=${encodeURIComponent(shownCode(code))}` : this.path;
  }

  signIn(options: { code?: string; error?: string; email?: string; status?: number; reconfirm?: boolean }) {
    return signInForm({
      ...options,
      action: `${this.path}/sign-in`,
      hidden: { code: options.code ?? "" },
      purpose: "Reviewing what an agent asks for",
    });
  }

  codeForm(options: { code?: string; error?: string; status?: number } = {}) {
    return render({
      title: "Enter the agent's code",
      status: options.status ?? 200,
      body: `${options.error ? notice("error", escapeHtml(options.error)) : ""}<div class="card">
<p>An agent that asks for access shows a code of 8 letters and digits. Type it here.</p>
<form method="get" action="${escapeHtml(this.path)}">
<label class="field" for="code">Code</label>
<input id="code" name="code" class="code" type="text" inputmode="text" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="XXXX-XXXX" maxlength="20" required value="${escapeHtml(options.code ?? "")}">
<button class="primary" type="submit">Continue</button>
</form></div>`,
    });
  }

  message(title: string, status: number, html: string, kind: "error" | "success" | "warning" = "error") {
    return render({
      title,
      status,
      body: `${notice(kind, html)}<p><a href="${escapeHtml(this.path)}">Enter another code</a></p>`,
    });
  }

  forbidden(why = "Only an owner or admin of the organization can approve agents for it.") {
    return this.message("Not allowed", 403, escapeHtml(why));
  }

  noRequest(code: string, status = 404) {
    return this.codeForm({
      code,
      status,
      error:
        "No pending request matches this code. Check the code the agent shows; a request lasts 5 minutes, after which the agent must start again.",
    });
  }

  request(view: ApprovalView, code: string, csrf: string, error?: string, status = 200) {
    const { approval, agent, host } = view;
    const bound = view.bound_organization_id;
    const org = bound !== null ? view.organizations.find((o) => o.id === bound) : undefined;
    const organization =
      org !== undefined
        ? `<p class="field">Organization</p><p>${escapeHtml(org.name)} <span class="muted">(${escapeHtml(org.slug)}; this agent is bound to it)</span></p>
<input type="hidden" name="organization_id" value="${escapeHtml(org.id)}">`
        : `<label class="field" for="organization_id">Organization</label>
<select id="organization_id" name="organization_id" required>${view.organizations
            .map(
              (o) =>
                `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)} (${escapeHtml(o.slug)})</option>`,
            )
            .join("")}</select>
<p class="muted">The agent acts in this organization only, from now on.</p>`;
    const capabilities = view.capabilities
      .map((c) => {
        const constraints = c.constraints_text
          .map((words) => `<span class="constraint">Limited to ${escapeHtml(words)}</span>`)
          .join("");
        // The summary in words up front; the operation's full description folded away (no script needed).
        const summary = this.rt.catalog.get(c.name)?.summary ?? c.description;
        const more =
          c.description !== summary
            ? `<details><summary>More about ${escapeHtml(c.name)}</summary><p>${escapeHtml(c.description)}</p></details>`
            : "";
        return `<li class="cap${c.admin ? " admin" : ""}"><label>
<input type="checkbox" name="capability" value="${escapeHtml(c.name)}">
<span><span class="cap-name">${escapeHtml(c.name)}</span><span class="badge">${escapeHtml(c.label)}</span>
<span class="summary">${escapeHtml(summary)}</span>
<span class="muted"><code>${escapeHtml(c.method)} ${escapeHtml(c.path)}</code></span>${constraints}</span>
</label>${more}</li>`;
      })
      .join("");
    const details = [
      ["Agent", `${escapeHtml(agent.name)} <span class="muted">(${escapeHtml(agent.mode)})</span>`],
      ["Agent id", `<code>${escapeHtml(agent.id)}</code>`],
      ["Host", escapeHtml(host.name)],
      ["Host id", `<code>${escapeHtml(host.id)}</code>`],
      ["Requested", escapeHtml(when(approval.created_at))],
      ["Time left", escapeHtml(timeLeft(approval.expires_in))],
    ];
    if (approval.binding_message) details.splice(4, 0, ["Message", escapeHtml(approval.binding_message)]);
    if (approval.reason) details.splice(4, 0, ["Reason", escapeHtml(approval.reason)]);
    return render({
      title: `${agent.name} asks for access`,
      status,
      body: `${error ? notice("error", escapeHtml(error)) : ""}${notice(
        "warning",
        `Approve only a request you started yourself, and only if the agent shows this same code: <span class="shown-code">${escapeHtml(shownCode(code))}</span>`,
      )}<div class="card"><h2>Request</h2><dl>${details
        .map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`)
        .join("")}</dl></div>
<form method="post" action="${escapeHtml(`${this.path}/decision`)}">
<input type="hidden" name="approval_id" value="${escapeHtml(approval.approval_id)}">
<input type="hidden" name="code" value="${escapeHtml(shownCode(code))}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<div class="card"><h2>Capabilities (${view.capabilities.length})</h2>
<p class="muted">Tick the ones to approve with “Approve selected”, or approve or deny them all. Admin capabilities are highlighted.</p>
<ul class="caps">${capabilities}</ul></div>
<div class="card">${organization}
<label class="field" for="duration">Approved capabilities last</label>
<select id="duration" name="duration">${durationOptions()}</select>
<label class="field" for="reason">Note on what you deny (optional)</label>
<textarea id="reason" name="reason" maxlength="500"></textarea>
<button class="primary" type="submit" name="action" value="approve_selected">Approve selected</button>
<button class="secondary" type="submit" name="action" value="approve_all">Approve all ${view.capabilities.length}</button>
<button class="danger" type="submit" name="action" value="deny">Deny</button>
</div></form>`,
    });
  }

  result(result: DecisionResult, view: ApprovalView | null) {
    const grants = result.agent_capability_grants as { capability: string; status: string }[];
    const requested = new Set(view?.capabilities.map((c) => c.name) ?? grants.map((g) => g.capability));
    const approved = grants.filter((g) => requested.has(g.capability) && g.status === "active");
    const denied = grants.filter((g) => requested.has(g.capability) && g.status === "denied");
    const list = (items: { capability: string }[]) =>
      items.length === 0
        ? '<p class="muted">None</p>'
        : `<ul>${items.map((g) => `<li><code>${escapeHtml(g.capability)}</code></li>`).join("")}</ul>`;
    const name = view?.agent.name ?? result.agent_id;
    const head =
      result.status === "approved"
        ? `Approved ${approved.length} capabilit${approved.length === 1 ? "y" : "ies"} for <strong>${escapeHtml(name)}</strong>. The agent is ${escapeHtml(result.agent_status)} and can go on by itself; you can close this page.`
        : `Denied the request of <strong>${escapeHtml(name)}</strong>. The agent is ${escapeHtml(result.agent_status)}.`;
    return render({
      title: result.status === "approved" ? "Approved" : "Denied",
      body: `${notice(result.status === "approved" ? "success" : "warning", head)}<div class="card"><h2>Approved</h2>${list(approved)}<h2>Denied</h2>${list(denied)}</div>
<p><a href="${escapeHtml(this.path)}">Review another request</a></p>`,
    });
  }

  /** A refusal that passes with time (429, 503): its message, and its Retry-After. */
  tryLater(error: ApiError) {
    return render({
      title: error.status === 429 ? "Too many attempts" : "Try again shortly",
      status: error.status,
      headers: error.headers,
      body: notice("error", escapeHtml(error.message)),
    });
  }

  // ------------------------------------------------------------------ handlers

  /** `GET PAGE[?code=]`: sign-in, password confirmation, code form, or the request. */
  get(request: Request, url: URL, client: ClientInfo): Response {
    const rt = this.rt;
    rt.limits.pageGet.hit(client.ip() ?? "unknown");
    const code = (url.searchParams.get("code") ?? url.searchParams.get("user_code") ?? "").slice(0, 20);
    const session = dashboardSession(rt, request);
    if (!session) return this.signIn({ code });
    if (!freshSignIn(rt, session)) return this.reconfirm(session, code, 200);
    if (adminOrganizations(rt, session.userId).length === 0) return this.forbidden();
    if (code.trim() === "") return this.codeForm();
    const approval = pendingApprovalForCode(rt, code);
    if (!approval) {
      rt.limits.codeLookups.hit(session.sessionId);
      return this.noRequest(code);
    }
    const view = approvalView(rt, approval, session.userId);
    if (view.organizations.length === 0) return this.forbidden();
    return this.request(view, code, csrfToken(rt, session.sessionId, approval.id));
  }

  /** `POST PAGE/sign-in`: email and password; a new session, or `authenticated_at` refreshed. */
  async signInPost(request: Request, client: ClientInfo): Promise<Response> {
    if (!sameOrigin(this.rt, request)) return this.forbidden("The form was not sent from this page.");
    const form = await readForm(request);
    if (!form) return this.message("Bad request", 400, "Send the form of this page.");
    const code = (form.get("code") ?? "").slice(0, 20);
    const email = (form.get("email") ?? "").trim().slice(0, 254);
    const signedIn = await passwordSignIn(
      this.rt,
      request,
      client,
      email,
      (form.get("password") ?? "").slice(0, 200),
    );
    if ("failed" in signedIn) {
      return this.signIn({ code, email, reconfirm: signedIn.reconfirm, error: "Wrong email or password." });
    }
    return seeOther(this.hrefFor(code.trim() || undefined), signedIn.headers);
  }

  /** `POST PAGE/decision`: every rule re-checked, then `decideApproval`. */
  async decisionPost(request: Request): Promise<Response> {
    const rt = this.rt;
    if (!sameOrigin(rt, request)) return this.forbidden("The form was not sent from this page.");
    const session = dashboardSession(rt, request);
    const form = await readForm(request);
    if (!form) return this.message("Bad request", 400, "Send the form of this page.");
    const code = (form.get("code") ?? "").slice(0, 20);
    if (!session) return this.signIn({ code, status: 401 });
    rt.limits.pageDecision.hit(session.sessionId);
    if (!freshSignIn(rt, session)) return this.reconfirm(session, code, 401);
    const approvalId = (form.get("approval_id") ?? "").slice(0, 80);
    if (!csrfValid(rt, session.sessionId, approvalId, form.get("csrf") ?? "")) {
      return this.forbidden("The form expired or was not made for you. Open the request again.");
    }
    const action = form.get("action") as DecisionAction | null;
    const duration = (form.get("duration") || DEFAULT_DURATION) as Duration;
    if (action === null || !ACTIONS.includes(action) || !(duration in DURATIONS)) {
      return this.message("Bad request", 400, "Choose approve all, approve selected or deny.");
    }
    const reason = (form.get("reason") ?? "").trim().slice(0, 500);
    const organizationId = form.get("organization_id") || undefined;
    const approval = pendingApprovalForCode(rt, code);
    const view = approval && approval.id === approvalId ? approvalView(rt, approval, session.userId) : null;
    try {
      const result = decideApproval(rt, {
        approvalId,
        userCode: code,
        userId: session.userId,
        authenticatedAt: session.authenticatedAt,
        action,
        capabilities: action === "approve_selected" ? form.getAll("capability").slice(0, 100) : undefined,
        organizationId,
        duration,
        reason: reason || undefined,
      });
      return this.result(result, view);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      switch (error.error) {
        case "authentication_required":
          return this.reconfirm(session, code, 401);
        case "unauthorized":
          return this.forbidden();
        case "approval_not_found":
        case "invalid_user_code":
          return this.noRequest(code, error.status);
        case "conflict":
          return this.message(
            "Already decided",
            409,
            "This request was decided already or has expired. Nothing was changed now.",
          );
        default: {
          const message =
            error.error === "invalid_capabilities"
              ? "Tick one or more capabilities to approve, or use “Approve all” or “Deny”."
              : error.message;
          if (!view) return this.message("Bad request", error.status, escapeHtml(message));
          return this.request(
            view,
            code,
            csrfToken(rt, session.sessionId, approvalId),
            message,
            error.status,
          );
        }
      }
    }
  }

  private reconfirm(session: DashboardSession, code: string, status: number): Response {
    return this.signIn({ code, email: sessionEmail(this.rt, session), reconfirm: true, status });
  }
}

/** The approval page's routes: `GET PAGE`, `POST PAGE/sign-in`, `POST PAGE/decision`. */
export function approvalPageRoutes(rt: AgentRuntime): RawRoute[] {
  const page = new ApprovalPage(rt);
  const guarded =
    (handler: (request: Request, client: ClientInfo) => Response | Promise<Response>): RawRoute["handle"] =>
    async (request, _params, requestId, client) => {
      try {
        return await handler(request, client);
      } catch (error) {
        if (error instanceof ProtocolError && error.status === 413) {
          return page.message("Too large", 413, "The form is too large.");
        }
        const known = apiErrorOf(error, rt.ctx, requestId);
        if (known.status === 429 || known.status === 503) return page.tryLater(known);
        return page.message("Something went wrong", 500, "Internal error. Try again in a moment.");
      }
    };
  return [
    {
      method: "GET",
      path: page.path,
      handle: guarded((request, client) => page.get(request, new URL(request.url), client)),
    },
    {
      method: "POST",
      path: `${page.path}/sign-in`,
      handle: guarded((request, client) => page.signInPost(request, client)),
    },
    {
      method: "POST",
      path: `${page.path}/decision`,
      handle: guarded((request) => page.decisionPost(request)),
    },
  ];
}
