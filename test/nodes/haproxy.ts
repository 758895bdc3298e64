import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports.ts";

// HAProxy from Debian in front of nodes on this machine, routing by Host through a map file as
// `commerce proxy-config` writes it (docs/scaling.md, "Several nodes").

export interface Proxy {
  url: string;
  stop(): Promise<void>;
}

/** HAProxy on a free port: `backends` by name (a node's base URL each), routed by the map; `fallback` for hosts it lacks. */
export async function startHaproxy(
  mapFile: string,
  backends: Record<string, string>,
  fallback: string,
): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), "commerce-haproxy-"));
  const port = freePort();
  const config = [
    "global",
    "  maxconn 256",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 10s",
    "  timeout server 10s",
    "frontend shops",
    `  bind 127.0.0.1:${port}`,
    `  use_backend %[req.hdr(host),lower,field(1,:),map(${mapFile},${fallback})]`,
    ...Object.entries(backends).flatMap(([name, url]) => [
      `backend ${name}`,
      `  server ${name} ${new URL(url).host}`,
    ]),
  ].join("\n");
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, `${config}\n`);
  // Debian installs it in /usr/sbin, which a user's PATH may leave out.
  const binary = Bun.which("haproxy") ?? "/usr/sbin/haproxy";
  const child = Bun.spawn([binary, "-db", "-f", file], { stdout: "ignore", stderr: "pipe" });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 5000; waited += 50) {
    try {
      await fetch(url, { headers: { host: "probe.invalid" } });
      break;
    } catch {
      if (child.exitCode !== null)
        throw new Error(`haproxy exited: ${await new Response(child.stderr).text()}`);
      await Bun.sleep(50);
    }
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
