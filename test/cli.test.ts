import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type App, createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { type CliRun, runCli } from "./helpers/cli.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Runs `bun src/cli.ts ...args` as a real process on `dataDir`. */
const cli = (dataDir: string, ...args: string[]): Promise<CliRun> => runCli(args, { DATA_DIR: dataDir });

/** A successful `--json` run: exit 0, nothing on stderr, exactly one JSON value on one stdout line. */
async function cliJson<T = Record<string, unknown>>(dataDir: string, ...args: string[]): Promise<T> {
  const run = await cli(dataDir, ...args, "--json");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `commerce-cli-${label}-`));
}

/** The control plane's bytes on disk: main file plus any WAL not yet checkpointed. */
function platformBytes(dataDir: string): Buffer {
  const parts = ["platform.sqlite", "platform.sqlite-wal"]
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path));
  return Buffer.concat(parts);
}

function withSqlite<T>(path: string, fn: (sqlite: Database) => T): T {
  const sqlite = new Database(path, { readonly: true });
  try {
    return fn(sqlite);
  } finally {
    sqlite.close();
  }
}

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

interface OrgJson {
  id: string;
  slug: string;
  name: string;
  host: string | null;
}

interface KeyJson {
  id: string;
  key: string;
  orgId: string;
  scopes: string[];
}

