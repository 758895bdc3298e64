import { mkdtempSync, rmSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppContext } from "../app-context.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { listDomains } from "../auth/service.ts";
import { writeBodyTo } from "../core/body.ts";
import { ApiError } from "../core/errors.ts";
import type { RawRoute, Service } from "../core/module.ts";
import { jsonResponse } from "../core/respond.ts";
import { operatorRefusal } from "../system/metrics-route.ts";
import { directoryOf } from "./directory.ts";
import { eraseShop, exportShop, importShop } from "./shop-files.ts";

// Moving a shop between nodes (docs/scaling.md, "Several nodes"): the `/ops` routes a node answers
// the operator's `shop move` (NODE_TOKEN), and the forwarding of requests for a shop that left.
//
//   1. freeze on the source: its writes are refused (503, Retry-After) from now on;
//   2. export from the source: its file, consistent and final;
//   3. import on the target: the target serves it from now on;
//   4. `moved` on the source: it forwards the shop's requests to the target, and erases its copy.

/** The archive of a shop a node sends or takes, as bytes. */
const ARCHIVE_TYPE = "application/vnd.sqlite3";
/** A shop's file sent whole may be large: the import route's own body limit. */
const MAX_ARCHIVE_BYTES = 64 * 1024 ** 3;

const ok = (body: unknown, status = 200) => jsonResponse(status, body);

/** A scratch directory for one archive, removed afterwards. */
async function withScratch<T>(fn: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "commerce-move-"));
  try {
    return await fn(join(dir, "shop.sqlite"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How much of an archive is read at a time while it is sent. */
const ARCHIVE_CHUNK_BYTES = 1024 * 1024;

/**
 * An open file sent a chunk at a time, closed at its end or when the reader goes away: a shop's file
 * may be far larger than the server should hold in memory at once.
 */
function fileStream(handle: FileHandle): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      try {
        const chunk = new Uint8Array(ARCHIVE_CHUNK_BYTES);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead > 0) return controller.enqueue(chunk.subarray(0, bytesRead));
        await handle.close();
        controller.close();
      } catch (error) {
        await handle.close().catch(() => {});
        controller.error(error);
      }
    },
    cancel: () => handle.close(),
  });
}

/** What a moved shop's requests are known by here: its hosts and its API keys' hashes. */
function shopAddresses(ctx: AppContext, orgId: string) {
  const slug = (
    ctx.platform.sqlite.query("SELECT slug FROM organizations WHERE id = ?").get(orgId) as {
      slug: string;
    } | null
  )?.slug;
  if (!slug) throw new ApiError("NOT_FOUND", `organization ${orgId} not found`);
  const hosts = [
    ...listDomains(ctx.platform, orgId).map((d) => d.host),
    `${slug}.${ctx.config.platformDomain}`,
  ];
  const keys = (
    ctx.platform.sqlite.query("SELECT key_hash FROM api_keys WHERE organization_id = ?").all(orgId) as {
      key_hash: string;
    }[]
  ).map((k) => k.key_hash);
  return { hosts, keys };
}

/** Records that the shop's requests go to `toUrl` from now on (they are forwarded there). */
function recordGone(ctx: AppContext, orgId: string, toUrl: string) {
  const { hosts, keys } = shopAddresses(ctx, orgId);
  ctx.platform.sqlite
    .query(
      `INSERT INTO moved_shops (org_id, to_url, hosts, key_hashes, moved_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_id) DO UPDATE SET to_url = excluded.to_url, hosts = excluded.hosts,
         key_hashes = excluded.key_hashes, moved_at = excluded.moved_at`,
    )
    .run(orgId, toUrl, JSON.stringify(hosts), JSON.stringify(keys), Date.now());
  return hosts;
}

/** Records that the shop now lives at `toUrl`, erases it here, and lets its requests through again (forwarded). */
function markMoved(ctx: AppContext, orgId: string, toUrl: string) {
  const hosts = recordGone(ctx, orgId, toUrl);
  eraseShop(ctx, orgId);
  ctx.tenants.thaw(orgId);
  forwardsOf(ctx).reload();
  return { orgId, to: toUrl, hosts };
}

