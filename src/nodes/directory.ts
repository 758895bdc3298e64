import type { AppContext } from "../app-context.ts";
import type { Config } from "../config.ts";
import { bucketClient, type ReplicaConfig } from "./bucket.ts";

// The directory of which node holds which shop (docs/scaling.md, "The directory and leases"). Each
// node writes its lease, `<prefix>/nodes/<node id>.json` in the bucket every node shares, every
// third of LEASE_MS: the shops it holds, with their hosts and API keys' hashes. Nothing else is
// written there, so no two nodes ever write one object. A node writes its shops only while its own
// lease is current: one that cannot renew it stops writing before its lease lapses, so another
// node may take its shops once the lease is over. Of two current leases naming one shop, the node
// that took it later holds it; the other stops writing it and sends its requests there.

export type DirectoryConfig = NonNullable<Config["directory"]>;

/** A shop as a lease names it. */
export interface LeasedShop {
  orgId: string;
  /** When the node took it (created, imported, restored): the later taker holds it. */
  takenAt: number;
  hosts: string[];
  keyHashes: string[];
}

/** One node's lease, as it wrote it. */
export interface Lease {
  node: string;
  url: string;
  /** When the node began the renewal that wrote it (its writes are allowed until `renewedAt + leaseMs`). */
  renewedAt: number;
  leaseMs: number;
  shops: LeasedShop[];
}

/** Whether a lease still holds at `now`. */
export const current = (lease: Lease, now: number) => lease.renewedAt + lease.leaseMs > now;

/** Whether a claim on a shop outranks another: taken later, or at the same moment by a greater node id. */
const outranks = (a: { takenAt: number; node: string }, b: { takenAt: number; node: string }) =>
  a.takenAt > b.takenAt || (a.takenAt === b.takenAt && a.node > b.node);

/** A shop as the lease that holds it names it, with that lease's node. */
export type HeldShop = LeasedShop & { node: string; url: string };

/** The holder of each shop `leases` name: of several, the one that outranks the others. */
export function holders(leases: readonly Lease[]): Map<string, HeldShop> {
  const held = new Map<string, HeldShop>();
  for (const lease of leases) {
    for (const shop of lease.shops) {
      const claim = { ...shop, node: lease.node, url: lease.url };
      const other = held.get(shop.orgId);
      if (!other || outranks(claim, other)) held.set(shop.orgId, claim);
    }
  }
  return held;
}

const leasesPrefix = (prefix: string) => (prefix ? `${prefix}/nodes/` : "nodes/");

/** The directory's bucket (`DIRECTORY_URL`): its client and the prefix the leases are under. */
type DirectoryBucket = ReturnType<typeof bucketClient>;

/** Every lease the directory holds, current or not (one being rewritten at that moment is skipped). */
export const readLeases = (replica: ReplicaConfig, url: string): Promise<Lease[]> =>
  leasesIn(bucketClient(replica, url));

