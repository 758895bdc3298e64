import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, runScript } from "./helpers/cli.ts";
import { spawnServer } from "./helpers/server-process.ts";

// The server as an operator starts it with NODE_ENV=production: its own process, its own output.

const DOMAIN = "shops.example.com";
// Each test starts a process or two; on a loaded machine a start alone can take seconds.
const SLOW = 60_000;

let dataDir: string;
let keyFile: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "commerce-production-"));
  keyFile = join(dataDir, "integration.key");
  // As `openssl rand -hex 32 > file` writes it: with a final newline.
  writeFileSync(keyFile, `${"5a".repeat(32)}\n`, { mode: 0o600 });
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function productionEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    INTEGRATION_ENCRYPTION_KEY: undefined,
    INTEGRATION_ENCRYPTION_KEY_FILE: keyFile,
    PLATFORM_DOMAIN: DOMAIN,
    DEMO_TENANT: undefined,
    ALLOW_SIGNUP: undefined,
    ...extra,
  };
}

interface Started {
  url: string;
  port: string;
  /** Stops the server (SIGTERM) and returns everything it wrote to stdout and stderr. */
  stop(): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

async function start(extra: Record<string, string> = {}): Promise<Started> {
  const { child, url, port, stdout, stderr } = await spawnServer(productionEnv(extra));
  return {
    url,
    port,
    async stop() {
      child.kill("SIGTERM");
      const exitCode = await child.exited;
      return { stdout: await stdout, stderr: await stderr, exitCode };
    },
  };
}

const API_KEY_PATTERN = /ck_[A-Za-z0-9]{10,}/;

async function signUp(url: string) {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "owner@example.com", password: "correct horse battery" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const demoMe = (url: string) => fetch(`${url}/v1/me`, { headers: { host: `demo.${DOMAIN}` } });

describe("NODE_ENV=production", () => {
  test(
    "without PLATFORM_DOMAIN the start fails with one line and exit 1, touching nothing",
    async () => {
      const {
        code: exitCode,
        stdout,
        stderr,
      } = await runScript("src/server.ts", [], productionEnv({ PLATFORM_DOMAIN: "" }));
      expect(exitCode).toBe(1);
      expect(stdout).toBe("");
      const lines = stderr.split("\n").filter((line) => line.trim() !== "");
      expect(lines).toEqual([
        "configuration error: PLATFORM_DOMAIN: is required when NODE_ENV=production (shops answer {slug}.PLATFORM_DOMAIN)",
      ]);
      expect(existsSync(join(dataDir, "platform.sqlite"))).toBe(false);
    },
    SLOW,
  );

  test(
    "no demo store, no API key in the output, and public sign-up is a 403 SIGNUP_DISABLED",
    async () => {
      const server = await start();
      let output: Awaited<ReturnType<Started["stop"]>>;
      try {
        expect((await demoMe(server.url)).status).toBe(401);
        const refused = await signUp(server.url);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({
          error: "Sign-up is closed on this service; ask its operator for an account",
          code: "SIGNUP_DISABLED",
          status: 403,
        });
      } finally {
        output = await server.stop();
      }
      expect(output.exitCode).toBe(0);
      expect(output.stdout).not.toContain("Demo store");
      expect(`${output.stdout}${output.stderr}`).not.toMatch(API_KEY_PATTERN);
    },
    SLOW,
  );

  test(
    "DEMO_TENANT=true: the demo store answers, no key is printed and no dashboard user is made, the printed command makes one",
    async () => {
      const server = await start({ DEMO_TENANT: "true" });
      let output: Awaited<ReturnType<Started["stop"]>>;
      try {
        expect((await demoMe(server.url)).status).toBe(200);
      } finally {
        output = await server.stop();
      }
      const all = `${output.stdout}${output.stderr}`;
      expect(all).not.toMatch(API_KEY_PATTERN);
      expect(all).not.toContain("Dashboard sign-in");
      const platform = new Database(join(dataDir, "platform.sqlite"), { readonly: true });
      try {
        expect(platform.query("SELECT count(*) AS n FROM users").get()).toEqual({ n: 0 });
        expect(platform.query("SELECT count(*) AS n FROM members").get()).toEqual({ n: 0 });
      } finally {
        platform.close();
      }
      const command = /commerce (apikey create --org (org_\w+) --scopes admin,storefront)/.exec(
        output.stdout,
      );
      expect(command).not.toBeNull();

      // The command as printed, run by the operator against the same data directory.
      const cli = await runCli(
        [...command![1]!.split(" "), "--json"],
        productionEnv({ DEMO_TENANT: "true" }),
      );
      expect(cli.code).toBe(0);
      const key = (JSON.parse(cli.stdout) as { key: string }).key;
      expect(key).toMatch(API_KEY_PATTERN);

      const again = await start({ DEMO_TENANT: "true" });
      try {
        const me = await fetch(`${again.url}/v1/me`, { headers: { "x-api-key": key } });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { data: { orgId: string } }).data.orgId).toBe(command![2]!);
      } finally {
        await again.stop();
      }
    },
    SLOW,
  );

  test(
    "ALLOW_SIGNUP=true opens public sign-up",
    async () => {
      const server = await start({ ALLOW_SIGNUP: "true" });
      try {
        const created = await signUp(server.url);
        expect(created.status).toBe(201);
        expect((created.body as { data: { user: { email: string } } }).data.user.email).toBe(
          "owner@example.com",
        );
      } finally {
        await server.stop();
      }
    },
    SLOW,
  );
});