describe("CLI against one DATA_DIR", () => {
  let dataDir: string;
  let shopA: OrgJson;

  beforeAll(async () => {
    dataDir = tempDir("data");
    shopA = await cliJson<OrgJson>(
      dataDir,
      "org",
      "create",
      "--name",
      "Shop A",
      "--host",
      "shop-a.example.com",
    );
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const tenantFiles = () => readdirSync(join(dataDir, "tenants")).filter((f) => f.endsWith(".sqlite"));

  describe("org create", () => {
    test("prints id, slug, name and host and creates the tenant file", () => {
      expect(Object.keys(shopA).sort()).toEqual(["host", "id", "name", "slug"]);
      expect(shopA.id).toMatch(/^org_[A-Za-z0-9]+$/);
      expect(shopA.slug).toBe("shop-a");
      expect(shopA.name).toBe("Shop A");
      expect(shopA.host).toBe("shop-a.example.com");

      const tenantPath = join(dataDir, "tenants", `${shopA.id}.sqlite`);
      expect(existsSync(tenantPath)).toBe(true);
      const owner = withSqlite(
        tenantPath,
        (sqlite) =>
          sqlite.query("SELECT value FROM tenant_meta WHERE key = 'organization_id'").get() as {
            value: string;
          } | null,
      );
      expect(owner?.value).toBe(shopA.id);

      const row = withSqlite(join(dataDir, "platform.sqlite"), (sqlite) => ({
        org: sqlite.query("SELECT id, slug, name FROM organizations WHERE id = ?").get(shopA.id),
        domain: sqlite
          .query("SELECT host, organization_id FROM domains WHERE host = ?")
          .get("shop-a.example.com"),
      }));
      expect(row.org).toEqual({ id: shopA.id, slug: "shop-a", name: "Shop A" });
      expect(row.domain).toEqual({ host: "shop-a.example.com", organization_id: shopA.id });
    });

    test("a second organization with the same name gets a free slug", async () => {
      const second = await cliJson<OrgJson>(dataDir, "org", "create", "--name", "Shop A");
      expect(second.id).not.toBe(shopA.id);
      expect(second.slug).toBe("shop-a-2");
      expect(second.name).toBe("Shop A");
      expect(second.host).toBeNull();
      expect(existsSync(join(dataDir, "tenants", `${second.id}.sqlite`))).toBe(true);
    });

    test("a taken --slug fails and leaves no organization or tenant file behind", async () => {
      const filesBefore = tenantFiles();
      const run = await cli(dataDir, "org", "create", "--name", "Other", "--slug", "shop-a", "--json");
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe("");
      expect(JSON.parse(run.stderr)).toMatchObject({ code: "CONFLICT", status: 409 });
      expect(tenantFiles()).toEqual(filesBefore);
      const count = withSqlite(
        join(dataDir, "platform.sqlite"),
        (sqlite) =>
          sqlite.query("SELECT count(*) AS n FROM organizations WHERE name = 'Other'").get() as { n: number },
      );
      expect(count.n).toBe(0);
    });
  });

  describe("apikey create", () => {
    let created: KeyJson;

    beforeAll(async () => {
      created = await cliJson<KeyJson>(
        dataDir,
        "apikey",
        "create",
        "--org",
        shopA.id,
        "--scopes",
        "admin,storefront",
      );
    });

    test("prints id, key, orgId and scopes", () => {
      expect(Object.keys(created).sort()).toEqual(["id", "key", "orgId", "scopes"]);
      expect(created.key.startsWith("ck_")).toBe(true);
      expect(created.key.length).toBeGreaterThan(20);
      expect(created.orgId).toBe(shopA.id);
      expect(created.scopes).toEqual(["admin", "storefront"]);
    });

    test("stores only the key's SHA-256, never the key", () => {
      const row = withSqlite(
        join(dataDir, "platform.sqlite"),
        (sqlite) =>
          sqlite
            .query("SELECT key_hash, organization_id, scopes, start FROM api_keys WHERE id = ?")
            .get(created.id) as {
            key_hash: string;
            organization_id: string;
            scopes: string;
            start: string;
          } | null,
      );
      expect(row).not.toBeNull();
      expect(row?.key_hash).toBe(sha256Hex(created.key));
      expect(row?.organization_id).toBe(shopA.id);
      expect(JSON.parse(row?.scopes ?? "null")).toEqual(["admin", "storefront"]);
      expect(created.key.startsWith(row?.start ?? "?")).toBe(true);

      const bytes = platformBytes(dataDir);
      // The hash is found in the bytes searched, so the absence of the key is meaningful.
      expect(bytes.includes(sha256Hex(created.key))).toBe(true);
      expect(bytes.includes(created.key)).toBe(false);
      expect(bytes.includes(created.key.slice(8))).toBe(false);
    });

    test("--scopes root is a usage error (exit 2)", async () => {
      const run = await cli(dataDir, "apikey", "create", "--org", shopA.id, "--scopes", "root");
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("--scopes");
      expect(run.stderr).toContain("Usage:");
    });

    test("an unknown organization exits 1", async () => {
      const run = await cli(dataDir, "apikey", "create", "--org", "org_doesNotExist0", "--json");
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(JSON.parse(run.stderr)).toMatchObject({ code: "NOT_FOUND", status: 404 });
    });
  });

  describe("user create", () => {
    const email = "Owner@Example.com";
    const password = "correct horse battery staple";

    test("prints id, email, orgId and role owner and stores an argon2id hash", async () => {
      const user = await cliJson(
        dataDir,
        "user",
        "create",
        "--email",
        email,
        "--password",
        password,
        "--org",
        shopA.id,
      );
      expect(Object.keys(user).sort()).toEqual(["email", "id", "orgId", "role"]);
      expect(user.id).toMatch(/^usr_[A-Za-z0-9]+$/);
      expect(user.email).toBe("owner@example.com");
      expect(user.orgId).toBe(shopA.id);
      expect(user.role).toBe("owner");

      const stored = withSqlite(join(dataDir, "platform.sqlite"), (sqlite) => ({
        user: sqlite.query("SELECT email, password_hash FROM users WHERE id = ?").get(user.id as string) as {
          email: string;
          password_hash: string;
        } | null,
        member: sqlite
          .query("SELECT role FROM members WHERE organization_id = ? AND user_id = ?")
          .get(shopA.id, user.id as string) as { role: string } | null,
      }));
      expect(stored.user?.password_hash.startsWith("$argon2id$")).toBe(true);
      expect(stored.user?.password_hash).not.toContain(password);
      expect(await Bun.password.verify(password, stored.user?.password_hash ?? "")).toBe(true);
      expect(stored.member?.role).toBe("owner");
      expect(platformBytes(dataDir).includes(password)).toBe(false);
    });

    test("a password shorter than 8 characters is a usage error (exit 2)", async () => {
      const run = await cli(
        dataDir,
        "user",
        "create",
        "--email",
        "short@example.com",
        "--password",
        "1234567",
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--password");
      const row = withSqlite(join(dataDir, "platform.sqlite"), (sqlite) =>
        sqlite.query("SELECT id FROM users WHERE email = 'short@example.com'").get(),
      );
      expect(row).toBeNull();
    });
  });

  describe("domain add", () => {
    test("adds a host once; the same host again exits 1", async () => {
      const added = await cliJson(dataDir, "domain", "add", "--org", shopA.id, "--host", "Shop.Example.org");
      expect(added).toEqual({ host: "shop.example.org", orgId: shopA.id });

      const again = await cli(dataDir, "domain", "add", "--org", shopA.id, "--host", "shop.example.org");
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("shop.example.org");

      const rows = withSqlite(join(dataDir, "platform.sqlite"), (sqlite) =>
        sqlite.query("SELECT organization_id FROM domains WHERE host = 'shop.example.org'").all(),
      );
      expect(rows).toEqual([{ organization_id: shopA.id }]);
    });
  });

  describe("usage", () => {
    test("an unknown command exits 2 with the usage on stderr", async () => {
      const run = await cli(dataDir, "frobnicate", "now");
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain('unknown command "frobnicate now"');
      expect(run.stderr).toContain("Usage:");
      expect(run.stderr).toContain("apikey create");
    });

    test("a malformed slug or host is a usage error (exit 2) and stores nothing", async () => {
      const slug = await cli(dataDir, "org", "create", "--name", "X", "--slug", "Bad Slug!");
      expect(slug.code).toBe(2);
      const host = await cli(dataDir, "domain", "add", "--org", shopA.id, "--host", "not a host/x");
      expect(host.code).toBe(2);
      const rows = withSqlite(join(dataDir, "platform.sqlite"), (sqlite) =>
        sqlite.query("SELECT count(*) AS n FROM domains WHERE host = 'not a host/x'").get(),
      );
      expect(rows).toEqual({ n: 0 });
    });

    test("no command at all exits 2 with the usage on stderr", async () => {
      const run = await cli(dataDir);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("Usage:");
    });

    test("--help exits 0 with the usage on stdout", async () => {
      const run = await cli(dataDir, "--help");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage:");
      expect(run.stdout).toContain("org create");
      expect(run.stderr).toBe("");
    });
  });

  describe("backup", () => {
    let outDir: string;

    beforeAll(() => {
      outDir = join(tempDir("backup"), "snapshot");
    });
    afterAll(() => {
      rmSync(resolve(outDir, ".."), { recursive: true, force: true });
    });

    test("copies the control plane and every tenant; a second run into the same dir fails", async () => {
      const result = await cliJson<{ dir: string; files: string[] }>(dataDir, "backup", "--out", outDir);
      const orgs = withSqlite(
        join(dataDir, "platform.sqlite"),
        (sqlite) =>
          sqlite.query("SELECT id, slug FROM organizations ORDER BY id").all() as {
            id: string;
            slug: string;
          }[],
      );
      expect(orgs.length).toBe(2);
      expect(result.dir).toBe(outDir);
      expect(result.files.sort()).toEqual(
        [
          join(outDir, "platform.sqlite"),
          ...orgs.map((o) => join(outDir, "tenants", `${o.id}.sqlite`)),
        ].sort(),
      );

      const backedUp = withSqlite(join(outDir, "platform.sqlite"), (sqlite) => ({
        orgs: sqlite.query("SELECT id, slug FROM organizations ORDER BY id").all(),
        keys: (sqlite.query("SELECT count(*) AS n FROM api_keys").get() as { n: number }).n,
        domains: sqlite.query("SELECT host FROM domains ORDER BY host").all(),
      }));
      expect(backedUp.orgs).toEqual(orgs);
      expect(backedUp.keys).toBe(1);
      expect(backedUp.domains).toEqual([{ host: "shop-a.example.com" }, { host: "shop.example.org" }]);

      for (const org of orgs) {
        const owner = withSqlite(
          join(outDir, "tenants", `${org.id}.sqlite`),
          (sqlite) =>
            sqlite.query("SELECT value FROM tenant_meta WHERE key = 'organization_id'").get() as {
              value: string;
            },
        );
        expect(owner.value).toBe(org.id);
      }

      const again = await cli(dataDir, "backup", "--out", outDir);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("already holds a backup");
    });
  });
});

describe("CLI and the HTTP app on the same DATA_DIR", () => {
  let dataDir: string;
  let app: App | undefined;

  const openApp = () => {
    app = createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false" }));
    return app;
  };

  beforeAll(() => {
    dataDir = tempDir("e2e");
  });
  afterEach(() => {
    app?.close();
    app = undefined;
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function me(target: App, headers: Record<string, string>) {
    const response = await target.fetch(new Request("http://localhost/v1/me", { headers }));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  test("a CLI key and a CLI domain resolve in the app", async () => {
    const org = await cliJson<OrgJson>(
      dataDir,
      "org",
      "create",
      "--name",
      "Shop E",
      "--host",
      "shop-e.example.com",
    );
    const key = await cliJson<KeyJson>(
      dataDir,
      "apikey",
      "create",
      "--org",
      org.id,
      "--scopes",
      "admin,storefront",
    );
    const storefrontKey = await cliJson<KeyJson>(
      dataDir,
      "apikey",
      "create",
      "--org",
      org.id,
      "--scopes",
      "storefront",
    );
    await cliJson(dataDir, "domain", "add", "--org", org.id, "--host", "shop.example.org");

    const target = openApp();
    expect(await me(target, { "x-api-key": key.key })).toEqual({
      status: 200,
      body: { data: { orgId: org.id, scopes: ["admin", "storefront"], type: "api-key" } },
    });
    expect(await me(target, { "x-api-key": storefrontKey.key })).toEqual({
      status: 200,
      body: { data: { orgId: org.id, scopes: ["storefront"], type: "api-key" } },
    });
    for (const host of [
      "shop.example.org",
      "SHOP.example.org:8080",
      "shop-e.example.com",
      "shop-e.localhost",
    ]) {
      expect(await me(target, { host })).toEqual({
        status: 200,
        body: { data: { orgId: org.id, scopes: ["storefront"], type: "host" } },
      });
    }

    const wrong = await me(target, { "x-api-key": `${key.key}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("UNAUTHORIZED");
    const unknownHost = await me(target, { host: "unknown.example.net" });
    expect(unknownHost.status).toBe(401);
  });

  test("the CLI writes while the app holds the DATA_DIR open, and the app sees it", async () => {
    const target = openApp();
    const org = await cliJson<OrgJson>(dataDir, "org", "create", "--name", "Live Shop");
    expect(org.slug).toBe("live-shop");
    const key = await cliJson<KeyJson>(dataDir, "apikey", "create", "--org", org.id, "--scopes", "admin");
    expect(key.orgId).toBe(org.id);

    expect(await me(target, { "x-api-key": key.key })).toEqual({
      status: 200,
      body: { data: { orgId: org.id, scopes: ["admin"], type: "api-key" } },
    });
    expect(await me(target, { host: "live-shop.localhost" })).toEqual({
      status: 200,
      body: { data: { orgId: org.id, scopes: ["storefront"], type: "host" } },
    });
    // The app can open the tenant file the CLI created while it was running.
    const owner = await target.ctx.tenants.with(
      org.id,
      (tenant) =>
        tenant.sqlite.query("SELECT value FROM tenant_meta WHERE key = 'organization_id'").get() as {
          value: string;
        },
    );
    expect(owner.value).toBe(org.id);

    // A backup taken while the app is open is a consistent copy.
    const outDir = join(dataDir, "live-backup");
    const result = await cliJson<{ files: string[] }>(dataDir, "backup", "--out", outDir);
    expect(result.files).toContain(join(outDir, "tenants", `${org.id}.sqlite`));
    const keys = withSqlite(
      join(outDir, "platform.sqlite"),
      (sqlite) =>
        sqlite.query("SELECT id FROM api_keys WHERE organization_id = ?").all(org.id) as { id: string }[],
    );
    expect(keys).toEqual([{ id: key.id }]);
  });
});

describe("backup with a tenant that cannot be copied", () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = tempDir("broken");
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("backup fails rather than exit 0 listing a tenant copy it never wrote", async () => {
    const org = await cliJson<OrgJson>(dataDir, "org", "create", "--name", "Lost Shop");
    rmSync(join(dataDir, "tenants", `${org.id}.sqlite`));
    const outDir = join(dataDir, "snapshot");

    const run = await cli(dataDir, "backup", "--out", outDir, "--json");
    const listed: string[] = run.code === 0 ? (JSON.parse(run.stdout) as { files: string[] }).files : [];
    const missing = listed.filter((file) => !existsSync(file));
    expect({ code: run.code === 0 ? 0 : "non-zero", missing }).toEqual({ code: "non-zero", missing: [] });
  });
});

describe("operator commands: domains, API keys, org delete", () => {
  let dataDir: string;
  let shop: OrgJson;
  let other: OrgJson;
  const platformFile = () => join(dataDir, "platform.sqlite");

  beforeAll(async () => {
    dataDir = tempDir("ops");
    // A trailing dot is normalised away at creation too.
    shop = await cliJson<OrgJson>(
      dataDir,
      "org",
      "create",
      "--name",
      "Ops Shop",
      "--host",
      "Ops.Example.com.",
    );
    other = await cliJson<OrgJson>(dataDir, "org", "create", "--name", "Other Shop");
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe("domain add refuses hosts that another organization answers", () => {
    test("org create --host stores the host without its trailing dot", () => {
      expect(shop.host).toBe("ops.example.com");
      const rows = withSqlite(platformFile(), (sqlite) =>
        sqlite.query("SELECT host FROM domains ORDER BY host").all(),
      );
      expect(rows).toEqual([{ host: "ops.example.com" }]);
    });

    test("another organization's domain, also spelled with a trailing dot, is a 409", async () => {
      for (const host of ["ops.example.com", "OPS.example.com."]) {
        const run = await cli(dataDir, "domain", "add", "--org", other.id, "--host", host, "--json");
        expect(run.code).toBe(1);
        expect(run.stdout).toBe("");
        expect(JSON.parse(run.stderr)).toMatchObject({ code: "CONFLICT", status: 409 });
      }
    });

    test("{slug}.{PLATFORM_DOMAIN} of any organization is a 409", async () => {
      for (const host of [`${shop.slug}.localhost`, `${other.slug}.localhost.`]) {
        const run = await cli(dataDir, "domain", "add", "--org", other.id, "--host", host, "--json");
        expect(run.code).toBe(1);
        expect(JSON.parse(run.stderr)).toMatchObject({ code: "CONFLICT", status: 409 });
      }
      const created = await cli(
        dataDir,
        "org",
        "create",
        "--name",
        "Shadow",
        "--host",
        `${other.slug}.localhost`,
        "--json",
      );
      expect(created.code).toBe(1);
      expect(JSON.parse(created.stderr)).toMatchObject({ code: "CONFLICT", status: 409 });
      const rows = withSqlite(platformFile(), (sqlite) => ({
        domains: sqlite.query("SELECT host FROM domains WHERE host LIKE '%.localhost'").all(),
        orgs: sqlite.query("SELECT id FROM organizations WHERE name = 'Shadow'").all(),
      }));
      expect(rows).toEqual({ domains: [], orgs: [] });
    });

    test("a free host with a trailing dot is stored without it", async () => {
      const added = await cliJson(
        dataDir,
        "domain",
        "add",
        "--org",
        other.id,
        "--host",
        "other.example.com.",
      );
      expect(added).toEqual({ host: "other.example.com", orgId: other.id });
    });
  });

  describe("domain list and remove", () => {
    test("domain list prints the organization's hosts", async () => {
      const hosts = await cliJson<{ host: string; orgId: string; createdAt: string }[]>(
        dataDir,
        "domain",
        "list",
        "--org",
        other.id,
      );
      expect(hosts.map((h) => [h.host, h.orgId])).toEqual([["other.example.com", other.id]]);
      expect(Number.isNaN(Date.parse(hosts[0]!.createdAt))).toBe(false);
      const text = await cli(dataDir, "domain", "list", "--org", shop.id);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain("ops.example.com");
    });

    test("domain remove deletes the host (trailing dot accepted); an unknown host exits 1", async () => {
      const removed = await cliJson(dataDir, "domain", "remove", "--host", "Other.Example.com.");
      expect(removed).toEqual({ host: "other.example.com", orgId: other.id });
      expect(await cliJson<unknown[]>(dataDir, "domain", "list", "--org", other.id)).toEqual([]);
      const again = await cli(dataDir, "domain", "remove", "--host", "other.example.com", "--json");
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stderr)).toMatchObject({ code: "NOT_FOUND", status: 404 });
    });

    test("an unknown organization exits 1", async () => {
      const run = await cli(dataDir, "domain", "list", "--org", "org_doesNotExist0");
      expect(run.code).toBe(1);
    });
  });

  describe("apikey list and revoke", () => {
    let key: KeyJson;

    beforeAll(async () => {
      key = await cliJson<KeyJson>(dataDir, "apikey", "create", "--org", shop.id, "--scopes", "storefront");
    });

    test("apikey list shows id, name, scopes and dates, never the key", async () => {
      const run = await cli(dataDir, "apikey", "list", "--org", shop.id, "--json");
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain(key.key);
      expect(run.stdout).not.toContain(key.key.slice(8));
      const keys = JSON.parse(run.stdout) as Record<string, unknown>[];
      expect(keys).toHaveLength(1);
      expect(Object.keys(keys[0]!).sort()).toEqual([
        "createdAt",
        "expiresAt",
        "id",
        "name",
        "revokedAt",
        "scopes",
      ]);
      expect(keys[0]).toMatchObject({ id: key.id, name: "CLI key", scopes: ["storefront"], revokedAt: null });
      const text = await cli(dataDir, "apikey", "list", "--org", shop.id);
      expect(text.stdout).toContain(key.id);
      expect(text.stdout).not.toContain(key.key);
    });

    test("apikey revoke marks the key revoked; an unknown key exits 1", async () => {
      const revoked = await cliJson(dataDir, "apikey", "revoke", "--id", key.id);
      expect(revoked).toMatchObject({ id: key.id, orgId: shop.id });
      expect(typeof revoked.revokedAt).toBe("string");
      const row = withSqlite(
        platformFile(),
        (sqlite) =>
          sqlite.query("SELECT revoked_at FROM api_keys WHERE id = ?").get(key.id) as { revoked_at: number },
      );
      expect(row.revoked_at).toBeGreaterThan(0);
      const [listed] = await cliJson<{ revokedAt: string | null }[]>(
        dataDir,
        "apikey",
        "list",
        "--org",
        shop.id,
      );
      expect(listed?.revokedAt).toBe(revoked.revokedAt as string);

      const unknown = await cli(dataDir, "apikey", "revoke", "--id", "key_doesNotExist0", "--json");
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stderr)).toMatchObject({ code: "NOT_FOUND", status: 404 });
      const missing = await cli(dataDir, "apikey", "revoke");
      expect(missing.code).toBe(2);
    });
  });

  describe("org delete", () => {
    test("without --yes it exits 2 and changes nothing", async () => {
      const run = await cli(dataDir, "org", "delete", "--id", shop.id);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--yes");
      expect(existsSync(join(dataDir, "tenants", `${shop.id}.sqlite`))).toBe(true);
      const row = withSqlite(platformFile(), (sqlite) =>
        sqlite.query("SELECT id FROM organizations WHERE id = ?").get(shop.id),
      );
      expect(row).toEqual({ id: shop.id });
    });

    test("with --yes it removes the organization, its rows and its files", async () => {
      await cliJson(
        dataDir,
        "user",
        "create",
        "--email",
        "ops@example.com",
        "--password",
        "long enough pw",
        "--org",
        shop.id,
      );
      const tenant = join(dataDir, "tenants", `${shop.id}.sqlite`);
      // Leftover WAL and shared-memory files go too.
      await Bun.write(`${tenant}-wal`, "");
      await Bun.write(`${tenant}-shm`, "");

      const deleted = await cliJson(dataDir, "org", "delete", "--id", shop.id, "--yes");
      expect(deleted).toEqual({ id: shop.id, slug: shop.slug, name: "Ops Shop", deleted: true });
      for (const suffix of ["", "-wal", "-shm"]) expect(existsSync(`${tenant}${suffix}`)).toBe(false);
      const counts = withSqlite(platformFile(), (sqlite) =>
        [
          "organizations WHERE id",
          "members WHERE organization_id",
          "domains WHERE organization_id",
          "api_keys WHERE organization_id",
        ].map(
          (what) => (sqlite.query(`SELECT count(*) AS n FROM ${what} = ?`).get(shop.id) as { n: number }).n,
        ),
      );
      expect(counts).toEqual([0, 0, 0, 0]);
      // The user stays; the other organization is untouched.
      const orgs = await cliJson<{ id: string }[]>(dataDir, "org", "list");
      expect(orgs.map((o) => o.id)).toEqual([other.id]);
      // Its host and slug are free again.
      expect(await cliJson(dataDir, "domain", "add", "--org", other.id, "--host", "ops.example.com")).toEqual(
        {
          host: "ops.example.com",
          orgId: other.id,
        },
      );

      const again = await cli(dataDir, "org", "delete", "--id", shop.id, "--yes", "--json");
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stderr)).toMatchObject({ code: "NOT_FOUND", status: 404 });
    });
  });

  test("usage lists the new commands", async () => {
    const run = await cli(dataDir, "--help");
    for (const command of ["apikey list", "apikey revoke", "domain list", "domain remove", "org delete"]) {
      expect(run.stdout).toContain(command);
    }
  });
});

describe("start-up and packaging", () => {
  test("a port in use is one line on stderr and exit 1", async () => {
    const dataDir = tempDir("port");
    const blocker = Bun.serve({ port: 0, fetch: () => new Response("busy") });
    try {
      const proc = Bun.spawn([process.execPath, "src/server.ts"], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(blocker.port), LOG_LEVEL: "silent" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`error: port ${blocker.port} is in use (set PORT to another port)`);
      // Nothing was created, so no demo admin key was printed and lost.
      const platform = join(dataDir, "platform.sqlite");
      const orgs = existsSync(platform)
        ? withSqlite(
            platform,
            (sqlite) => (sqlite.query("SELECT count(*) AS n FROM organizations").get() as { n: number }).n,
          )
        : 0;
      expect(orgs).toBe(0);
    } finally {
      blocker.stop(true);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("the entry point runs an unknown command as the CLI (usage, exit 2), not the server", async () => {
    const dataDir = tempDir("main");
    try {
      const proc = Bun.spawn([process.execPath, "src/main.ts", "frobnicate"], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: "0" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const timer = setTimeout(() => proc.kill(), 10_000);
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      clearTimeout(timer);
      expect(code).toBe(2);
      expect(stderr).toContain('unknown command "frobnicate"');
      expect(stderr).toContain("Usage:");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("the README installs the Bun version pinned by packageManager", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { packageManager: string };
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const pin = pkg.packageManager.replace(/^bun@/, "");
    const installs = [...readme.matchAll(/npm install -g bun(@[^\s`]*)?/g)].map((m) => m[0]);
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install).toBe(`npm install -g bun@${pin}`);
  });
});