async function leasesIn({ client, prefix }: DirectoryBucket): Promise<Lease[]> {
  const leases: Lease[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await client.list({ prefix: leasesPrefix(prefix), maxKeys: 1000, continuationToken });
    for (const { key } of page.contents ?? []) {
      if (!key.endsWith(".json")) continue;
      try {
        leases.push((await client.file(key).json()) as Lease);
      } catch {
        // Gone or half-written between the listing and the read: the next renewal reads it again.
      }
    }
    continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (continuationToken);
  return leases;
}

/** The shops this node's files hold, as its lease names them (not those it yielded). */
function shopsHere(ctx: AppContext): LeasedShop[] {
  const sqlite = ctx.platform.sqlite;
  const shops = new Map<string, LeasedShop>();
  const orgs = sqlite
    .query(
      `SELECT o.id, o.slug, COALESCE(h.taken_at, o.created_at) AS takenAt
         FROM organizations o LEFT JOIN held_shops h ON h.org_id = o.id
        WHERE o.id NOT IN (SELECT org_id FROM moved_shops)`,
    )
    .all() as { id: string; slug: string; takenAt: number }[];
  for (const org of orgs) {
    shops.set(org.id, {
      orgId: org.id,
      takenAt: org.takenAt,
      hosts: [`${org.slug}.${ctx.config.platformDomain}`],
      keyHashes: [],
    });
  }
  const domains = sqlite.query("SELECT host, organization_id AS orgId FROM domains WHERE verified = 1").all();
  for (const { host, orgId } of domains as { host: string; orgId: string }[])
    shops.get(orgId)?.hosts.push(host);
  const keys = sqlite.query("SELECT key_hash AS hash, organization_id AS orgId FROM api_keys").all();
  for (const { hash, orgId } of keys as { hash: string; orgId: string }[])
    shops.get(orgId)?.keyHashes.push(hash);
  return [...shops.values()];
}

/** This node in the directory: its lease, kept renewed, and where the shops it does not hold are. */
export class NodeDirectory {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** When the last renewal that succeeded began; 0: none yet (no write is allowed before the first). */
  private renewedAt = 0;
  private renewing: Promise<void> | undefined;
  /** The renewal asked for while one was under way, run once that one ends. */
  private renewingAgain: Promise<void> | undefined;
  private failure: string | undefined;
  private held = 0;
  /** The node of every shop another node's current lease names, by host and by API key hash. */
  private byHost = new Map<string, string>();
  private byKey = new Map<string, string>();
  private readonly bucket: DirectoryBucket;

  /**
   * `yieldShop`: stops this node writing a shop of its files and sends its requests to `url` from
   * now on, across restarts (the nodes module records it, and the shop is no longer among this
   * node's: `shopsHere` leaves it out).
   */
  constructor(
    private readonly ctx: AppContext,
    replica: ReplicaConfig,
    private readonly config: DirectoryConfig,
    private readonly yieldShop: (orgId: string, url: string) => void,
  ) {
    this.bucket = bucketClient(replica, config.url);
  }

  start(): void {
    this.ctx.tenants.writable = () => this.holdsLease();
    void this.renewNow();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Whether this node's lease is current: it may write its shops. */
  holdsLease(now = Date.now()): boolean {
    return now - this.renewedAt < this.config.leaseMs;
  }

  /**
   * Renews the lease now (after a shop came or went). A renewal under way may have read this node's
   * shops before the change, so one more follows it (one for every caller that came meanwhile).
   */
  renewNow(): Promise<void> {
    if (!this.renewing) {
      this.renewing = this.renew().finally(() => {
        this.renewing = undefined;
      });
      return this.renewing;
    }
    this.renewingAgain ??= this.renewing.then(() => {
      this.renewingAgain = undefined;
      return this.renewNow();
    });
    return this.renewingAgain;
  }

  /** The node that holds a shop this one does not, by the request's host or API key hash. */
  destination(host: string, keyHash: () => string | undefined): string | undefined {
    if (this.byHost.size === 0) return undefined;
    const byHost = this.byHost.get(host);
    if (byHost) return byHost;
    const hash = this.byKey.size > 0 ? keyHash() : undefined;
    return hash ? this.byKey.get(hash) : undefined;
  }

  /** What `/ready` says of the lease. */
  status() {
    return {
      configured: true,
      node: this.config.nodeId,
      holdsLease: this.holdsLease(),
      renewedAt: this.renewedAt === 0 ? null : new Date(this.renewedAt).toISOString(),
      shops: this.held,
      ...(this.failure ? { error: this.failure } : {}),
    };
  }

  private async renew(): Promise<void> {
    clearTimeout(this.timer);
    const began = Date.now();
    try {
      const others = (await leasesIn(this.bucket)).filter(
        (lease) => lease.node !== this.config.nodeId && current(lease, Date.now()),
      );
      const claims = holders(others);
      const here = shopsHere(this.ctx);
      const yielded = this.yieldOutranked(here, claims);
      const held = here.filter((shop) => !yielded.has(shop.orgId));
      const lease: Lease = {
        node: this.config.nodeId,
        url: this.config.nodeUrl,
        renewedAt: began,
        leaseMs: this.config.leaseMs,
        shops: held,
      };
      const { client, prefix } = this.bucket;
      await client.write(`${leasesPrefix(prefix)}${this.config.nodeId}.json`, JSON.stringify(lease), {
        type: "application/json",
      });
      this.renewedAt = began;
      this.held = held.length;
      this.route(claims, new Set(held.map((shop) => shop.orgId)));
      if (this.failure) this.ctx.log.info("directory lease renewed again", { node: this.config.nodeId });
      this.failure = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!this.failure) this.ctx.log.warn("directory lease not renewed", { error: message });
      this.failure = message;
    } finally {
      if (!this.stopped) {
        // Every third of the lease from the start of this renewal, however long it took.
        const next = began + Math.floor(this.config.leaseMs / 3) - Date.now();
        this.timer = setTimeout(() => void this.renewNow(), Math.max(0, next));
        this.timer.unref?.();
      }
    }
  }

  /**
   * A shop of this node's files that another current lease names as taken later is that node's now;
   * answers the shops given up by this renewal.
   */
  private yieldOutranked(here: LeasedShop[], claims: Map<string, HeldShop>): Set<string> {
    const yielded = new Set<string>();
    for (const shop of here) {
      const theirs = claims.get(shop.orgId);
      if (!theirs || !outranks(theirs, { takenAt: shop.takenAt, node: this.config.nodeId })) continue;
      yielded.add(shop.orgId);
      this.yieldShop(shop.orgId, theirs.url);
      this.ctx.log.warn("shop held by another node: writes stopped here, requests sent there", {
        org: shop.orgId,
        node: theirs.node,
      });
    }
    return yielded;
  }

  /** Where each shop another node holds is (`claims`: of two leases naming one, the holder's). */
  private route(claims: Map<string, HeldShop>, heldHere: Set<string>): void {
    const byHost = new Map<string, string>();
    const byKey = new Map<string, string>();
    for (const shop of claims.values()) {
      if (heldHere.has(shop.orgId)) continue;
      for (const host of shop.hosts) byHost.set(host, shop.url);
      for (const hash of shop.keyHashes) byKey.set(hash, shop.url);
    }
    this.byHost = byHost;
    this.byKey = byKey;
  }
}

const directories = new WeakMap<AppContext, NodeDirectory>();

/** The directory of a started service, when DIRECTORY_URL is set. */
export const directoryOf = (ctx: AppContext): NodeDirectory | undefined => directories.get(ctx);

/** Starts this node's part in the directory (its lease and routes); undefined without DIRECTORY_URL. */
export function startDirectory(
  ctx: AppContext,
  yieldShop: (orgId: string, url: string) => void,
): NodeDirectory | undefined {
  const { replica, directory } = ctx.config;
  if (!replica || !directory) return undefined;
  const started = new NodeDirectory(ctx, replica, directory, yieldShop);
  directories.set(ctx, started);
  started.start();
  return started;
}

export function stopDirectory(ctx: AppContext): void {
  directories.get(ctx)?.stop();
  directories.delete(ctx);
}
