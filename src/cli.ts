import { Database } from "bun:sqlite";
import { mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type AppContext, closeContext, createContext } from "./app-context.ts";
import {
  type ApiKeyView,
  addDomain,
  addMember,
  apiKeyOrganization,
  createApiKey,
  createOrganization,
  createUser,
  deleteOrganization,
  findOrganization,
  findUserByEmail,
  listAllApiKeys,
  listDomains,
  listOrganizations,
  normalizeDomainHost,
  removeDomain,
  revokeApiKey,
  SLUG_PATTERN,
  validDomainHost,
} from "./auth/service.ts";
import { ROLES, type Role } from "./auth/tables.ts";
import { seedProducts } from "./catalog/seed.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { ApiError } from "./core/errors.ts";
import type { Scope } from "./core/operation.ts";
import { markEveryOrganizationDue } from "./db/due-times.ts";
import { demoImageUrls } from "./media/seed.ts";
import { modules } from "./modules.ts";
import { restoreDataDir } from "./nodes/data-dir.ts";
import { moveShop, proxyConfig, proxyConfigFromDirectory } from "./nodes/operator.ts";
import { eraseReplicaAfterLastSync, restoreFromReplica } from "./nodes/replication.ts";
import { eraseShop, exportShop, importShop, restoreShop } from "./nodes/shop-files.ts";
import { rekeyIntegrations } from "./payments/module.ts";
import { storeReadiness } from "./setup/module.ts";

const USAGE = `Usage: commerce <command> [options] [--json]

  org create --name NAME [--slug SLUG] [--host HOST]
  org list
  org delete --id ORG_ID --yes     removes the organization, its domains, keys and memberships, and its file
  domain add --org ORG_ID --host HOST
  domain list --org ORG_ID
  domain remove --host HOST
  user create --email EMAIL --password PASSWORD [--org ORG_ID] [--role owner|admin|member] [--name NAME]
  apikey create --org ORG_ID [--scopes admin,storefront] [--name NAME]
  apikey list --org ORG_ID         id, name, scopes, created, expires, revoked (never the key)
  apikey revoke --id KEY_ID
  backup --out DIR
  restore --from DIR               a whole DATA_DIR from a backup; the DATA_DIR must hold no organization
  restore --from-replica [--force]  a whole DATA_DIR from the REPLICA_URL bucket (Litestream); the DATA_DIR must be
                                   empty; refused while another node's lease names its shops (--force: it is lost)
  shop export --org ORG_ID --out FILE      one shop as one file: its database and its control-plane rows
  shop import --file FILE                  refused when its id, slug, hosts or rows are already here
  shop erase --org ORG_ID --yes [--backup DIR …]   its file, its rows, and its copies in those backups
  shop restore --org ORG_ID --from DIR [--replace]  one shop from a backup (--replace: over the one here)
  shop move --org ORG_ID --from URL --to URL       one shop from a node to another, under traffic (NODE_TOKEN)
  proxy-config --node NAME=URL [--node …] --out FILE   the proxy's map of hosts to nodes (NODE_TOKEN)
  proxy-config --from-directory --out FILE     the same map from the nodes' leases (DIRECTORY_URL)
  readiness ORG                    what still blocks selling (ORG: slug or id); exits 0 when ready, 1 when not
  seed --products N --org ORG_ID   adds N generated products (1 to 1000000), for benchmarks
  integrations rekey [--org ORG_ID]  re-encrypts payment-provider secrets under INTEGRATION_ENCRYPTION_KEY
  healthcheck                      exits 0 when the local server answers GET /v1/health

Reads the same DATA_DIR as the server and is safe to run while it runs.`;

class UsageError extends Error {}

const SEED_BATCH = 250;

type Options = Record<string, string | boolean | undefined>;