/**
 * A shop another node took later (the directory's leases): its file stays here, frozen, and its
 * requests go to that node, across restarts too (recorded as gone), until an operator erases it.
 */
export function yieldShop(ctx: AppContext, orgId: string, toUrl: string): void {
  ctx.tenants.freeze(orgId);
  recordGone(ctx, orgId, toUrl);
  forwardsOf(ctx).reload();
}

/** The shops of this node's files that went elsewhere without being erased (yielded). */
export const yieldedShops = (ctx: AppContext): string[] =>
  (
    ctx.platform.sqlite
      .query("SELECT m.org_id AS id FROM moved_shops m JOIN organizations o ON o.id = m.org_id")
      .all() as { id: string }[]
  ).map((row) => row.id);

/** Every host of every shop this node serves, for the proxy's map and `shop move`. */
function hostsHere(ctx: AppContext) {
  // A shop whose file stays here but whose requests go to another node (yielded) is not served here.
  const servedHere = "NOT IN (SELECT org_id FROM moved_shops)";
  const domains = ctx.platform.sqlite
    .query(
      `SELECT host, organization_id AS orgId FROM domains WHERE verified = 1 AND organization_id ${servedHere} ORDER BY host`,
    )
    .all() as { host: string; orgId: string }[];
  const slugs = ctx.platform.sqlite
    .query(`SELECT id AS orgId, slug FROM organizations WHERE id ${servedHere}`)
    .all() as { orgId: string; slug: string }[];
  return [
    ...domains,
    ...slugs.map((o) => ({ host: `${o.slug}.${ctx.config.platformDomain}`, orgId: o.orgId })),
  ];
}

/** What the operator reads of a node: its hosts, and a shop's file. */
function readingRoutes(ctx: AppContext): RawRoute[] {
  return [
    { method: "GET", path: "/ops/hosts", handle: () => ok({ hosts: hostsHere(ctx) }) },
    {
      method: "GET",
      path: "/ops/shops/:org/export",
      handle: async (_request, params) => {
        // Opened before its scratch directory is removed: the open file keeps its data until closed.
        const archive = await withScratch(async (file) => {
          await exportShop(ctx, params.org!, file);
          return open(file, "r");
        });
        return new Response(fileStream(archive), { headers: { "content-type": ARCHIVE_TYPE } });
      },
    },
  ];
}

/** The steps of a move a node takes part in: freeze and thaw, take a shop, let one go. */
function movingRoutes(ctx: AppContext): RawRoute[] {
  return [
    {
      method: "POST",
      path: "/ops/shops/:org/freeze",
      handle: (_request, params) => {
        shopAddresses(ctx, params.org!);
        ctx.tenants.freeze(params.org!);
        return ok({ orgId: params.org, frozen: true });
      },
    },
    {
      method: "POST",
      path: "/ops/shops/:org/thaw",
      handle: (_request, params) => {
        ctx.tenants.thaw(params.org!);
        return ok({ orgId: params.org, frozen: false });
      },
    },
    {
      method: "POST",
      path: "/ops/shops/import",
      bodyLimit: MAX_ARCHIVE_BYTES,
      handle: (request) =>
        withScratch(async (file) => {
          // Written as it arrives: a shop's file may be larger than is wise to hold in memory.
          await writeBodyTo(request, file, MAX_ARCHIVE_BYTES);
          const imported = await importShop(ctx, file, "the archive sent");
          // A shop coming back here is no longer forwarded away.
          ctx.platform.sqlite.query("DELETE FROM moved_shops WHERE org_id = ?").run(imported.orgId);
          forwardsOf(ctx).reload();
          await directoryOf(ctx)?.renewNow(); // the directory names this node as the shop's at once
          return ok(imported, 201);
        }),
    },
    {
      method: "POST",
      path: "/ops/shops/:org/moved",
      handle: async (request, params) => {
        const { to } = (await request.json().catch(() => ({}))) as { to?: unknown };
        if (typeof to !== "string" || !/^https?:\/\/[^/]+$/.test(to)) {
          return jsonResponse(400, {
            error: "to must be the other node's base URL",
            code: "VALIDATION_ERROR",
            status: 400,
          });
        }
        const moved = markMoved(ctx, params.org!, to);
        await directoryOf(ctx)?.renewNow();
        return ok(moved);
      },
    },
  ];
}

