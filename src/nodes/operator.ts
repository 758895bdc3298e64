import { writeFileSync } from "node:fs";
import { ApiError } from "../core/errors.ts";
import type { ReplicaConfig } from "./bucket.ts";
import { current, holders, readLeases } from "./directory.ts";

// The operator's side of several nodes (docs/scaling.md, "Several nodes"): `shop move` drives the
// `/ops` routes of two nodes, and `proxy-config` writes the proxy's routing map from what each node
// holds. Both speak to the nodes over HTTP with NODE_TOKEN.

async function ops(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: ReadableStream<Uint8Array> | string,
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body instanceof ReadableStream ? { "content-type": "application/vnd.sqlite3" } : {}),
    },
    body,
    // A stream is sent as it is read (the archive passes through, never held here whole).
    duplex: "half",
  });
  if (!response.ok) {
    throw new ApiError(
      "UNAVAILABLE",
      `${method} ${base}${path}: ${response.status} ${await response.text()}`,
    );
  }
  return response;
}

/** Whether a node holds the shop (its file and control-plane rows), from its hosts. */
async function holds(node: string, token: string, orgId: string): Promise<boolean> {
  const { hosts } = (await (await ops(node, token, "GET", "/ops/hosts")).json()) as {
    hosts: { orgId: string }[];
  };
  return hosts.some((host) => host.orgId === orgId);
}

/**
 * Moves a shop from one node to another: its writes refused on the source (503 with Retry-After)
 * only from the freeze until the target holds it; answers how long that was. Should a step fail
 * before the target took the shop, the source is let go again and keeps serving it. Run again
 * after it stopped midway, it finishes the move: a target that already took the shop is not sent
 * it again, and the source is only told it moved (letting the source go then would leave two
 * nodes writing the shop).
 */
export async function moveShop(orgId: string, from: string, to: string, token: string) {
  await ops(from, token, "POST", `/ops/shops/${orgId}/freeze`);
  const frozenAt = performance.now();
  let imported = false;
  try {
    imported = await holds(to, token, orgId);
    if (!imported) {
      const archive = (await ops(from, token, "GET", `/ops/shops/${orgId}/export`)).body;
      if (!archive) throw new ApiError("UNAVAILABLE", `GET ${from}/ops/shops/${orgId}/export: no body`);
      await ops(to, token, "POST", "/ops/shops/import", archive);
      imported = true;
    }
    await ops(from, token, "POST", `/ops/shops/${orgId}/moved`, JSON.stringify({ to }));
  } catch (error) {
    if (!imported) await ops(from, token, "POST", `/ops/shops/${orgId}/thaw`).catch(() => {});
    throw error;
  }
  return { orgId, from, to, writesRefusedMs: Math.round(performance.now() - frozenAt) };
}

/**
 * The proxy's map from each node's hosts: HAProxy's `map` file format (`<host> <backend>` a line),
 * the backend being the node's name; a haproxy.cfg routes with
 * `use_backend %[req.hdr(host),lower,field(1,:),map(/etc/haproxy/shops.map)]`.
 */
export async function proxyConfig(nodes: { name: string; url: string }[], token: string, out: string) {
  const lines: string[] = [];
  for (const node of nodes) {
    const { hosts } = (await (await ops(node.url, token, "GET", "/ops/hosts")).json()) as {
      hosts: { host: string }[];
    };
    for (const { host } of hosts) lines.push(`${host} ${node.name}`);
  }
  return writeMap(out, lines);
}

/**
 * The same map from the directory: every host each node's current lease names, the backend being
 * the node's id (`NODE_ID`); of two leases naming a shop, the later taker's (as the nodes decide).
 */
export async function proxyConfigFromDirectory(replica: ReplicaConfig, url: string, out: string) {
  const now = Date.now();
  const leases = (await readLeases(replica, url)).filter((lease) => current(lease, now));
  const lines = [...holders(leases).values()].flatMap(({ node, hosts }) =>
    hosts.map((host) => `${host} ${node}`),
  );
  return { ...writeMap(out, lines), nodes: leases.length };
}

function writeMap(out: string, lines: string[]) {
  writeFileSync(out, `${lines.sort().join("\n")}\n`);
  return { file: out, hosts: lines.length };
}