function need(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

function requireOrg(ctx: AppContext, id: string) {
  const org = findOrganization(ctx.platform, id);
  if (!org) throw new ApiError("NOT_FOUND", `organization ${id} not found`);
  return org;
}

function checked(value: string, pattern: string, option: string): string {
  if (!new RegExp(pattern).test(value)) throw new UsageError(`--${option} "${value}" is not valid`);
  return value;
}

/** A `--host` value: normalised (lower-case, no trailing dot), then checked. */
function hostOption(raw: string): string {
  const host = validDomainHost(raw);
  if (host === undefined) throw new UsageError(`--host "${normalizeDomainHost(raw)}" is not valid`);
  return host;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function keyJson(key: ApiKeyView) {
  return {
    id: key.id,
    name: key.name,
    scopes: key.metadata.scopes,
    createdAt: new Date(key.createdAt).toISOString(),
    expiresAt: isoOrNull(key.expiresAt),
    revokedAt: isoOrNull(key.revokedAt),
  };
}

function parseScopes(raw: string | undefined): Scope[] {
  const scopes = (raw ?? "admin,storefront").split(",").map((s) => s.trim());
  if (scopes.length === 0 || scopes.some((s) => s !== "admin" && s !== "storefront")) {
    throw new UsageError("--scopes takes admin and/or storefront, comma-separated");
  }
  return scopes as Scope[];
}

/** Copies every database with VACUUM INTO: a consistent snapshot even while the server writes. */
async function backup(ctx: AppContext, out: string) {
  const dir = resolve(out);
  mkdirSync(join(dir, "tenants"), { recursive: true });
  if (readdirSync(join(dir, "tenants")).length > 0) throw new UsageError(`${dir} already holds a backup`);
  const files: string[] = [];
  const platformFile = join(dir, "platform.sqlite");
  ctx.platform.sqlite.query("VACUUM INTO ?").run(platformFile);
  files.push(platformFile);
  for (const org of listOrganizations(ctx.platform)) {
    const file = join(dir, "tenants", `${org.id}.sqlite`);
    await ctx.tenants.with(org.id, (tenant) => tenant.sqlite.query("VACUUM INTO ?").run(file));
    files.push(file);
  }
  const copy = new Database(platformFile);
  try {
    markEveryOrganizationDue(copy);
  } finally {
    copy.close();
  }
  return { dir, files };
}

/** The result (`--json`), its text, and an exit code when the command ran but reports a state that is not OK. */
type Outcome = [result: unknown, text: string, exitCode?: number];

function orgCreate(ctx: AppContext, options: Options): Outcome {
  const host = typeof options.host === "string" ? hostOption(options.host) : undefined;
  const org = createOrganization(ctx, {
    name: need(options, "name"),
    slug: typeof options.slug === "string" ? checked(options.slug, SLUG_PATTERN, "slug") : undefined,
    host,
  });
  const result = { id: org.id, slug: org.slug, name: org.name, host: host ?? null };
  return [
    result,
    `Created organization ${org.name} (${org.id}), slug ${org.slug}${host ? `, host ${host}` : ""}`,
  ];
}

function orgList(ctx: AppContext): Outcome {
  const orgs = listOrganizations(ctx.platform).map(({ id, slug, name }) => ({ id, slug, name }));
  return [orgs, orgs.map((o) => `${o.id}  ${o.slug}  ${o.name}`).join("\n") || "(no organizations)"];
}

function orgDelete(ctx: AppContext, options: Options): Outcome {
  const id = need(options, "id");
  if (options.yes !== true) {
    throw new UsageError(`org delete removes ${id} and all its data for good; add --yes to confirm`);
  }
  const org = deleteOrganization(ctx, id);
  return [
    { id: org.id, slug: org.slug, name: org.name, deleted: true },
    `Deleted organization ${org.name} (${org.id}) and its data`,
  ];
}

function domainAdd(ctx: AppContext, options: Options): Outcome {
  const orgId = need(options, "org");
  const host = hostOption(need(options, "host"));
  addDomain(ctx, orgId, host);
  return [{ host, orgId }, `Host ${host} now answers for ${orgId}`];
}

function domainList(ctx: AppContext, options: Options): Outcome {
  const orgId = requireOrg(ctx, need(options, "org")).id;
  const hosts = listDomains(ctx.platform, orgId).map((d) => ({
    host: d.host,
    orgId: d.organizationId,
    createdAt: new Date(d.createdAt).toISOString(),
  }));
  return [hosts, hosts.map((d) => `${d.host}  ${d.createdAt}`).join("\n") || "(no domains)"];
}

function domainRemove(ctx: AppContext, options: Options): Outcome {
  const removed = removeDomain(ctx.platform, need(options, "host"));
  return [
    { host: removed.host, orgId: removed.organizationId },
    `Host ${removed.host} no longer answers for ${removed.organizationId}`,
  ];
}

async function userCreate(ctx: AppContext, options: Options): Promise<Outcome> {
  const role = (options.role ?? "owner") as Role;
  if (!ROLES.includes(role)) throw new UsageError("--role takes owner, admin or member");
  const password = need(options, "password");
  if (password.length < 8) throw new UsageError("--password needs at least 8 characters");
  const orgId = typeof options.org === "string" ? requireOrg(ctx, options.org).id : null;
  const email = need(options, "email");
  const user =
    findUserByEmail(ctx.platform, email) ??
    (await createUser(ctx.platform, {
      email,
      password,
      name: typeof options.name === "string" ? options.name : undefined,
    }));
  if (orgId) addMember(ctx.platform, orgId, user.id, role);
  return [
    { id: user.id, email: user.email, orgId, role: orgId ? role : null },
    `User ${user.email} (${user.id})${orgId ? ` is ${role} of ${orgId}` : ""}`,
  ];
}

function apikeyCreate(ctx: AppContext, options: Options): Outcome {
  const orgId = requireOrg(ctx, need(options, "org")).id;
  const scopes = parseScopes(typeof options.scopes === "string" ? options.scopes : undefined);
  const key = createApiKey(ctx.platform, {
    organizationId: orgId,
    name: typeof options.name === "string" ? options.name : "CLI key",
    scopes,
  });
  return [
    { id: key.id, key: key.key, orgId, scopes: key.metadata.scopes },
    `API key ${key.id} for ${orgId} (${scopes.join(", ")}), shown only now:\n${key.key}`,
  ];
}

function apikeyList(ctx: AppContext, options: Options): Outcome {
  const orgId = requireOrg(ctx, need(options, "org")).id;
  const keys = listAllApiKeys(ctx.platform, orgId).map(keyJson);
  const text = keys
    .map(
      (k) =>
        `${k.id}  ${k.name}  ${k.scopes.join(",")}  created ${k.createdAt}` +
        `${k.expiresAt ? `  expires ${k.expiresAt}` : ""}${k.revokedAt ? `  revoked ${k.revokedAt}` : ""}`,
    )
    .join("\n");
  return [keys, text || "(no API keys)"];
}

function apikeyRevoke(ctx: AppContext, options: Options): Outcome {
  const id = need(options, "id");
  const orgId = apiKeyOrganization(ctx.platform, id);
  if (!orgId) throw new ApiError("NOT_FOUND", `API key ${id} not found`);
  const key = keyJson(revokeApiKey(ctx.platform, orgId, id));
  return [{ ...key, orgId }, `Revoked API key ${key.id} of ${orgId}`];
}

async function backupCommand(ctx: AppContext, options: Options): Promise<Outcome> {
  const result = await backup(ctx, need(options, "out"));
  return [result, `Backed up ${result.files.length} databases to ${result.dir}`];
}

async function seedCommand(ctx: AppContext, options: Options): Promise<Outcome> {
  const raw = need(options, "products");
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1 || count > 1_000_000) {
    throw new UsageError("--products takes a whole number from 1 to 1000000");
  }
  const orgId = requireOrg(ctx, need(options, "org")).id;
  // Commits of 250 products hold the file's write lock for a fraction of a second, so a server
  // writing the same tenant waits (busy_timeout) well within its limit.
  // Pictures are the demo's drawn ones, stored once in the shop's file: nothing from the internet.
  const { created, ms } = await ctx.tenants.with(orgId, (tenant) =>
    seedProducts(tenant, count, { batch: SEED_BATCH, imageUrls: demoImageUrls(tenant).flat() }),
  );
  const rate = Math.round((created * 1000) / Math.max(ms, 1));
  return [{ orgId, created, ms }, `Created ${created} products in ${orgId} in ${ms} ms (${rate} products/s)`];
}

async function readinessCommand(ctx: AppContext, _options: Options, args: string[]): Promise<Outcome> {
  const ref = args[0];
  if (!ref) throw new UsageError("readiness takes the organization's slug or id");
  const org = listOrganizations(ctx.platform).find((o) => o.slug === ref || o.id === ref);
  if (!org) throw new ApiError("NOT_FOUND", `organization ${ref} not found`);
  const readiness = await ctx.tenants.with(org.id, (tenant) => storeReadiness(ctx, org.id, tenant));
  const line = (item: { code: string; message: string; fix: string }) =>
    `  ${item.code}  ${item.message}\n      fix: ${item.fix}`;
  const text = [
    readiness.ready
      ? `${org.name} (${org.slug}) is ready to sell`
      : `${org.name} (${org.slug}) cannot sell yet:`,
    ...readiness.blockers.map(line),
    ...(readiness.warnings.length ? ["Worth doing:", ...readiness.warnings.map(line)] : []),
  ].join("\n");
  return [readiness, text, readiness.ready ? 0 : 1];
}

async function integrationsRekey(ctx: AppContext, options: Options): Promise<Outcome> {
  const orgs =
    typeof options.org === "string" ? [requireOrg(ctx, options.org)] : listOrganizations(ctx.platform);
  const result = await rekeyIntegrations(
    ctx,
    orgs.map((org) => org.id),
  );
  return [
    result,
    `Re-encrypted ${result.rekeyed} of ${result.values} secrets in ${result.tenants} organizations under key ${result.kid}`,
  ];
}

type Command = (ctx: AppContext, options: Options, args: string[]) => Outcome | Promise<Outcome>;

async function shopExport(ctx: AppContext, options: Options): Promise<Outcome> {
  const result = await exportShop(ctx, need(options, "org"), resolve(need(options, "out")));
  return [
    result,
    `Exported ${result.orgId} to ${result.file} (${result.controlPlaneRows} control-plane rows)`,
  ];
}

async function shopImport(ctx: AppContext, options: Options): Promise<Outcome> {
  const result = await importShop(ctx, resolve(need(options, "file")));
  return [result, `Imported ${result.orgId} (${result.rows} control-plane rows)`];
}

async function shopErase(ctx: AppContext, options: Options): Promise<Outcome> {
  const id = need(options, "org");
  if (options.yes !== true)
    throw new UsageError(`shop erase removes ${id} and every copy named for good; add --yes`);
  const backups = ((options.backup as unknown as string[] | undefined) ?? []).map((dir) => resolve(dir));
  const erased = eraseShop(ctx, id, backups);
  const replica = ctx.config.replica;
  const replicaObjects = replica ? await eraseReplicaAfterLastSync(replica, id) : 0;
  const result = { ...erased, replicaObjects };
  return [
    result,
    `Erased ${id}: ${erased.controlPlaneRows} control-plane rows, its file, ${backups.length} backups, ` +
      `${replicaObjects} objects of its replica`,
  ];
}

async function shopRestore(ctx: AppContext, options: Options): Promise<Outcome> {
  const result = await restoreShop(ctx, need(options, "org"), resolve(need(options, "from")), {
    replace: options.replace === true,
  });
  return [result, `Restored ${result.orgId} (${result.rows} control-plane rows)`];
}

function nodeToken(ctx: AppContext): string {
  const token = ctx.config.nodeToken;
  if (!token) throw new UsageError("NODE_TOKEN must be set: the nodes' /ops routes want it");
  return token;
}

async function shopMove(ctx: AppContext, options: Options): Promise<Outcome> {
  const result = await moveShop(
    need(options, "org"),
    need(options, "from"),
    need(options, "to"),
    nodeToken(ctx),
  );
  return [
    result,
    `Moved ${result.orgId} to ${result.to}; its writes were refused for ${result.writesRefusedMs} ms`,
  ];
}

async function proxyConfigCommand(ctx: AppContext, options: Options): Promise<Outcome> {
  if (options["from-directory"] === true) {
    const { replica, directory } = ctx.config;
    if (!replica || !directory) throw new UsageError("--from-directory needs REPLICA_URL and DIRECTORY_URL");
    const result = await proxyConfigFromDirectory(replica, directory.url, resolve(need(options, "out")));
    return [result, `Wrote ${result.hosts} hosts of ${result.nodes} nodes to ${result.file}`];
  }
  const nodes = ((options.node as unknown as string[] | undefined) ?? []).map((entry) => {
    const [name, url] = entry.split("=", 2);
    if (!name || !url || !/^https?:\/\//.test(url))
      throw new UsageError(`--node takes NAME=URL (got "${entry}")`);
    return { name, url: url.replace(/\/+$/, "") };
  });
  if (nodes.length === 0) throw new UsageError("--node NAME=URL is required (one per node)");
  const result = await proxyConfig(nodes, nodeToken(ctx), resolve(need(options, "out")));
  return [result, `Wrote ${result.hosts} hosts to ${result.file}`];
}

/** Each command by its words (`org create`, `backup`). */
const COMMANDS: Record<string, Command> = {
  "org create": orgCreate,
  "org list": orgList,
  "org delete": orgDelete,
  "domain add": domainAdd,
  "domain list": domainList,
  "domain remove": domainRemove,
  "user create": userCreate,
  "apikey create": apikeyCreate,
  "apikey list": apikeyList,
  "apikey revoke": apikeyRevoke,
  backup: backupCommand,
  "shop export": shopExport,
  "shop import": shopImport,
  "shop erase": shopErase,
  "shop restore": shopRestore,
  "shop move": shopMove,
  "proxy-config": proxyConfigCommand,
  seed: seedCommand,
  readiness: readinessCommand,
  "integrations rekey": integrationsRekey,
};

async function run(ctx: AppContext, command: string, options: Options, args: string[]): Promise<Outcome> {
  // Own keys only: a command named like an Object.prototype member is unknown too.
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) throw new UsageError(`unknown command "${command}"`);
  return handler(ctx, options, args);
}

/**
 * `restore --from DIR` (a backup) or `--from-replica` (the bucket Litestream streams to): the
 * databases become the DATA_DIR's, which must hold no organization yet.
 */
async function restoreCommand(options: Options): Promise<number> {
  try {
    let result: { dataDir: string };
    if (options["from-replica"] === true)
      result = await restoreFromReplica(loadConfig(), { force: options.force === true });
    else {
      const from = options.from;
      if (typeof from !== "string" || from === "")
        throw new UsageError("--from or --from-replica is required");
      result = restoreDataDir(resolve(from), loadConfig().dataDir);
    }
    console.log(
      options.json ? JSON.stringify(result) : `Restored ${result.dataDir}: ${JSON.stringify(result)}`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ApiError || error instanceof ConfigError))
      throw error;
    console.error(`error: ${error.message}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** For container health checks: the server on this machine answers its health route. */
async function healthcheck(): Promise<number> {
  const port = process.env.PORT || "3000";
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(2000) });
    return response.ok ? 0 : 1;
  } catch {
    return 1;
  }
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        help: { type: "boolean" },
        name: { type: "string" },
        slug: { type: "string" },
        host: { type: "string" },
        org: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
        scopes: { type: "string" },
        out: { type: "string" },
        products: { type: "string" },
        id: { type: "string" },
        yes: { type: "boolean" },
        file: { type: "string" },
        from: { type: "string" },
        backup: { type: "string", multiple: true },
        replace: { type: "boolean" },
        "from-replica": { type: "boolean" },
        "from-directory": { type: "boolean" },
        force: { type: "boolean" },
        to: { type: "string" },
        node: { type: "string", multiple: true },
      },
    });
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const singleWord = ["backup", "restore", "healthcheck", "seed", "readiness", "proxy-config"].includes(
    positionals[0]!,
  );
  const command = singleWord ? positionals[0]! : positionals.slice(0, 2).join(" ");
  const args = positionals.slice(singleWord ? 1 : 2);
  if (command === "healthcheck") return healthcheck();

  // Before anything opens the DATA_DIR: a restore puts its databases in place.
  if (command === "restore") return restoreCommand(values as Options);
  let ctx: AppContext;
  try {
    ctx = createContext({ ...loadConfig(), logLevel: "warn" }, modules);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    return 1;
  }
  try {
    const [result, text, exitCode = 0] = await run(ctx, command, values as Options, args);
    console.log(values.json ? JSON.stringify(result) : text);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      console.error(values.json ? JSON.stringify(error.toBody()) : `error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    closeContext(ctx);
  }
}

if (import.meta.main) process.exit(await runCli(process.argv.slice(2)));