/** The `/ops` routes of a node, each behind NODE_TOKEN. */
export function opsRoutes(service: Service): RawRoute[] {
  const { ctx } = service;
  return [...readingRoutes(ctx), ...movingRoutes(ctx)].map((route) => ({
    ...route,
    handle: (request, params, requestId, client) =>
      operatorRefusal(ctx, request, "nodeToken") ?? route.handle(request, params, requestId, client),
  }));
}

// ---------------------------------------------------------------- forwarding

/** Where the shops that left this node went, by host and by API key hash (kept in memory, reloaded on change). */
class Forwards {
  private byHost = new Map<string, string>();
  private byKey = new Map<string, string>();

  constructor(private readonly ctx: AppContext) {
    this.reload();
  }

  reload(): void {
    const rows = this.ctx.platform.sqlite
      .query("SELECT to_url, hosts, key_hashes FROM moved_shops")
      .all() as {
      to_url: string;
      hosts: string;
      key_hashes: string;
    }[];
    this.byHost = new Map(rows.flatMap((r) => (JSON.parse(r.hosts) as string[]).map((h) => [h, r.to_url])));
    this.byKey = new Map(
      rows.flatMap((r) => (JSON.parse(r.key_hashes) as string[]).map((k) => [k, r.to_url])),
    );
  }

  /**
   * The node a request is for when its shop left this one, or (with a directory of nodes) is held
   * by another; else undefined (a map lookup or two).
   */
  destination(request: Request): string | undefined {
    const directory = directoryOf(this.ctx);
    if (this.byHost.size === 0 && !directory) return undefined;
    const host = (request.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
    let hash: string | undefined | null = null;
    const keyHash = () => {
      if (hash === null) {
        const key = request.headers.get("x-api-key");
        hash = key ? sha256Hex(key) : undefined;
      }
      return hash;
    };
    // The directory's current leases know better than a tombstone where a shop that left is now.
    return (
      directory?.destination(host, keyHash) ??
      this.byHost.get(host) ??
      (this.byKey.size > 0 ? this.byKey.get(keyHash() ?? "") : undefined)
    );
  }
}

const forwards = new WeakMap<AppContext, Forwards>();

function forwardsOf(ctx: AppContext): Forwards {
  let kept = forwards.get(ctx);
  if (!kept) {
    kept = new Forwards(ctx);
    forwards.set(ctx, kept);
  }
  return kept;
}

/**
 * The answer of the node that holds the shop now, when the request's shop left this node; null
 * otherwise (decided without awaiting: most requests are for shops this node holds). The request
 * goes on as it came (method, headers with its Host, body), and the answer comes back as given.
 */
export function forwarded(ctx: AppContext, request: Request): Promise<Response> | null {
  const to = forwardsOf(ctx).destination(request);
  if (!to) return null;
  // A request passed on MAX_HOPS times is answered where it is: two nodes that each believe the
  // other holds a shop (for the moment a lease takes to be read) pass it back and forth no longer.
  const passedBy = request.headers.get(FORWARDED_HEADER)?.split(",") ?? [];
  if (passedBy.length >= MAX_HOPS) return null;
  return forward(request, to, [...passedBy, ctx.config.directory?.nodeId ?? "node"].join(","));
}

/** Set on a request one node passes to another: the nodes that passed it on, in order. */
const FORWARDED_HEADER = "x-commerce-forwarded-by";
/** A shop that moved twice is reached through its first node's tombstone, then its second's. */
const MAX_HOPS = 3;

async function forward(request: Request, to: string, passedBy: string): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.set(FORWARDED_HEADER, passedBy);
  const body =
    request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  // The answer's bytes pass through as the other node encoded them (its Content-Encoding kept).
  let answer: Response;
  try {
    answer = await fetch(`${to}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body,
      redirect: "manual",
      decompress: false,
    });
  } catch {
    throw new ApiError(
      "UNAVAILABLE",
      "The node that holds this shop does not answer: try again in a moment",
      undefined,
      {
        "retry-after": "2",
      },
    );
  }
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
