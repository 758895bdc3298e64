import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, createApp } from "../../src/app.ts";
import { createApiKey, createOrganization } from "../../src/auth/service.ts";
import { loadConfig } from "../../src/config.ts";
import type { Module } from "../../src/core/module.ts";
import type { Operation, Scope } from "../../src/core/operation.ts";

export interface TestApp {
  app: App;
  dataDir: string;
  /** Sends a request through the whole service, as Bun.serve would. */
  request(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, init?: RequestInit): Promise<{ status: number; body: any; response: Response }>;
  /** A new organization with an API key of the given scopes (and optionally a host). */
  org(
    name: string,
    options?: { scopes?: Scope[]; host?: string },
  ): Promise<{ id: string; slug: string; key: string }>;
  /** Closes the app; the data directory stays until `cleanup`. */
  close(): void;
  cleanup(): void;
}

/**
 * An app on a fresh temp DATA_DIR with real SQLite files. `start` starts its background work as a
 * serving service does (the outbox's drainer, the modules' timers); without it queued jobs wait.
 */
export function makeTestApp(
  options: {
    env?: Record<string, string>;
    operations?: Operation[];
    modules?: Module[];
    dataDir?: string;
    start?: boolean;
  } = {},
): TestApp {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "commerce-test-"));
  // Free space of the machine's temp dir is not what a test asserts on: health's disk check is off
  // unless a test sets MIN_FREE_DISK_MB itself.
  const defaults = { DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false", MIN_FREE_DISK_MB: "0" };
  const config = loadConfig({ ...defaults, ...options.env });
  const extra = [...(options.modules ?? [])];
  if (options.operations) extra.push({ name: "test", operations: options.operations });
  const app = createApp(config, extra);
  if (options.start) app.start();
  let closed = false;
  const request = (path: string, init?: RequestInit) =>
    app.fetch(new Request(`http://localhost${path}`, init));
  return {
    app,
    dataDir,
    request,
    async json(path, init) {
      const response = await request(path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, response };
    },
    async org(name, opts = {}) {
      const org = createOrganization(app.ctx, { name, host: opts.host });
      const key = createApiKey(app.ctx.platform, {
        organizationId: org.id,
        name: "test",
        scopes: opts.scopes ?? ["admin", "storefront"],
      });
      return { id: org.id, slug: org.slug, key: key.key };
    },
    close() {
      if (!closed) app.close();
      closed = true;
    },
    cleanup() {
      this.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const jsonBody = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The `name=value` part of a Set-Cookie header, for sending it back. */
export function cookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie");
  if (!header) throw new Error("no Set-Cookie in response");
  return header.split(";")[0]!;
}

/** Signs up a dashboard user and returns its session cookie. */
export async function signUp(t: TestApp, email: string, password = "correct horse battery"): Promise<string> {
  const response = await t.request("/api/auth/sign-up/email", jsonBody({ email, password }));
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}

/** Runs `fn` and records the organizations whose tenant files it took from the pool meanwhile. */
export async function tenantsTaken<T>(
  app: App,
  fn: () => Promise<T>,
): Promise<{ result: T; orgs: string[] }> {
  const pool = app.ctx.tenants;
  const acquire = pool.acquire;
  const orgs: string[] = [];
  pool.acquire = (orgId: string) => {
    orgs.push(orgId);
    return acquire.call(pool, orgId);
  };
  try {
    return { result: await fn(), orgs };
  } finally {
    pool.acquire = acquire;
  }
}
