import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { AppContext } from "../app-context.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../core/errors.ts";
import type { ReplicationPosition } from "../core/metrics.ts";
import { markEveryOrganizationDue } from "../db/due-times.ts";
import { freePort } from "../lib/ports.ts";
import { bucketClient, bucketOf, type ReplicaConfig } from "./bucket.ts";
import { current, type DirectoryConfig, readLeases } from "./directory.ts";
import { takeShop } from "./shop-files.ts";

// Continuous replication of this node's databases with Litestream (docs/scaling.md): the control
// plane and every shop's file, each streamed to its own path in an S3-compatible bucket. Litestream
// 0.3 (the npm package's) replicates the databases its configuration lists, one entry each, and
// reads that configuration once: the supervisor writes it from the shops the control plane holds,
// and starts Litestream again when that set changes (a shop created, imported or erased). Litestream
// resumes each database from its own position, so a restart loses nothing; the WAL waits meanwhile.

/** How often the supervisor looks for shops created or erased (by this process or the command line). */
const WATCH_MS = 2000;

/** The Litestream binary of `@flydotio/litestream` for this machine. */
export function litestreamBinary(replica: Pick<ReplicaConfig, "binary">): string {
  if (replica.binary) return replica.binary;
  const require = createRequire(import.meta.url);
  try {
    return require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`);
  } catch {
    throw new ApiError(
      "UNAVAILABLE",
      `No Litestream binary for ${process.platform}-${process.arch}: set LITESTREAM_PATH`,
    );
  }
}

/** A third of the replication interval: how often Litestream looks at each WAL, and how often it ships it. */
const third = (replica: ReplicaConfig) => Math.max(50, Math.floor(replica.syncIntervalMs / 3));

/** A database's replica path in the bucket: `<prefix>/platform`, `<prefix>/tenants/<org id>`. */
const replicaPath = (prefix: string, name: string) => (prefix ? `${prefix}/${name}` : name);

/**
 * Litestream's configuration for the control plane and `orgIds`' files. Credentials are read from
 * the child's environment (`${…}`, Litestream expands them), so the file holds no secret.
 */
export function litestreamConfig(
  dataDir: string,
  replica: ReplicaConfig,
  orgIds: readonly string[],
  metricsPort?: number,
): string {
  const { bucket, prefix } = bucketOf(replica.url);
  const entry = (path: string, name: string) =>
    [
      `  - path: ${path}`,
      // A write waits for Litestream's look at the WAL (it copies it aside), then for the replica's
      // sync: each every third of the interval, which leaves a third for the upload.
      `    monitor-interval: ${third(replica)}ms`,
      "    replicas:",
      "      - type: s3",
      `        bucket: ${bucket}`,
      `        path: ${replicaPath(prefix, name)}`,
      `        region: ${replica.region}`,
      ...(replica.endpoint
        ? [`        endpoint: ${replica.endpoint}`, "        force-path-style: true"]
        : []),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Litestream expands ${…} from its environment
      ...(replica.accessKeyId ? ["        access-key-id: ${REPLICA_ACCESS_KEY_ID}"] : []),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
      ...(replica.secretAccessKey ? ["        secret-access-key: ${REPLICA_SECRET_ACCESS_KEY}"] : []),
      `        sync-interval: ${third(replica)}ms`,
    ].join("\n");
  const dbs = [
    entry(join(dataDir, "platform.sqlite"), "platform"),
    ...orgIds.map((id) => entry(join(dataDir, "tenants", `${id}.sqlite`), `tenants/${id}`)),
  ];
  // Its own metrics, on this machine only: what the service reads replication positions from.
  const addr = metricsPort === undefined ? "" : `addr: "127.0.0.1:${metricsPort}"\n`;
  return `${addr}dbs:\n${dbs.join("\n")}\n`;
}

/** The child's environment: the credentials its configuration names, and nothing else of ours. */
const childEnv = (replica: ReplicaConfig) => ({
  PATH: process.env.PATH ?? "",
  ...(replica.accessKeyId ? { REPLICA_ACCESS_KEY_ID: replica.accessKeyId } : {}),
  ...(replica.secretAccessKey ? { REPLICA_SECRET_ACCESS_KEY: replica.secretAccessKey } : {}),
});

const organizationIds = (ctx: AppContext): string[] =>
  (ctx.platform.sqlite.query("SELECT id FROM organizations ORDER BY id").all() as { id: string }[]).map(
    (o) => o.id,
  );

/** Keeps one Litestream process replicating this node's databases, restarted when its shops change. */
/** Where the running Litestream's process id is kept, so a server started after a crash stops the one left behind. */
const pidFileOf = (dataDir: string) => join(dataDir, "litestream.pid");

/**
 * Stops a Litestream a crashed server left running on this data directory (its pid file names it,
 * and its command line names this directory's configuration): two of them on one database would
 * each ship its WAL. Answers whether there was one.
 */
export function stopLeftoverLitestream(dataDir: string): boolean {
  const file = pidFileOf(dataDir);
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, "utf8").trim());
  rmSync(file, { force: true });
  let command = "";
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return false; // gone already
  }
  if (!command.includes("litestream") || !command.includes(join(dataDir, "litestream.yml"))) return false;
  process.kill(pid, "SIGKILL");
  return true;
}

/** Stops a Litestream process: SIGTERM, then SIGKILL after 5 s. */
async function halt(child: Subprocess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  const stopped = await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
  if (!stopped) {
    child.kill("SIGKILL");
    await child.exited;
  }
}

/** Keeps one Litestream process replicating this node's databases, restarted when its shops change. */
export class Replicator {
  private child: Subprocess<"ignore", "ignore", "pipe"> | null = null;
  private shops = "";
  private timer: Timer | null = null;
  /** A restart under way: the next look waits for it. */
  private restarting: Promise<void> | null = null;
  /** When the running Litestream was started (its configuration's age). */
  startedAt = 0;
  /** Where the running Litestream serves its metrics. */
  private metricsPort = 0;
  /** Each database's replica position when last read, and since when it has been there (or nothing waited). */
  private readonly shipped = new Map<string, { replicaAt: string; since: number }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly replica: ReplicaConfig,
  ) {}

  start(): void {
    if (stopLeftoverLitestream(this.ctx.config.dataDir)) {
      this.ctx.log.warn("stopped a Litestream left running by a previous server", {});
    }
    this.look();
    this.timer = setInterval(() => {
      this.look();
      // The lag is measured between reads: read on a clock when someone may scrape it.
      if (this.ctx.config.metricsToken) void this.positions();
    }, WATCH_MS);
    this.timer.unref?.();
  }

  private look(): void {
    if (this.restarting) return;
    const ids = organizationIds(this.ctx);
    const shops = ids.join(",");
    if (shops === this.shops && this.child?.exitCode === null) return;
    this.shops = shops;
    this.restarting = this.restart(ids).finally(() => {
      this.restarting = null;
    });
  }

  /**
   * Litestream again over the shops the control plane holds: the previous one stopped first (two
   * on one database would each ship its WAL), then the configuration written and the new one started.
   */
  private async restart(ids: string[]): Promise<void> {
    const { dataDir } = this.ctx.config;
    // Every listed file must exist: one erased meanwhile is left out until the next look.
    const present = ids.filter((id) => existsSync(join(dataDir, "tenants", `${id}.sqlite`)));
    const file = join(dataDir, "litestream.yml");
    if (this.child) await halt(this.child);
    mkdirSync(dataDir, { recursive: true });
    this.metricsPort = freePort();
    writeFileSync(file, litestreamConfig(dataDir, this.replica, present, this.metricsPort), { mode: 0o600 });
    const child = Bun.spawn([litestreamBinary(this.replica), "replicate", "-config", file], {
      env: childEnv(this.replica),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    this.child = child;
    writeFileSync(pidFileOf(dataDir), String(child.pid));
    void this.relayErrors(child);
    this.startedAt = Date.now();
    this.ctx.log.info("replication (re)started", { shops: present.length, replica: this.replica.url });
  }

  /** Litestream's errors (a store refusing, too many open files) go to the service's log. */
  private async relayErrors(child: Subprocess<"ignore", "ignore", "pipe">): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of child.stderr) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.includes("level=ERROR")) this.ctx.log.warn("litestream", { line });
    }
  }

  /**
   * Whether the replicas are current: Litestream runs, over every shop the control plane holds now
   * (a shop created in the last seconds is taken up at the next look).
   */
  status(): { running: boolean; current: boolean; shops: number; since: string | null } {
    const running = this.child !== null && this.child.exitCode === null && this.restarting === null;
    const current = running && organizationIds(this.ctx).join(",") === this.shops;
    const shops = this.shops === "" ? 0 : this.shops.split(",").length;
    return { running, current, shops, since: this.startedAt ? new Date(this.startedAt).toISOString() : null };
  }

  /**
   * Each database's replication position from Litestream's metrics: the bytes of its WAL copied
   * aside but not yet in the bucket (all of the copy when the bucket is a WAL file behind), its
   * failed syncs, and how long bytes have waited without the replica moving (`lagSeconds`: 0 when
   * none wait; otherwise since the replica's position last changed, or since bytes were first
   * seen waiting; read every WATCH_MS while METRICS_TOKEN is set). Empty while Litestream does not answer.
   */
  async positions(): Promise<ReplicationPosition[]> {
    if (!this.child || this.child.exitCode !== null) return [];
    let text: string;
    try {
      text = await (
        await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`, { signal: AbortSignal.timeout(2000) })
      ).text();
    } catch {
      return [];
    }
    const series = new Map<string, number>();
    for (const match of text.matchAll(/^(litestream_\w+)\{db="([^"]+)"[^}]*\} (\S+)$/gm)) {
      series.set(`${match[1]} ${match[2]}`, Number(match[3]));
    }
    const dbs = new Set([...series.keys()].map((key) => key.slice(key.indexOf(" ") + 1)));
    const now = Date.now();
    const read = [...dbs].map((db) => {
      const at = (name: string) => series.get(`${name} ${db}`) ?? 0;
      const sameFile = at("litestream_shadow_wal_index") === at("litestream_replica_wal_index");
      const shadow = at("litestream_shadow_wal_size");
      const shop = /tenants\/(org_[A-Za-z0-9]+)\.sqlite$/.exec(db)?.[1] ?? "platform";
      const behindBytes = Math.max(0, sameFile ? shadow - at("litestream_replica_wal_offset") : shadow);
      const replicaAt = `${at("litestream_replica_wal_index")}:${at("litestream_replica_wal_offset")}`;
      const seen = this.shipped.get(shop);
      if (behindBytes === 0 || seen?.replicaAt !== replicaAt)
        this.shipped.set(shop, { replicaAt, since: now });
      return {
        shop,
        behindBytes,
        syncErrors: at("litestream_sync_error_count"),
        lagSeconds: behindBytes === 0 ? 0 : (now - this.shipped.get(shop)!.since) / 1000,
      };
    });
    // A shop Litestream no longer streams (erased, moved away) is forgotten.
    const streamed = new Set(read.map((position) => position.shop));
    for (const shop of this.shipped.keys()) if (!streamed.has(shop)) this.shipped.delete(shop);
    return read;
  }

  /** Stops looking, and Litestream with it (killed if it has not exited 5 s after being asked). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const child = this.child;
    this.child = null;
    if (child) {
      void halt(child).then(() => rmSync(pidFileOf(this.ctx.config.dataDir), { force: true }));
    }
  }
}

/** Runs Litestream's restore of one database to `out`; throws with what it said when it fails. */
async function restoreDatabase(replica: ReplicaConfig, config: string, dbPath: string, out: string) {
  // A shop created just before the node was lost may have no replica yet: nothing to bring back.
  const args = ["restore", "-if-replica-exists", "-config", config, "-o", out, dbPath];
  const child = Bun.spawn([litestreamBinary(replica), ...args], {
    env: childEnv(replica),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  if (code !== 0)
    throw new ApiError("UNAVAILABLE", `litestream restore ${dbPath}: ${(stderr || stdout).trim()}`);
}

/** The first current lease of another node naming one of `orgIds`, if any. */
async function heldElsewhere(replica: ReplicaConfig, directory: DirectoryConfig, orgIds: string[]) {
  const wanted = new Set(orgIds);
  const now = Date.now();
  for (const lease of await readLeases(replica, directory.url)) {
    if (lease.node === directory.nodeId || !current(lease, now)) continue;
    const shops = lease.shops.filter((shop) => wanted.has(shop.orgId)).length;
    if (shops > 0) return { node: lease.node, url: lease.url, shops, until: lease.renewedAt + lease.leaseMs };
  }
  return undefined;
}

/**
 * A whole node back from the bucket alone, into a data directory that holds no organization: the
 * control plane first, then the file of every shop it names. Every write Litestream shipped is
 * there: all but the last sync interval's before the node was lost.
 */
export async function restoreFromReplica(
  config: Pick<Config, "dataDir" | "replica" | "directory">,
  options: { force?: boolean } = {},
) {
  const replica = config.replica;
  if (!replica) throw new ApiError("VALIDATION_ERROR", "REPLICA_URL is not set");
  const { dataDir } = config;
  if (existsSync(join(dataDir, "platform.sqlite")))
    throw new ApiError("CONFLICT", `${dataDir} already holds a control plane`);
  mkdirSync(join(dataDir, "tenants"), { recursive: true });
  const file = join(dataDir, "litestream-restore.yml");
  const platformPath = join(dataDir, "platform.sqlite");
  writeFileSync(file, litestreamConfig(dataDir, replica, []), { mode: 0o600 });
  await restoreDatabase(replica, file, platformPath, platformPath);
  const platform = new Database(platformPath, { readonly: true });
  let ids: string[];
  try {
    ids = (platform.query("SELECT id FROM organizations ORDER BY id").all() as { id: string }[]).map(
      (o) => o.id,
    );
  } finally {
    platform.close();
  }
  if (config.directory && !options.force) {
    const held = await heldElsewhere(replica, config.directory, ids);
    if (held) {
      // The DATA_DIR is left as it was found: empty.
      rmSync(file, { force: true });
      for (const name of readdirSync(dataDir)) {
        if (name.startsWith("platform.sqlite")) rmSync(join(dataDir, name), { force: true });
      }
      rmdirSync(join(dataDir, "tenants"));
      throw new ApiError(
        "CONFLICT",
        `node ${held.node} (${held.url}) still holds ${held.shops} of these shops: its lease runs until ${new Date(held.until).toISOString()}; stop it and restore after then, or pass --force if it is lost for good`,
      );
    }
  }
  writeFileSync(file, litestreamConfig(dataDir, replica, ids), { mode: 0o600 });
  const missing: string[] = [];
  for (const id of ids) {
    const path = join(dataDir, "tenants", `${id}.sqlite`);
    await restoreDatabase(replica, file, path, path);
    if (!existsSync(path)) missing.push(id);
  }
  // The control plane and the files were shipped at different moments: each shop's outbox and
  // payment deadlines are read again from its file on the first start.
  const restored = new Database(platformPath);
  try {
    markEveryOrganizationDue(restored);
    // This node takes them now: in the directory, its lease outranks the lost node's.
    const now = Date.now();
    restored.transaction(() => {
      for (const id of ids) takeShop(restored, id, now);
    })();
  } finally {
    restored.close();
  }
  return { dataDir, shops: ids.length - missing.length, missing };
}

/**
 * Deletes what the bucket holds of one shop (`<prefix>/tenants/<org id>/`, every generation): for
 * an erasure request, after the shop left what Litestream streams. Answers how many objects went.
 */
export async function eraseReplica(replica: ReplicaConfig, orgId: string): Promise<number> {
  const { client, prefix } = bucketClient(replica, replica.url);
  const shopPrefix = `${replicaPath(prefix, `tenants/${orgId}`)}/`;
  let deleted = 0;
  for (;;) {
    const page = await client.list({ prefix: shopPrefix, maxKeys: 1000 });
    const keys = (page.contents ?? []).map((object) => object.key);
    for (const key of keys) await client.delete(key);
    deleted += keys.length;
    if (keys.length === 0 || !page.isTruncated) return deleted;
  }
}

/**
 * `eraseReplica` twice: now, and once a running server's Litestream has let the shop go (it looks
 * every WATCH_MS, and may ship one last segment of the file it had open before it restarts).
 */
export async function eraseReplicaAfterLastSync(replica: ReplicaConfig, orgId: string): Promise<number> {
  const first = await eraseReplica(replica, orgId);
  await Bun.sleep(2 * WATCH_MS + replica.syncIntervalMs);
  return first + (await eraseReplica(replica, orgId));
}
